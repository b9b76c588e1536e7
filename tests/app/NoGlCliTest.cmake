# Headless without a usable EGL/GL driver: `snowcap render` must say so in one line naming what
# to install, and exit 2 (not crash, not hang). The EGL vendor list is pointed at nothing, so
# libglvnd finds no driver, as on a machine without Mesa.
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/egl_vendor.json
            __EGL_VENDOR_LIBRARY_DIRS=/nonexistent EGL_PLATFORM=surfaceless
            ${SNOWCAP} render --scenario press_release --frames 2 --no-progress --out ${OUT}
    RESULT_VARIABLE result ERROR_VARIABLE errors OUTPUT_VARIABLE output TIMEOUT 60)
string(STRIP "${errors}" errors)
if(NOT result EQUAL 2)
    message(FATAL_ERROR "without GL, render should exit 2; got ${result}: ${errors}")
endif()
if(NOT errors MATCHES "no headless OpenGL 4.5 context.*install Mesa")
    message(FATAL_ERROR "without GL, render should say what is missing; got: ${errors}")
endif()
string(REGEX MATCHALL "\n" newlines "${errors}")
list(LENGTH newlines lines)
if(lines GREATER 0)
    message(FATAL_ERROR "without GL, the message should be one line; got: ${errors}")
endif()
