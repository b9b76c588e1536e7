# `snowcap view` with no display keeps its promise: a scripted run goes through the headless
# context and writes the screenshot it was asked for (and nothing else into the working
# directory); what cannot be honoured is refused with exit 2 and one line, never exit 0.
# -DSNOWCAP=... -DCHECK=... -DOUT=...
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(ENV{XDG_CONFIG_HOME} ${OUT}/config)
set(NO_DISPLAY ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY)

function(expect_refused name expected_rc)
    execute_process(COMMAND ${NO_DISPLAY} ${SNOWCAP} ${ARGN}
        WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
        TIMEOUT 120)
    if(NOT rc EQUAL ${expected_rc})
        message(FATAL_ERROR "${name}: exit ${rc}, expected ${expected_rc}\n${out}${err}")
    endif()
    string(STRIP "${err}" err)
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines extra)
    if(NOT extra EQUAL 0)
        message(FATAL_ERROR "${name}: more than one line on stderr:\n${err}")
    endif()
endfunction()

# 1. --frames + --screenshot: the viewer's frame, at the --size asked for.
set(SHOT ${OUT}/shot.png)
execute_process(
    COMMAND ${NO_DISPLAY} ${SNOWCAP} view --frames 60 --size 800 450 --panels none
            --set snow.resolution=256 --screenshot ${SHOT}
    WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 280)
message("${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scripted view with no display exited with ${rc}")
endif()
if(NOT EXISTS ${SHOT})
    message(FATAL_ERROR "no screenshot at ${SHOT}")
endif()
file(READ ${SHOT} header OFFSET 16 LIMIT 8 HEX) # the IHDR width and height, big-endian
if(NOT header STREQUAL "00000320000001c2")
    message(FATAL_ERROR "screenshot is not 800 x 450 (IHDR ${header})")
endif()
if(EXISTS ${OUT}/out)
    message(FATAL_ERROR "a scripted view wrote render outputs into ./out")
endif()
execute_process(COMMAND ${CHECK} ${SHOT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "screenshot check failed")
endif()

# A panel opened on a view (as render --ui takes it) is taken by view too.
execute_process(
    COMMAND ${NO_DISPLAY} ${SNOWCAP} view --frames 2 --size 320 180 --panels scene:ground
            --set snow.resolution=64 --screenshot ${OUT}/ground.png
    WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/ground.png)
    message(FATAL_ERROR "view --panels scene:ground exited with ${rc}\n${out}${err}")
endif()

# 2. What no display can honour is refused, and nothing is written.
expect_refused("screenshot without frames" 2 view --screenshot ${OUT}/never.png)
expect_refused("bad panels" 2 view --frames 5 --panels bogus --screenshot ${OUT}/never.png)
expect_refused("unknown view" 2 view --frames 5 --panels buffers:water
    --screenshot ${OUT}/never.png)
# A session's client needs a window; the headless one is render --connect (said in the line).
expect_refused("connect without a display" 2 view --connect 127.0.0.1:9 --frames 5
    --screenshot ${OUT}/never.png)
if(EXISTS ${OUT}/never.png)
    message(FATAL_ERROR "a refused run wrote its screenshot")
endif()
