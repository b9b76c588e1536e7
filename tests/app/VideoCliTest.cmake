# `snowcap render --video`: ffprobe must find one frame per recorded step and the run's
# simulated length, at odd view sizes (padded to even for yuv420p) and with --video-every.
# Skipped (with the reason) only when ffmpeg / ffprobe are missing; tools/lib.sh installs them.
include(${CMAKE_CURRENT_LIST_DIR}/ffprobe.cmake)
if(NOT FFPROBE_FOUND)
    return()
endif()
file(REMOVE_RECURSE ${OUT})

# render, then ffprobe: frames, duration and size against what the run says.
function(check_video name fps steps every width height)
    set(video ${OUT}/${name}.mp4)
    execute_process(
        COMMAND ${SNOWCAP} --quiet render --scenario press_release --frames ${steps}
                --no-progress --set run.fps=${fps} --set view.width=${width}
                --set view.height=${height} --video ${video} --video-every ${every}
                --out ${OUT}/${name}
        RESULT_VARIABLE result ERROR_VARIABLE errors)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${name}: render --video exited with ${result}: ${errors}")
    endif()
    ffprobe_video(${video} ${name})
    set(frames ${probe_frames})
    set(codec ${probe_codec})
    set(pixfmt ${probe_pixfmt})
    set(w ${probe_width})
    set(h ${probe_height})
    set(duration ${probe_duration})
    math(EXPR expectedFrames "${steps} / ${every}")
    math(EXPR evenW "(${width} + 1) / 2 * 2")
    math(EXPR evenH "(${height} + 1) / 2 * 2")
    if(NOT frames EQUAL expectedFrames OR NOT codec STREQUAL "h264" OR NOT pixfmt STREQUAL "yuv420p"
       OR NOT w EQUAL evenW OR NOT h EQUAL evenH)
        message(FATAL_ERROR "${name}: ffprobe says ${frames} frames ${codec} ${pixfmt} ${w}x${h}; "
                "expected ${expectedFrames} frames h264 yuv420p ${evenW}x${evenH}")
    endif()
    # The simulated length of the recorded steps (frames x every / fps), to a millisecond.
    math(EXPR recordedUs "${expectedFrames} * ${every} * 1000000 / ${fps}")
    string(REPLACE "." "" durationDigits "${duration}") # ffprobe prints 6 decimals
    string(REGEX REPLACE "^0+([0-9])" "\\1" durationUs "${durationDigits}")
    math(EXPR diff "${durationUs} - ${recordedUs}")
    if(diff GREATER 1000 OR diff LESS -1000)
        message(FATAL_ERROR "${name}: ffprobe duration ${duration} s, the run recorded "
                "${recordedUs} us of simulated time")
    endif()
    message(STATUS "${name}: ${frames} frames, ${duration} s, ${w}x${h}")
endfunction()

check_video(every_step 60 90 1 127 71)   # 1.5 s, odd sides
check_video(every_4th 60 88 4 160 90)    # 22 frames at 15 fps = 88 steps = 1.4667 s
check_video(fps144_k5 144 60 5 96 54)    # 12 frames at 28.8 fps = 0.4167 s

# No ffmpeg on PATH: one line naming the file and what to install, exit 2.
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env PATH=/nonexistent
            ${SNOWCAP} render --scenario press_release --frames 2 --no-progress
            --video ${OUT}/none.mp4 --out ${OUT}/none
    RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 2 OR NOT errors MATCHES "none.mp4: cannot record: the ffmpeg program is not on PATH")
    message(FATAL_ERROR "without ffmpeg: expected exit 2 and one line; got ${result}: ${errors}")
endif()
