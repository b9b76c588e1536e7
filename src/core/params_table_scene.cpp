// The parameter table, part 2: the look, the render camera, [[deformer]] and [[probe]] entries,
// the wind and [[foliage]], and the soak run ([physics], [[body]] and [[vehicle]] are in
// params_table_physics.cpp). One row per key: {key,
// member, default, range, unit, widget, doc}. The rules between a deformer's keys (which path keys
// its path kind needs) are in config_scene.cpp.
#include "core/config_scene.hpp"
#include "core/params.hpp"
#include "core/params_table_rows.hpp"

namespace snowcap::params {

using enum Widget;
using config_read::kCircleDirections;
using config_read::kContactTypes;
using config_read::kDeformerShapes;
using config_read::kFormations;
using config_read::kPathKinds;
using config_read::kPathModes;
using config_read::kPlacements;
using config_read::kRootMotions;
using config_read::kUpAxes;
using config_read::kViewModes;

namespace {

Custom<DeformerSettings> pathKeys() {
    return custom("[[t, x, y, z], ...]", &DeformerSettings::path, config_read::keyframes(),
                  [](const std::vector<DeformerSettings::Key>& keys) {
                      toml::array out;
                      for (const auto& k : keys)
                          out.push_back(toml::array{k.timeS, asWritten(k.positionCm.x),
                                                    asWritten(k.positionCm.y),
                                                    asWritten(k.positionCm.z)});
                      return out;
                  });
}

} // namespace

const Section<LookSettings>& lookParams() {
    using L = LookSettings;
    static const Section<L> section{
        "look",
        "The shared look of the scene: MF_Landscape_Ground's layers and the light (linear "
        "colours).",
        {
            {"snow_colour", &L::snowColour, xyz(0.90, 0.93, 0.97), between(0.0, 1.0), "", Colour,
             "Fresh snow base colour."},
            {"packed_colour", &L::packedColour, xyz(0.66, 0.72, 0.80), between(0.0, 1.0), "",
             Colour, "Compressed snow at the bottom of a print, slightly darker and bluer."},
            {"ground_colour", &L::groundColour, xyz(0.30, 0.24, 0.18), between(0.0, 1.0), "",
             Colour, "Soil under the snow."},
            {"ss_snow", &L::ssSnow, xyz(0.50, 0.70, 1.00), between(0.0, 1.0), "", Colour,
             "SS_Snow: the tint light picks up passing through the snow (wrap lighting)."},
            {"ss_ground", &L::ssGround, xyz(0.30, 0.22, 0.16), between(0.0, 1.0), "", Colour,
             "SS_Ground: the same for the ground."},
            {"wrap", &L::wrap, 0.35, between(0.0, 1.0), "", Slider,
             "Wrap lighting: 0 is Lambert; 0.35 lets light reach a third of the way past the "
             "terminator, as snow scatters it."},
            {"ground_reveal", &L::groundReveal, 0.9, between(0.0, 1.0), "", Slider,
             "Snow_Mask above which the ground may show through, broken up by height noise."},
            {"detail_normal", &L::detailNormal, 0.25, between(0.0, 4.0), "", Slider,
             "Strength of the snow layer's own gentle bumps; 0 = perfectly flat."},
            {"sun_direction", &L::sunDirection, xyz(-0.6, -0.45, 0.35), anyNumber(), "", Drag,
             "Towards the sun, need not be normalised; a low sun from the south-west shades rims."},
            {"sun_colour", &L::sunColour, xyz(1.00, 0.96, 0.88), between(0.0, 100.0), "", Colour,
             "Sunlight (x intensity)."},
            {"sky_colour", &L::skyColour, xyz(0.42, 0.55, 0.78), between(0.0, 100.0), "", Colour,
             "Ambient light from above."},
            {"snow_or", &L::snowOr, xy(0.85, 0.6), between(0.0, 1.0), "", Drag,
             "Snow_OR: [occlusion, roughness] of fresh snow; occlusion is the ambient left in the "
             "layer's deepest hollows (1 = none), roughness the GGX roughness."},
            {"packed_or", &L::packedOr, xy(0.8, 0.35), between(0.0, 1.0), "", Drag,
             "[occlusion, roughness] of packed snow in prints: smoother and a little darker."},
            {"ground_or", &L::groundOr, xy(0.6, 0.9), between(0.0, 1.0), "", Drag,
             "Ground_OR: [occlusion, roughness] of revealed ground."},
            {"crevice_occlusion", &L::creviceOcclusion, 0.6, between(0.0, 1.0), "", Slider,
             "Ambient lost where the print's height field is most concave (the feet of its "
             "walls, the bottom of a narrow print); 0 = off."},
            {"specular", &L::specular, true, anyNumber(), "", Checkbox,
             "The GGX specular lobe with the layers' roughness and the sky's reflection; false = "
             "diffuse, wrap and ambient only (the look before it)."},
            {"sparkle", &L::sparkle, false, anyNumber(), "", Checkbox,
             "Glints of ice facets seeded in world space (1 cm cells): they stay put as the "
             "camera moves."},
            {"deformer_shadows", &L::deformerShadows, true, anyNumber(), "", Checkbox,
             "The sun's shadow map of the deformers, on the snow and on the deformers (the snow "
             "casts none, as in M_Snow)."},
            {"falling_snow", &L::fallingSnow, true, anyNumber(), "", Checkbox,
             "Flakes falling through the air over each region while [weather] snows (their "
             "number follows snowfall_cm_h, they drift with the wind); the picture only, the "
             "sims never see them. false = none drawn."},
            {"falling_snow_flakes", &L::fallingSnowFlakes, 150.0, between(0.0, 100000.0),
             "1/m3/(mm/h)", Drag,
             "Flakes drawn per m3 of air per mm/h of the snowfall's water equivalent; each stands "
             "for many real crystals (a lab choice, docs/weather.md)."},
            {"falling_snow_max_flakes", &L::fallingSnowMaxFlakes, 20000, integerBetween(0, 1000000),
             "", Drag, "The most flakes one view draws, whatever the snowfall."},
        }};
    return section;
}

const Section<ViewSettings>& viewParams() {
    using V = ViewSettings;
    static const Section<V> section{
        "view",
        "The camera of `snowcap render`'s final.png: A | B side by side, each half the same view.",
        {
            {"width", &V::width, 1280, integerBetween(16, 8192), "px", None,
             "Width of the whole image."},
            {"height", &V::height, 720, integerBetween(16, 8192), "px", None,
             "Height of the whole image."},
            {"mode", choice(&V::mode, kViewModes), "perspective", anyNumber(), "", Combo,
             "\"perspective\", or \"top\": orthographic, straight down on the region."},
            {"target_cm", &V::targetCm, xyz(0.0, 0.0, 0.0), anyNumber(), "cm", Drag,
             "The point the camera looks at."},
            {"distance_cm", &V::distanceCm, 0.0, nonNegative(), "cm", Drag,
             "Distance from the target; 0 = far enough to frame the whole region."},
            {"yaw_deg", &V::yawDeg, -60.0, anyNumber(), "deg", Drag,
             "Around Z; 0 looks along +Y from -Y."},
            {"pitch_deg", &V::pitchDeg, 38.0, between(-89.0, 89.0), "deg", Slider,
             "Above the horizon."},
            {"fov_deg", &V::fovDeg, 45.0, between(5.0, 150.0), "deg", Slider,
             "Vertical field of view."},
        }};
    return section;
}

const Section<DeformerSettings>& deformerParams() {
    using D = DeformerSettings;
    constexpr auto required = Presence::Required;
    static const Section<D> section{
        "deformer",
        "What presses into the snow (docs/meshes.md): a procedural shape or a mesh, and how it "
        "moves. A list of tables in a scenario, none by default. Each needs a unique name and "
        "what its path_kind needs (path, waypoints_cm or circle_radius_cm); keys another kind "
        "would ignore are refused.",
        {
            {"name", &D::name, kUnset, anyNumber(), "", None,
             "Required and unique: stats.json and the viewer tell deformers apart by it.",
             required},
            {"shape", choice(&D::shape, kDeformerShapes), "sphere", anyNumber(), "", Combo,
             "The procedural shape (without a mesh)."},
            {"size_cm", &D::sizeCm, xyz(30.0, 30.0, 30.0), positive(), "cm", Drag,
             "Sphere radius = x; box half extents; capsule radius = x, half length = y (along X)."},
            {"path_kind", choice(&D::pathKind, kPathKinds), "keys", anyNumber(), "", None,
             "\"keys\": timed keyframes (path); \"polyline\": waypoints_cm at speed_cm_s; "
             "\"circle\": circle_* at speed_cm_s."},
            {"path", pathKeys(), emptyList(), anyNumber(), "cm", None,
             "Keys (t in s): linear between keys, times non-decreasing from 0; two keys with the "
             "same time make a jump."},
            {"waypoints_cm", waypointList<DeformerSettings>(), emptyList(), anyNumber(), "cm", None,
             "Polyline points, at least two, played at speed_cm_s."},
            {"speed_cm_s", &D::speedCmS, 100.0, aboveUpTo(0.0, 10000.0), "cm/s", Drag,
             "Polyline, circle and player speed."},
            {"circle_centre_cm", &D::circleCentreCm, xyz(0.0, 0.0, 0.0), anyNumber(), "cm", None,
             "Centre of a circle path."},
            {"circle_radius_cm", &D::circleRadiusCm, kUnset, aboveUpTo(0.0, 50000.0), "cm", None,
             "Radius of a circle path (required for \"circle\")."},
            {"circle_start_deg", &D::circleStartDeg, 0.0, anyNumber(), "deg", None,
             "Where the circle starts, from +X towards +Y."},
            {"circle_direction", choice(&D::circleDirection, kCircleDirections), "ccw", anyNumber(),
             "", None, "Seen from above."},
            {"path_start_s", &D::pathStartS, 0.0, nonNegative(), "s", None,
             "Polylines and circles wait at their start until then."},
            {"path_mode", choice(&D::pathMode, kPathModes), kUnset, anyNumber(), "", None,
             "\"once\" holds the end, \"loop\" starts over, \"ping_pong\" goes back and forth; "
             "left out: a circle loops, keys and polylines play once."},
            {"placement", choice(&D::placement, kPlacements), "ground", anyNumber(), "", None,
             "\"ground\": path z is the lowest point's height above the flat ground "
             "(surface_z_cm - depth_cm, whatever the terrain); \"absolute\": path z is world z; "
             "\"draped\": path z is the lowest point's height above the undisturbed snow top "
             "under it (surface_z_cm + the terrain's height there), so it walks over the hills; a "
             "rigid deformer lies on the slope, a skinned one stands upright."},
            {"root_motion", choice(&D::rootMotion, kRootMotions), "path", anyNumber(), "", None,
             "\"path\": the path carries the deformer; \"in_place\": it stays at its path's "
             "start, its clip playing on the spot."},
            {"player", &D::player, false, anyNumber(), "", Checkbox,
             "Driven by the keys (WASD) instead of its path; one deformer at most."},
            {"mesh", &D::mesh, "", anyNumber(), "", None,
             "A file Assimp reads (beside the file that names it, else in the repository, or "
             "absolute) instead of the shape; its lowest point goes to the path's z."},
            {"scale", &D::scale, 1.0, aboveUpTo(0.0, 1000.0), "", None,
             "Uniform mesh scale, before rotation and fit."},
            {"fit_height_cm", &D::fitHeightCm, 0.0, nonNegative(), "cm", None,
             "Scale the mesh to this height (0: as it is)."},
            {"rotation_deg", &D::rotationDeg, xyz(0.0, 0.0, 0.0), anyNumber(), "deg", None,
             "Euler X Y Z applied to the mesh."},
            {"offset_cm", &D::offsetCm, xyz(0.0, 0.0, 0.0), anyNumber(), "cm", None,
             "Moves the mesh from its placement (in its own frame)."},
            {"clip", &D::clip, "", anyNumber(), "", None,
             "A skinned mesh plays this animation clip, by name."},
            {"clip_index", &D::clipIndex, -1, integerBetween(0, 65535), "", None,
             "... or by its index in the file (-1: unset); not both."},
            {"clip_speed", &D::clipSpeed, 1.0, between(0.0, 100.0), "", Drag,
             "Playback rate of the clip."},
            {"clip_phase", &D::clipPhase, 0.0, between(0.0, 1.0), "", Slider,
             "Where in the clip t = 0 falls, as a fraction of it (0.5: half a cycle in; a "
             "looping clip's 1 is its 0)."},
            {"face_path", &D::facePath, false, anyNumber(), "", Checkbox,
             "Turn the mesh's +X along the path's motion."},
            {"up_axis", choice(&D::upAxis, kUpAxes), "auto", anyNumber(), "", Combo,
             "The mesh file's up axis: auto takes its metadata, else its format's convention "
             "(docs/meshes.md); y or z overrides both."},
            {"contact", choice(&D::contact, kContactTypes), "other", anyNumber(), "", Combo,
             "What kind of print it leaves (rgba16f's B channel)."},
        },
        true};
    return section;
}

const Section<CrowdSettings>& crowdParams() {
    using C = CrowdSettings;
    static const Section<C> section{
        "crowd",
        "Many deformers from one description (docs/crowds.md): every [[deformer]] key (name, "
        "mesh, clip, path, contact, ...) applies to each member, placed in a formation about the "
        "path's start and named NAME.0, NAME.1, ...; each member's clip phase and speed are drawn "
        "from the seed so they do not step in unison. Members sharing the mesh are drawn "
        "instanced. A list of tables in a scenario, none by default.",
        {
            {"count", &C::count, 10, integerBetween(1, 10000), "", None, "How many members."},
            {"formation", choice(&C::formation, kFormations), "column", anyNumber(), "", None,
             "\"column\": rows of `width` abreast, one behind the other from the path's start; "
             "\"grid\": a square centred on it; \"scatter\": seeded, about spacing_cm apart, in "
             "a disc centred on it."},
            {"spacing_cm", &C::spacingCm, 80.0, aboveUpTo(0.0, 10000.0), "cm", None,
             "Distance between neighbours."},
            {"width", &C::width, 4, integerBetween(1, 1000), "", None,
             "Members abreast in a column's row."},
            {"seed", &C::seed, 1, integerBetween(0, 2147483647), "", None,
             "The members' phases, speeds and scatter: the same seed, the same crowd."},
            {"phase_spread", &C::phaseSpread, 1.0, between(0.0, 1.0), "", None,
             "Clip phases are spread over this fraction of the clip (0: all in step)."},
            {"speed_spread", &C::speedSpread, 0.05, between(0.0, 0.5), "", None,
             "Each member's clip and path speed is the crowd's times 1 +- up to this."},
        },
        true};
    return section;
}

const Section<ProbeSettings>& probeParams() {
    using P = ProbeSettings;
    constexpr auto required = Presence::Required;
    static const Section<P> section{
        "probe",
        "A point whose buffer value stats.json records every step, per sim. A list of tables in "
        "a scenario, none by default.",
        {
            {"name", &P::name, kUnset, anyNumber(), "", None, "Required and unique.", required},
            {"at_cm", &P::worldCm, kUnset, anyNumber(), "cm", None,
             "World X, Y; inside the region, or it records null.", required},
        },
        true};
    return section;
}

const Section<WindSettings>& windParams() {
    using W = WindSettings;
    static const Section<W> section{
        "wind",
        "The wind every [[foliage]] plant sways in, and how the deformers push plants aside "
        "(docs/crowds.md, foliage). The bend is worked out in the one deformer vertex function, "
        "so the capture presses what the colour pass draws.",
        {
            {"direction_deg", &W::directionDeg, 0.0, between(-360.0, 360.0), "deg", Slider,
             "Where the wind blows towards, from +X towards +Y."},
            {"strength", &W::strength, 0.25, between(0.0, 2.0), "", Slider,
             "Mean lean of a plant of stiffness 1: its top's sideways offset over its height (0: "
             "calm)."},
            {"gust_hz", &W::gustHz, 0.4, between(0.0, 10.0), "Hz", Slider,
             "How often a gust front passes a plant."},
            {"gust_amount", &W::gustAmount, 0.6, between(0.0, 1.0), "", Slider,
             "Gusts add and take this fraction of the strength."},
            {"gust_wavelength_cm", &W::gustWavelengthCm, 600.0, between(10.0, 100000.0), "cm", Drag,
             "Distance between gust fronts: they sweep downwind at wavelength x gust_hz."},
            {"push_margin_cm", &W::pushMarginCm, 25.0, between(0.0, 500.0), "cm", Slider,
             "Plants within this distance of a deformer's side bend away from it."},
            {"push_lean", &W::pushLean, 1.5, between(0.0, 10.0), "", Slider,
             "The lean a deformer gives a stiffness-1 plant it stands on, fading to 0 at the "
             "margin (max_lean caps it)."},
        }};
    return section;
}

const Section<FoliageSettings>& foliageParams() {
    using F = FoliageSettings;
    constexpr auto required = Presence::Required;
    static const Section<F> section{
        "foliage",
        "Plants of one mesh scattered over a rectangle on the ground under the snow, swaying in "
        "[wind] and bending away from deformers; drawn as one instanced mesh. A list of tables "
        "in a scenario, none by default. Each needs a unique name; count or density_per_m2, not "
        "both.",
        {
            {"name", &F::name, kUnset, anyNumber(), "", None,
             "Required and unique among the foliage.", required},
            {"mesh", &F::mesh, "grass_tuft", anyNumber(), "", None,
             "\"grass_tuft\" or \"bush\" (bundled), or a file Assimp reads; its lowest point is "
             "the root."},
            {"count", &F::count, 100, integerBetween(1, 100000), "", None, "How many plants."},
            {"density_per_m2", &F::densityPerM2, 0.0, between(0.0, 10000.0), "1/m^2", None,
             "Plants per square metre instead of count (0: use count)."},
            {"centre_cm", &F::centreCm, xy(0.0, 0.0), anyNumber(), "cm", None,
             "World X, Y of the middle of the area."},
            {"size_cm", &F::sizeCm, xy(400.0, 400.0), aboveUpTo(0.0, 100000.0), "cm", None,
             "The area's extent in X and Y."},
            {"min_spacing_cm", &F::minSpacingCm, 0.0, between(0.0, 10000.0), "cm", None,
             "No two roots closer than this (0: anywhere)."},
            {"seed", &F::seed, 1, integerBetween(0, 2147483647), "", None,
             "The scatter's random sequence: the same seed, the same meadow."},
            {"scale", &F::scaleRange, xy(0.8, 1.2), aboveUpTo(0.0, 100.0), "", None,
             "[min, max]: each plant's uniform scale, evenly spread."},
            {"yaw_spread_deg", &F::yawSpreadDeg, 360.0, between(0.0, 360.0), "deg", None,
             "Each plant turns about Z by up to this."},
            {"stiffness", &F::stiffness, 1.0, between(0.1, 100.0), "", Slider,
             "Wind and pushes lean it 1 / stiffness as far (the bundled bush: 3)."},
            {"max_lean", &F::maxLean, 0.85, between(0.0, 0.95), "", Slider,
             "The most it leans: top offset over height (below 1, so a blade never folds)."},
            {"contact", choice(&F::contact, kContactTypes), "other", anyNumber(), "", Combo,
             "What kind of print it brushes (rgba16f's B channel)."},
        },
        true};
    return section;
}

const Section<SoakSettings>& soakParams() {
    using K = SoakSettings;
    static const Section<K> section{
        "soak",
        "`snowcap render` as a soak test (docs/reliability.md): random deformer motion, resets, "
        "resolution and parameter changes; every buffer checked for NaN/Inf and [0, 1], GL "
        "objects and RSS for growth. Event periods are means: each step an event fires with "
        "probability 1/N (0 = never).",
        {
            {"enabled", &K::enabled, false, anyNumber(), "", None,
             "`render` runs the soak driver (config/scenarios/soak.toml turns it on)."},
            {"seed", &K::seed, 1, integerBetween(0, 2147483647), "", None,
             "The run's random sequence: the same seed replays the same run."},
            {"reset_every", &K::resetEvery, 500, integerBetween(0, 1000000000), "steps", None,
             "Mean steps between resets of every sim."},
            {"resize_every", &K::resizeEvery, 1000, integerBetween(0, 1000000000), "steps", None,
             "Mean steps between resolution and region changes."},
            {"params_every", &K::paramsEvery, 200, integerBetween(0, 1000000000), "steps", None,
             "Mean steps between sim parameter changes."},
            {"teleport_every", &K::teleportEvery, 300, integerBetween(0, 1000000000), "steps", None,
             "Mean steps between deformer jumps."},
            {"check_every", &K::checkEvery, 1, integerBetween(1, 1000000), "steps", None,
             "Read every buffer back each N steps (1 = every step)."},
            {"warmup_steps", &K::warmupSteps, 500, integerBetween(0, 1000000000), "steps", None,
             "Live GL objects and RSS are measured from this step on (allocators settle first)."},
            {"rss_slack_mib", &K::rssSlackMiB, 32.0, between(0.0, 65536.0), "MiB", None,
             "RSS may grow this much after warm-up (allocator noise, driver caches) before it is "
             "a leak."},
        }};
    return section;
}

const Section<ImportSettings>& importParams() {
    using I = ImportSettings;
    static const Section<I> section{
        "import",
        "Every file snowcap reads is untrusted (docs/reliability.md). Mesh files are imported in "
        "a child process held to the memory and time caps, whatever the file claims about "
        "itself; every other file and table is held to the size and count caps below, checked "
        "before anything is allocated for it. One past any cap fails with one line naming the "
        "key, and nothing else is lost. A file's own value applies only to the files read after "
        "it; --set applies to all.",
        {
            {"max_memory_mib", &I::maxMemoryMiB, 2048.0, between(16.0, 1048576.0), "MiB", None,
             "Memory one import may use on top of the program's own."},
            {"max_seconds", &I::maxSeconds, 20.0, between(0.1, 86400.0), "s", None,
             "Wall-clock time one import may take."},
            {"max_config_mib", &I::maxConfigMiB, 1.0, between(0.0625, 65536.0), "MiB", None,
             "Size of one scenario or config file (the bundled ones are under 40 KiB)."},
            {"max_world_mib", &I::maxWorldMiB, 4096.0, between(1.0, 1048576.0), "MiB", None,
             "Size of one world file (--world-in); its header's claims must also match its size."},
            {"max_deformers", &I::maxDeformers, 1024, integerBetween(1, 1000000), "", None,
             "[[deformer]] tables in the merged settings."},
            {"max_crowd_members", &I::maxCrowdMembers, 10000, integerBetween(1, 1000000), "", None,
             "Members of every [[crowd]] together (the sum of their counts)."},
            {"max_probes", &I::maxProbes, 1024, integerBetween(1, 1000000), "", None,
             "[[probe]] tables in the merged settings."},
            {"max_foliage", &I::maxFoliage, 256, integerBetween(1, 1000000), "", None,
             "[[foliage]] tables in the merged settings."},
            {"max_plants", &I::maxPlants, 100000, integerBetween(1, 100000000), "", None,
             "Plants of one [[foliage]] entry (its count, or density_per_m2 times its area)."},
            {"max_path_keys", &I::maxPathKeys, 100000, integerBetween(2, 100000000), "", None,
             "Keys of one deformer path, or points of its waypoints_cm."},
            {"max_bodies", &I::maxBodies, 10000, integerBetween(1, 1000000), "", None,
             "Bodies of every [[body]] together (the sum of their counts)."},
            {"max_vehicles", &I::maxVehicles, 64, integerBetween(1, 100000), "", None,
             "[[vehicle]] tables in the merged settings."},
        }};
    return section;
}

} // namespace snowcap::params
