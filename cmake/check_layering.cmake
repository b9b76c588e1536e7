cmake_minimum_required(VERSION 3.25) # IN_LIST and friends in script mode
# Fails when a file of src/MODULE includes a snowcap module outside ALLOWED, or one of the
# CHECKED_FOREIGN system headers (GLFW/, EGL/) outside FOREIGN. Run by each module's build
# (CMakeLists.txt, snowcap_module); writes STAMP when all is well.
file(GLOB files ${SOURCE_DIR}/src/${MODULE}/*.cpp ${SOURCE_DIR}/src/${MODULE}/*.hpp)
set(problems "")
foreach(file IN LISTS files)
    file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    file(RELATIVE_PATH shown ${SOURCE_DIR} ${file})
    foreach(line IN LISTS includes)
        if(line MATCHES "#[ \t]*include[ \t]*\"([a-z_]+)/[^\"]+\"")
            if(NOT CMAKE_MATCH_1 IN_LIST ALLOWED)
                string(APPEND problems "  ${shown}: ${line} (module '${MODULE}' builds on: ${ALLOWED})\n")
            endif()
        elseif(line MATCHES "#[ \t]*include[ \t]*<([A-Za-z]+)/")
            set(dir ${CMAKE_MATCH_1})
            if(dir IN_LIST CHECKED_FOREIGN AND NOT dir IN_LIST FOREIGN)
                string(APPEND problems "  ${shown}: ${line} (only modules that declare ${dir} may)\n")
            endif()
        endif()
    endforeach()
endforeach()
if(problems)
    message(FATAL_ERROR "module '${MODULE}' includes what it does not build on:\n${problems}"
            "Declare the dependency in CMakeLists.txt (snowcap_module) if the architecture allows "
            "it (docs/architecture.md), or move the code.")
endif()
file(WRITE ${STAMP} "ok\n")
