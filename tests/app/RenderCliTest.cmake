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
