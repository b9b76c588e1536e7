#pragma once
// Every user-facing parameter of snowcap, as typed values. Each member is one key of the
// parameter table (core/params_table*.cpp), which holds its default, range, unit and doc: a
// default-constructed struct holds the table's defaults. Loaded from config/default.toml, then
// a scenario file, then `--set key=value` overrides (core/config.hpp). The key names are the
// TOML paths given in the comments; docs/parameters.md is the reference.

#include "core/settings_net.hpp"
#include "core/settings_options.hpp"
#include "core/settings_terrain.hpp"
#include "core/settings_weather.hpp"

#include <array>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap {

// The most sims one field holds: sim.a .. sim.h.
constexpr int kMaxSims = 8;
// snow.follow names at most this many observers (one window each per following sim).
constexpr int kMaxObservers = 4;
// A sim's key and label: "a" .. "h" (sim.a is Settings::sims[0]).
constexpr std::string_view simName(int index) {
    return std::string_view("abcdefgh").substr(static_cast<std::size_t>(index), 1);
}

struct RunSettings {
    RunSettings();      // the parameter table's defaults (params.cpp)
    double fps{};       // run.fps: fixed simulation rate of `render` (frames per simulated second)
    int frames{};       // run.frames
    double durationS{}; // run.duration_s: when > 0, run this long at any fps (frames derived)
    double finalAtS{};  // run.final_at_s: when > 0, final.png shows this moment, not the end
};

struct SnowSettings {
    SnowSettings();        // the parameter table's defaults (params.cpp)
    int resolution{};      // snow.resolution: power of two in [64, 8192]
    double orthoWidthCm{}; // snow.ortho_width_cm: side of the square capture region
    double surfaceZCm{};   // snow.surface_z_cm: undisturbed snow top
    double captureZCm{};   // snow.capture_z_cm: capture camera, relative to the surface
    double depthCm{};      // snow.depth_cm: snow thickness (ground = surface - depth)
    std::array<double, 2> regionCentreCm{}; // snow.region_centre_cm (GuidePosition X/Y)
    // snow.follow: the observers, by deformer name (at most kMaxObservers): a follow_snapped
    // sim keeps one window on each, a follow_naive one on the first; empty = the player
    // deformer if there is one, else the first deformer (docs/world.md, section 6).
    std::vector<std::string> follow;
    // snow.quality: "custom" takes resolution, blur and surface density from their own keys;
    // the rungs off..ultra set them together ("off" allocates and runs nothing).
    Quality quality{};
    // snow.idle_skip: skip capture + accumulate while nothing touches the region, the region
    // stands still and every sim has fully healed.
    bool idleSkip{};
    // snow.world_store_mib: cap of each sim's world tile store (sim.X.persistence = "world")
    int worldStoreMib{};
    // snow.world_compress: lossless packing of untouched world tiles; the cap counts packed bytes
    WorldCompression worldCompress{};
};

struct CaptureSettings {
    CaptureSettings();   // the parameter table's defaults (params.cpp)
    double offsetCm{};   // capture.offset_cm (PP_Depth_Snow Offset)
    double distanceCm{}; // capture.distance_cm (Capture_Distance)
    double farCm{};      // capture.far_cm: far plane of the capture camera
    // capture.proxy: "auto" draws a simplified proxy of every deformer mesh in the capture
    // (colour passes keep the full mesh); "off" captures the full meshes.
    CaptureProxyMode proxy{};
    // capture.subset: "auto" draws, for each instance that stands upright and low enough, only
    // the triangles of its mesh that can reach the snow's depth above its lowest point over its
    // clips, and skips instances that cannot reach the mask at all; "off" draws them all.
    CaptureSubsetMode subset{};
    // capture.proxy_error_cm: the largest error a proxy may have, world cm; 0 = half a texel of
    // the finest capture (snow.ortho_width_cm / resolution / 2).
    double proxyErrorCm{};
    // capture.depth: the depth texture's format ("auto" = d16 where far / 65535 is fine enough).
    CaptureDepth depth{};
};

// M_Snow and MF_FoliageInteraction_Snow, per sim (sim.X.material.*).
struct MaterialSettings {
    MaterialSettings(); // the parameter table's defaults (params.cpp)
    double maskMulti{}; // mask_multi: Snow_Mask x Mask_Multi, then saturate
    double tgl{};       // tgl: RemapValueRange low (a full print)
    double tgh{};       // tgh: RemapValueRange high (untouched snow)
    // displacement_magnitude_cm: a full print sinks (tgh - tgl) x this; 0 = snow.depth_cm /
    // (tgh - tgl), so a full print reaches the ground (30 cm / 0.05 = 600 cm by default).
    double displacementMagnitudeCm{};
    int distanceSteps{};      // distance_steps: SpiralBlur rings
    int radialSteps{};        // radial_steps: taps per ring
    double rtBlurDistance{};  // rt_blur_distance: uv radius; 0 = from the resolution table
    double edgeControl{};     // edge_control: fade-out width at the region border (uv)
    double normalIntensity{}; // normal_intensity: HeightToNormal strength
    double rimHeightCm{};     // rim_height_cm: crest of the berm around a print (rims = "on")
    double rimWidthCm{};      // rim_width_cm: how far the berm reaches out from a print
};

// The snowpack model, per sim (sim.X.snowpack.*, docs/snowpack.md): the initial column and the
// constants of its laws (src/core/snowpack_laws.hpp), each with its published source there.
struct SnowpackSettings {
    SnowpackSettings();       // the parameter table's defaults (params.cpp)
    double depthCm{};         // depth_cm: initial depth; the ground lies this far below
                              // snow.surface_z_cm
    double densityKgM3{};     // density_kg_m3: initial (settled fresh snow) density
    double maxDensityKgM3{};  // max_density_kg_m3: what a contact compacts a column to
    double reposeFreshDeg{};  // repose_fresh_deg: angle of repose of fresh snow
    double reposeDenseDeg{};  // repose_dense_deg: ... of snow at max_density_kg_m3
    double slumpRateHz{};     // slump_rate_hz: slump iterations per simulated second
    double ploughReachCm{};   // plough_reach_cm: how far ploughed snow is carried at most
    double temperatureC{};    // temperature_c: snow temperature for settling
    double settleTimeScale{}; // settle_time_scale: settling runs this much faster
    double settleIntervalS{}; // settle_interval_s: settling is applied on this tick
    // cover_follows_slope: over [terrain] the initial depth thins with the ground's slope (the
    // snow holding depth) and is 0 above the angle of repose, so a scene starts at rest.
    bool coverFollowsSlope{};
    // The weather's laws on this sim ([weather], docs/weather.md; core/weather_laws.hpp).
    double meltTemperatureFactor{}; // melt_temperature_factor: mm w.e. / (h C) above 0 C
    double meltRadiationFactor{};   // melt_radiation_factor: mm w.e. m2 / (W h) of absorbed sun
    double albedo{};                // albedo: the share of the sun the snow reflects
    double drainPerH{};             // drain_per_h: liquid water drains at this rate (1/h)
    // drift_threshold_m_s: the substance's own threshold friction velocity (m/s) with Bagnold's
    // flux; 0: snow's, from its density (Kind) with Pomeroy and Gray's flux.
    double driftThresholdMS{};
    // substance: "snow" (the keys as given), "mud" or "sand": a preset of the keys above that a
    // key given in a scenario or a --set overrides (core/substance.hpp).
    Substance substance{};
};

struct SimSettings {
    SimSettings();                 // the parameter table's defaults (params.cpp)
    SimModel model{};              // sim.X.model: "decay" (the mask) or "snowpack"
    double decay{};                // sim.X.decay: (0, 1], Mask_Attenuation
    DecayTiming decayTiming{};     // sim.X.decay_timing
    AccumulateMode accumulate{};   // sim.X.accumulate
    ContactTiming contactTiming{}; // sim.X.contact_timing: the mask added per step or x dt x 60
    bool halfSafe{};       // sim.X.half_safe: exact half rounding + decay quanta (docs/pipeline.md)
    int resolution{};      // sim.X.resolution: 0 = snow.resolution; else a power of two [64, 8192]
    BufferFormat format{}; // sim.X.format: rgba16f adds age (G), type (B)
    NormalMode normals{};  // sim.X.normals
    RegionMode region{};   // sim.X.region
    Persistence persistence{}; // sim.X.persistence: "world" keeps what the window scrolls past
    RimMode rims{};            // sim.X.rims
    // sim.X.capture_reference: penetration from the local snow top or from the flat plane
    CaptureReference captureReference{};
    RefillMode refill{};     // sim.X.refill: decay (x) or linear (-)
    double refillRatePerS{}; // sim.X.refill_rate: linear refill, mask units per second
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
    BlurMode blur{};
    SurfaceGeometry displacement{}; // sim.X.displacement
    MaterialSettings material;      // sim.X.material
    SnowpackSettings snowpack;      // sim.X.snowpack (model = "snowpack")
};

// The defaults of sim `index` (the parameter table's, with that sim's own where a key differs
// by sim: sim.a decays fast, sim.b and every later sim slowly).
SimSettings defaultSim(int index);

// The shared look of the scene (look.*): MF_Landscape_Ground layers and the light.
struct LookSettings {
    LookSettings();           // the parameter table's defaults (params.cpp)
    glm::vec3 snowColour{};   // snow_colour: fresh snow base colour
    glm::vec3 packedColour{}; // packed_colour: compressed snow in prints
    glm::vec3 groundColour{}; // ground_colour: soil under the snow
    glm::vec3 ssSnow{};       // ss_snow: subsurface tint of snow (SS_Snow)
    glm::vec3 ssGround{};     // ss_ground: subsurface tint of ground
    double wrap{};            // wrap: wrap-lighting amount (0 = Lambert)
    double groundReveal{};    // ground_reveal: Snow_Mask above which ground can show
    double detailNormal{};    // detail_normal: strength of the snow layer's own bumps
    glm::vec3 sunDirection{}; // sun_direction: towards the sun
    glm::vec3 sunColour{};    // sun_colour (linear, x intensity)
    glm::vec3 skyColour{};    // sky_colour: ambient from above
    // MF_Landscape_Ground's OR output per layer, [occlusion, roughness]: the ambient light left
    // in the layer's deepest baked hollows (1 = none) and its GGX roughness.
    std::array<double, 2> snowOr{};   // snow_or (Snow_OR): fresh snow
    std::array<double, 2> packedOr{}; // packed_or: pressed snow, smoother
    std::array<double, 2> groundOr{}; // ground_or (Ground_OR)
    double creviceOcclusion{};        // crevice_occlusion: print-depth occlusion strength
    bool specular{};                  // specular: GGX lobe (off: diffuse, wrap and ambient only)
    bool sparkle{};                   // sparkle: glints seeded in world space
    bool deformerShadows{};           // deformer_shadows: the sun's shadow map of the deformers
    bool fallingSnow{};               // falling_snow: flakes in the air while [weather] snows
    double fallingSnowFlakes{};       // falling_snow_flakes: drawn per m3 per mm/h of water
    int fallingSnowMaxFlakes{};       // falling_snow_max_flakes: at most this many per view
};

// The camera of `render`'s final.png (view.*).
struct ViewSettings {
    ViewSettings();                   // the parameter table's defaults (params.cpp)
    int width{}, height{};            // width, height: the whole image (A | B side by side)
    ViewMode mode{};                  // mode
    std::array<double, 3> targetCm{}; // target_cm
    double distanceCm{};              // distance_cm: 0 = fit the region
    double yawDeg{};                  // yaw_deg: around Z, 0 = looking along +Y... from -Y
    double pitchDeg{};                // pitch_deg: above the horizon
    double fovDeg{};                  // fov_deg: vertical field of view
};

// A deformer: a procedural shape or a mesh file, and how it moves (docs/meshes.md, section 11).
// name is required; so is what its path kind needs (path, waypoints_cm or circle_radius_cm).
struct DeformerSettings {
    DeformerSettings(); // the parameter table's defaults (params.cpp)
    // path_kind: "keys" (timed keyframes) | "polyline" (waypoints at a speed) | "circle"
    enum class PathKind { Keys, Polyline, Circle };
    // path_mode: "once" (hold the end) | "loop" (start over) | "ping_pong" (back and forth);
    // Auto (the key left out): a circle loops, keys and polylines play once
    enum class PathMode { Auto, Once, Loop, PingPong };
    // placement: "ground" (path z is the height of the model's lowest point above the ground
    // under the snow, surface_z_cm - depth_cm) | "absolute" (path z is world z; a procedural
    // shape's centre goes there, a mesh's lowest point) | "draped" (path z is the lowest
    // point's height above the undisturbed snow top under the deformer: surface_z_cm + the
    // terrain's height at its x, y; it follows the hill as it moves, a rigid one lying on the
    // slope, a skinned one standing upright)
    enum class Placement { Ground, Absolute, Draped };
    // root_motion: "path" (the path carries the deformer) | "in_place" (it stays at its path's
    // start, its clip playing on the spot)
    enum class RootMotion { Path, InPlace };
    enum class CircleDirection { Ccw, Cw }; // circle_direction: "ccw" | "cw" (seen from above)

    std::string name;      // name
    DeformerShape shape{}; // shape
    glm::vec3 sizeCm{};    // size_cm: sphere radius = x; box half extents;
                           // capsule radius = x, half length = y (along X)
    struct Key {
        double timeS = 0.0;
        glm::vec3 positionCm{0.0f};
    };
    PathKind pathKind{}; // path_kind
    // path = [[t, x, y, z], ...] (keys): linear between keys, times non-decreasing, two keys
    // with the same time make a jump
    std::vector<Key> path;
    std::vector<glm::vec3> waypointsCm; // waypoints_cm = [[x, y, z], ...] (polyline, >= 2)
    double speedCmS{};                  // speed_cm_s: polyline, circle and player speed
    glm::vec3 circleCentreCm{};         // circle_centre_cm = [x, y, z]
    double circleRadiusCm{};            // circle_radius_cm (circle: required, > 0)
    double circleStartDeg{};            // circle_start_deg: where it starts, from +X towards +Y
    CircleDirection circleDirection{};  // circle_direction
    double pathStartS{};     // path_start_s: polyline and circle wait at their start until then
    PathMode pathMode{};     // path_mode
    Placement placement{};   // placement
    RootMotion rootMotion{}; // root_motion
    bool player{};           // player: driven by DeformerSet::drivePlayer instead of its path (one)
    // mesh: a file Assimp reads (relative to the repository root, or absolute) instead of the
    // procedural shape; its lowest point goes to the path's z.
    std::string mesh;
    double scale{};          // scale: uniform, > 0, before rotation and fit
    double fitHeightCm{};    // fit_height_cm: scale the mesh to this height (0: as is)
    glm::vec3 rotationDeg{}; // rotation_deg: Euler X Y Z applied to the mesh
    glm::vec3 offsetCm{};    // offset_cm: moves the mesh from its placement (its own frame)
    UpAxis upAxis{};         // up_axis: the mesh file's up axis ("auto" | "y" | "z")
    std::string clip;        // clip: skinned meshes play this animation clip by name
    int clipIndex{};         // clip_index: ... or by its index in the file (-1: unset)
    double clipSpeed{};      // clip_speed: playback rate of the clip
    double clipPhase{};      // clip_phase: where in the clip (a fraction of it) t = 0 falls
    bool facePath{};         // face_path: turn the mesh's +X along the path's motion
    ContactType contact{};   // contact: what kind of print it leaves
};

// A crowd ([[crowd]], docs/crowds.md): `count` deformers from one description (every
// [[deformer]] key applies to each member), placed in a formation about the path's start, each
// member's clip phase and speed drawn from `seed` so they do not step in unison. Members are
// named "NAME.0", "NAME.1", ...
struct CrowdSettings {
    CrowdSettings(); // the parameter table's defaults (params.cpp)
    // formation: "column" (rows of `width` abreast, behind the path's start) | "grid" (a square
    // centred on it) | "scatter" (seeded, about spacing_cm apart, in a disc centred on it)
    enum class Formation { Column, Grid, Scatter };
    DeformerSettings member; // the [[deformer]] keys; member.name is the crowd's name
    int count{};             // count
    Formation formation{};   // formation
    double spacingCm{};      // spacing_cm: between neighbours
    int width{};             // width: members abreast in a column
    int seed{};              // seed: the members' phases, speeds and scatter
    double phaseSpread{};    // phase_spread: phases spread over this fraction of the clip
    double speedSpread{};    // speed_spread: speeds within +- this fraction of the crowd's
};

// The scene's wind ([wind]): it sways every [[foliage]] plant (docs/crowds.md, foliage), and
// how far and how hard the deformers push plants aside as they pass.
struct WindSettings {
    WindSettings();            // the parameter table's defaults (params.cpp)
    double directionDeg{};     // direction_deg: where it blows towards, from +X towards +Y
    double strength{};         // strength: mean lean (top offset / height) of a stiffness-1 plant
    double gustHz{};           // gust_hz: how often a gust front passes a plant
    double gustAmount{};       // gust_amount: gusts add and take this fraction of the strength
    double gustWavelengthCm{}; // gust_wavelength_cm: distance between gust fronts, downwind
    double pushMarginCm{};     // push_margin_cm: how far beyond a deformer's side plants bend
    double pushLean{}; // push_lean: the lean a deformer gives a stiffness-1 plant it touches
};

// One [[foliage]] entry: plants of one mesh scattered over a rectangle, swaying in the wind.
struct FoliageSettings {
    FoliageSettings(); // the parameter table's defaults (params.cpp)
    std::string name;  // name: required and unique among the foliage
    // mesh: "grass_tuft" | "bush" (the bundled plants) | a file Assimp reads; its lowest point
    // is the root, on the ground under the snow
    std::string mesh;
    int count{};                        // count: how many plants
    double densityPerM2{};              // density_per_m2: plants per m^2 instead (0: count)
    std::array<double, 2> centreCm{};   // centre_cm = [x, y]: the middle of the area
    std::array<double, 2> sizeCm{};     // size_cm = [x, y]: the area's extent
    double minSpacingCm{};              // min_spacing_cm: no two roots closer (0: any)
    int seed{};                         // seed: the scatter's random sequence
    std::array<double, 2> scaleRange{}; // scale = [min, max]: uniform scale per plant
    double yawSpreadDeg{};              // yaw_spread_deg: turn about Z in [0, this)
    double stiffness{};                 // stiffness: wind and pushes lean it 1 / this as far
    double maxLean{};                   // max_lean: the most it leans (top offset / height)
    ContactType contact{};              // contact: what kind of print it brushes
};

// The physics world ([physics], docs/physics.md): Bullet steps every [[body]] at a fixed rate
// on the sim clock; the bodies stand on the ground under the snow and the snow drags on them.
struct PhysicsSettings {
    PhysicsSettings();      // the parameter table's defaults (params.cpp)
    int stepHz{};           // physics.step_hz: fixed physics steps per simulated second
    double gravityCmS2{};   // physics.gravity_cm_s2: downwards (-Z)
    double snowDragPerCm{}; // physics.snow_drag_per_cm: velocity relaxation rate per cm of
                            // the body's depth in the snow (1/s per cm)
    std::string supportSim; // physics.support_sim: the sim that holds the bodies up ("": the
                            // first snowpack sim, else the ground; "ground"; or "a" .. "h")
};

// A rigid body ([[body]], docs/physics.md): a procedural shape moved by the physics world and
// pressing the snow as a deformer. `count` > 1 makes NAME.0, NAME.1, ... in a formation about
// position_cm (a crowd's, in the frame of the horizontal velocity: forward along it), each
// member's rotation and velocity spread drawn from `seed`.
struct BodySettings {
    BodySettings();          // the parameter table's defaults (params.cpp)
    std::string name;        // name: required and unique among the bodies
    BodyShape shape{};       // shape
    glm::vec3 sizeCm{};      // size_cm: as a deformer's (sphere radius = x; box half extents;
                             // capsule radius = x, half length = y along X; unused by a mesh)
    std::string mesh;        // mesh: shape = "mesh" only; a file read as a deformer's mesh is
    double massKg{};         // mass_kg: > 0
    glm::vec3 positionCm{};  // position_cm: the centre at t = 0, world
    glm::vec3 rotationDeg{}; // rotation_deg: Euler X Y Z at t = 0
    glm::vec3 velocityCmS{}; // velocity_cm_s: at t = 0
    glm::vec3 spinDegS{};    // spin_deg_s: angular velocity at t = 0 (world axes)
    double restitution{};    // restitution: the bounce kept, 0..1
    double friction{};       // friction: Coulomb coefficient
    int count{};             // count
    CrowdSettings::Formation formation{}; // formation
    double spacingCm{};                   // spacing_cm
    int width{};                          // width: members abreast in a column
    int seed{};                           // seed: the spreads and the scatter
    double rotationSpreadDeg{};           // rotation_spread_deg: each Euler angle +- up to this
    double velocitySpreadCmS{}; // velocity_spread_cm_s: each velocity component +- up to this
    ContactType contact{};      // contact: what kind of print it leaves
    double launchS{};           // launch_s: it enters the world then (0: at the start)
};

// What lies under the snow in every sim's surface ([ground], docs/ground.md): the ground layer
// that shows where a print or a melt reaches it.
struct GroundSettings {
    GroundSettings();  // the parameter table's defaults (params.cpp)
    GroundKind kind{}; // kind: "colour" (look.ground_colour), "grass", "mud", "rock", "texture"
    // texture: with kind = "texture", a PNG (relative to the repository root, or absolute)
    // whose colour is the ground's albedo, repeated every texture_tile_cm across the ground
    std::string texture;
    double textureTileCm{}; // texture_tile_cm: the side of the square one repeat covers
    // mud_print_max_cm: with kind = "mud", the deepest print a contact presses into the bare
    // ground under a snowpack sim (cm below ground level; 0: the mud takes none)
    double mudPrintMaxCm{};
};

// A vehicle ([[vehicle]], docs/physics.md): Bullet's raycast vehicle, a box chassis on four
// wheels whose suspensions are rays, driving a path through waypoints at a speed with a pure
// pursuit steering controller. The chassis and each wheel press the snow as deformers (NAME,
// NAME.wheel_fl, NAME.wheel_fr, NAME.wheel_rl, NAME.wheel_rr). Its own +X is forward, +Z up.
struct VehicleSettings {
    VehicleSettings();            // the parameter table's defaults (params.cpp)
    std::string name;             // name: required and unique among the vehicles
    std::string chassisMesh;      // chassis_mesh: drawn instead of the box, fit inside it ("": box)
    glm::vec3 chassisSizeCm{};    // chassis_size_cm: the chassis box's half extents (x forward)
    double massKg{};              // mass_kg: > 0, the whole vehicle (on the chassis)
    double wheelRadiusCm{};       // wheel_radius_cm
    double wheelWidthCm{};        // wheel_width_cm
    double trackCm{};             // track_cm: between the left and right wheels' centre planes
    double wheelbaseCm{};         // wheelbase_cm: between the front and rear axles
    double suspensionRestCm{};    // suspension_rest_cm: spring length unloaded
    double suspensionTravelCm{};  // suspension_travel_cm: how far it compresses or extends
    double suspensionStiffness{}; // suspension_stiffness: spring force per kg of chassis (1/s^2)
    double dampingCompression{};  // damping_compression: per kg of chassis (1/s)
    double dampingRelaxation{};   // damping_relaxation: per kg of chassis (1/s)
    double wheelFriction{};       // wheel_friction: the tyres' friction coefficient
    std::vector<glm::vec3> waypointsCm; // waypoints_cm = [[x, y, z], ...]: z unused (>= 2)
    double speedCmS{};                  // speed_cm_s: the speed it holds along the path
    int laps{}; // laps: 0 drives first to last waypoint once; N closes the path, N times round
    double lookaheadCm{};  // lookahead_cm: pure pursuit's lookahead distance
    double maxSteerDeg{};  // max_steer_deg: the front wheels' steering limit
    ContactType contact{}; // contact: what kind of print it leaves
    bool player{};         // player: driven by WASD (PhysicsWorld::setDriverInput), not its path
};

struct ProbeSettings {
    ProbeSettings();                 // the parameter table's defaults (params.cpp)
    std::string name;                // name
    std::array<double, 2> worldCm{}; // at_cm = [x, y]
};

// `render` as a soak test ([soak]): random deformer motion, resets, resolution and parameter
// changes mid-run, every buffer checked for NaN/Inf and range, GL objects and RSS for growth.
// Event periods are means: each step an event fires with probability 1/N (0 = never).
struct SoakSettings {
    SoakSettings();       // the parameter table's defaults (params.cpp)
    bool enabled{};       // soak.enabled: `render` runs the soak driver (src/app/soak.cpp)
    int seed{};           // soak.seed: the run's random sequence (same seed, same run)
    int resetEvery{};     // soak.reset_every: mean steps between resets of both sims
    int resizeEvery{};    // soak.resize_every: mean steps between resolution/region changes
    int paramsEvery{};    // soak.params_every: mean steps between sim parameter changes
    int teleportEvery{};  // soak.teleport_every: mean steps between deformer jumps
    int checkEvery{};     // soak.check_every: read every buffer back each N steps
    int warmupSteps{};    // soak.warmup_steps: objects and RSS are measured from here on
    double rssSlackMiB{}; // soak.rss_slack_mib: allowed RSS growth after warm-up
};

// Model imports ([import]): the caps every mesh file is read within (docs/reliability.md).
struct ImportSettings {
    ImportSettings();      // the parameter table's defaults (params.cpp)
    double maxMemoryMiB{}; // import.max_memory_mib: memory one import may use
    double maxSeconds{};   // import.max_seconds: time one import may take
    // What any file may claim (docs/reliability.md, "Untrusted files"): sizes and counts are
    // checked against these before anything is allocated for them.
    double maxConfigMiB{}; // import.max_config_mib: one scenario or config file
    double maxWorldMiB{};  // import.max_world_mib: one world file
    int maxDeformers{};    // import.max_deformers: [[deformer]] tables
    int maxCrowdMembers{}; // import.max_crowd_members: every [[crowd]]'s count together
    int maxProbes{};       // import.max_probes: [[probe]] tables
    int maxFoliage{};      // import.max_foliage: [[foliage]] tables
    int maxPlants{};       // import.max_plants: plants of one [[foliage]] entry
    int maxPathKeys{};     // import.max_path_keys: keys of one path (or waypoints)
    int maxBodies{};       // import.max_bodies: every [[body]]'s count together
    int maxVehicles{};     // import.max_vehicles: [[vehicle]] tables
};

struct Settings {
    Settings(); // the table's defaults, each sim its own (sim.a decays fast, sim.b slowly)
    RunSettings run;
    SnowSettings snow;
    CaptureSettings capture;
    // sim.a, sim.b, ... (at most kMaxSims): two by default; a config makes more by giving a
    // sim's table ([sim.c], or any --set sim.c.KEY), and the sims up to it exist then.
    std::vector<SimSettings> sims;
    LookSettings look;
    ViewSettings view;
    std::vector<DeformerSettings> deformers; // [[deformer]]
    std::vector<CrowdSettings> crowds;       // [[crowd]]
    std::vector<ProbeSettings> probes;       // [[probe]]
    WindSettings wind;                       // [wind]
    WeatherSettings weather;                 // [weather] and [[weather.key]]
    GroundSettings ground;                   // [ground]
    TerrainSettings terrain;                 // [terrain]
    std::vector<FoliageSettings> foliage;    // [[foliage]]
    PhysicsSettings physics;                 // [physics]
    std::vector<BodySettings> bodies;        // [[body]]
    std::vector<VehicleSettings> vehicles;   // [[vehicle]]
    SoakSettings soak;                       // [soak]
    ImportSettings import;                   // [import]
    NetSettings net;                         // [net]
};

} // namespace snowcap
