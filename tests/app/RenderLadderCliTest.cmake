# decay_ladder end to end: four sims from the scenario's [sim.c] and [sim.d] tables, one capture
# pass and one accumulate pass per step shared by all four (an output per sim), a buffer per sim,
# and a 2 x 2 final.png.
file(REMOVE_RECURSE ${OUT})
execute_process(
    COMMAND ${SNOWCAP} --quiet render --scenario decay_ladder --frames 30 --no-progress
            --set snow.resolution=128 --set view.width=320 --set view.height=180 --out ${OUT}
    RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "snowcap render exited with ${result}")
endif()
foreach(name stats.json sim_a.pfm sim_b.pfm sim_c.pfm sim_d.pfm buffers.png final.png)
    if(NOT EXISTS ${OUT}/${name})
        message(FATAL_ERROR "snowcap render did not write ${name}")
    endif()
endforeach()
file(READ ${OUT}/stats.json stats)
string(JSON captures GET "${stats}" passes_run capture)
string(JSON accumulates GET "${stats}" passes_run accumulate)
string(JSON outputs GET "${stats}" passes_run accumulate_outputs)
string(JSON sims LENGTH "${stats}" sims)
string(JSON decay GET "${stats}" sims d params decay)
if(NOT sims EQUAL 4 OR NOT captures EQUAL 30 OR NOT accumulates EQUAL 30 OR NOT outputs EQUAL 120)
    message(FATAL_ERROR "stats.json: ${sims} sims, ${captures} captures, ${accumulates} "
                        "accumulates writing ${outputs} outputs; expected 4, 30 (one shared), "
                        "30 (one shared) and 120")
endif()
if(NOT decay STREQUAL "0.999")
    message(FATAL_ERROR "stats.json: sim d's decay is ${decay}, expected 0.999")
endif()
