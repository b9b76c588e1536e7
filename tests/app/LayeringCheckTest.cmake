# The build's layering check (cmake/check_layering.cmake) must refuse what the module declarations
# forbid and accept what they allow. A scratch tree under OUT holds one module, `core`, with one
# file; each case writes that file and runs the check as the build does.
set(tree ${OUT}/layering_tree)
function(run_check include expect_failure)
    file(REMOVE_RECURSE ${tree})
    file(WRITE ${tree}/src/core/probe.cpp "${include}\nint probe() { return 0; }\n")
    execute_process(COMMAND ${CMAKE_COMMAND} -DMODULE=core -DALLOWED=core -DFOREIGN=
                            "-DCHECKED_FOREIGN=GLFW;EGL;bullet" -DSOURCE_DIR=${tree}
                            -DSTAMP=${tree}/core.ok -P ${SCRIPT}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(expect_failure AND rc EQUAL 0)
        message(FATAL_ERROR "the layering check accepted '${include}' in core")
    elseif(NOT expect_failure AND NOT rc EQUAL 0)
        message(FATAL_ERROR "the layering check refused '${include}' in core:\n${err}")
    endif()
    if(expect_failure AND NOT err MATCHES "src/core/probe.cpp")
        message(FATAL_ERROR "the refusal does not name the file:\n${err}")
    endif()
endfunction()

run_check("#include \"gpu/objects.hpp\"" TRUE)
run_check("#include \"viewer/viewer.hpp\"" TRUE)
run_check("#include <GLFW/glfw3.h>" TRUE)
run_check("#  include <EGL/egl.h>" TRUE)
run_check("#include <bullet/btBulletDynamicsCommon.h>" TRUE)
run_check("#include \"physics/physics_world.hpp\"" TRUE)
run_check("#include \"core/settings.hpp\"" FALSE)
run_check("#include <glm/vec3.hpp>" FALSE)
message(STATUS "layering check: 6 forbidden includes refused, 2 allowed ones accepted")
