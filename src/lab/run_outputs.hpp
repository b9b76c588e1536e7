#pragma once
// What a headless run leaves behind, as files: stats.json (the run's settings, the buffers'
// statistics and the probe curves of lab/run_stats.hpp), the persistent buffers and capture
// depth as PFM and OpenEXR (lab/exr_outputs.hpp), and the pictures of lab/run_pictures.hpp.

#include "core/settings.hpp"
#include "lab/run_stats.hpp"
#include "physics/physics_world.hpp"
#include "platform/gl_context.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <toml++/toml.h>
#include <vector>

namespace snowcap {

// A TOML value as JSON: tables become objects, arrays arrays, values stay what they are
// (stats.json's `params`, plan.json's resolved settings).
nlohmann::json tomlToJson(const toml::node& node);

// Every file of the run into `dir`; each one whole is appended to `written` (when given), in
// the order written, for the command's closing line. `physics`: stats.json's "physics"; `net`:
// its "net" (a networked session's side, docs/network.md), left out when null.
std::optional<std::string>
writeRunOutputs(const std::filesystem::path& dir, const Settings& settings, const GlInfo& gl,
                SnowField& field, const RunRecorder& recorder, SceneRenderer& renderer,
                std::span<const DeformerInstance> deformers, SurfaceOutput output,
                double wallSeconds, std::vector<std::filesystem::path>* written = nullptr,
                const std::optional<PhysicsReport>& physics = {},
                const nlohmann::json& net = nullptr);

// The files a command wrote as one list for its closing line: those in `dir` by their names
// after "DIR/: ", the others by their paths; "a, b and c".
std::string outputList(const std::filesystem::path& dir,
                       const std::vector<std::filesystem::path>& files);

// stats.json's "physics" (a scenario with bodies or vehicles): bodies, vehicles, steps,
// step_ms_mean, resting_bodies, support (and with a snowpack support its updates and reads),
// and by_vehicle: per vehicle its distance_cm, mean_sinkage_cm and passes (per lap: sinkage_cm
// into the snow met, below_surface_cm, contacts).
nlohmann::json physicsJson(const PhysicsReport& report);

} // namespace snowcap
