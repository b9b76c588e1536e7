# `snowcap sweep` end to end on press_release (64², 90 steps): the sweep's CSV equals what
# `render` reports for the same settings, whichever field and slot a combination ran in (nine
# values: eight share the first field, combination 8 runs in a second, in the lab the first
# left when one process runs both), with one process and with two workers alike; the sheet
# holds rows x columns tiles; a bad --vary exits 2 before anything runs.
file(REMOVE_RECURSE ${OUT})
set(common --quiet)
set(sets --set view.width=128 --set view.height=72)

foreach(decay 0.99 0.9 0.97)
    execute_process(
        COMMAND ${SNOWCAP} ${common} render --scenario press_release --frames 90 --no-progress
                ${sets} --set sim.b.decay=${decay} --out ${OUT}/render_${decay}
        RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "snowcap render (decay ${decay}) exited with ${result}")
    endif()
endforeach()

foreach(jobs 1 2)
    execute_process(
        COMMAND ${SNOWCAP} ${common} sweep --scenario press_release ${sets}
                --vary sim.b.decay=0.95,0.99,0.9,0.91,0.92,0.93,0.94,0.96,0.97 --at 0.5,1.5 --tile 64x48 --jobs ${jobs}
                --no-progress --out ${OUT}/sweep_${jobs}
        RESULT_VARIABLE result ERROR_VARIABLE errors)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "snowcap sweep --jobs ${jobs} exited with ${result}: ${errors}")
    endif()
    execute_process(
        COMMAND ${CHECK} ${OUT}/sweep_${jobs} 64 48 b ${OUT}/render_0.99 1 ${OUT}/render_0.9 2
                ${OUT}/render_0.97 8
        RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "sweep --jobs ${jobs} differs from render (above)")
    endif()
    foreach(name sheet.png sweep.json plots/to50_s_vs_sim.b.decay.png
                 plots/probe_centre_vs_sim.b.decay.png)
        if(NOT EXISTS ${OUT}/sweep_${jobs}/${name})
            message(FATAL_ERROR "snowcap sweep --jobs ${jobs} did not write ${name}")
        endif()
    endforeach()
    if(EXISTS ${OUT}/sweep_${jobs}/.sweep_work)
        message(FATAL_ERROR "snowcap sweep --jobs ${jobs} left its work directory behind")
    endif()
endforeach()

# Bad --vary: the config's one-line message naming the key, exit 2, and no output at all.
foreach(bad "sim.b.decay=0.9,1.5" "sim.b.decay=0.9,fast" "sim.b.no_such_key=1"
            "sim.b.format=r8" "sim.b.decay")
    execute_process(
        COMMAND ${SNOWCAP} sweep --scenario press_release --vary ${bad} --at 1
                --out ${OUT}/bad
        RESULT_VARIABLE result ERROR_VARIABLE errors)
    string(REGEX MATCHALL "\n" lines "${errors}")
    list(LENGTH lines count)
    if(NOT result EQUAL 2 OR NOT errors MATCHES "sim.b" OR NOT count EQUAL 1)
        message(FATAL_ERROR "--vary ${bad}: expected exit 2 and one line naming the key; got "
                            "${result}: ${errors}")
    endif()
    if(EXISTS ${OUT}/bad)
        message(FATAL_ERROR "--vary ${bad}: something ran (${OUT}/bad exists)")
    endif()
endforeach()

# A scene key (not one sim's): a field per combination, the second in the lab the first left
# (deformers rebuilt, regions and clocks back to the start); sim a is measured by default.
execute_process(
    COMMAND ${SNOWCAP} ${common} render --scenario press_release --frames 90 --no-progress
            ${sets} --set capture.offset_cm=140 --out ${OUT}/render_offset
    RESULT_VARIABLE result)
execute_process(
    COMMAND ${SNOWCAP} ${common} sweep --scenario press_release ${sets}
            --vary capture.offset_cm=150,140 --at 0.5,1.5 --tile 64x48 --no-progress
            --out ${OUT}/sweep_scene
    RESULT_VARIABLE result2)
if(NOT result EQUAL 0 OR NOT result2 EQUAL 0)
    message(FATAL_ERROR "render or sweep over capture.offset_cm failed: ${result}, ${result2}")
endif()
execute_process(COMMAND ${CHECK} ${OUT}/sweep_scene 64 48 a ${OUT}/render_offset 1
    RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "sweep over capture.offset_cm differs from render (above)")
endif()
