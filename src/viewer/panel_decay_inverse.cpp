// The Decay panel's inverse: type what the fade should do (a half-life, a time to 10 % or
// 0.1 %, or "gone": below the half-safe zero floor, stored as exactly 0) and get the decay that
// does it at a frame rate and decay timing (core/decay_inverse.hpp), then give it to a sim.
#include "core/decay_inverse.hpp"
#include "core/snow_math.hpp"
#include "viewer/viewer_panels.hpp"

#include <cstdio>
#include <imgui.h>

namespace snowcap {

namespace {

struct Target {
    const char* name;
    double fraction;
};
constexpr Target kTargets[] = {{"half-life", 0.5},
                               {"to 10 %", 0.1},
                               {"to 0.1 %", 0.001},
                               {"gone (< 1/4096, written as 0)", double(kZeroFloor)}};

} // namespace

void decayInverseSection(PanelContext& context) {
    Lab& lab = context.lab;
    // The panel's inputs live across frames (one viewer, one panel).
    static int target = 0;
    static double seconds = 10.0;
    static double fps = 0.0; // 0 until first shown: then the scenario's run.fps
    static int timing = 1;   // delta_time
    if (fps <= 0.0)
        fps = lab.settings().run.fps;

    ImGui::Separator();
    ImGui::TextUnformatted("decay for a target fade");
    ImGui::SetNextItemWidth(200.0f);
    if (ImGui::BeginCombo("##target", kTargets[target].name)) {
        for (int i = 0; i < int(std::size(kTargets)); ++i)
            if (ImGui::Selectable(kTargets[i].name, i == target))
                target = i;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90.0f);
    ImGui::InputDouble("s##after", &seconds, 0.0, 0.0, "%.3g");
    ImGui::SetNextItemWidth(90.0f);
    ImGui::InputDouble("fps", &fps, 0.0, 0.0, "%.4g");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110.0f);
    ImGui::Combo("timing", &timing, "per_frame\0delta_time\0");
    const DecayTiming decayTiming = timing == 0 ? DecayTiming::PerFrame : DecayTiming::DeltaTime;

    const auto result = decayFor(kTargets[target].fraction, seconds, decayTiming, fps);
    if (const auto* error = std::get_if<std::string>(&result)) {
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", error->c_str());
        return;
    }
    const double decay = std::get<double>(result);
    ImGui::Text("decay = %.9g  (half-life %.3g s, %.4g %% after 1 s)", decay,
                halfLifeS(decay, decayTiming, fps),
                100.0 * remainingAfter(decay, decayTiming, fps, 1.0));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The analytic law; the sims' half-safe quanta and half store stay\n"
                          "within 1.2 %% of it above 0.05 (the curves above are the clock's).");
    Settings edited = lab.settings();
    bool changed = false;
    for (int s = 0; s < lab.field().simCount(); ++s) {
        if (s)
            ImGui::SameLine();
        char label[32];
        std::snprintf(label, sizeof(label), "set %c", 'A' + s);
        if (ImGui::Button(label)) {
            edited.sims[s].decay = decay;
            edited.sims[s].decayTiming = decayTiming;
            edited.sims[s].decayKeys.clear(); // keys would override the value
            changed = true;
        }
    }
    if (changed)
        if (auto error = lab.apply(edited))
            context.state.status = *error;
}

} // namespace snowcap
