# `snowcap gl-info` lists every EGL device and the one snowcap uses, with the limits it relies
# on; a device that does not exist, or a choice that is not one, is one line and exit 2.
execute_process(COMMAND ${SNOWCAP} gl-info
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors TIMEOUT 60)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "gl-info should exit 0; got ${result}: ${errors}")
endif()
foreach(expected "EGL devices, numbered as --gl-device takes them:\n  0  egl-"
                 "\nsnowcap uses device [0-9]+ \\(egl-" "GL_MAX_COMPUTE_WORK_GROUP_COUNT +[0-9]+ [0-9]+ [0-9]+")
    if(NOT output MATCHES "${expected}")
        message(FATAL_ERROR "gl-info should print '${expected}'; got:\n${output}")
    endif()
endforeach()
message(STATUS "${output}")

# The device gl-info says it uses, asked for by number, is the same one.
string(REGEX MATCH "snowcap uses device ([0-9]+)" used "${output}")
set(index ${CMAKE_MATCH_1})
execute_process(COMMAND ${SNOWCAP} --gl-device ${index} gl-info
    RESULT_VARIABLE result OUTPUT_VARIABLE chosen ERROR_VARIABLE errors TIMEOUT 60)
if(NOT result EQUAL 0 OR NOT chosen MATCHES "snowcap uses device ${index} .*: as asked")
    message(FATAL_ERROR "--gl-device ${index} should use device ${index}; got ${result}:\n${chosen}${errors}")
endif()

function(expect_one_line_exit_2 what pattern)
    execute_process(COMMAND ${ARGN}
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors TIMEOUT 60)
    string(STRIP "${errors}" errors)
    if(NOT result EQUAL 2)
        message(FATAL_ERROR "${what} should exit 2; got ${result}: ${errors}")
    endif()
    if(NOT errors MATCHES "${pattern}")
        message(FATAL_ERROR "${what} should say '${pattern}'; got: ${errors}")
    endif()
    if(errors MATCHES "\n")
        message(FATAL_ERROR "${what}: the message should be one line; got: ${errors}")
    endif()
endfunction()
expect_one_line_exit_2("--gl-device 99" "GL device 99: there are [0-9]+ \\(numbered from 0"
    ${SNOWCAP} --quiet --gl-device 99 render --scenario press_release --frames 1 --no-progress
    --out ${OUT})
expect_one_line_exit_2("--gl-device x" "--gl-device.*expected auto or a device number"
    ${SNOWCAP} --gl-device x gl-info)
expect_one_line_exit_2("SNOWCAP_GL_DEVICE=x" "SNOWCAP_GL_DEVICE: GL device 'x': expected auto"
    ${CMAKE_COMMAND} -E env SNOWCAP_GL_DEVICE=x ${SNOWCAP} gl-info)
