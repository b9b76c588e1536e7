// The Sims panel: A and B side by side with every key of sim.X (the uniform block's inputs and
// every switch), copy / swap / reset, and presets that make B differ from A in one switch.
#include "viewer/viewer_panels.hpp"
#include "core/snow_math.hpp"

#include <imgui.h>

namespace snowcap {

namespace {

// Notes shown after a switch's spelling in its combo.
std::string_view formatHint(BufferFormat format) {
    return format == BufferFormat::RGBA16F ? "age, type" : "";
}
std::string_view refillHint(RefillMode refill) {
    return refill == RefillMode::Multiply ? "decay" : "";
}
std::string_view blurHint(BlurMode blur) {
    switch (blur) {
    case BlurMode::PerPixel:
        return "UE";
    case BlurMode::Separable:
        return "half res";
    default:
        return "";
    }
}

// A preset that sets one member of SimSettings: A takes `forA`, B takes `forB`.
template <class T> OnePreset differIn(const char* name, T SimSettings::*member, T forA, T forB) {
    return {name, [=](SimSettings& a, SimSettings& b) {
                a.*member = forA;
                b.*member = forB;
            }};
}

} // namespace

const std::vector<OnePreset>& oneDifferencePresets() {
    using S = SimSettings;
    static const std::vector<OnePreset> presets = {
        differIn("decay 0.95 vs 0.999", &S::decay, 0.95, 0.999),
        differIn("r16f vs rgba16f", &S::format, BufferFormat::R16F, BufferFormat::RGBA16F),
        differIn("naive vs snapped follow", &S::region, RegionMode::FollowNaive,
                 RegionMode::FollowSnapped),
        differIn("per_frame vs delta_time", &S::decayTiming, DecayTiming::PerFrame,
                 DecayTiming::DeltaTime),
        differIn("add vs max", &S::accumulate, AccumulateMode::Add, AccumulateMode::Max),
        differIn("vertex vs tessellation", &S::displacement, SurfaceGeometry::VertexGrid,
                 SurfaceGeometry::Tessellation),
        differIn("height_to_normal vs sobel", &S::normals, NormalMode::HeightToNormal,
                 NormalMode::Sobel),
        differIn("rims off vs on", &S::rims, RimMode::Off, RimMode::On),
        differIn("multiply vs linear refill", &S::refill, RefillMode::Multiply, RefillMode::Linear),
        differIn("per_pixel vs prepass blur", &S::blur, BlurMode::PerPixel, BlurMode::Prepass),
        differIn("per_pixel vs separable blur", &S::blur, BlurMode::PerPixel, BlurMode::Separable),
        differIn("half_safe off vs on", &S::halfSafe, false, true),
        differIn("512 vs 2048 texels", &S::resolution, 512, 2048),
    };
    return presets;
}

bool simEditor(SimSettings& sim) {
    bool changed = false;
    ImGui::PushItemWidth(-110.0f);
    changed |= sliderDouble("decay", sim.decay, 0.5, 1.0, "%.4f");
    changed |= enumCombo("decay_timing", sim.decayTiming);
    changed |= enumCombo("accumulate", sim.accumulate);
    changed |= ImGui::Checkbox("half_safe", &sim.halfSafe);
    changed |= enumCombo("refill", sim.refill, refillHint);
    if (sim.refill == RefillMode::Linear)
        changed |= sliderDouble("refill_rate /s", sim.refillRatePerS, 0.001, 2.0, "%.3f", true);
    int resolutionIndex = 0;
    static const int kResolutions[] = {0, 64, 128, 256, 512, 1024, 2048, 4096};
    for (int i = 0; i < 8; ++i)
        if (kResolutions[i] == sim.resolution)
            resolutionIndex = i;
    if (ImGui::Combo("resolution", &resolutionIndex,
                     "shared\0"
                     "64\0"
                     "128\0"
                     "256\0"
                     "512\0"
                     "1024\0"
                     "2048\0"
                     "4096\0")) {
        sim.resolution = kResolutions[resolutionIndex];
        changed = true;
    }
    changed |= enumCombo("format", sim.format, formatHint);
    changed |= enumCombo("region", sim.region);
    changed |= enumCombo("normals", sim.normals);
    changed |= enumCombo("blur", sim.blur, blurHint);
    changed |= enumCombo("displacement", sim.displacement);
    changed |= enumCombo("rims", sim.rims);
    MaterialSettings& m = sim.material;
    ImGui::Separator();
    ImGui::TextDisabled("material");
    changed |= sliderDouble("mask_multi", m.maskMulti, 1.0, 100.0, "%.1f");
    changed |= sliderDouble("tgl", m.tgl, 0.5, 1.0, "%.3f");
    changed |= sliderDouble("tgh", m.tgh, 0.5, 1.0, "%.3f");
    changed |= sliderDouble("displace cm", m.displacementMagnitudeCm, 0.0, 2000.0,
                            m.displacementMagnitudeCm == 0.0 ? "auto" : "%.0f");
    changed |= ImGui::SliderInt("distance_steps", &m.distanceSteps, 1, 32);
    changed |= ImGui::SliderInt("radial_steps", &m.radialSteps, 1, 16);
    changed |= sliderDouble("rt_blur_dist", m.rtBlurDistance, 0.0, 0.05,
                            m.rtBlurDistance == 0.0 ? "auto" : "%.4f");
    changed |= sliderDouble("edge_control", m.edgeControl, 0.0, 0.2, "%.3f");
    changed |= sliderDouble("normal_int", m.normalIntensity, 0.0, 5.0, "%.2f");
    ImGui::BeginDisabled(sim.rims == RimMode::Off);
    changed |= sliderDouble("rim_height_cm", m.rimHeightCm, 0.0, 20.0, "%.1f");
    changed |= sliderDouble("rim_width_cm", m.rimWidthCm, 0.0, 60.0, "%.1f");
    ImGui::EndDisabled();
    ImGui::PopItemWidth();
    return changed;
}

void simsPanel(PanelContext& context) {
    Lab& lab = context.lab;
    Settings edited = lab.settings();
    bool changed = false;
    if (ImGui::Button("copy A -> B")) {
        edited.sims[1] = edited.sims[0];
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("swap")) {
        std::swap(edited.sims[0], edited.sims[1]);
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("reset to scenario")) {
        edited.sims = lab.scenarioSettings().sims;
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("reset to defaults")) {
        edited.sims = {SimSettings{}, SimSettings{}};
        changed = true;
    }
    ImGui::SetNextItemWidth(240.0f);
    if (ImGui::BeginCombo("one difference", "B = A except ...")) {
        for (const OnePreset& preset : oneDifferencePresets())
            if (ImGui::Selectable(preset.name)) {
                edited.sims[1] = edited.sims[0];
                preset.apply(edited.sims[0], edited.sims[1]);
                changed = true;
                context.state.status = std::string("preset: ") + preset.name;
            }
        ImGui::EndCombo();
    }
    if (ImGui::BeginTable("sims", 2, ImGuiTableFlags_BordersInnerV)) {
        for (int s = 0; s < 2; ++s) {
            ImGui::TableNextColumn();
            ImGui::PushID(s);
            const Region& region = lab.field().sim(s).region();
            ImGui::TextColored(s == 0 ? ImVec4(0.55f, 0.8f, 1.0f, 1.0f)
                                      : ImVec4(1.0f, 0.7f, 0.45f, 1.0f),
                               "Sim %c  %d^2, %.2f cm/texel", s == 0 ? 'A' : 'B', region.resolution,
                               region.texelCm());
            changed |= simEditor(edited.sims[s]);
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (changed)
        if (auto error = lab.apply(edited))
            context.state.sceneError = *error;
}

} // namespace snowcap
