# Record and replay (docs/network.md): render --record-inputs writes the run's input stream and
# snowcap replay reproduces its buffers byte for byte; a damaged record is one line naming the
# file, exit 2, and runs nothing. With decay_compare the skinned walker's joint palettes travel too.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(common --scenario ${SCENARIO} --frames 30 --no-progress --set snow.resolution=64
    --set view.width=64 --set view.height=32)
execute_process(COMMAND ${SNOWCAP} --quiet render ${common} --out ${OUT}/run
    --record-inputs ${OUT}/run.inputs RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/run.inputs)
    message(FATAL_ERROR "render --record-inputs failed (${result}): ${errors}")
endif()
execute_process(COMMAND ${SNOWCAP} replay ${OUT}/run.inputs --out ${OUT}/replay
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "replay failed (${result}): ${output}${errors}")
endif()
foreach(buffer sim_a.pfm sim_b.pfm)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/run/${buffer}
        ${OUT}/replay/${buffer} RESULT_VARIABLE differs)
    if(differs)
        message(FATAL_ERROR "replay: ${buffer} differs from the recorded run's")
    endif()
endforeach()
file(READ ${OUT}/replay/stats.json stats)
string(JSON divergent GET "${stats}" net divergent_tiles)
string(JSON checked GET "${stats}" net checked_tiles)
if(NOT divergent EQUAL 0 OR checked LESS 1)
    message(FATAL_ERROR "replay: ${divergent} of ${checked} checked tiles diverged")
endif()

# A record cut short: one line naming it, exit 2, no outputs.
execute_process(COMMAND head -c 200 ${OUT}/run.inputs OUTPUT_FILE ${OUT}/cut.inputs)
execute_process(COMMAND ${SNOWCAP} replay ${OUT}/cut.inputs --out ${OUT}/cut
    RESULT_VARIABLE result ERROR_VARIABLE errors)
string(REGEX MATCHALL "\n" lines "${errors}")
list(LENGTH lines count)
if(NOT result EQUAL 2 OR NOT count EQUAL 1 OR NOT errors MATCHES "cut.inputs: byte [0-9]+")
    message(FATAL_ERROR "a cut record: expected one line naming it and exit 2, got ${result}: ${errors}")
endif()
if(EXISTS ${OUT}/cut/stats.json)
    message(FATAL_ERROR "a cut record still wrote outputs")
endif()
