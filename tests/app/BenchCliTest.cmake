# `snowcap bench` on a tiny case set writes a JSON document with the promised schema.
# Schema only: keys present, the selected passes measured, every ratio_to_copy > 0, the
# compare tool accepting the file. Timing values are never judged (they belong to the bench).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(
    COMMAND ${SNOWCAP} --quiet bench --sizes 64 --screens 128x72 --frame-size 128x72
            --frames 2 --case-budget 0.2 --set snow.resolution=64
            --only copy,accumulate,surface_vertex,blur_prepass,frame_ab
            --json ${OUT}/bench.json
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "snowcap bench exited with ${result}: ${errors}")
endif()
if(NOT output MATCHES "method serialized_glfinish|method gl_timestamp_query")
    message(FATAL_ERROR "bench did not print its timing method:\n${output}")
endif()
if(NOT output MATCHES "targets:")
    message(FATAL_ERROR "bench did not print the targets:\n${output}")
endif()
# Each target says whether it needs a GPU: a time (x copy) does, a byte count does not.
if(NOT output MATCHES "frame_ab_128x72_fps[^\n]* on GPU " OR
   NOT output MATCHES "vram_buffers_off_table[^\n]* on any ")
    message(FATAL_ERROR "bench did not say which targets need a GPU:\n${output}")
endif()
# --only prints what it measured: the targets it left out are one line, not one each.
if(output MATCHES "not measured" OR NOT output MATCHES "more need cases --only left out")
    message(FATAL_ERROR "bench --only listed targets it did not measure:\n${output}")
endif()

# With the log on, stdout and stderr in one stream as a terminal shows them: no log line lands
# between the table's header and its last line (every line there is a case, a note or a target).
execute_process(
    COMMAND ${SNOWCAP} bench --sizes 64 --frames 2 --case-budget 0.2 --set snow.resolution=64
            --only copy,accumulate --json ${OUT}/bench_log.json
    RESULT_VARIABLE result OUTPUT_VARIABLE merged ERROR_VARIABLE merged)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "snowcap bench (logging) exited with ${result}: ${merged}")
endif()
string(REPLACE ";" "," merged_lines "${merged}")
string(REPLACE "\n" ";" merged_lines "${merged_lines}")
set(in_table FALSE)
foreach(line IN LISTS merged_lines)
    if(line MATCHES "^pass +variant +size")
        set(in_table TRUE)
    elseif(line MATCHES "^peak RSS")
        set(in_table FALSE)
    elseif(in_table AND NOT line MATCHES "^(copy|accumulate) +[a-z0-9_]+ +[0-9]+ " AND
           NOT line MATCHES "^note: " AND NOT line MATCHES "^targets: " AND
           NOT line MATCHES "^  ")
        message(FATAL_ERROR "a line inside bench's table is not the table's: '${line}'\n${merged}")
    endif()
endforeach()
if(NOT merged MATCHES "accumulate_64|accumulate +add_r16f +64 ")
    message(FATAL_ERROR "the logging bench printed no table:\n${merged}")
endif()

file(READ ${OUT}/bench.json doc)
foreach(key machine gl method cases targets scaling memory)
    string(JSON type ERROR_VARIABLE missing TYPE "${doc}" ${key})
    if(missing)
        message(FATAL_ERROR "bench.json has no '${key}'")
    endif()
endforeach()
string(JSON renderer GET "${doc}" gl renderer)
string(JSON cores GET "${doc}" machine cores)
if(renderer STREQUAL "" OR cores LESS 1)
    message(FATAL_ERROR "bench.json: gl.renderer '${renderer}', machine.cores ${cores}")
endif()

# Every selected pass is there, and nothing that --only left out.
string(JSON count LENGTH "${doc}" cases)
set(passes "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
    string(JSON pass GET "${doc}" cases ${i} pass)
    string(JSON ratio GET "${doc}" cases ${i} ratio_to_copy)
    string(JSON median GET "${doc}" cases ${i} median_ms)
    foreach(key variant size min_ms max_ms samples method)
        string(JSON value ERROR_VARIABLE missing GET "${doc}" cases ${i} ${key})
        if(missing)
            message(FATAL_ERROR "bench.json: case ${i} (${pass}) has no '${key}'")
        endif()
    endforeach()
    if(NOT ratio GREATER 0 OR NOT median GREATER 0)
        message(FATAL_ERROR "bench.json: case ${i} (${pass}): ratio_to_copy ${ratio}, median ${median}")
    endif()
    list(APPEND passes ${pass})
endforeach()
foreach(pass copy accumulate surface_vertex blur_prepass frame_ab)
    if(NOT pass IN_LIST passes)
        message(FATAL_ERROR "bench.json: no '${pass}' case (have: ${passes})")
    endif()
endforeach()
foreach(pass clear capture step_ab quality idle_skip surface_tess)
    if(pass IN_LIST passes)
        message(FATAL_ERROR "bench.json: '${pass}' ran although --only left it out")
    endif()
endforeach()

# The compare tool checks the full schema and compares a file with itself without complaint.
execute_process(COMMAND /usr/bin/python3 ${COMPARE} --check ${OUT}/bench.json
    RESULT_VARIABLE result OUTPUT_VARIABLE output)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "bench_compare --check:\n${output}")
endif()
execute_process(COMMAND /usr/bin/python3 ${COMPARE} --strict ${OUT}/bench.json ${OUT}/bench.json
    RESULT_VARIABLE result OUTPUT_VARIABLE output)
if(NOT result EQUAL 0 OR NOT output MATCHES "0 regression")
    message(FATAL_ERROR "bench_compare of a file with itself:\n${output}")
endif()

# Bad input: one line, exit code 2.
execute_process(COMMAND ${SNOWCAP} bench --screens 12x --frames 1
    RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 2 OR NOT errors MATCHES "--screens: '12x'")
    message(FATAL_ERROR "a bad --screens should fail with exit 2 naming it; got ${result}: ${errors}")
endif()
