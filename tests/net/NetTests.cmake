# The network tests, included by tests/CMakeLists.txt (paths are that file's).

# A networked session (docs/network.md). Loopback: a server and three clients (a perfect link,
# 5 % loss + 80 ms, a late joiner) end byte-identical to the server in each mode, with 10,000
# random datagrams at the server's port; lying clients are refused with a line. Each mode is
# its own test so ctest -j spreads them; every server binds a free port.
if(SYSTEM_PYTHON)
    foreach(mode state inputs hybrid)
        add_test(NAME cli.net_loopback_${mode}
            COMMAND ${SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/net/loopback_test.py
                $<TARGET_FILE:snowcap> ${CMAKE_CURRENT_BINARY_DIR}/cli_net_${mode} --modes ${mode})
        set_tests_properties(cli.net_loopback_${mode} PROPERTIES LABELS "gl;cli;net" TIMEOUT 600
            ENVIRONMENT "${SNOWCAP_TEST_ENV}")
        # The same with following windows (A naive, B snapped): their places travel too.
        add_test(NAME cli.net_loopback_follow_${mode}
            COMMAND ${SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/net/loopback_test.py
                $<TARGET_FILE:snowcap> ${CMAKE_CURRENT_BINARY_DIR}/cli_net_follow_${mode}
                --modes ${mode} --scenario follow_compare --server-set snow.resolution=64)
        set_tests_properties(cli.net_loopback_follow_${mode} PROPERTIES LABELS "gl;cli;net"
            TIMEOUT 600 ENVIRONMENT "${SNOWCAP_TEST_ENV}")
    endforeach()
    # view --connect under Xvfb with real keys: WASD reaches the server, a headless client
    # beside the viewer still matches the server (tests/net/ViewConnectTest.sh).
    find_program(XDOTOOL xdotool)
    if(XVFB_RUN AND XDOTOOL)
        add_test(NAME cli.net_view_connect
            COMMAND ${XVFB_RUN} -a -s "-screen 0 1024x600x24"
                ${CMAKE_CURRENT_SOURCE_DIR}/net/ViewConnectTest.sh $<TARGET_FILE:snowcap>
                ${CMAKE_CURRENT_BINARY_DIR}/cli_net_view_connect)
        set_tests_properties(cli.net_view_connect PROPERTIES LABELS "gl;cli;net" TIMEOUT 300
            ENVIRONMENT "${SNOWCAP_TEST_ENV}")
    endif()
    add_test(NAME cli.net_liars
        COMMAND ${SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/net/loopback_test.py
            $<TARGET_FILE:snowcap> ${CMAKE_CURRENT_BINARY_DIR}/cli_net_liars --modes "" --liars)
    set_tests_properties(cli.net_liars PROPERTIES LABELS "gl;cli;net" TIMEOUT 600
        ENVIRONMENT "${SNOWCAP_TEST_ENV}")
endif()
# Record and replay: byte for byte, with a skinned walker's joint palettes (decay_compare), a plain
# sphere (press_release) and following windows (follow_compare).
foreach(scenario press_release decay_compare follow_compare)
    add_test(NAME cli.net_replay_${scenario}
        COMMAND ${CMAKE_COMMAND} -DSNOWCAP=$<TARGET_FILE:snowcap> -DSCENARIO=${scenario}
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cli_net_replay_${scenario}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/net/ReplayCliTest.cmake)
    set_tests_properties(cli.net_replay_${scenario} PROPERTIES LABELS "gl;cli;net")
endforeach()
