# export-ue carries the ground (docs/unreal.md §6): with kind = "texture" the card names the PNG
# it copied beside itself (FILE_ground.png, the source's bytes) and its tile; another kind names
# its albedo and copies nothing; a file the field would refuse is one line naming ground.texture,
# exit 2, and no card is written.
function(export name)
    file(REMOVE_RECURSE ${OUT}/${name})
    execute_process(COMMAND ${SNOWCAP} export-ue --scenario thaw --sim b ${ARGN}
                            --out ${OUT}/${name}/card
                    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
    set(result ${result} PARENT_SCOPE)
    set(errors "${output}${errors}" PARENT_SCOPE)
endfunction()

export(texture --set ground.kind=texture --set ground.texture=assets/ground/pebbles.png
       --set ground.texture_tile_cm=80)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "export-ue with a ground texture failed (${result}): ${errors}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${SOURCE}/assets/ground/pebbles.png
                        ${OUT}/texture/card_ground.png RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
    message(FATAL_ERROR "card_ground.png is not the ground texture's bytes")
endif()
file(READ ${OUT}/texture/card.json card)
string(JSON kind GET "${card}" Ground Kind value)
string(JSON named GET "${card}" Ground Ground_Texture value)
string(JSON tile GET "${card}" Ground Ground_Texture_Tile value)
if(NOT kind STREQUAL "texture" OR NOT named STREQUAL "card_ground.png" OR NOT tile EQUAL 80)
    message(FATAL_ERROR "the card's Ground: kind '${kind}', texture '${named}', tile '${tile}'")
endif()
file(READ ${OUT}/texture/card.md md)
if(NOT md MATCHES "\n## Ground\n" OR NOT md MATCHES "card_ground\\.png")
    message(FATAL_ERROR "card.md has no Ground table naming card_ground.png")
endif()

# The editor script imports the copied PNG and sets it and its tile on the instance.
file(READ ${OUT}/texture/card.py py)
if(NOT py MATCHES "os\\.path\\.join\\(here, 'card_ground\\.png'\\)"
   OR NOT py MATCHES "'Ground_Texture'" OR NOT py MATCHES "'Ground_Texture_Tile': 80")
    message(FATAL_ERROR "card.py does not import card_ground.png as Ground_Texture:\n${py}")
endif()
if(PYTHON)
    execute_process(COMMAND ${PYTHON} -m py_compile ${OUT}/texture/card.py RESULT_VARIABLE bad
                    ERROR_VARIABLE why)
    if(NOT bad EQUAL 0)
        message(FATAL_ERROR "card.py (texture ground) does not compile: ${why}")
    endif()
endif()

export(mud) # thaw's own ground
if(NOT result EQUAL 0 OR EXISTS ${OUT}/mud/card_ground.png)
    message(FATAL_ERROR "export-ue over mud: ${result}, or it copied a texture: ${errors}")
endif()
file(READ ${OUT}/mud/card.json card)
string(JSON kind GET "${card}" Ground Kind value)
string(JSON red GET "${card}" Ground Ground_Albedo value 0)
string(SUBSTRING "${red}" 0 4 red) # CMake prints the double 0.24 as 0.23999999999999999
if(NOT kind STREQUAL "mud" OR NOT (red STREQUAL "0.24" OR red STREQUAL "0.23"))
    message(FATAL_ERROR "the mud card's Ground: kind '${kind}', albedo red '${red}'")
endif()
file(READ ${OUT}/mud/card.py py)
if(NOT py MATCHES "'Ground_Albedo', unreal\\.LinearColor\\(0\\.24, 0\\.17, 0\\.11, 1\\.0\\)"
   OR NOT py MATCHES "'Ground_Wet_Darkening': 0\\.55")
    message(FATAL_ERROR "card.py does not set mud's Ground_Albedo and wet darkening:\n${py}")
endif()

export(not_png --set ground.kind=texture --set ground.texture=tests/data/tetrahedron.obj)
if(NOT result EQUAL 2 OR NOT errors MATCHES "key 'ground\\.texture': .*tetrahedron\\.obj: not a PNG"
   OR EXISTS ${OUT}/not_png/card.json OR EXISTS ${OUT}/not_png/card_ground.png)
    message(FATAL_ERROR "a bad ground file should be refused in one line, exit 2, no card: "
                        "${result}: ${errors}")
endif()
message(STATUS "export-ue ground: the texture copied and named, mud's albedo, a bad file refused")
