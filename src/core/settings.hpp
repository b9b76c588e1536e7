#pragma once
// Every user-facing parameter of snowcap, as typed values with the seed's defaults.
// Loaded from config/default.toml, then a scenario file, then `--set key=value` overrides
// (see core/config.hpp). Key names are the TOML paths given in the comments.

#include <array>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

enum class DecayTiming { PerFrame, DeltaTime };          // "per_frame" | "delta_time"
enum class AccumulateMode { Add, Max };                  // "add" | "max"
enum class DeformerShape { Sphere, Box, Capsule };       // "sphere" | "box" | "capsule"
enum class NormalMode { HeightToNormal, Sobel };         // "height_to_normal" | "sobel"
enum class SurfaceGeometry { VertexGrid, Tessellation }; // "vertex" | "tessellation"
enum class ViewMode { Perspective, Top };                // "perspective" | "top"
// "per_pixel" | "prepass" | "separable"
enum class BlurMode { PerPixel, Prepass, Separable };
enum class BufferFormat { R16F, RGBA16F };  // "r16f" | "rgba16f"
enum class RefillMode { Multiply, Linear }; // "multiply" | "linear"
enum class RimMode { Off, On };             // "off" | "on"
// "fixed" | "follow_naive" | "follow_snapped"
enum class RegionMode { Fixed, FollowNaive, FollowSnapped };
// "custom" | "off" | "low" | "medium" | "high" | "ultra"
enum class Quality { Custom, Off, Low, Medium, High, Ultra };
// "foot" | "vehicle" | "animal" | "other": what made a print (the rgba16f format's B channel)
enum class ContactType { Foot, Vehicle, Animal, Other };

struct RunSettings {
    double fps = 60.0; // run.fps: fixed simulation rate of `render` (frames per simulated second)
    int frames = 600;  // run.frames
    double durationS = 0.0; // run.duration_s: when > 0, run this long at any fps (frames derived)
};

struct SnowSettings {
    int resolution = 2048;        // snow.resolution: power of two in [64, 8192]
    double orthoWidthCm = 2048.0; // snow.ortho_width_cm: side of the square capture region
    double surfaceZCm = 0.0;      // snow.surface_z_cm: undisturbed snow top
    double captureZCm = -100.0;   // snow.capture_z_cm: capture camera, relative to the surface
    double depthCm = 30.0;        // snow.depth_cm: snow thickness (ground = surface - depth)
    std::array<double, 2> regionCentreCm{0.0, 0.0}; // snow.region_centre_cm (GuidePosition X/Y)
    // snow.follow: the deformer a following region (sim.X.region) keeps centred; "" = the
    // player deformer if there is one, else the first deformer.
    std::string follow;
    // snow.quality: "custom" takes resolution, blur and surface density from their own keys;
    // the rungs off..ultra set them together ("off" allocates and runs nothing).
    Quality quality = Quality::Custom;
    // snow.idle_skip: skip capture + accumulate while nothing touches the region, the region
    // stands still and every sim has fully healed.
    bool idleSkip = false;
};

struct CaptureSettings {
    double offsetCm = 150.0;   // capture.offset_cm (PP_Depth_Snow Offset)
    double distanceCm = 250.0; // capture.distance_cm (Capture_Distance)
    double farCm = 2000.0;     // capture.far_cm: far plane of the capture camera
};

// M_Snow and MF_FoliageInteraction_Snow, per sim (sim.X.material.*). Defaults from seeds/004.
struct MaterialSettings {
    double maskMulti = 50.0; // mask_multi: Snow_Mask x Mask_Multi, then saturate
    double tgl = 0.95;       // tgl: RemapValueRange low (a full print)
    double tgh = 1.0;        // tgh: RemapValueRange high (untouched snow)
    // displacement_magnitude_cm: a full print sinks (tgh - tgl) x this; 0 = snow.depth_cm /
    // (tgh - tgl), so a full print reaches the ground (30 cm / 0.05 = 600 cm by default).
    double displacementMagnitudeCm = 0.0;
    int distanceSteps = 16;       // distance_steps: SpiralBlur rings
    int radialSteps = 8;          // radial_steps: taps per ring
    double rtBlurDistance = 0.0;  // rt_blur_distance: uv radius; 0 = from the resolution table
    double edgeControl = 0.02;    // edge_control: fade-out width at the region border (uv)
    double normalIntensity = 1.0; // normal_intensity: HeightToNormal strength
    double rimHeightCm = 2.0;     // rim_height_cm: crest of the berm around a print (rims = "on")
    double rimWidthCm = 12.0;     // rim_width_cm: how far the berm reaches out from a print
};

struct SimSettings {
    double decay = 0.999;                             // sim.X.decay: (0, 1], Mask_Attenuation
    DecayTiming decayTiming = DecayTiming::DeltaTime; // sim.X.decay_timing
    AccumulateMode accumulate = AccumulateMode::Add;  // sim.X.accumulate
    bool halfSafe = true; // sim.X.half_safe: exact half rounding + decay quanta (docs/pipeline.md)
    int resolution = 0;   // sim.X.resolution: 0 = snow.resolution; else a power of two [64, 8192]
    BufferFormat format = BufferFormat::R16F;        // sim.X.format: rgba16f adds age (G), type (B)
    NormalMode normals = NormalMode::HeightToNormal; // sim.X.normals
    RegionMode region = RegionMode::Fixed;           // sim.X.region
    RimMode rims = RimMode::Off;                     // sim.X.rims
    RefillMode refill = RefillMode::Multiply;        // sim.X.refill: decay (x) or linear (-)
    double refillRatePerS = 0.1; // sim.X.refill_rate: linear refill, mask units per second
    // sim.X.decay_keys = [[t, decay], ...]: decay animated on the scenario timeline (a blizzard
    // that refills faster); linear between keys, held outside. Empty: sim.X.decay throughout.
    struct DecayKey {
        double timeS = 0.0;
        double decay = 0.999;
        bool operator==(const DecayKey&) const = default;
    };
    std::vector<DecayKey> decayKeys;
    // sim.X.blur: "per_pixel" evaluates the spiral blur wherever Snow_Mask is needed (the UE
    // material, the reference); "prepass" blurs the buffer once per step and the material takes
    // one tap.
    BlurMode blur = BlurMode::PerPixel;
    SurfaceGeometry displacement = SurfaceGeometry::VertexGrid; // sim.X.displacement
    MaterialSettings material;                                  // sim.X.material
};

// The shared look of the scene (look.*): MF_Landscape_Ground layers and the light.
struct LookSettings {
    glm::vec3 snowColour{0.90f, 0.93f, 0.97f};   // snow_colour: fresh snow base colour
    glm::vec3 packedColour{0.66f, 0.72f, 0.80f}; // packed_colour: compressed snow in prints
    glm::vec3 groundColour{0.30f, 0.24f, 0.18f}; // ground_colour: soil under the snow
    glm::vec3 ssSnow{0.50f, 0.70f, 1.00f};       // ss_snow: subsurface tint of snow (SS_Snow)
    glm::vec3 ssGround{0.30f, 0.22f, 0.16f};     // ss_ground: subsurface tint of ground
    double wrap = 0.35;                          // wrap: wrap-lighting amount (0 = Lambert)
    double groundReveal = 0.9;  // ground_reveal: Snow_Mask above which ground can show
    double detailNormal = 0.25; // detail_normal: strength of the snow layer's own bumps
    glm::vec3 sunDirection{-0.6f, -0.45f, 0.35f}; // sun_direction: towards the sun
    glm::vec3 sunColour{1.00f, 0.96f, 0.88f};     // sun_colour (linear, x intensity)
    glm::vec3 skyColour{0.42f, 0.55f, 0.78f};     // sky_colour: ambient from above
    // MF_Landscape_Ground's OR output per layer, [occlusion, roughness]: the ambient light left
    // in the layer's deepest baked hollows (1 = none) and its GGX roughness.
    std::array<double, 2> snowOr{0.85, 0.6};   // snow_or (Snow_OR): fresh snow
    std::array<double, 2> packedOr{0.8, 0.35}; // packed_or: pressed snow, smoother
    std::array<double, 2> groundOr{0.6, 0.9};  // ground_or (Ground_OR)
    double creviceOcclusion = 0.6; // crevice_occlusion: print-depth occlusion strength (0 = off)
    bool specular = true;          // specular: GGX lobe (off: diffuse, wrap and ambient only)
    bool sparkle = false;          // sparkle: glints seeded in world space
    bool deformerShadows = true;   // deformer_shadows: the sun's shadow map of the deformers
};

// The camera of `render`'s final.png (view.*).
struct ViewSettings {
    int width = 1280, height = 720;        // width, height: the whole image (A | B side by side)
    ViewMode mode = ViewMode::Perspective; // mode
    std::array<double, 3> targetCm{0.0, 0.0, 0.0}; // target_cm
    double distanceCm = 0.0;                       // distance_cm: 0 = fit the region
    double yawDeg = -60.0;  // yaw_deg: around Z, 0 = looking along +Y... from -Y
    double pitchDeg = 38.0; // pitch_deg: above the horizon
    double fovDeg = 45.0;   // fov_deg: vertical field of view
};

// A deformer: a procedural shape or a mesh file, and how it moves (docs/meshes.md, section 11).
// name is required; so is what its path kind needs (path, waypoints_cm or circle_radius_cm).
struct DeformerSettings {
    // path_kind: "keys" (timed keyframes) | "polyline" (waypoints at a speed) | "circle"
    enum class PathKind { Keys, Polyline, Circle };
    // path_mode: "once" (hold the end) | "loop" (start over) | "ping_pong" (back and forth);
    // Auto (the key left out): a circle loops, keys and polylines play once
    enum class PathMode { Auto, Once, Loop, PingPong };
    // placement: "ground" (path z is the height of the model's lowest point above the ground
    // under the snow, surface_z_cm - depth_cm) | "absolute" (path z is world z; a procedural
    // shape's centre goes there, a mesh's lowest point)
    enum class Placement { Ground, Absolute };
    // root_motion: "path" (the path carries the deformer) | "in_place" (it stays at its path's
    // start, its clip playing on the spot)
    enum class RootMotion { Path, InPlace };
    enum class CircleDirection { Ccw, Cw }; // circle_direction: "ccw" | "cw" (seen from above)

    std::string name;                            // name
    DeformerShape shape = DeformerShape::Sphere; // shape
    glm::vec3 sizeCm{30.0f, 30.0f, 30.0f};       // size_cm: sphere radius = x; box half extents;
                                                 // capsule radius = x, half length = y (along X)
    struct Key {
        double timeS = 0.0;
        glm::vec3 positionCm{0.0f};
    };
    PathKind pathKind = PathKind::Keys; // path_kind
    // path = [[t, x, y, z], ...] (keys): linear between keys, times non-decreasing, two keys
    // with the same time make a jump
    std::vector<Key> path;
    std::vector<glm::vec3> waypointsCm; // waypoints_cm = [[x, y, z], ...] (polyline, >= 2)
    double speedCmS = 100.0;            // speed_cm_s: polyline, circle and player speed
    glm::vec3 circleCentreCm{0.0f};     // circle_centre_cm = [x, y, z]
    double circleRadiusCm = 0.0;        // circle_radius_cm (circle: required, > 0)
    double circleStartDeg = 0.0;        // circle_start_deg: where it starts, from +X towards +Y
    CircleDirection circleDirection = CircleDirection::Ccw; // circle_direction
    double pathStartS = 0.0; // path_start_s: polyline and circle wait at their start until then
    PathMode pathMode = PathMode::Auto;       // path_mode
    Placement placement = Placement::Ground;  // placement
    RootMotion rootMotion = RootMotion::Path; // root_motion
    bool player = false; // player: driven by DeformerSet::drivePlayer instead of its path (one)
    // mesh: a file Assimp reads (relative to the repository root, or absolute) instead of the
    // procedural shape; its lowest point goes to the path's z.
    std::string mesh;
    double scale = 1.0;          // scale: uniform, > 0, before rotation and fit
    double fitHeightCm = 0.0;    // fit_height_cm: scale the mesh to this height (0: as is)
    glm::vec3 rotationDeg{0.0f}; // rotation_deg: Euler X Y Z applied to the mesh
    glm::vec3 offsetCm{0.0f};    // offset_cm: moves the mesh from its placement (its own frame)
    std::string clip;            // clip: skinned meshes play this animation clip by name
    int clipIndex = -1;          // clip_index: ... or by its index in the file (-1: unset)
    double clipSpeed = 1.0;      // clip_speed: playback rate of the clip
    bool facePath = false;       // face_path: turn the mesh's +X along the path's motion
    ContactType contact = ContactType::Other; // contact: what kind of print it leaves
};

struct ProbeSettings {
    std::string name;                        // name
    std::array<double, 2> worldCm{0.0, 0.0}; // at_cm = [x, y]
};

// `render` as a soak test ([soak]): random deformer motion, resets, resolution and parameter
// changes mid-run, every buffer checked for NaN/Inf and range, GL objects and RSS for growth.
// Event periods are means: each step an event fires with probability 1/N (0 = never).
struct SoakSettings {
    bool enabled = false;      // soak.enabled: `render` runs the soak driver (src/app/soak.cpp)
    int seed = 1;              // soak.seed: the run's random sequence (same seed, same run)
    int resetEvery = 500;      // soak.reset_every: mean steps between resets of both sims
    int resizeEvery = 1000;    // soak.resize_every: mean steps between resolution/region changes
    int paramsEvery = 200;     // soak.params_every: mean steps between sim parameter changes
    int teleportEvery = 300;   // soak.teleport_every: mean steps between deformer jumps
    int checkEvery = 1;        // soak.check_every: read every buffer back each N steps
    int warmupSteps = 500;     // soak.warmup_steps: objects and RSS are measured from here on
    double rssSlackMiB = 32.0; // soak.rss_slack_mib: allowed RSS growth after warm-up
};

struct Settings {
    RunSettings run;
    SnowSettings snow;
    CaptureSettings capture;
    std::array<SimSettings, 2> sims; // sim.a, sim.b
    LookSettings look;
    ViewSettings view;
    std::vector<DeformerSettings> deformers; // [[deformer]]
    std::vector<ProbeSettings> probes;       // [[probe]]
    SoakSettings soak;                       // [soak]
};

} // namespace snowcap
