# The viewer's Record button under Xvfb (`view --frames N --record F` presses it on the first
# frame): ffprobe must find N frames, H.264, N / fps seconds. Skipped (with the reason) only when
# ffmpeg / ffprobe are missing; tools/lib.sh installs them.
# -DSNOWCAP=... -DOUT=... -DXVFB_RUN=...
find_program(FFPROBE ffprobe)
find_program(FFMPEG ffmpeg)
if(NOT FFPROBE OR NOT FFMPEG)
    message("SKIP: ffmpeg or ffprobe not on PATH (apt-get install ffmpeg; tools/lib.sh lists it)")
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
execute_process(
    COMMAND ${FFPROBE} -v error -count_frames -select_streams v:0
            -show_entries stream=nb_read_frames,width,height,codec_name:format=duration -of json
            ${video}
    OUTPUT_VARIABLE probe RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "ffprobe cannot read ${video}")
endif()
string(JSON frames GET "${probe}" streams 0 nb_read_frames)
string(JSON codec GET "${probe}" streams 0 codec_name)
string(JSON w GET "${probe}" streams 0 width)
string(JSON duration GET "${probe}" format duration)
# 24 steps at 48 fps: 0.5 s of simulated time.
if(NOT frames EQUAL 24 OR NOT codec STREQUAL "h264" OR NOT w EQUAL 640
   OR NOT duration STREQUAL "0.500000")
    message(FATAL_ERROR "ffprobe: ${frames} frames ${codec} width ${w}, ${duration} s; "
            "expected 24 frames h264 width 640, 0.500000 s")
endif()
message(STATUS "recorded: ${frames} frames, ${duration} s")
