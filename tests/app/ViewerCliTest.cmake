# The viewer end to end under Xvfb: `snowcap view --frames N --screenshot F` in a small window
# must exit 0 and leave a screenshot that is not blank, shows the UI, and whose A and B halves
# differ once the deformers have walked (viewer_screenshot_check).
# -DSNOWCAP=... -DCHECK=... -DOUT=... -DXVFB_RUN=...
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(SHOT ${OUT}/viewer.png)
# An empty config dir: the test never reads or writes the user's panel layout.
set(ENV{XDG_CONFIG_HOME} ${OUT}/config)
execute_process(
    COMMAND ${XVFB_RUN} -a -s "-screen 0 1024x600x24"
            ${SNOWCAP} view --frames 60 --size 800 450 --panels none
            --set snow.resolution=256 --screenshot ${SHOT}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 280)
message("${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "snowcap view exited with ${rc}")
endif()
if(NOT EXISTS ${SHOT})
    message(FATAL_ERROR "no screenshot at ${SHOT}")
endif()
if(EXISTS ${OUT}/config/snowcap/imgui.ini)
    message(FATAL_ERROR "a scripted run wrote the user's imgui.ini")
endif()
execute_process(COMMAND ${CHECK} ${SHOT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "screenshot check failed")
endif()
