#include "app/export_ue_card.hpp"

#include "app/export_ue_ground.hpp"
#include "core/config.hpp"
#include "core/decay_inverse.hpp"
#include "core/param_range.hpp"
#include "core/quality.hpp"
#include "core/snow_math.hpp"
#include "snow/cpu_reference.hpp"

#include <cmath>
#include <fmt/format.h>

namespace snowcap {

using json = nlohmann::ordered_json;

CardFade cardFade(const SimSettings& sim, double fps, double horizonS) {
    CardFade fade;
    fade.fps = fps;
    const TexelSimulation texel{sim, HalfRounding::NearestEven, fps};
    // Contact until the buffer reads 1 (two steps for most settings) or stops rising, at most
    // one second: delta_time contact at a high rate, or a very fast decay, peaks below 1.
    const int holdMax = std::max(1, static_cast<int>(std::ceil(fps)));
    const std::vector<float> held = texel.run(holdMax, [](int, double) { return 1.0f; });
    fade.holdSteps = holdMax;
    for (int i = 0; i < holdMax; ++i)
        if (held[i] >= 1.0f || (i > 0 && held[i] <= held[i - 1])) {
            fade.holdSteps = i + 1;
            break;
        }
    const int release = static_cast<int>(std::ceil(horizonS * fps));
    const std::vector<float> run =
        texel.run(fade.holdSteps + release,
                  [hold = fade.holdSteps](int step, double) { return step < hold ? 1.0f : 0.0f; });
    fade.afterSteps.assign(run.begin() + (fade.holdSteps - 1), run.end());
    fade.peak = fade.afterSteps.front();
    return fade;
}

namespace {

json entry(json value, std::string_view unit, std::string_view snowcapKey, std::string note = "") {
    json out = {{"value", std::move(value)}, {"unit", unit}, {"snowcap", snowcapKey}};
    if (!note.empty())
        out["note"] = std::move(note);
    return out;
}

json rgb(const glm::vec3& colour) {
    return json::array({colour.x, colour.y, colour.z});
}

// The first whole step at which the fade is at or below `fraction` of its peak, in seconds;
// null when it does not get there within the horizon (the half store can stall a fade).
json timeTo(const CardFade& fade, double fraction) {
    for (std::size_t n = 0; n < fade.afterSteps.size(); ++n)
        if (fade.afterSteps[n] <= fraction * fade.peak)
            return static_cast<double>(n) / fade.fps;
    return nullptr;
}

json behaviour(const SimSettings& sim) {
    json rates = json::array();
    for (double fps : kCardRates) {
        const CardFade fade = cardFade(sim, fps, kCardHorizonS);
        json remaining = json::object(), analytic = json::object();
        for (double t : kCardTimesS) {
            const auto n = static_cast<std::size_t>(std::llround(t * fps));
            const std::string key = fmt::format("{:g}", t);
            remaining[key] = fade.afterSteps[n] / fade.peak;
            // The law alone (no quanta, no half store), where there is one: linear refill is
            // not a decay.
            analytic[key] = sim.refill == RefillMode::Linear
                                ? json(nullptr)
                                : json(remainingAfter(sim.decay, sim.decayTiming, fps, t));
        }
        rates.push_back({{"fps", fps},
                         {"hold_steps", fade.holdSteps},
                         {"peak", fade.peak},
                         {"remaining", remaining},
                         {"analytic", analytic},
                         {"time_to_10pct_s", timeTo(fade, 0.1)},
                         {"time_to_0.1pct_s", timeTo(fade, 0.001)},
                         {"time_to_zero_s", timeTo(fade, 0.0)},
                         {"value_at_horizon", fade.afterSteps.back()}});
    }
    return {{"method", "CPU reference of PP_Depth_Snow (snowcap's accumulate pass) with the sim's "
                       "clock; the store rounds to the nearest half, as GPUs do"},
            {"print", "a full print held until the buffer stops rising (at most 1 s), released "
                      "at t = 0; remaining = stored value / value at release"},
            {"horizon_s", kCardHorizonS},
            {"rates", rates}};
}

struct Switch {
    std::string key;
    std::string value;
    std::string original; // the UE write-up's behaviour
    std::string unreal;   // what the value needs in Unreal when it differs
};

std::vector<Switch> switches(const SimSettings& sim, const SnowSettings& snow,
                             const std::string& x) {
    std::vector<Switch> out;
    auto add = [&](std::string key, auto value, auto original, std::string unreal) {
        const std::string shown{toString(value)};
        out.push_back({std::move(key), shown, std::string(toString(original)),
                       value == original ? "nothing: as the original" : std::move(unreal)});
    };
    add("sim." + x + ".decay_timing", sim.decayTiming, DecayTiming::PerFrame,
        "PP_Depth_Snow multiplies by pow(Mask_Attenuation, DeltaTime * 60) instead of "
        "Mask_Attenuation; the Blueprint writes DeltaTime (Get World Delta Seconds) to an MPC "
        "scalar every tick.");
    add("sim." + x + ".contact_timing", sim.contactTiming, ContactTiming::PerFrame,
        "PP_Depth_Snow multiplies the contact mask by DeltaTime * 60 before the Add.");
    add("sim." + x + ".accumulate", sim.accumulate, AccumulateMode::Add,
        "PP_Depth_Snow: Max(mask, Persistent * factor) instead of Saturate((mask + Persistent) * "
        "factor); the deepest press wins.");
    out.push_back({"sim." + x + ".half_safe", sim.halfSafe ? "true" : "false", "false",
                   !sim.halfSafe
                       ? "nothing: as the original (an R16f fade can stall above 0 where a "
                         "step's drop is under half a half-float step)"
                       : "the Blueprint accumulates -ln(Mask_Attenuation) * DeltaTime * 60 in a "
                         "double and writes the factor exp(-k / 128) to the MPC only when a whole "
                         "quantum k of 1/128 is due (1 otherwise); PP_Depth_Snow writes 0 below "
                         "1/4096. Without it a slow fade stops short of 0 in R16f."});
    add("sim." + x + ".format", sim.format, BufferFormat::R16F,
        "Both render targets RTF_RGBA16f (4x the VRAM); PP_Depth_Snow writes G = age in s, "
        "B = contact type (a per-actor code: custom depth stencil value), A = distance to the "
        "print; M_Snow reads G and B to shape ruts and prints.");
    add("sim." + x + ".normals", sim.normals, NormalMode::HeightToNormal,
        "M_Snow: a 3 x 3 Sobel of the masked Snow_Mask (8 more blurred samples) instead of "
        "HeightToNormalSmooth, blended as before.");
    add("sim." + x + ".rims", sim.rims, RimMode::Off,
        "M_Snow: a berm; a second, wider blur sample of the persistent RT, and World Position "
        "Offset up by rim_height_cm where the wide sample exceeds the narrow one.");
    add("sim." + x + ".refill", sim.refill, RefillMode::Multiply,
        "PP_Depth_Snow: Saturate(mask + Persistent - refill_rate * DeltaTime) instead of the "
        "multiply; a print of value v is gone after v / refill_rate seconds.");
    add("sim." + x + ".region", sim.region, RegionMode::Fixed,
        "follow_naive: GuidePosition from the followed actor every tick (prints slide by up to a "
        "texel); follow_snapped: snap GuidePosition to whole texels (Ortho_Width / resolution) "
        "and shift the persistent RT by the whole-texel move (one copy draw) when it changes.");
    add("sim." + x + ".blur", sim.blur, BlurMode::PerPixel,
        "a blur pass after PP_Depth_Snow into a third render target; M_Snow samples it once "
        "instead of running SpiralBlur per pixel.");
    add("sim." + x + ".displacement", sim.displacement, SurfaceGeometry::VertexGrid,
        "tessellated displacement (UE 4 tessellation, UE 5 Nanite tessellation) instead of "
        "landscape vertices.");
    out.push_back(
        {"sim." + x + ".decay_keys",
         sim.decayKeys.empty() ? "none" : fmt::format("{} keys", sim.decayKeys.size()), "none",
         sim.decayKeys.empty()
             ? "nothing: as the original"
             : "a curve (Timeline or Sequencer track) that writes Mask_Attenuation to the "
               "MPC over time."});
    out.push_back({"snow.idle_skip", snow.idleSkip ? "true" : "false", "false",
                   !snow.idleSkip
                       ? "nothing: as the original"
                       : "the Blueprint skips DrawToMainRT and the capture while nothing overlaps "
                         "the Box, the region stands still and the RT has healed to 0."});
    return out;
}

} // namespace

json ueSettingsCard(const Settings& loaded, int simIndex, const std::string& scenario,
                    const std::vector<std::string>& overrides) {
    const Settings settings = effectiveSettings(loaded);
    const SimSettings& sim = settings.sims[simIndex];
    const MaterialSettings& m = sim.material;
    const std::string x(simName(simIndex));
    const std::string s = "sim." + x;
    const int resolution = sim.resolution > 0 ? sim.resolution : settings.snow.resolution;
    const double blur =
        m.rtBlurDistance > 0.0 ? m.rtBlurDistance : blurDistanceForResolution(resolution);
    const bool deltaTime = sim.decayTiming == DecayTiming::DeltaTime;

    json card;
    card["scenario"] = scenario;
    card["sim"] = x;
    card["overrides"] = overrides;
    card["MPC_FoliageInteraction"] = {
        {"GuidePosition_X",
         entry(settings.snow.regionCentreCm[0], "cm", "snow.region_centre_cm[0]",
               sim.region == RegionMode::Fixed ? "" : "follows an actor: written every tick")},
        {"GuidePosition_Y",
         entry(settings.snow.regionCentreCm[1], "cm", "snow.region_centre_cm[1]")},
        {"Ortho_Width", entry(settings.snow.orthoWidthCm, "cm", "snow.ortho_width_cm")},
        {"Capture_Distance", entry(settings.capture.distanceCm, "cm", "capture.distance_cm")},
        {"Mask_Attenuation",
         entry(sim.decay, "", s + ".decay",
               "the MPC scalar the Blueprint writes at Initialize; PP_Depth_Snow should read it "
               "through a CollectionParameter node into its Multiply (see Decay)")},
        {"RT_Blur_Distance",
         entry(blur, "uv", s + ".material.rt_blur_distance",
               m.rtBlurDistance > 0.0 ? "set explicitly, not from the resolution table"
                                      : "from the resolution table")}};
    card["PP_Depth_Snow"] = {
        {"Offset", entry(settings.capture.offsetCm, "cm", "capture.offset_cm")},
        {"CaptureDistance", entry(settings.capture.distanceCm, "cm", "capture.distance_cm")},
        {"Decay",
         entry(sim.decay, "", s + ".decay",
               "the constant of PP_Depth_Snow's Multiply node (0.999 in the write-up): the same "
               "number as Mask_Attenuation. Replace the constant by a CollectionParameter node "
               "reading Mask_Attenuation, so one value drives the fade; until then set both")},
        {"AttenuationFactor",
         entry(deltaTime ? fmt::format("pow({:g}, DeltaTime * 60)", sim.decay)
                         : fmt::format("{:g}", sim.decay),
               "", s + ".decay_timing",
               deltaTime ? "delta_time: the same fade at any frame rate"
                         : "per_frame: the original; the fade's length scales with 1 / fps")}};
    card["M_Snow"] = {
        {"Mask_Multi", entry(m.maskMulti, "", s + ".material.mask_multi")},
        {"TGL", entry(m.tgl, "", s + ".material.tgl")},
        {"TGH", entry(m.tgh, "", s + ".material.tgh")},
        {"Displacement_Magnitude",
         entry(m.displacementMagnitudeCm > 0.0
                   ? m.displacementMagnitudeCm
                   : settings.snow.depthCm / std::max(m.tgh - m.tgl, 1e-6),
               "cm", s + ".material.displacement_magnitude_cm",
               "the Displacement pin's scale: a full print sinks (TGH - TGL) x this")},
        {"SS_Ground", entry(rgb(settings.look.ssGround), "linear rgb", "look.ss_ground")},
        {"SS_Snow", entry(rgb(settings.look.ssSnow), "linear rgb", "look.ss_snow")}};
    card["MF_FoliageInteraction_Snow"] = {
        {"SpiralBlur_DistanceSteps", entry(m.distanceSteps, "", s + ".material.distance_steps")},
        {"SpiralBlur_RadialSteps", entry(m.radialSteps, "", s + ".material.radial_steps")},
        {"Snow_Edge_Control", entry(m.edgeControl, "uv", s + ".material.edge_control")}};
    const bool inEnum =
        resolution == 1024 || resolution == 2048 || resolution == 4096 || resolution == 8192;
    card["Enum_FoliageResolution"] =
        entry(resolution, "texels", s + ".resolution",
              inEnum ? "" : "not one of the enum's 1024 / 2048 / 4096 / 8192: add the entry");
    card["RenderTargetFormat"] =
        entry(sim.format == BufferFormat::RGBA16F ? "RTF_RGBA16f" : "RTF_R16f", "", s + ".format");
    card["SceneCaptureComponent2D"] = {
        {"ProjectionType", entry("Orthographic", "", "", "the capture is orthographic")},
        {"Location_Z", entry(settings.snow.surfaceZCm + settings.snow.captureZCm, "cm",
                             "snow.surface_z_cm + snow.capture_z_cm",
                             "below the snow top: the camera looks up at what presses in")},
        {"Rotation_Pitch",
         entry(90.0, "deg", "",
               "looking up (+Z), from below. snowcap's buffer has world +X along u and +Y along "
               "v with no mirror (texel (0, 0) at the region's -X, -Y corner): check with a "
               "cube placed at +X of the guide, whose print must show at +U of RT_Capture, and "
               "turn Yaw or Roll by 90 degree steps until it does")},
        {"OrthoWidth", entry(settings.snow.orthoWidthCm, "cm", "snow.ortho_width_cm")}};
    json list = json::array();
    for (const Switch& sw : switches(sim, settings.snow, x))
        list.push_back({{"key", sw.key},
                        {"value", sw.value},
                        {"original", sw.original},
                        {"unreal", sw.unreal}});
    card["snowcap_only"] = list;
    card["behaviour"] = behaviour(sim);
    return card;
}

std::string pythonString(std::string_view text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\\' || c == '\'')
            out += '\\';
        out += c;
    }
    return out + "'";
}

namespace {

double number(const json& asset, const char* name) {
    return asset.at(name).at("value").get<double>();
}

} // namespace

std::string ueEditorPython(const json& card) {
    const json& mpc = card.at("MPC_FoliageInteraction");
    const json& snow = card.at("M_Snow");
    const json& blur = card.at("MF_FoliageInteraction_Snow");
    std::string py = fmt::format(
        "# Applies the snowcap settings card (scenario {}, sim {}) in the Unreal editor:\n"
        "# Tools > Execute Python Script, or `py thisfile.py` in the Output Log. Edit the two\n"
        "# asset paths to your project's. The material instance must expose M_Snow's and\n"
        "# MF_FoliageInteraction_Snow's inputs as scalar parameters of these names.\n"
        "import unreal\n\n"
        "MPC_PATH = '/Game/Snow/MPC_FoliageInteraction'\n"
        "SNOW_MI_PATH = '/Game/Snow/MI_Snow'\n\n",
        card.at("scenario").get<std::string>(), card.at("sim").get<std::string>());
    py += "mpc_values = {\n";
    for (const char* name :
         {"Ortho_Width", "Capture_Distance", "Mask_Attenuation", "RT_Blur_Distance"})
        py += fmt::format("    {}: {},\n", pythonString(name), show(number(mpc, name)));
    py += "}\nmaterial_values = {\n";
    for (const char* name : {"Mask_Multi", "TGL", "TGH", "Displacement_Magnitude"})
        py += fmt::format("    {}: {},\n", pythonString(name), show(number(snow, name)));
    for (const char* name :
         {"SpiralBlur_DistanceSteps", "SpiralBlur_RadialSteps", "Snow_Edge_Control"})
        py += fmt::format("    {}: {},\n", pythonString(name), show(number(blur, name)));
    py += "}\n\n"
          "mpc = unreal.EditorAssetLibrary.load_asset(MPC_PATH)\n"
          "scalars = list(mpc.get_editor_property('scalar_parameters'))\n"
          "for parameter in scalars:\n"
          "    name = str(parameter.get_editor_property('parameter_name'))\n"
          "    if name in mpc_values:\n"
          "        parameter.set_editor_property('default_value', mpc_values.pop(name))\n"
          "for name, value in mpc_values.items():  # the ones the collection lacks\n"
          "    parameter = unreal.CollectionScalarParameter()\n"
          "    parameter.set_editor_property('parameter_name', name)\n"
          "    parameter.set_editor_property('default_value', value)\n"
          "    scalars.append(parameter)\n"
          "mpc.set_editor_property('scalar_parameters', scalars)\n"
          "unreal.EditorAssetLibrary.save_loaded_asset(mpc)\n\n"
          "instance = unreal.EditorAssetLibrary.load_asset(SNOW_MI_PATH)\n"
          "for name, value in material_values.items():\n"
          "    if not unreal.MaterialEditingLibrary.set_material_instance_scalar_parameter_value(\n"
          "            instance, name, value):\n"
          "        unreal.log_warning(f'{SNOW_MI_PATH}: no scalar parameter {name}')\n";
    if (card.contains("Ground"))
        py += ueGroundEditorPython(card.at("Ground"), "instance");
    return py + "unreal.EditorAssetLibrary.save_loaded_asset(instance)\n";
}

} // namespace snowcap
