# expect_refused_render(NAME EXPECT): the checks of a refused run, after an execute_process whose
# RESULT_VARIABLE is `result` and ERROR_VARIABLE is `errors` (read from the caller) and whose
# --out was ${OUT}/NAME: exit 2, exactly one error line, matching EXPECT, and no stats.json.
function(expect_refused_render name expect)
    if(NOT result EQUAL 2)
        message(FATAL_ERROR "${name}: render should exit 2; got ${result}: ${errors}")
    endif()
    if(NOT errors MATCHES "${expect}")
        message(FATAL_ERROR "${name}: the line should match '${expect}':\n${errors}")
    endif()
    string(REGEX MATCHALL "error" lines "${errors}")
    list(LENGTH lines count)
    if(NOT count EQUAL 1)
        message(FATAL_ERROR "${name}: one line, not ${count}:\n${errors}")
    endif()
    if(EXISTS ${OUT}/${name}/stats.json)
        message(FATAL_ERROR "${name}: a refused run left stats.json")
    endif()
endfunction()
