# What ffprobe says of a video, for the video tests (VideoCliTest, ViewerRecordCliTest).
# Include it, then `if(NOT FFPROBE_FOUND) return()`: a test skips, with the reason, only when
# ffmpeg / ffprobe are missing (tools/lib.sh installs them).
find_program(FFPROBE ffprobe)
find_program(FFMPEG ffmpeg)
set(FFPROBE_FOUND TRUE)
if(NOT FFPROBE OR NOT FFMPEG)
    message("SKIP: ffmpeg or ffprobe not on PATH (apt-get install ffmpeg; tools/lib.sh lists it)")
    set(FFPROBE_FOUND FALSE)
endif()

# ffprobe_video(VIDEO LABEL): counts the frames of VIDEO's first video stream and sets
# probe_frames, probe_codec, probe_pixfmt, probe_width, probe_height and probe_duration (s, six
# decimals) in the caller; LABEL names the check in the failure message.
function(ffprobe_video video label)
    execute_process(
        COMMAND ${FFPROBE} -v error -count_frames -select_streams v:0
                -show_entries stream=nb_read_frames,width,height,codec_name,pix_fmt:format=duration
                -of json ${video}
        OUTPUT_VARIABLE probe RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${label}: ffprobe cannot read ${video}")
    endif()
    string(JSON frames GET "${probe}" streams 0 nb_read_frames)
    string(JSON codec GET "${probe}" streams 0 codec_name)
    string(JSON pixfmt GET "${probe}" streams 0 pix_fmt)
    string(JSON width GET "${probe}" streams 0 width)
    string(JSON height GET "${probe}" streams 0 height)
    string(JSON duration GET "${probe}" format duration)
    set(probe_frames ${frames} PARENT_SCOPE)
    set(probe_codec ${codec} PARENT_SCOPE)
    set(probe_pixfmt ${pixfmt} PARENT_SCOPE)
    set(probe_width ${width} PARENT_SCOPE)
    set(probe_height ${height} PARENT_SCOPE)
    set(probe_duration ${duration} PARENT_SCOPE)
endfunction()
