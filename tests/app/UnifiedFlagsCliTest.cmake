# One set of flags and closing lines in every command (docs/pipeline.md, "Outputs"):
# `render --size W H` as `view --size`, `--record` / `--video` in both, every --panels value in
# the help, export-ue's default --out, and a closing line naming every file a run wrote with
# the time after its progress reached 100 %. Also the keyed pictures: buffers.png has its colour
# key under the panels, capture_depth.png and probes.png are written.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

# A PNG's width and height from its IHDR chunk (bytes 16..23, big endian).
function(png_size file out_width out_height)
    file(READ ${file} header LIMIT 24 HEX)
    string(SUBSTRING "${header}" 32 8 w)
    string(SUBSTRING "${header}" 40 8 h)
    math(EXPR w "0x${w}")
    math(EXPR h "0x${h}")
    set(${out_width} ${w} PARENT_SCOPE)
    set(${out_height} ${h} PARENT_SCOPE)
endfunction()

execute_process(
    COMMAND ${SNOWCAP} render --scenario press_release --frames 4 --no-progress --size 200 120
            --set snow.resolution=128 --out ${OUT}/pr
    RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "render --size exited with ${result}: ${errors}")
endif()
png_size(${OUT}/pr/final.png width height)
if(NOT width EQUAL 200 OR NOT height EQUAL 120)
    message(FATAL_ERROR "render --size 200 120 gave a ${width} x ${height} final.png")
endif()
# The closing line: the steps, the time after 100 %, every file in the directory by name.
string(REGEX MATCH "render: 4 steps in [0-9.]+ s, then [0-9.]+ s writing; wrote [^\n]*" line
       "${errors}")
if(NOT line)
    message(FATAL_ERROR "no closing line naming the outputs: ${errors}")
endif()
foreach(name sim_a.pfm sim_a.exr sim_b.pfm sim_b.exr capture_depth.pfm capture_depth.exr
        capture_depth.png buffers.png probes.png final.png stats.json run.json)
    if(NOT line MATCHES "[:,] ${name}([,;]| and)|and ${name}$" OR NOT EXISTS ${OUT}/pr/${name})
        message(FATAL_ERROR "${name}: not written or not in the closing line: ${line}")
    endif()
endforeach()
# buffers.png: two 512-wide panels (a 128 buffer, enlarged) side by side, each with its colour
# key below, so taller than the panel.
png_size(${OUT}/pr/buffers.png width height)
if(NOT width EQUAL 1028 OR NOT height GREATER 560)
    message(FATAL_ERROR "buffers.png is ${width} x ${height}: no colour key under the panels?")
endif()
png_size(${OUT}/pr/capture_depth.png width height)
if(NOT width EQUAL 512 OR NOT height GREATER 560)
    message(FATAL_ERROR "capture_depth.png is ${width} x ${height}: no colour key?")
endif()

# --world-out is named in the line too.
execute_process(
    COMMAND ${SNOWCAP} render --scenario world_walk --frames 2 --no-progress --size 96 64
            --out ${OUT}/walk --world-out ${OUT}/walk.world
    RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT errors MATCHES "wrote [^\n]*; ${OUT}/walk.world")
    message(FATAL_ERROR "--world-out not named in the closing line (${result}): ${errors}")
endif()

# The help: --record beside --video in render, --video beside --record in view, --size in
# render, every panel in --panels (world included).
execute_process(COMMAND ${SNOWCAP} render --help OUTPUT_VARIABLE help RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT help MATCHES "--video,--record" OR NOT help MATCHES "--size"
   OR NOT help MATCHES "world")
    message(FATAL_ERROR "render --help lacks --record, --size or the world panel: ${help}")
endif()
execute_process(COMMAND ${SNOWCAP} view --help OUTPUT_VARIABLE help RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT help MATCHES "--record,--video"
   OR NOT help MATCHES "sims,scene,[a-z,]*world,[a-z,]*all,none")
    message(FATAL_ERROR "view --help lacks --video or a panel: ${help}")
endif()
# A bad --size is a usage error: one line, exit 2.
execute_process(COMMAND ${SNOWCAP} render --size 10 10 RESULT_VARIABLE result
                ERROR_VARIABLE errors)
if(NOT result EQUAL 2 OR NOT errors MATCHES "--size")
    message(FATAL_ERROR "render --size 10 10 gave ${result}: ${errors}")
endif()

# export-ue without --out writes under out/, as render and sweep do.
execute_process(COMMAND ${SNOWCAP} export-ue --scenario decay_compare --sim b
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/out/export_ue/card.md
   OR NOT errors MATCHES "export-ue: wrote out/export_ue/card.md, out/export_ue/card.json and out/export_ue/card.py \\(the editor script\\) in [0-9.]+ s")
    message(FATAL_ERROR "export-ue with no --out (${result}): ${errors}")
endif()
