#pragma once
// Every binding slot a shader declares, in one table: the uniform blocks, storage buffers and
// texture units by the name the GLSL gives them. The C++ side binds through these constants
// (a pass's bindings, gpu/pass_record.hpp), and every program the shader library links is
// checked against the table (checkProgramSlots): a sampler, block or buffer at another slot
// than declared here, or one the table does not know, fails the load with one line naming the
// program, the resource and both slots. So a slot is written in C++ once, and the GLSL's
// `layout(binding = N)` can no longer drift from it unnoticed.
//
// Slots of different kinds are separate GL namespaces (texture unit 2 and uniform block 2 do not
// meet), and two names may share a slot when no program uses both (Accumulate and ViewParams).

#include "gpu/objects.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap::gpu {

enum class BindingKind { Texture, Image, StorageBuffer, UniformBlock };
const char* toString(BindingKind kind);

namespace slot {
// Uniform blocks (std140).
inline constexpr unsigned kSnowParams = 0;    // shaders/snow/snow_params.glsl
inline constexpr unsigned kViewParams = 1;    // shaders/common/view_params.glsl
inline constexpr unsigned kAccumulate = 1;    // shaders/snow/accumulate.frag
inline constexpr unsigned kShadowParams = 2;  // shaders/common/shadow_map.glsl
inline constexpr unsigned kSnowpack = 3;      // shaders/snowpack/snowpack_block.glsl
inline constexpr unsigned kWeather = 4;       // shaders/weather/weather_block.glsl
inline constexpr unsigned kTerrainParams = 5; // shaders/common/terrain.glsl
// Storage buffers (std430).
inline constexpr unsigned kJointPalette = 3;       // shaders/common/deformer_vertex.glsl
inline constexpr unsigned kDeformerInstances = 4;  // shaders/common/deformer_vertex.glsl
inline constexpr unsigned kDeformerRecordList = 5; // shaders/common/deformer_vertex.glsl
inline constexpr unsigned kWind = 6;               // shaders/common/wind.glsl
inline constexpr unsigned kTestLocalPositions = 7; // tests/scene/shaders/wind_offset.vert
inline constexpr unsigned kPloughQuanta = 0;       // shaders/snowpack/snowpack_block.glsl
inline constexpr unsigned kPloughInside = 1;       // shaders/snowpack/snowpack_block.glsl
inline constexpr unsigned kPloughReceived = 2;     // shaders/snowpack/snowpack_block.glsl
inline constexpr unsigned kWeatherTotals = 9;      // shaders/weather/weather_totals.comp
inline constexpr unsigned kCarriedOut = 10;        // shaders/snowpack/carry_out.comp
inline constexpr unsigned kTileState = 3;          // shaders/snowpack/snowpack_tiles.glsl
inline constexpr unsigned kTileLists = 4;          // shaders/snowpack/snowpack_tiles.glsl
// Images (the snowpack's state, shaders/snowpack/*.comp).
inline constexpr unsigned kSnowpackState = 0;    // plough_resolve.comp
inline constexpr unsigned kSnowpackPrevious = 0; // compact.comp, slump.comp
inline constexpr unsigned kSnowpackNext = 1;     // compact.comp, slump.comp
inline constexpr unsigned kSnowpackGround = 2;   // slump.comp over [terrain]
inline constexpr unsigned kDriftRecordView = 0;  // shaders/weather/drift_record_view.comp
// Texture units.
inline constexpr unsigned kCaptureDepth = 0;     // shaders/snow/accumulate.frag
inline constexpr unsigned kShiftSource = 1;      // shaders/snow/shift.frag
inline constexpr unsigned kPersistentBuffer = 2; // shaders/snow/snow_mask.glsl
inline constexpr unsigned kBlurSource = 2;       // shaders/snow/blur_separable.frag
inline constexpr unsigned kCaptureContact = 3;   // shaders/snow/accumulate.frag
inline constexpr unsigned kPrevious = 4;         // accumulate.frag: previous[i] on kPrevious + i
inline constexpr unsigned kLandscapeDetail = 4;  // shaders/surface/material.glsl
inline constexpr unsigned kDeformerShadow = 5;   // shaders/common/shadow_map.glsl
inline constexpr unsigned kSurfaceDepth = 6;     // shaders/surface/surface.frag (deferred)
inline constexpr unsigned kSnowpackStateTexture = 7; // shaders/snow/snow_mask.glsl
inline constexpr unsigned kGroundTexture = 8;        // shaders/surface/material.glsl
inline constexpr unsigned kCaptureTerrain = 9;       // shaders/capture/capture.frag
inline constexpr unsigned kTerrainField = 10;        // shaders/common/terrain.glsl
inline constexpr unsigned kLowColour = 0;            // shaders/surface/upsample.frag
inline constexpr unsigned kLowDepth = 1;             // shaders/surface/upsample.frag
inline constexpr unsigned kDebugSource = 0;          // debug/copy.frag, viewer/colour_map.frag
inline constexpr unsigned kDebugOther = 1;           // viewer/colour_map.frag
inline constexpr unsigned kDebugSourceDepth = 2;     // viewer/colour_map.frag
inline constexpr unsigned kDebugSnowBuffer = 0;      // debug/buffer_view.frag
inline constexpr unsigned kWeatherState = 0;         // shaders/weather/*.frag
inline constexpr unsigned kDriftFlux = 1;            // drift_apply.frag, weather_totals.comp
inline constexpr unsigned kDriftRecord = 2;          // drift_apply.frag, drift_record_view.comp
inline constexpr unsigned kWeatherCrossed = 3;       // shaders/weather/weather_totals.comp
inline constexpr unsigned kWindTerrain = 4;          // drift_flux.frag over [terrain]
} // namespace slot

// One row of the table: the GLSL name (a block's or buffer's block name, a sampler's uniform
// name; an array by its name, its elements on consecutive slots).
struct SlotDeclaration {
    std::string_view glslName;
    BindingKind kind;
    unsigned slot;
};
std::span<const SlotDeclaration> declaredSlots();
// The declared slot of `glslName` as `kind`, if the table has it.
std::optional<unsigned> declaredSlot(std::string_view glslName, BindingKind kind);

// Every active sampler, image, uniform block and storage block of a linked program: its GLSL
// name, kind and the slot it is bound at (an array once, at its first element).
struct ProgramSlot {
    std::string glslName;
    BindingKind kind;
    unsigned slot;
};
std::vector<ProgramSlot> programSlots(GLuint program);

// Checks every active sampler, image, uniform block and storage block of a linked `program`
// against the table. Returns the first mismatch as one line ("PROGRAM: sampler 'x' is bound at
// 3, gpu/binding_slots.hpp declares 2"), or nothing when all agree.
std::optional<std::string> checkProgramSlots(GLuint program, std::string_view programName);

} // namespace snowcap::gpu
