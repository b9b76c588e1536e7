# `snowcap render --ui --every K`: intermediate frames and final.png are the viewer's frame,
# panels drawn, from a headless context. -DSNOWCAP=... -DCHECK=... -DOUT=...
file(REMOVE_RECURSE ${OUT})
execute_process(
    COMMAND ${SNOWCAP} render --scenario press_release --frames 20 --every 10 --ui
            --panels none --no-progress --set view.width=640 --set view.height=360
            --set snow.resolution=128 --out ${OUT}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "snowcap render --ui exited with ${rc}: ${err}")
endif()
foreach(name frame_000010.png final.png stats.json)
    if(NOT EXISTS ${OUT}/${name})
        message(FATAL_ERROR "snowcap render --ui did not write ${name}")
    endif()
endforeach()
foreach(name frame_000010.png final.png)
    execute_process(COMMAND ${CHECK} --no-ab ${OUT}/${name} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
    message("${name}: ${out}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${name} does not show the viewer's UI")
    endif()
endforeach()
