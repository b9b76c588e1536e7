// The Sims panel: A and B side by side with every key of sim.X (from the parameter table), copy /
// swap / reset, and presets that make B differ from A in one switch.
#include "core/snow_math.hpp"
#include "viewer/param_widgets.hpp"
#include "viewer/viewer_panels.hpp"

#include <imgui.h>

namespace snowcap {

namespace {

// Notes shown after a switch's spelling in its combo.
std::string_view valueNote(std::string_view key, std::string_view value) {
    if (key == "format" && value == "rgba16f")
        return "age, type";
    if (key == "refill" && value == "multiply")
        return "decay";
    if (key == "blur" && value == "per_pixel")
        return "UE";
    if (key == "blur" && value == "separable")
        return "half res";
    return "";
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

// Every key of sim.X and sim.X.material, as the parameter table declares them (widget, limits,
// tooltip); only what does not apply is greyed out.
bool simEditor(SimSettings& sim) {
    const WidgetOptions options{valueNote};
    bool changed = false;
    ImGui::PushItemWidth(-130.0f);
    changed |= paramWidgets(params::simParams(), sim, {"refill_rate"}, options);
    ImGui::BeginDisabled(sim.refill != RefillMode::Linear);
    changed |= paramWidget(params::simParams(), "refill_rate", sim);
    ImGui::EndDisabled();
    ImGui::Separator();
    ImGui::TextDisabled("material");
    MaterialSettings& m = sim.material;
    changed |= paramWidgets(params::materialParams(), m, {"rim_height_cm", "rim_width_cm"});
    ImGui::BeginDisabled(sim.rims == RimMode::Off);
    changed |= paramWidget(params::materialParams(), "rim_height_cm", m);
    changed |= paramWidget(params::materialParams(), "rim_width_cm", m);
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
        edited.sims = Settings{}.sims; // each sim its own default (A decays fast, B slowly)
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
