#pragma once
// Every user-facing parameter of snowcap, as typed values with the seed's defaults.
// Loaded from config/default.toml, then a scenario file, then `--set key=value` overrides
// (see core/config.hpp). Key names are the TOML paths given in the comments.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace snowcap {

enum class DecayTiming { PerFrame, DeltaTime };    // "per_frame" | "delta_time"
enum class AccumulateMode { Add, Max };            // "add" | "max"
enum class DeformerShape { Sphere, Box, Capsule }; // "sphere" | "box" | "capsule"

struct RunSettings {
    double fps = 60.0; // run.fps: fixed simulation rate of `render` (frames per simulated second)
    int frames = 600;  // run.frames
};

struct SnowSettings {
    int resolution = 2048;         // snow.resolution: power of two in [64, 8192]
    double orthoWidthCm = 2048.0;  // snow.ortho_width_cm: side of the square capture region
    double surfaceZCm = 0.0;       // snow.surface_z_cm: undisturbed snow top
    double captureZCm = -100.0;    // snow.capture_z_cm: capture camera, relative to the surface
    double depthCm = 30.0;         // snow.depth_cm: snow thickness (ground = surface - depth)
    std::array<double, 2> regionCentreCm{0.0, 0.0}; // snow.region_centre_cm (GuidePosition X/Y)
};

struct CaptureSettings {
    double offsetCm = 150.0;   // capture.offset_cm (PP_Depth_Snow Offset)
    double distanceCm = 250.0; // capture.distance_cm (Capture_Distance)
    double farCm = 2000.0;     // capture.far_cm: far plane of the capture camera
};

struct SimSettings {
    double decay = 0.999;                          // sim.X.decay: (0, 1], Mask_Attenuation
    DecayTiming decayTiming = DecayTiming::DeltaTime; // sim.X.decay_timing
    AccumulateMode accumulate = AccumulateMode::Add;  // sim.X.accumulate
    bool halfSafe = true; // sim.X.half_safe: exact half rounding + decay quanta (docs/pipeline.md)
    int resolution = 0;   // sim.X.resolution: 0 = snow.resolution; else a power of two [64, 8192]
};

// A procedural deformer moving along keyframes: linear between keys, the first key held before
// its time and the last after it; two keys with the same time make a jump. name and path are
// required.
struct DeformerSettings {
    std::string name;                          // name
    DeformerShape shape = DeformerShape::Sphere; // shape
    glm::vec3 sizeCm{30.0f, 30.0f, 30.0f};     // size_cm: sphere radius = x; box half extents;
                                               // capsule radius = x, half length = y (along X)
    struct Key {
        double timeS = 0.0;
        glm::vec3 positionCm{0.0f};
    };
    std::vector<Key> path; // path = [[t, x, y, z], ...], times non-decreasing, at least one key
};

struct ProbeSettings {
    std::string name;         // name
    std::array<double, 2> worldCm{0.0, 0.0}; // at_cm = [x, y]
};

struct Settings {
    RunSettings run;
    SnowSettings snow;
    CaptureSettings capture;
    std::array<SimSettings, 2> sims; // sim.a, sim.b
    std::vector<DeformerSettings> deformers; // [[deformer]]
    std::vector<ProbeSettings> probes;       // [[probe]]
};

} // namespace snowcap
