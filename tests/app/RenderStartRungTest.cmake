# render on a CPU rasteriser starts on the viewer's rung (snow.quality = low) and says so in one
# line; --set snow.quality=custom keeps the scenario's own settings and says nothing. boot_prints
# (1024^2) goes down to the rung's 512^2; press_release (64^2) is never raised to it. On a GPU the
# rung never changes: the test checks that instead. Then every *_compare scenario, on whatever
# rung render picks: its sims still differ in its switch (blur_compare keeps its own settings).
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
    string(REGEX MATCHALL "llvmpipe: snow.quality = low \\(" said "${out}${err}")
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

foreach(pair blur_compare:blur format_compare:format normals_compare:normals rims_compare:rims
             refill_compare:refill accumulate_compare:accumulate follow_compare:region
             snowpack_compare:model decay_compare:decay)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 scenario)
    list(GET pair 1 key)
    execute_process(
        COMMAND ${SNOWCAP} render --scenario ${scenario} --frames 2 --no-progress --size 128 72
                --out ${OUT}/${scenario}
        RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "render ${scenario} exited with ${result}: ${err}")
    endif()
    file(READ ${OUT}/${scenario}/stats.json stats)
    string(JSON a GET "${stats}" sims a params ${key})
    string(JSON b GET "${stats}" sims b params ${key})
    if(a STREQUAL b)
        message(FATAL_ERROR "render ${scenario}: A and B both run ${key} = ${a}; the comparison "
                            "is void:\n${out}${err}")
    endif()
    # The closing figure lines: one per sim, with the time and by how much.
    set(figure "half-life")
    if(scenario STREQUAL snowpack_compare)
        set(figure "mean depth [0-9.]+ cm, mass")
    endif()
    if(NOT "${out}${err}" MATCHES "A: [^\n]*t = [0-9.]+ s: half-life" OR
       NOT "${out}${err}" MATCHES "B: [^\n]*t = [0-9.]+ s: ${figure}")
        message(FATAL_ERROR "render ${scenario}: no figure line per sim:\n${out}${err}")
    endif()
    if(scenario STREQUAL blur_compare AND renderer MATCHES "llvmpipe" AND
       NOT "${out}${err}" MATCHES "llvmpipe: the scenario's own settings.*differ in blur")
        message(FATAL_ERROR "render blur_compare kept its own settings without saying why:\n"
                            "${out}${err}")
    endif()
endforeach()
