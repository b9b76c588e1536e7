# A scenario's file keys are found beside the scenario, then in the repository: boot_prints
# copied with its mesh into a folder of its own renders from any working directory, through a
# relative or an absolute scenario path; a mesh in neither place is one line naming both.
include(${CMAKE_CURRENT_LIST_DIR}/ExpectRefused.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/copied ${OUT}/elsewhere)
file(COPY ${SOURCE}/assets/meshes/boot.glb DESTINATION ${OUT}/copied/meshes)
file(READ ${SOURCE}/config/scenarios/boot_prints.toml scenario)
string(REPLACE "assets/meshes/boot.glb" "meshes/boot.glb" copied "${scenario}")
file(WRITE ${OUT}/copied/boots.toml "${copied}")
string(REPLACE "assets/meshes/boot.glb" "meshes/gone.glb" lost "${scenario}")
file(WRITE ${OUT}/copied/lost.toml "${lost}")

foreach(run relative absolute)
    set(path ../copied/boots.toml)
    if(run STREQUAL absolute)
        set(path ${OUT}/copied/boots.toml)
    endif()
    execute_process(
        COMMAND ${SNOWCAP} render --scenario ${path} --frames 2 --no-progress --size 128 72
                --out ${OUT}/${run}
        WORKING_DIRECTORY ${OUT}/elsewhere
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "render of the copied scenario (${run} path) exited ${result}: "
                            "${errors}")
    endif()
    file(READ ${OUT}/${run}/stats.json stats)
    string(JSON mesh GET "${stats}" params deformer 0 mesh)
    if(NOT mesh STREQUAL "${OUT}/copied/meshes/boot.glb")
        message(FATAL_ERROR "the copied scenario's mesh is ${mesh}, not the one beside it")
    endif()
endforeach()

execute_process(
    COMMAND ${SNOWCAP} render --scenario ${OUT}/copied/lost.toml --frames 2 --no-progress
            --out ${OUT}/lost
    WORKING_DIRECTORY ${OUT}/elsewhere
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
expect_refused_render(lost "lost\\.toml:44:[0-9]+: key 'deformer\\[0\\]\\.mesh': deformer 'left_boot': meshes/gone\\.glb: cannot open file \\(not beside lost\\.toml: [^,]*/copied/meshes/gone\\.glb, nor in the repository: [^)]*/meshes/gone\\.glb\\)")
message(STATUS "scenario paths: the copied scenario renders from elsewhere; a lost mesh names both places")
