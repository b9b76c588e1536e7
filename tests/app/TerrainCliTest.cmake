# [terrain] end to end: a heightmap and a DEM render with stats.json's terrain block; a file that
# cannot be the terrain is one line naming terrain.file, the file and the reason, exit 2, and no
# stats.json.
include(${CMAKE_CURRENT_LIST_DIR}/ExpectRefused.cmake)
function(render_terrain name)
    execute_process(COMMAND ${SNOWCAP} render --scenario press_release --frames 2 --no-progress
                            --set snow.resolution=64 ${ARGN}
                            --out ${OUT}/${name}
                    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    set(result ${result} PARENT_SCOPE)
    set(errors "${errors}" PARENT_SCOPE)
endfunction()

render_terrain(dem --set terrain.kind=dem --set terrain.file=tests/data/terrain/ridge_utm.tif)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/dem/stats.json)
    message(FATAL_ERROR "the DEM fixture should render; got ${result}: ${errors}")
endif()
file(READ ${OUT}/dem/stats.json stats)
string(JSON kind GET "${stats}" terrain kind)
string(JSON lowest GET "${stats}" terrain min_m)
string(JSON texels GET "${stats}" terrain texels)
string(JSON reference GET "${stats}" terrain capture_reference a)
if(NOT kind STREQUAL "dem" OR NOT texels EQUAL 3072 OR lowest LESS 1199.99 OR lowest GREATER 1200.01
   OR NOT reference STREQUAL "terrain")
    message(FATAL_ERROR "stats.json's terrain block: kind ${kind}, ${texels} texels, min ${lowest} m, "
                        "sim a ${reference}")
endif()

# terrain.export_snow_top: each sim's snow top beside stats.json, and its [terrain] table reads the
# PNG back (as a scenario of its own here: its file resolves beside it).
render_terrain(top --set terrain.kind=dem --set terrain.file=tests/data/terrain/ridge_utm.tif
               --set terrain.export_snow_top=true)
foreach(file snow_top_a.png snow_top_a.exr snow_top_a.toml snow_top_b.png snow_top_b.exr)
    if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/top/${file})
        message(FATAL_ERROR "terrain.export_snow_top should write ${file}; got ${result}: ${errors}")
    endif()
endforeach()
execute_process(COMMAND ${SNOWCAP} render --scenario ${OUT}/top/snow_top_a.toml
                        --frames 1 --no-progress --set snow.resolution=64 --out ${OUT}/top_again
                RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "the exported snow top should read back as a terrain; got ${result}: ${errors}")
endif()
file(READ ${OUT}/top_again/stats.json stats)
string(JSON kind GET "${stats}" terrain kind)
string(JSON texels GET "${stats}" terrain texels)
if(NOT kind STREQUAL "heightmap" OR NOT texels EQUAL 3072)
    message(FATAL_ERROR "the snow top read back: kind ${kind}, ${texels} texels")
endif()

# The terrain scenarios: mountain_path (draped walkers and a sled, A against the terrain, B
# against the plane) and hill_truck (a vehicle on Bullet's terrain ground) render; the truck
# drives and its wheels stand on the ground under the snow (30 cm below the top on the slope).
foreach(scenario mountain_path hill_truck)
    execute_process(COMMAND ${SNOWCAP} render --scenario ${scenario} --frames 60 --no-progress
                            --set snow.resolution=64 --set view.width=96 --set view.height=54
                            --out ${OUT}/${scenario}
                    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/${scenario}/stats.json)
        message(FATAL_ERROR "${scenario} should render; got ${result}: ${errors}")
    endif()
    file(READ ${OUT}/${scenario}/stats.json stats)
    string(JSON kind GET "${stats}" terrain kind)
    string(JSON a GET "${stats}" terrain capture_reference a)
    string(JSON b GET "${stats}" terrain capture_reference b)
    if(NOT kind STREQUAL "heightmap" OR NOT a STREQUAL "terrain" OR NOT b STREQUAL "plane")
        message(FATAL_ERROR "${scenario}: terrain ${kind}, sim a ${a}, sim b ${b}")
    endif()
endforeach()
string(JSON driven GET "${stats}" physics by_vehicle truck distance_cm)
string(JSON sinkage GET "${stats}" physics by_vehicle truck mean_sinkage_cm)
if(driven LESS 100 OR sinkage LESS 28 OR sinkage GREATER 32)
    message(FATAL_ERROR "hill_truck: driven ${driven} cm, sinkage ${sinkage} cm (want > 100, 30)")
endif()

# Everything else on the terrain: four sims (the grid), a sweep, and the Unreal card's
# Landscape section (scale, location and layout of the 64 x 64 ridge).
execute_process(COMMAND ${SNOWCAP} render --scenario mountain_path --frames 10 --no-progress
                        --set snow.resolution=64 --set sim.c.decay=0.99 --set sim.d.decay=0.9
                        --set view.width=96 --set view.height=54 --out ${OUT}/four
                RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "mountain_path with four sims should render; got ${result}: ${errors}")
endif()
file(READ ${OUT}/four/stats.json stats)
string(JSON d GET "${stats}" terrain capture_reference d)
if(NOT d STREQUAL "terrain" OR NOT EXISTS ${OUT}/four/sim_d.exr)
    message(FATAL_ERROR "four sims on the terrain: sim d ${d}, sim_d.exr written?")
endif()
execute_process(COMMAND ${SNOWCAP} sweep --scenario mountain_path --vary sim.a.decay=0.99,0.9
                        --at 0.25 --set snow.resolution=64 --tile 64x36 --no-progress
                        --out ${OUT}/sweep
                RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/sweep/sweep.csv)
    message(FATAL_ERROR "a sweep on the terrain should run; got ${result}: ${errors}")
endif()
execute_process(COMMAND ${SNOWCAP} export-ue --scenario mountain_path --sim a --out ${OUT}/card
                RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT}/card.json)
    message(FATAL_ERROR "export-ue on the terrain should write its card; got ${result}: ${errors}")
endif()
file(READ ${OUT}/card.json card)
string(JSON scaleX GET "${card}" Landscape Scale value 0)
string(JSON resolution GET "${card}" Landscape Overall_Resolution value 0)
file(READ ${OUT}/card.md markdown)
if(NOT scaleX EQUAL 37.5 OR NOT resolution EQUAL 64 OR NOT markdown MATCHES "## Landscape")
    message(FATAL_ERROR "the card's Landscape: scale x ${scaleX} (want 37.5), ${resolution} "
                        "vertices (want 64)")
endif()

function(refused name expect)
    render_terrain(${name} ${ARGN})
    expect_refused_render(${name} "${expect}")
endfunction()
refused(missing "key 'terrain\\.file': .*tests/data/no_such\\.png: cannot open file"
        --set terrain.kind=heightmap --set terrain.file=tests/data/no_such.png)
refused(not_png "key 'terrain\\.file': .*tests/data/tetrahedron\\.obj: not a PNG"
        --set terrain.kind=heightmap --set terrain.file=tests/data/tetrahedron.obj)
refused(folder "key 'terrain\\.file': .*tests/data: not a regular file \\(a directory\\)"
        --set terrain.kind=dem --set terrain.file=tests/data)
refused(degrees "key 'terrain\\.file': .*ridge_lonlat\\.tif: in a geographic CRS \\(degrees\\): reproject"
        --set terrain.kind=dem --set terrain.file=tests/data/terrain/ridge_lonlat.tif)
refused(none "key 'terrain\\.file': kind = \"heightmap\" needs a file here"
        --set terrain.kind=heightmap)
refused(mesh_folder "key 'terrain\\.file': .*tests/data.*(director|regular file)"
        --set terrain.kind=mesh --set terrain.file=tests/data)
refused(mesh_over_flat "key 'terrain\\.mesh_file': a mesh needs a terrain beneath it"
        --set terrain.mesh_file=tests/data/terrain/ramp_block.obj)
message(STATUS "terrain: the DEM rendered, its snow top read back, mountain_path and hill_truck "
               "rendered (the truck drove ${driven} cm), four sims, a sweep and the card; 7 bad files "
               "refused")
