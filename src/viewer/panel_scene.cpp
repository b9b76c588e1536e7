// The Scene panel: the deformers (add from a typed path or a dropped file, remove, contact type,
// clip and speed, visibility), the region and its follow target, the snow surface and the look;
// every setting through its parameter-table widget.
#include "viewer/param_widgets.hpp"
#include "viewer/viewer_panels.hpp"

#include <cmath>
#include <cstdio>
#include <imgui.h>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

bool inputText(const char* label, std::string& text) {
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), "%s", text.c_str());
    const bool entered =
        ImGui::InputText(label, buffer, sizeof(buffer), ImGuiInputTextFlags_EnterReturnsTrue);
    text = buffer;
    return entered;
}

// The deformer list; edits go to `edited` (applied by the caller), removals at once.
bool deformerList(PanelContext& context, Settings& edited) {
    Lab& lab = context.lab;
    bool changed = false;
    const auto& built = lab.deformers();
    int remove = -1;
    for (int i = 0; i < static_cast<int>(edited.deformers.size()); ++i) {
        DeformerSettings& d = edited.deformers[i];
        ImGui::PushID(i);
        bool visible = lab.visible(i);
        if (ImGui::Checkbox("##visible", &visible))
            lab.setVisible(i, visible);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("visible: hidden deformers neither draw nor press");
        ImGui::SameLine();
        const bool skinned = i < static_cast<int>(built.size()) && built[i].skin.has_value();
        const std::string title =
            d.name +
            (d.mesh.empty() ? "  (" + std::string(toString(d.shape)) + ")" : "  " + d.mesh);
        if (ImGui::TreeNode("deformer", "%s", title.c_str())) {
            ImGui::PushItemWidth(-120.0f);
            const auto& keys = params::deformerParams();
            // A size or clip speed change rebuilds the deformer: on release, not every drag.
            const WidgetOptions onRelease{nullptr, true};
            changed |= paramWidget(keys, "contact", d);
            if (d.mesh.empty()) {
                changed |= paramWidget(keys, "shape", d);
                changed |= paramWidget(keys, "size_cm", d, onRelease);
            }
            if (skinned) {
                const auto& clip = built[i].skin->clip;
                ImGui::Text("clip: %s (%.2f s)", clip.name.c_str(), clip.durationS);
                changed |= paramWidget(keys, "clip_speed", d, onRelease);
            }
            changed |= paramWidget(keys, "face_path", d);
            ImGui::SameLine();
            if (paramWidget(keys, "player", d)) {
                for (int j = 0; j < static_cast<int>(edited.deformers.size()); ++j)
                    if (j != i)
                        edited.deformers[j].player = false; // at most one
                changed = true;
            }
            ImGui::TextDisabled("path: %zu keys, %.1f s", d.path.size(),
                                d.path.empty() ? 0.0 : d.path.back().timeS);
            if (ImGui::Button("remove"))
                remove = i;
            ImGui::PopItemWidth();
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    if (remove >= 0) {
        lab.removeDeformer(remove);
        return false; // `edited` is stale now
    }
    ImGui::SetNextItemWidth(-60.0f);
    const bool entered = inputText("##add", context.state.deformerPath);
    ImGui::SameLine();
    if (ImGui::Button("add") || entered) {
        if (auto error = lab.addDeformer(context.state.deformerPath)) {
            context.state.sceneError = *error;
            spdlog::warn("{}", *error); // also on stderr: the panel may be closed or scrolled
        } else {
            context.state.sceneError.clear();
        }
        return false;
    }
    ImGui::TextDisabled("mesh path (glb, fbx...), sphere / box / capsule, or drop a file");
    return changed;
}

} // namespace

void scenePanel(PanelContext& context) {
    Lab& lab = context.lab;
    ViewerState& state = context.state;
    ImGui::Text("scenario: %s", lab.scenario().c_str());
    ImGui::SetNextItemWidth(-60.0f);
    const bool entered = inputText("##scenario", state.scenarioPath);
    ImGui::SameLine();
    if (ImGui::Button("load") || entered) {
        if (auto error = lab.loadScenario(state.scenarioPath)) {
            state.sceneError = *error;
            spdlog::warn("{}", *error); // the lab kept the scenario it had
        } else {
            state.sceneError.clear();
            state.cameras = {};
            state.probeSamples.clear();
        }
    }
    if (!state.sceneError.empty())
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", state.sceneError.c_str());

    Settings edited = lab.settings();
    bool changed = false, deformersChanged = false;
    if (ImGui::CollapsingHeader("Deformers", ImGuiTreeNodeFlags_DefaultOpen))
        changed |= deformersChanged = deformerList(context, edited);
    if (ImGui::CollapsingHeader("Region", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushItemWidth(-140.0f);
        changed |= paramWidget(params::snowParams(), "region_centre_cm", edited.snow);
        // The combo picks the first observer; the others (snow.follow's list) stay as they are.
        std::vector<std::string>& observers = edited.snow.follow;
        const std::string follow = observers.empty() ? "(first deformer)" : observers.front();
        if (ImGui::BeginCombo("follow", follow.c_str())) {
            if (ImGui::Selectable("(first deformer)", observers.empty())) {
                observers.clear();
                changed = true;
            }
            for (const DeformerSettings& d : edited.deformers)
                if (ImGui::Selectable(d.name.c_str(), d.name == follow)) {
                    std::erase(observers, d.name);
                    if (observers.empty())
                        observers.push_back(d.name);
                    else
                        observers.front() = d.name;
                    changed = true;
                }
            ImGui::EndCombo();
        }
        if (observers.size() > 1)
            ImGui::TextDisabled("%zu observers (snow.follow): one window each", observers.size());
        ImGui::TextDisabled("each sim follows or not by its own region switch (Sims panel)");
        ImGui::PopItemWidth();
    }
    if (ImGui::CollapsingHeader("Snow surface")) {
        ImGui::PushItemWidth(-140.0f);
        SnowSettings& snow = edited.snow;
        // follow is drawn under Region (a deformer name); the ground places the deformers,
        // so they are rebuilt when it moves.
        const auto& keys = params::snowParams();
        changed |= paramWidgets(keys, snow, {"region_centre_cm", "surface_z_cm", "depth_cm"});
        bool groundMoved = paramWidget(keys, "surface_z_cm", snow);
        groundMoved |= paramWidget(keys, "depth_cm", snow);
        changed |= groundMoved;
        deformersChanged |= groundMoved;
        ImGui::TextDisabled("capture");
        changed |= paramWidgets(params::captureParams(), edited.capture);
        ImGui::PopItemWidth();
    }
    if (ImGui::CollapsingHeader("Look")) {
        ImGui::PushItemWidth(-140.0f);
        changed |= paramWidgets(params::lookParams(), edited.look);
        ImGui::PopItemWidth();
    }
    if (changed) {
        if (auto error = lab.apply(edited, deformersChanged))
            state.sceneError = *error;
        else
            state.sceneError.clear();
    }
}

} // namespace snowcap
