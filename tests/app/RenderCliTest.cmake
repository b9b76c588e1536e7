# End to end: `snowcap render` on a short press_release run writes every promised output.
file(REMOVE_RECURSE ${OUT})
execute_process(
    COMMAND ${SNOWCAP} --quiet render --scenario press_release --frames 90 --no-progress
            --set run.fps=60 --out ${OUT}
    RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "snowcap render exited with ${result}")
endif()
foreach(name stats.json sim_a.pfm sim_b.pfm capture_depth.pfm sim_a.exr sim_b.exr
        capture_depth.exr final.png)
    if(NOT EXISTS ${OUT}/${name})
        message(FATAL_ERROR "snowcap render did not write ${name}")
    endif()
endforeach()
file(READ ${OUT}/stats.json stats)
string(JSON frames GET "${stats}" frames)
string(JSON captures GET "${stats}" passes_run capture)
string(JSON probe GET "${stats}" sims b probes 0 values 89)
if(NOT frames EQUAL 90 OR NOT captures EQUAL 90)
    message(FATAL_ERROR "stats.json: frames ${frames}, captures ${captures}; expected 90 and 90")
endif()
# 0.5 s after the release the probe is 0.999^30 = 0.970 of the full print.
if(probe LESS 0.95 OR probe GREATER 0.99)
    message(FATAL_ERROR "stats.json: probe after 1.5 s is ${probe}, expected about 0.970")
endif()

# Bad input: one line, exit code 2.
execute_process(
    COMMAND ${SNOWCAP} render --scenario press_release --set sim.a.decay=2 --out ${OUT}/bad
    RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 2 OR NOT errors MATCHES "sim.a.decay")
    message(FATAL_ERROR "a bad --set should fail with exit 2 naming the key; got ${result}: ${errors}")
endif()

# run.final_at_s: final.png shows that moment, said in one line, and is the very picture a run
# ending there draws; every other output is still of the end (stats.json's 90 frames).
execute_process(
    COMMAND ${SNOWCAP} render --scenario press_release --frames 90 --no-progress
            --set run.fps=60 --set run.final_at_s=0.5 --set view.width=256
            --set view.height=144 --out ${OUT}/telling
    RESULT_VARIABLE result ERROR_VARIABLE err)
execute_process(
    COMMAND ${SNOWCAP} --quiet render --scenario press_release --frames 30 --no-progress
            --set run.fps=60 --set run.final_at_s=0 --set view.width=256 --set view.height=144
            --out ${OUT}/ends_there
    RESULT_VARIABLE ended)
if(NOT result EQUAL 0 OR NOT ended EQUAL 0
   OR NOT err MATCHES "final.png: t = 0.50 s \\(run.final_at_s\\), not the end \\(1.50 s\\)")
    message(FATAL_ERROR "render with run.final_at_s=0.5: exit ${result} / ${ended}: ${err}")
endif()
file(SHA256 ${OUT}/telling/final.png telling)
file(SHA256 ${OUT}/ends_there/final.png ends_there)
file(READ ${OUT}/telling/stats.json stats)
string(JSON frames GET "${stats}" frames)
if(NOT telling STREQUAL ends_there OR NOT frames EQUAL 90)
    message(FATAL_ERROR "final.png at run.final_at_s = 0.5 is not the picture of a run ending at "
                        "0.5 s, or stats.json's frames (${frames}) are not the run's 90")
endif()
