// The parameter table, part 1: the run, the snow region, the capture and the sims. One row per
// key: {key, member, default, range, unit, widget, doc}. Adding a key is adding a row (and its
// member in settings.hpp); the reader, the defaults, the viewer, stats.json, default.toml and
// docs/parameters.md follow. Defaults are the UE original's unless a doc says otherwise.
#include "core/params.hpp"

#include <algorithm>

namespace snowcap::params {

using enum Widget;
using config_read::kAccumulateModes;
using config_read::kBlurModes;
using config_read::kBufferFormats;
using config_read::kCaptureDepths;
using config_read::kCaptureProxyModes;
using config_read::kCaptureReferences;
using config_read::kCaptureSubsetModes;
using config_read::kContactTimings;
using config_read::kDecayTimings;
using config_read::kNormalModes;
using config_read::kPersistenceModes;
using config_read::kQualities;
using config_read::kRefillModes;
using config_read::kRegionModes;
using config_read::kRimModes;
using config_read::kSimModels;
using config_read::kSubstances;
using config_read::kSurfaceGeometries;
using config_read::kWorldCompressions;

namespace {

// sim.X.decay_keys = [[t, decay], ...]: times non-decreasing from 0, decays in (0, 1].
Read<std::vector<SimSettings::DecayKey>> decayKeyframes() {
    using namespace config_read;
    return [](Walker& walker, const toml::node& node, const std::string& key,
              std::vector<SimSettings::DecayKey>& out) {
        const toml::array* keys = node.as_array();
        if (!keys)
            return walker.expected(node, key, "an array of [t, decay] keys");
        const auto readKey = numbers<2>("[t, decay]");
        std::vector<SimSettings::DecayKey> read;
        for (std::size_t i = 0; i < keys->size(); ++i) {
            const std::string at = key + "[" + std::to_string(i) + "]";
            std::array<double, 2> value{};
            if (!readKey(walker, *keys->get(i), at, value))
                return false;
            const toml::array& pair = *keys->get(i)->as_array();
            if (value[0] < 0.0 || (!read.empty() && value[0] < read.back().timeS))
                return walker.failKey(*pair.get(0), at + "[0]",
                                      "time must be at least 0 and not decrease, got " +
                                          show(value[0]));
            if (!(value[1] > 0.0 && value[1] <= 1.0))
                return walker.failKey(*pair.get(1), at + "[1]",
                                      "decay must be in (0, 1], got " + show(value[1]));
            read.push_back({value[0], value[1]});
        }
        out = std::move(read);
        return true;
    };
}

Custom<SimSettings> decayKeys() {
    return {"[[t, decay], ...]",
            [read = decayKeyframes()](config_read::Walker& walker, const toml::node& node,
                                      const std::string& key, SimSettings& sim) {
                return read(walker, node, key, sim.decayKeys);
            },
            [](const SimSettings& sim) {
                toml::array keys;
                for (const auto& k : sim.decayKeys)
                    keys.push_back(toml::array{k.timeS, k.decay});
                return keys;
            }};
}

// snow.follow = "name" or ["name", ...]: 1 to kMaxObservers distinct, non-empty deformer
// names ("" or [] = the default observer). Whether each names a deformer is the field's check
// (the deformer list is another table).
Custom<SnowSettings> followList() {
    return {"\"name\" or [\"name\", ...] (at most 4)",
            [](config_read::Walker& walker, const toml::node& node, const std::string& key,
               SnowSettings& snow) {
                std::vector<std::string> names;
                if (const auto* one = node.as_string()) {
                    if (!one->get().empty())
                        names.push_back(one->get());
                } else if (const toml::array* list = node.as_array()) {
                    for (std::size_t i = 0; i < list->size(); ++i) {
                        const toml::node& item = *list->get(i);
                        const std::string at = key + "[" + std::to_string(i) + "]";
                        const auto* name = item.as_string();
                        if (!name)
                            return walker.expected(item, at, "a deformer name");
                        if (name->get().empty())
                            return walker.failKey(item, at, "must not be empty");
                        if (std::find(names.begin(), names.end(), name->get()) != names.end())
                            return walker.failKey(item, at, "'" + name->get() + "' is named twice");
                        names.push_back(name->get());
                    }
                    if (names.size() > static_cast<std::size_t>(kMaxObservers))
                        return walker.failKey(node, key,
                                              "at most " + std::to_string(kMaxObservers) +
                                                  " observers, got " +
                                                  std::to_string(names.size()));
                } else {
                    return walker.expected(node, key, "a deformer name or a list of names");
                }
                snow.follow = std::move(names);
                return true;
            },
            [](const SnowSettings& snow) {
                toml::array names;
                for (const std::string& name : snow.follow)
                    names.push_back(name);
                return names;
            }};
}

} // namespace

const Section<RunSettings>& runParams() {
    using R = RunSettings;
    static const Section<R> section{
        "run",
        "How `snowcap render` steps: a fixed time step, for a number of steps or a duration.",
        {
            {"fps", &R::fps, 60.0, aboveUpTo(0.0, 1000.0), "1/s", Drag,
             "Fixed simulation rate of `render`: one sim step per frame, time step 1/fps."},
            {"frames", &R::frames, 600, atLeast(1), "steps", None,
             "Steps `render` runs: 10 s at 60 fps, long enough to watch a trail fade in sim A."},
            {"duration_s", &R::durationS, 0.0, between(0.0, 1e6), "s", None,
             "Simulated seconds instead of a step count (0 = use frames): the same run at any "
             "fps."},
            {"final_at_s", &R::finalAtS, 0.0, between(0.0, 1e6), "s", None,
             "The moment `render`'s final.png shows (0 = the end of the run): a scenario whose "
             "point has passed by its end (a print faded to nothing) names its telling moment "
             "here; every other output is still of the end."},
        }};
    return section;
}

const Section<SnowSettings>& snowParams() {
    using N = SnowSettings;
    static const Section<N> section{
        "snow",
        "The snow region every sim shares: its size, height and depth, and what it follows.",
        {
            {"resolution", &N::resolution, 2048, powerOfTwoBetween(64, 8192), "texels", Combo,
             "Mask texture side; 2048 over 2048 cm makes 1 texel = 1 cm, the original's figure."},
            {"ortho_width_cm", &N::orthoWidthCm, 2048.0, positive(), "cm", Drag,
             "Side of the square region the capture camera sees (orthographic)."},
            {"surface_z_cm", &N::surfaceZCm, 0.0, anyNumber(), "cm", Drag,
             "Height of the undisturbed snow top; everything else is measured from here."},
            {"capture_z_cm", &N::captureZCm, -100.0, anyNumber(), "cm", Drag,
             "The capture camera, relative to the surface: below it, looking up at what pressed "
             "in."},
            {"depth_cm", &N::depthCm, 30.0, positive(), "cm", Drag,
             "Snow thickness: the ground is at surface - depth; a fully pressed texel reaches it."},
            {"region_centre_cm", &N::regionCentreCm, xy(0.0, 0.0), anyNumber(), "cm", Drag,
             "Centre of the capture region in world X, Y (the original's GuidePosition)."},
            {"follow", followList(), emptyList(), anyNumber(), "", None,
             "Observers a following region keeps centred, by the name of a deformer, a crowd "
             "member, a body or a vehicle: \"boot\" or up to 4 [\"player_1\", \"player_2\"] "
             "(follow_snapped: one window each); [] = the player (a deformer or a vehicle), or "
             "the first deformer."},
            {"quality", choice(&N::quality, kQualities), "custom", anyNumber(), "", Combo,
             "\"custom\": resolution, blur and surface density from their own keys; \"off\" .. "
             "\"ultra\" set them together (\"off\" allocates and runs nothing)."},
            {"idle_skip", &N::idleSkip, false, anyNumber(), "", Checkbox,
             "Skip capture and accumulate while nothing touches the region, it stands still and "
             "every sim has healed to exactly 0."},
            {"world_store_mib", &N::worldStoreMib, 64, integerBetween(1, 65536), "MiB", Drag,
             "Cap of each sim's world tile store (sim.X.persistence = \"world\"); when full the "
             "most healed tiles are evicted."},
            {"world_compress", choice(&N::worldCompress, kWorldCompressions), "lz4", anyNumber(),
             "", Combo,
             "Lossless packing of the world tiles no window has touched for 64 steps: \"off\", "
             "\"lz4\" (fast) or \"zstd\"; the cap counts the packed bytes (docs/world.md, section "
             "5)."},
        }};
    return section;
}

const Section<CaptureSettings>& captureParams() {
    using C = CaptureSettings;
    static const Section<C> section{
        "capture",
        "The depth capture from below (PP_Depth_Snow): mask = 1 - saturate((depth + offset) / "
        "distance).",
        {
            {"offset_cm", &C::offsetCm, 150.0, anyNumber(), "cm", Drag,
             "PP_Depth_Snow Offset: shifts the captured depth so the surface maps to mask 0."},
            {"distance_cm", &C::distanceCm, 250.0, positive(), "cm", Drag,
             "Capture_Distance: the depth span the capture maps onto [0, 1]."},
            {"far_cm", &C::farCm, 2000.0, positive(), "cm", Drag,
             "Far plane of the capture camera; generous, only the near distance_cm is kept."},
            {"proxy", choice(&C::proxy, kCaptureProxyModes), "auto", anyNumber(), "", Combo,
             "\"auto\": the capture draws a simplified proxy of each deformer mesh, built on "
             "load (it needs depth from below, not detail); the colour passes still draw the "
             "full mesh. \"off\": full meshes (docs/crowds.md)."},
            {"proxy_error_cm", &C::proxyErrorCm, 0.0, between(0.0, 1000.0), "cm", Drag,
             "The largest error a proxy may have, world cm, as measured; 0 = half a texel of the "
             "finest capture (2048 cm / 2048 / 2 = 0.5 cm by default)."},
            {"subset", choice(&C::subset, kCaptureSubsetModes), "auto", anyNumber(), "", Combo,
             "\"auto\": the capture draws only the triangles of each mesh that can come within "
             "snow.depth_cm + 10 cm of its lowest point over its clips, for instances standing "
             "upright and low enough that this covers every depth the mask responds to, and "
             "skips instances that cannot reach it; the prints are the same. \"off\": every "
             "triangle of every instance (docs/crowds.md)."},
            {"depth", choice(&C::depth, kCaptureDepths), "auto", anyNumber(), "", Combo,
             "The capture's depth texture: \"d16\" stores far_cm / 65535 steps (0.031 cm at "
             "2000 cm) in half the bytes of \"d32f\"; \"auto\" takes d16 when that step is at "
             "most 1/32 of the capture's texel (1 cm at 2048 cm / 2048), else d32f "
             "(docs/crowds.md)."},
        }};
    return section;
}

const Section<SimSettings>& simParams() {
    using S = SimSettings;
    static const Section<S> section{
        "sim.X",
        "One simulation (sim.a, sim.b, up to sim.h): every sim runs on the same captures with "
        "its own parameters and buffers. By default A recovers fast (0.95: about 5 % of a press "
        "left after 1 s) and B slowly (0.999: about 94 %), both frame-rate independent. There "
        "are two sims unless a config gives a later sim's table ([sim.c], or any --set "
        "sim.c.KEY): then that sim and every one before it exist. sim.c .. sim.h start from the "
        "defaults sim.b has here (this table's), not from a scenario's sim.b.",
        {
            {"model", choice(&S::model, kSimModels), "decay", anyNumber(), "", Combo,
             "\"decay\": a contact mask that decays (the UE original; every key below but "
             "resolution applies to it); \"snowpack\": snow with depth, density and mass that "
             "compacts, ploughs, slumps and settles (sim.X.snowpack, docs/snowpack.md)."},
            {"decay", &S::decay, perSim(0.999, {{'a', 0.95}}), aboveUpTo(0.0, 1.0), "", Slider,
             "Mask_Attenuation: the fraction of the mask kept per 1/60 s."},
            {"decay_timing", choice(&S::decayTiming, kDecayTimings), "delta_time", anyNumber(), "",
             Combo,
             "\"delta_time\": decay scaled by the time step, pow(decay, dt * 60); \"per_frame\": "
             "once per step, the UE original."},
            {"accumulate", choice(&S::accumulate, kAccumulateModes), "add", anyNumber(), "", Combo,
             "\"add\": presses accumulate (the original); \"max\": the deepest press wins."},
            {"contact_timing", choice(&S::contactTiming, kContactTimings), "delta_time",
             anyNumber(), "", Combo,
             "With accumulate = \"add\": \"delta_time\" adds mask x dt x 60 a step, the same "
             "at any frame rate (the original at 60 fps); \"per_frame\": the mask once a step, "
             "the UE original (deeper at higher rates). \"max\" does not depend on the rate."},
            {"half_safe", &S::halfSafe, true, anyNumber(), "", Checkbox,
             "Exact half-float rounding and decay quanta, so 16-bit storage cannot stall a slow "
             "decay (docs/pipeline.md)."},
            {"resolution", &S::resolution, 0, zeroOrPowerOfTwoBetween(64, 8192), "texels", Combo,
             "This sim's buffer side; 0 uses snow.resolution. Sims with the same region and "
             "resolution share one capture."},
            {"format", choice(&S::format, kBufferFormats), "r16f", anyNumber(), "", Combo,
             "\"r16f\": intensity only (the original); \"rgba16f\": R intensity, G age (s since "
             "the last contact), B contact type, 4x the memory."},
            {"normals", choice(&S::normals, kNormalModes), "height_to_normal", anyNumber(), "",
             Combo,
             "\"height_to_normal\": smoothed central differences (the original); \"sobel\": a "
             "sharper 3x3 Sobel."},
            {"region", choice(&S::region, kRegionModes), "fixed", anyNumber(), "", Combo,
             "\"fixed\" at snow.region_centre_cm; \"follow_naive\" re-centres on snow.follow and "
             "resamples (smears); \"follow_snapped\" moves by whole texels (exact)."},
            {"persistence", choice(&S::persistence, kPersistenceModes), "window", anyNumber(), "",
             Combo,
             "\"window\": a following region forgets what it scrolls past; \"world\": those "
             "texels go to a world tile store and come back aged exactly (docs/world.md)."},
            {"rims", choice(&S::rims, kRimModes), "off", anyNumber(), "", Combo,
             "\"on\": displaced snow rises in a berm around prints (material.rim_*)."},
            {"capture_reference", choice(&S::captureReference, kCaptureReferences), "terrain",
             anyNumber(), "", Combo,
             "What the capture measures penetration from (docs/terrain.md): \"terrain\" the "
             "local undisturbed snow top ([terrain] + snow); \"plane\" the write-up's one flat "
             "plane at snow.surface_z_cm, which fails on slopes. The same on flat terrain."},
            {"refill", choice(&S::refill, kRefillModes), "multiply", anyNumber(), "", Combo,
             "\"multiply\": the buffer is multiplied by the decay (the original); \"linear\": "
             "refill_rate is taken off per second instead."},
            {"refill_rate", &S::refillRatePerS, 0.1, aboveUpTo(0.0, 1000.0), "1/s", LogSlider,
             "Linear refill in mask units per second: a print of value v is flat after v / rate."},
            {"decay_keys", decayKeys(), emptyList(), anyNumber(), "", None,
             "Decay on the scenario timeline, linear between keys, held outside (a blizzard: "
             "[[0, 0.999], [5, 0.95]]); empty: decay all run."},
            {"blur", choice(&S::blur, kBlurModes), "per_pixel", anyNumber(), "", Combo,
             "\"per_pixel\": the spiral blur wherever Snow_Mask is read (UE, the reference); "
             "\"prepass\": once per step, one tap; \"separable\": two passes, half resolution."},
            {"displacement", choice(&S::displacement, kSurfaceGeometries), "vertex", anyNumber(),
             "", Combo,
             "\"vertex\": a dense grid displaced in the vertex shader; \"tessellation\": "
             "distance-adaptive hardware tessellation."},
        }};
    return section;
}

const Section<MaterialSettings>& materialParams() {
    using M = MaterialSettings;
    static const Section<M> section{
        "sim.X.material",
        "M_Snow and MF_FoliageInteraction_Snow for one sim (docs/material.md): Snow_Mask, "
        "displacement, the spiral blur, edges, normals and rims.",
        {
            {"mask_multi", &M::maskMulti, 50.0, positive(), "", Drag,
             "Snow_Mask = saturate(blurred persistent x mask_multi): x50 makes a faint trail a "
             "full print."},
            {"tgl", &M::tgl, 0.95, between(0.0, 1.0), "", Slider,
             "RemapValueRange low: displacement = remap(1 - Snow_Mask, 0..1 -> tgl..tgh) of a "
             "full print; lower is deeper."},
            {"tgh", &M::tgh, 1.0, between(0.0, 1.0), "", Slider,
             "RemapValueRange high: the displacement of untouched snow."},
            {"displacement_magnitude_cm", &M::displacementMagnitudeCm, 0.0, nonNegative(), "cm",
             Drag,
             "A full print sinks (tgh - tgl) x this; 0 = snow.depth_cm / (tgh - tgl), down to the "
             "ground."},
            {"distance_steps", &M::distanceSteps, 16, integerBetween(1, 64), "", Slider,
             "SpiralBlur rings."},
            {"radial_steps", &M::radialSteps, 8, integerBetween(1, 32), "", Slider,
             "SpiralBlur taps per ring."},
            {"rt_blur_distance", &M::rtBlurDistance, 0.0, between(0.0, 0.25), "uv", Slider,
             "Blur radius; 0 = by resolution: 1024 0.02, 2048 0.01, 4096 0.005, 8192 0.0015."},
            {"edge_control", &M::edgeControl, 0.02, between(0.0, 0.5), "uv", Slider,
             "Snow Edge Control: prints fade out over this width at the region's border."},
            {"normal_intensity", &M::normalIntensity, 1.0, between(0.0, 100.0), "", Drag,
             "HeightToNormal strength of the fake-shadow normals."},
            {"rim_height_cm", &M::rimHeightCm, 2.0, between(0.0, 100.0), "cm", Drag,
             "Crest of the berm around a print (rims = \"on\")."},
            {"rim_width_cm", &M::rimWidthCm, 12.0, between(0.0, 1000.0), "cm", Drag,
             "How far the berm reaches out from a print."},
        }};
    return section;
}

const Section<SnowpackSettings>& snowpackParams() {
    using P = SnowpackSettings;
    static const Section<P> section{
        "sim.X.snowpack",
        "The snowpack model (model = \"snowpack\", docs/snowpack.md): the initial column and "
        "the constants of its laws. Sources are cited by title in docs/sources.md.",
        {
            {"depth_cm", &P::depthCm, 30.0, between(0.5, 500.0), "cm", Drag,
             "Initial snow depth; the ground lies this far below snow.surface_z_cm, whose "
             "height stays the undisturbed snow top."},
            {"substance", choice(&P::substance, kSubstances), "snow", anyNumber(), "", None,
             "What the column is made of: \"snow\" (every key as given), \"sand\" or \"mud\": "
             "a preset of this table's keys, each from a published figure or a stated lab "
             "choice (docs/ground.md); a key given in the scenario or a --set overrides it."},
            {"density_kg_m3", &P::densityKgM3, 120.0, between(30.0, 2000.0), "kg/m3", Drag,
             "Initial density: 120 is settled fresh snow (new snow falls at 50..200 by "
             "temperature; HS2SWE fits 114)."},
            {"max_density_kg_m3", &P::maxDensityKgM3, 450.0, between(100.0, 2200.0), "kg/m3", Drag,
             "What a contact compacts a column to before the rest is ploughed aside: snow "
             "deformed under a vehicle averages about 500 (Snow deformation under a vehicle)."},
            {"repose_fresh_deg", &P::reposeFreshDeg, 50.0, between(10.0, 89.0), "deg", Slider,
             "Angle of repose of fresh snow (100 kg/m3 and less): loose fluffy snow piles at "
             "48..53, mean 50 (Natural slope angle of loose snow)."},
            {"repose_dense_deg", &P::reposeDenseDeg, 39.0, between(10.0, 89.0), "deg", Slider,
             "Angle of repose at max_density_kg_m3, linear in density between: coarse granular "
             "snow piles at 37..41, mean 39 (same table)."},
            {"slump_rate_hz", &P::slumpRateHz, 960.0, between(1.0, 2000.0), "1/s", LogSlider,
             "Slump iterations per simulated second, whatever the frame rate: each moves a fifth "
             "of every slope's excess over the angle of repose downhill. 960 keeps a dragged "
             "plough's heap near the angle of repose (120 let it tower to 190 cm)."},
            {"cover_follows_slope", &P::coverFollowsSlope, true, anyNumber(), "", Checkbox,
             "Over [terrain] the initial depth_cm is the depth on the flat: steeper ground "
             "starts with at most the snow holding depth of its slope (SnowSlide: a simple "
             "routine for calculating gravitational snow transport) and none where it is "
             "steeper than the angle of repose, so a scene starts at rest. Off: depth_cm "
             "everywhere, and what is too steep slides at once."},
            {"plough_reach_cm", &P::ploughReachCm, 32.0, between(1.0, 256.0), "cm", Drag,
             "Snow that cannot compact goes to the nearest texel outside the contact within "
             "this distance (at most 64 texels); beyond it, it stays under the contact."},
            {"temperature_c", &P::temperatureC, -5.0, between(-40.0, 0.0), "C", Slider,
             "Snow temperature of the settling law (Anderson 1976): warmer settles faster. Under "
             "a [weather] sky the snow takes the air's temperature instead, at most 0 C."},
            {"settle_time_scale", &P::settleTimeScale, 1.0, between(0.0, 100000.0), "", Drag,
             "Settling runs this many times faster than its clock (1: about 0.9 % of the depth "
             "an hour at the defaults; 3600 shows an hour a second; 0: off). Under a [weather] "
             "sky the clock is the weather's time_scale, and this an experiment's multiplier."},
            {"settle_interval_s", &P::settleIntervalS, 1.0, between(0.01, 60.0), "s", Drag,
             "Settling is applied once per this much simulated time, whatever the frame rate: "
             "a frame's share (4e-8 at 60 fps) is below a float's step."},
            {"melt_temperature_factor", &P::meltTemperatureFactor, 0.05, between(0.0, 10.0),
             "mm/(h C)", Drag,
             "[weather] melt per degree above 0 C: the temperature factor of the enhanced "
             "temperature-index model (An enhanced temperature-index glacier melt model "
             "including the shortwave radiation balance: 0.05)."},
            {"melt_radiation_factor", &P::meltRadiationFactor, 0.0094, between(0.0, 1.0),
             "mm m2/(W h)", Drag,
             "[weather] melt per W/m2 of absorbed sun, above 0 C: the model's shortwave "
             "radiation factor (the same paper: 0.0094)."},
            {"albedo", &P::albedo, 0.8, between(0.0, 1.0), "", Slider,
             "[weather] the share of the sun the snow reflects; the rest melts it (fresh snow "
             "0.8..0.9, old wet snow 0.5..0.6)."},
            {"drain_per_h", &P::drainPerH, 1.0, between(0.0, 1000.0), "1/h", Drag,
             "[weather] liquid water (from melt) leaves the column at this rate: a fraction "
             "1 - exp(-rate x t) of it in t hours, counted in mass_out_kg (a lab choice)."},
            {"drift_threshold_m_s", &P::driftThresholdMS, 0.0, between(0.0, 10.0), "m/s", Drag,
             "[weather] the substance's own threshold friction velocity, with Bagnold's flux "
             "above it (sand of 0.2 mm grains: about 0.2; mud's 10 is beyond any wind); 0: "
             "snow's, from its density (Kind), with Pomeroy and Gray's flux."},
        }};
    return section;
}

} // namespace snowcap::params
