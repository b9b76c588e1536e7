# `snowcap render --ui --panels snowpack` on snowpack_compare: final.png is the viewer's frame
# with the Snowpack panel drawn (viewer_screenshot_check: not blank, the UI there), and
# stats.json holds the budget the panel shows (sims.b.snowpack, closing to within 1e-5).
# -DSNOWCAP=... -DCHECK=... -DOUT=...
file(REMOVE_RECURSE ${OUT})
execute_process(
    COMMAND ${SNOWCAP} render --scenario snowpack_compare --frames 20 --ui --panels snowpack
            --no-progress --set view.width=800 --set view.height=450
            --set snow.resolution=128 --out ${OUT}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "snowcap render --ui --panels snowpack exited with ${rc}: ${err}")
endif()
execute_process(COMMAND ${CHECK} --no-ab ${OUT}/final.png RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("final.png: ${out}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "final.png does not show the viewer's UI")
endif()
file(READ ${OUT}/stats.json stats)
string(JSON error ERROR_VARIABLE missing GET "${stats}" sims b snowpack mass_error)
if(missing)
    message(FATAL_ERROR "stats.json has no sims.b.snowpack.mass_error: ${missing}")
endif()
if(error GREATER 1e-5 OR error LESS -1e-5)
    message(FATAL_ERROR "sims.b.snowpack.mass_error ${error}: the budget does not close")
endif()
