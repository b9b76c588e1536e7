# [[body]] end to end: a scenario with bodies renders and reports them in stats.json; a body
# starting inside another, or one of mass 0, stops `render` with one line naming the key and
# exit 2, and leaves no stats.json behind.
include(${CMAKE_CURRENT_LIST_DIR}/ExpectRefused.cmake)
function(render_bodies dir)
    execute_process(COMMAND ${SNOWCAP} render --scenario snowballs --frames ${ARGN}
                            --no-progress --set snow.resolution=128 --set view.width=96
                            --set view.height=54 --out ${OUT}/${dir}
                    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    set(result ${result} PARENT_SCOPE)
    set(errors ${errors} PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${OUT})
render_bodies(good 120)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "snowballs should render; got ${result}: ${errors}")
endif()
file(READ ${OUT}/good/stats.json stats)
string(JSON bodies GET "${stats}" physics bodies)
string(JSON steps GET "${stats}" physics steps)
string(JSON mean GET "${stats}" physics step_ms_mean)
string(JSON resting GET "${stats}" physics resting_bodies)
if(NOT bodies EQUAL 30 OR NOT steps EQUAL 240)
    message(FATAL_ERROR "stats.json physics: ${bodies} bodies, ${steps} steps (want 30, 240)")
endif()
if(mean LESS_EQUAL 0 OR resting GREATER 30)
    message(FATAL_ERROR "stats.json physics: step_ms_mean ${mean}, resting_bodies ${resting}")
endif()

# [[vehicle]]: vehicle_tracks renders, stats.json's physics has the vehicle, its distance and
# its sinkage.
execute_process(COMMAND ${SNOWCAP} render --scenario vehicle_tracks --frames 120 --no-progress
                        --set snow.resolution=128 --set view.width=96 --set view.height=54
                        --out ${OUT}/vehicle
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "vehicle_tracks should render; got ${result}: ${errors}")
endif()
file(READ ${OUT}/vehicle/stats.json stats)
string(JSON vehicles GET "${stats}" physics vehicles)
string(JSON driven GET "${stats}" physics by_vehicle truck distance_cm)
string(JSON sinkage GET "${stats}" physics by_vehicle truck mean_sinkage_cm)
if(NOT vehicles EQUAL 1 OR driven LESS 100 OR sinkage LESS 29 OR sinkage GREATER 31)
    message(FATAL_ERROR "stats.json physics: ${vehicles} vehicles, driven ${driven} cm, "
                        "sinkage ${sinkage} cm (want 1, > 100, 30)")
endif()

function(refused name expect)
    execute_process(COMMAND ${SNOWCAP} render --scenario press_release --frames 2 --no-progress
                            --set snow.resolution=64 ${ARGN} --out ${OUT}/${name}
                    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    expect_refused_render(${name} "${expect}")
endfunction()
refused(inside "key 'body\\[1\\]\\.position_cm': body 'b' starts 25\\.0 cm inside body 'a'"
        --set "body=[{name='a', position_cm=[0, 0, 50]}, {name='b', position_cm=[5, 0, 50]}]")
refused(mass "key 'body\\[0\\]\\.mass_kg': must be in \\(0, 10000\\], got 0"
        --set "body=[{name='a', mass_kg=0}]")
refused(named "key 'body\\[0\\]\\.name': body 'press' is already a deformer's name"
        --set "body=[{name='press'}]")
refused(wheel "key 'vehicle\\[0\\]\\.wheel_radius_cm': a wheel 500 cm across is larger than the chassis"
        --set "vehicle=[{name='t', wheel_radius_cm=250, waypoints_cm=[[0, 0, 0], [100, 0, 0]]}]")
refused(vehicle_mass "key 'vehicle\\[0\\]\\.mass_kg': must be in \\(0, 1e\\+05\\], got 0"
        --set "vehicle=[{name='t', mass_kg=0, waypoints_cm=[[0, 0, 0], [100, 0, 0]]}]")
# shape = "mesh": a file that is not there, a mesh with no volume, and no mesh at all.
refused(mesh_missing "key 'body\\[0\\]\\.mesh': .*no_such_mesh\\.obj: cannot open file"
        --set "body=[{name='m', shape='mesh', mesh='tests/data/no_such_mesh.obj'}]")
refused(mesh_flat "key 'body\\[0\\]\\.mesh': tests/data/flat_square\\.obj: its convex hull has no volume"
        --set "body=[{name='m', shape='mesh', mesh='tests/data/flat_square.obj'}]")
refused(mesh_none "key 'body\\[0\\]\\.shape': shape = \"mesh\" needs a mesh file"
        --set "body=[{name='m', shape='mesh'}]")
message(STATUS "bodies: snowballs rendered (${bodies} bodies, ${steps} steps); vehicle_tracks "
               "(${driven} cm driven); 8 bad inputs refused")
