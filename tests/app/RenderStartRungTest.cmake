# render on a CPU rasteriser starts on the viewer's rung (snow.quality = low) and says so in one
# line; --set snow.quality=custom keeps the scenario's own settings and says nothing. boot_prints
# (1024^2) goes down to the rung's 512^2; press_release (64^2) is never raised to it. On a GPU the
# rung never changes: the test checks that instead.
file(REMOVE_RECURSE ${OUT})
foreach(run start custom small)
    set(extra)
    set(scenario boot_prints)
    if(run STREQUAL custom)
        set(extra --set snow.quality=custom)
    elseif(run STREQUAL small)
        set(scenario press_release)
    endif()
    execute_process(
        COMMAND ${SNOWCAP} render --scenario ${scenario} --frames 2 --no-progress
                --out ${OUT}/${run} ${extra}
        RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "render (${run}) exited with ${result}: ${err}")
    endif()
    file(READ ${OUT}/${run}/stats.json stats)
    string(JSON renderer GET "${stats}" gl renderer)
    string(JSON resolution GET "${stats}" capture_list 0 resolution)
    string(JSON quality GET "${stats}" params snow quality)
    string(REGEX MATCHALL "llvmpipe: snow.quality = low" said "${out}${err}")
    list(LENGTH said lines)
    if(run STREQUAL small)
        set(want 64 custom 0)
    elseif(renderer MATCHES "llvmpipe" AND run STREQUAL start)
        set(want 512 low 1)
    else()
        set(want 1024 custom 0)
    endif()
    if(NOT "${resolution};${quality};${lines}" STREQUAL "${want}")
        message(FATAL_ERROR "render ${scenario} (${run}) on ${renderer}: ${resolution}^2, "
                            "quality ${quality}, ${lines} rung lines; expected ${want}")
    endif()
endforeach()
