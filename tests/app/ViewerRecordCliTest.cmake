# The viewer's Record button under Xvfb (`view --frames N --record F` presses it on the first
# frame): ffprobe must find N frames, H.264, N / fps seconds. Skipped (with the reason) only when
# ffmpeg / ffprobe are missing; tools/lib.sh installs them.
# -DSNOWCAP=... -DOUT=... -DXVFB_RUN=...
include(${CMAKE_CURRENT_LIST_DIR}/ffprobe.cmake)
if(NOT FFPROBE_FOUND)
    return()
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(ENV{XDG_CONFIG_HOME} ${OUT}/config)
set(video ${OUT}/recorded.mp4)
execute_process(
    COMMAND ${XVFB_RUN} -a -s "-screen 0 1024x600x24"
            ${SNOWCAP} view --frames 24 --size 640 360 --panels none
            --set snow.resolution=256 --set run.fps=48 --record ${video}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 280)
if(NOT rc EQUAL 0 OR NOT err MATCHES "recorded .*recorded.mp4: 24 frames")
    message(FATAL_ERROR "snowcap view --record exited with ${rc}: ${out}${err}")
endif()
ffprobe_video(${video} recorded)
set(frames ${probe_frames})
set(codec ${probe_codec})
set(w ${probe_width})
set(duration ${probe_duration})
# 24 steps at 48 fps: 0.5 s of simulated time.
if(NOT frames EQUAL 24 OR NOT codec STREQUAL "h264" OR NOT w EQUAL 640
   OR NOT duration STREQUAL "0.500000")
    message(FATAL_ERROR "ffprobe: ${frames} frames ${codec} width ${w}, ${duration} s; "
            "expected 24 frames h264 width 640, 0.500000 s")
endif()
message(STATUS "recorded: ${frames} frames, ${duration} s")
