# `snowcap render --ui --panels weather` on blizzard: final.png is the viewer's frame with the
# Weather panel drawn (viewer_screenshot_check: not blank, the UI there) over falling snow, and
# the stats.json budget the panel's table shows closes (sims.b.snowpack, to within 1e-5) with
# snow fallen in (mass_in_kg > 0).
# -DSNOWCAP=... -DCHECK=... -DOUT=...
file(REMOVE_RECURSE ${OUT})
execute_process(
    COMMAND ${SNOWCAP} render --scenario blizzard --frames 20 --ui --panels weather
            --no-progress --set view.width=800 --set view.height=450
            --set snow.resolution=128 --out ${OUT}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "snowcap render --ui --panels weather exited with ${rc}: ${err}")
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
string(JSON fell GET "${stats}" sims b snowpack mass_in_kg)
if(NOT fell GREATER 0)
    message(FATAL_ERROR "sims.b.snowpack.mass_in_kg ${fell}: no snow fell in the blizzard")
endif()
