// The Scene panel: the deformers (add from a typed path or a dropped file, remove, contact type,
// clip and speed, visibility, a mesh's file and placement copied out as TOML), the region and its
// follow target, the snow surface and the look; every setting through its parameter-table widget.
#include "viewer/param_widgets.hpp"
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_panels.hpp"

#include <algorithm>
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

// A mesh deformer's file and placement, each applied when its edit ends (the mesh is imported
// again, so not on every drag step). The keys are the parameter table's (scale, fit_height_cm,
// rotation_deg, offset_cm, up_axis); "copy TOML" puts the entry as a scenario writes it on the
// clipboard and shows it.
bool meshPlacement(DeformerSettings& d, bool& showToml) {
    bool changed = false;
    const auto& keys = params::deformerParams();
    auto range = [&](std::string_view key) {
        for (const auto& param : keys.params)
            if (param.key == key)
                return param.range;
        return Range{};
    };
    std::string path = d.mesh;
    if (inputText("mesh", path) && !path.empty()) {
        d.mesh = path;
        changed = true;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("a glb / fbx / ... path (Enter loads it; a bad file keeps the old mesh)");
    double scale = d.scale;
    const double lowScale = 1e-4, highScale = range("scale").high;
    ImGui::DragScalar("scale", ImGuiDataType_Double, &scale, 0.005f, &lowScale, &highScale, "%.4g");
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        d.scale = std::clamp(scale, lowScale, highScale);
        changed = true;
    }
    double fit = d.fitHeightCm;
    const double lowFit = 0.0, highFit = 1e5;
    ImGui::DragScalar("fit height (cm)", ImGuiDataType_Double, &fit, 0.5f, &lowFit, &highFit,
                      fit > 0.0 ? "%.1f" : "off");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("fit_height_cm: scale the mesh to this height (0: as it is)");
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        d.fitHeightCm = std::clamp(fit, lowFit, highFit);
        changed = true;
    }
    glm::vec3 rotation = d.rotationDeg;
    ImGui::DragFloat3("rotation (deg)", &rotation.x, 0.5f, -360.0f, 360.0f, "%.1f");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("rotation_deg: Euler X Y Z; a mesh whose front is +Y walks sideways\n"
                          "until Z is turned by -90");
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        d.rotationDeg = rotation;
        changed = true;
    }
    glm::vec3 offset = d.offsetCm;
    ImGui::DragFloat3("offset (cm)", &offset.x, 0.2f, -1e4f, 1e4f, "%.1f");
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        d.offsetCm = offset;
        changed = true;
    }
    changed |= paramWidget(keys, "up_axis", d);
    if (ImGui::SmallButton("copy TOML")) {
        ImGui::SetClipboardText(params::deformerToml(d).c_str());
        showToml = true;
    }
    if (showToml) {
        ImGui::SameLine();
        if (ImGui::SmallButton("hide"))
            showToml = false;
        std::string text = params::deformerToml(d);
        ImGui::InputTextMultiline("##toml", text.data(), text.size() + 1,
                                  {-1.0f, ImGui::GetTextLineHeight() * 8.0f},
                                  ImGuiInputTextFlags_ReadOnly);
    }
    return changed;
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
            } else if (ImGui::TreeNode("placement")) {
                changed |= meshPlacement(d, context.state.showDeformerToml);
                ImGui::TreePop();
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
            // As at start: where a region follows the player, the cameras follow it too (else
            // the walker leaves the view and the panes show untouched snow).
            state.followPlayer = followsAtStart(lab.settings());
        }
    }
    if (!state.sceneError.empty())
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", state.sceneError.c_str());

    Settings edited = lab.settings();
    bool changed = false, deformersChanged = false;
    if (ImGui::CollapsingHeader("Deformers", ImGuiTreeNodeFlags_DefaultOpen))
        changed |= deformersChanged = deformerList(context, edited);
    if (ImGui::CollapsingHeader("Throw")) {
        ImGui::PushItemWidth(-140.0f);
        float speed = float(state.throwSpeedCmS), radius = float(state.throwRadiusCm);
        if (ImGui::DragFloat("speed (cm/s)", &speed, 10.0f, 100.0f, 5000.0f, "%.0f"))
            state.throwSpeedCmS = std::clamp(double(speed), 100.0, 5000.0);
        if (ImGui::DragFloat("radius (cm)", &radius, 0.1f, 1.0f, 30.0f, "%.1f"))
            state.throwRadiusCm = std::clamp(double(radius), 1.0, 30.0);
        ImGui::PopItemWidth();
        if (ImGui::Button("throw at A's centre")) {
            const ImGuiIO& io = ImGui::GetIO();
            const int width = int(io.DisplaySize.x * io.DisplayFramebufferScale.x);
            const int height = int(io.DisplaySize.y * io.DisplayFramebufferScale.y);
            const glm::ivec4 r = layoutPanes(state, width, height).front().rect;
            state.throwAtPixel = glm::dvec2(r.x + 0.5 * r.z, r.y + 0.5 * r.w);
            state.throwRequested = true;
        }
        ImGui::SameLine();
        ImGui::TextDisabled("or T: at the snow under the mouse");
        if (!state.throwNote.empty())
            ImGui::TextDisabled("%s", state.throwNote.c_str());
    }
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
    // After the edits above are applied: the section applies its own from the lab's settings.
    // render --ui --panels scene:ground opens the section and scrolls the panel to it.
    const bool onGround = state.scrollTo == "ground";
    if (onGround)
        ImGui::SetNextItemOpen(true);
    if (onGround)
        ImGui::SetScrollHereY(0.0f);
    if (ImGui::CollapsingHeader("Ground"))
        groundSection(context);
    // render --ui --panels scene:terrain opens it and scrolls to it (terrain_slope: on its
    // slope view).
    const bool onTerrain = state.scrollTo == "terrain" || state.scrollTo == "terrain_slope";
    if (onTerrain) {
        ImGui::SetNextItemOpen(true);
        ImGui::SetScrollHereY(0.0f);
    }
    if (ImGui::CollapsingHeader("Terrain"))
        terrainSection(context);
}

} // namespace snowcap
