# [ground] kind = "texture" end to end: the bundled texture renders; a file that cannot be the
# ground is one line naming ground.texture, the file and the reason, exit 2, and no stats.json.
include(${CMAKE_CURRENT_LIST_DIR}/ExpectRefused.cmake)
function(render_ground name)
    execute_process(COMMAND ${SNOWCAP} render --scenario press_release --frames 2 --no-progress
                            --set snow.resolution=64 --set ground.kind=texture ${ARGN}
                            --out ${OUT}/${name}
                    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    set(result ${result} PARENT_SCOPE)
    set(errors "${errors}" PARENT_SCOPE)
endfunction()

render_ground(bundled --set ground.texture=assets/ground/pebbles.png)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/bundled/final.png)
    message(FATAL_ERROR "the bundled ground texture should render; got ${result}: ${errors}")
endif()

function(refused name expect)
    render_ground(${name} ${ARGN})
    expect_refused_render(${name} "${expect}")
endfunction()
refused(missing "key 'ground\\.texture': .*tests/data/no_such\\.png: cannot open file"
        --set ground.texture=tests/data/no_such.png)
refused(not_png "key 'ground\\.texture': .*tests/data/tetrahedron\\.obj: not a PNG"
        --set ground.texture=tests/data/tetrahedron.obj)
refused(folder "key 'ground\\.texture': .*tests/data: not a regular file \\(a directory\\)"
        --set ground.texture=tests/data)
refused(none "key 'ground\\.texture': kind = \"texture\" needs a PNG file here")
message(STATUS "ground texture: the bundled one rendered; 4 bad files refused")
