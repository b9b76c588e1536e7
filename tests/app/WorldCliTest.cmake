# World files end to end (docs/world.md): render --world-out writes one and stats.json reports
# the store; --world-in starts from it; a truncated, foreign or mismatched file is one line
# naming the file and the reason, exit 2, and the file is left as it was.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(common render --scenario world_walk --frames 90 --no-progress --set snow.resolution=128
    --set snow.ortho_width_cm=256
    --set view.width=64 --set view.height=32)
execute_process(COMMAND ${SNOWCAP} --quiet ${common} --out ${OUT}/run --world-out ${OUT}/walk.world
    RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/walk.world)
    message(FATAL_ERROR "render --world-out failed (${result}): ${errors}")
endif()
file(READ ${OUT}/run/stats.json stats)
foreach(key tiles store_bytes store_bytes_peak paged_out paged_in evicted_tiles)
    string(JSON value GET "${stats}" sims b world ${key})
endforeach()
string(JSON pagedOut GET "${stats}" sims b world paged_out)
string(JSON tiles GET "${stats}" sims b world tiles)
if(pagedOut LESS 1 OR tiles LESS 1)
    message(FATAL_ERROR "stats.json: the boot's trail should have paged out (${pagedOut}, ${tiles} tiles)")
endif()
string(JSON aWorld ERROR_VARIABLE none GET "${stats}" sims a world)
if(none STREQUAL "NOTFOUND")
    message(FATAL_ERROR "stats.json: sim a keeps no world, but has a world object")
endif()

execute_process(COMMAND ${SNOWCAP} --quiet ${common} --out ${OUT}/again --world-in ${OUT}/walk.world
    RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "render --world-in failed (${result}): ${errors}")
endif()

function(expect_refused file reason)
    file(SHA256 ${file} before)
    execute_process(COMMAND ${SNOWCAP} --quiet ${common} ${ARGN} --out ${OUT}/bad --world-in ${file}
        RESULT_VARIABLE result ERROR_VARIABLE errors)
    file(SHA256 ${file} after)
    string(REGEX MATCHALL "\n" lines "${errors}")
    list(LENGTH lines count)
    if(NOT result EQUAL 2 OR NOT errors MATCHES "${file}: .*${reason}" OR count GREATER 1)
        message(FATAL_ERROR "${file}: expected exit 2 and one line with '${reason}'; got ${result}: ${errors}")
    endif()
    if(NOT before STREQUAL after)
        message(FATAL_ERROR "${file} was changed by a refused load")
    endif()
endfunction()

# A file cut after 100 bytes (CMake cannot write arbitrary bytes portably: copy and truncate).
execute_process(COMMAND head -c 100 ${OUT}/walk.world OUTPUT_FILE ${OUT}/truncated.world)
expect_refused(${OUT}/truncated.world "truncated")
expect_refused(${OUT}/run/stats.json "not a snowcap world file")
expect_refused(${OUT}/walk.world "cm a texel" --set snow.ortho_width_cm=512)

# A following snowpack's store holds columns, which world files do not carry: --world-out and
# --world-in are refused before the run, one line naming the key, exit 2, no stats.json, and
# the file named by --world-in is left as it was.
include(${CMAKE_CURRENT_LIST_DIR}/ExpectRefused.cmake)
file(SHA256 ${OUT}/walk.world walkBefore)
foreach(flag world-out world-in)
    execute_process(COMMAND ${SNOWCAP} --quiet ${common} --set sim.b.model=snowpack
                            --out ${OUT}/snowpack_${flag} --${flag} ${OUT}/walk.world
        RESULT_VARIABLE result ERROR_VARIABLE errors)
    expect_refused_render(snowpack_${flag}
        "sim\\.b\\.persistence = \"world\": a snowpack.s world store is not saved in or loaded")
endforeach()
file(SHA256 ${OUT}/walk.world walkAfter)
if(NOT walkBefore STREQUAL walkAfter)
    message(FATAL_ERROR "walk.world was changed by a refused snowpack run")
endif()
