#pragma once
// The case groups of `snowcap bench`. Every group builds what it times through the public
// SnowField / SceneRenderer / Settings API, so switches added by other work (buffer formats,
// blur modes, quality rungs, idle skip) are benched as soon as they exist; a group that finds a
// switch without effect says so in the case's note instead of pretending.

#include "bench/bench_harness.hpp"
#include "gpu/gpu_mesh.hpp"
#include "gpu/shader_library.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace snowcap::bench {

struct Screen {
    int width = 1280, height = 720;
    std::string label() const { return std::to_string(width) + "x" + std::to_string(height); }
};

struct Context {
    Harness& harness;
    gpu::ShaderLibrary& shaders;
    std::vector<std::string> overrides; // the user's --set, applied after the bench's own
    bool llvmpipe = false;
    const gpu::ShaderProgram* copyProgram = nullptr;
    const gpu::ShaderProgram* captureProgram = nullptr;
    gpu::VertexArray emptyArray;
    // Filled by the groups for the report.
    nlohmann::json memory = nlohmann::json::array();
    std::vector<std::string> notes;
};

// Loads the shared programs; one line on failure.
std::optional<std::string> prepare(Context& context);

// copy, clear, capture (1 and 4 dense deformers), accumulate (every mode x format),
// capture_accumulate, step_ab and each non-per-pixel blur mode's own pass at one buffer size.
std::optional<std::string> bufferCases(Context& context, int size);
// The contact pass (bench_contact.cpp): accumulate_fused (1, 2, 4, 8 sims sharing a capture,
// d16 and d32f depth) and capture_accumulate 4x50k_proxy at one buffer size.
std::optional<std::string> contactCases(Context& context, int size);
// capture time against deformer triangles at one buffer size.
std::optional<std::string> triangleCases(Context& context, int size,
                                         const std::vector<long long>& triangles);
// surface_vertex, surface_tess and every blur mode drawn over one screen; PSNR of each blur
// mode's final image against per_pixel on `psnrScreen`.
std::optional<std::string> screenCases(Context& context, const std::vector<Screen>& screens,
                                       const Screen& psnrScreen);
// surface_vertex at one screen for several buffer resolutions: time against grid vertices.
std::optional<std::string> gridCases(Context& context, const Screen& screen,
                                     const std::vector<int>& resolutions);
// capture_terrain (bench_terrain.cpp): the capture against seeded hills (capture_reference =
// "terrain") and the plane capture of the same spheres, in the same run, at one buffer size;
// the terrain case's extra.ratio_to_plane is the ratio of their medians.
std::optional<std::string> terrainCases(Context& context, int size);
// crowd: `counts` skinned bipeds (one [[crowd]], one instanced draw) captured and accumulated
// at one buffer size; the CPU cost of their poses and the marginal cost of one more deformer.
std::optional<std::string> crowdCases(Context& context, int size, const std::vector<int>& counts);
// foliage: `tufts` bundled grass tufts swaying (one [[foliage]], one instanced draw) captured and
// accumulated at one buffer size.
std::optional<std::string> foliageCases(Context& context, int size, int tufts);
// weather (bench_weather.cpp): one weather tick on a snowpack sim in three skies (snow_melt,
// storm, thaw_wind) at one buffer size, against the copy there.
std::optional<std::string> weatherCases(Context& context, int size);
// physics (bench_physics.cpp): a frame's step with Bullet in it (no bodies, 100 resting, 100
// rolling, 1 vehicle) at one buffer size: its ratio to the copy, Bullet's ms per step, and what
// the bodies add over the step without them.
std::optional<std::string> physicsCases(Context& context, int size);
// frame_ab (viewer defaults and the UE-faithful per-pixel blur), every quality rung and idle
// skip on/off, whole frames at one screen.
std::optional<std::string> frameCases(Context& context, const Screen& screen);

} // namespace snowcap::bench
