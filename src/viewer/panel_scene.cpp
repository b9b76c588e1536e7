// The Scene panel: the deformers (add from a typed path or a dropped file, remove, contact type,
// clip and speed, visibility), the region and its follow target, the snow surface and the look.
#include "viewer/viewer_panels.hpp"

#include <cmath>
#include <cstdio>
#include <imgui.h>

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
            changed |= enumCombo("contact", d.contact);
            if (d.mesh.empty()) {
                changed |= enumCombo("shape", d.shape);
                float size[3] = {d.sizeCm.x, d.sizeCm.y, d.sizeCm.z};
                ImGui::DragFloat3("size cm", size, 0.5f, 1.0f, 500.0f, "%.0f");
                if (ImGui::IsItemDeactivatedAfterEdit()) {
                    d.sizeCm = {size[0], size[1], size[2]};
                    changed = true;
                }
            }
            if (skinned) {
                const auto& clip = built[i].skin->clip;
                ImGui::Text("clip: %s (%.2f s)", clip.name.c_str(), clip.durationS);
                float speed = static_cast<float>(d.clipSpeed);
                ImGui::SliderFloat("clip speed", &speed, 0.0f, 4.0f, "%.2f");
                if (ImGui::IsItemDeactivatedAfterEdit()) {
                    d.clipSpeed = speed; // re-imports the mesh: on release, not every drag
                    changed = true;
                }
            }
            changed |= ImGui::Checkbox("face path", &d.facePath);
            ImGui::SameLine();
            if (ImGui::Checkbox("player (WASD)", &d.player)) {
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
        if (auto error = lab.addDeformer(context.state.deformerPath))
            context.state.sceneError = *error;
        else
            context.state.sceneError.clear();
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
        float centre[2] = {static_cast<float>(edited.snow.regionCentreCm[0]),
                           static_cast<float>(edited.snow.regionCentreCm[1])};
        if (ImGui::DragFloat2("region_centre_cm", centre, 5.0f, -1e5f, 1e5f, "%.0f")) {
            edited.snow.regionCentreCm = {centre[0], centre[1]};
            changed = true;
        }
        std::string follow = edited.snow.follow.empty() ? "(first deformer)" : edited.snow.follow;
        if (ImGui::BeginCombo("follow", follow.c_str())) {
            if (ImGui::Selectable("(first deformer)", edited.snow.follow.empty())) {
                edited.snow.follow.clear();
                changed = true;
            }
            for (const DeformerSettings& d : edited.deformers)
                if (ImGui::Selectable(d.name.c_str(), d.name == edited.snow.follow)) {
                    edited.snow.follow = d.name;
                    changed = true;
                }
            ImGui::EndCombo();
        }
        ImGui::TextDisabled("each sim follows or not by its own region switch (Sims panel)");
        ImGui::PopItemWidth();
    }
    if (ImGui::CollapsingHeader("Snow surface")) {
        ImGui::PushItemWidth(-140.0f);
        SnowSettings& snow = edited.snow;
        changed |= enumCombo("quality", snow.quality);
        int exponent = static_cast<int>(std::log2(std::max(snow.resolution, 64)));
        if (ImGui::SliderInt("resolution", &exponent, 6, 12,
                             std::to_string(1 << exponent).c_str())) {
            snow.resolution = 1 << exponent;
            changed = true;
        }
        changed |= dragDouble("ortho_width_cm", snow.orthoWidthCm, 8.0, 64.0, 16384.0, "%.0f");
        // The ground (surface - depth) places the deformers: they are rebuilt when it moves.
        bool groundMoved =
            dragDouble("surface_z_cm", snow.surfaceZCm, 1.0, -1000.0, 1000.0, "%.0f");
        groundMoved |= dragDouble("depth_cm", snow.depthCm, 0.5, 1.0, 200.0, "%.1f");
        changed |= groundMoved;
        deformersChanged |= groundMoved;
        changed |= dragDouble("capture_z_cm", snow.captureZCm, 1.0, -1000.0, -1.0, "%.0f");
        changed |= ImGui::Checkbox("idle_skip", &snow.idleSkip);
        changed |=
            dragDouble("capture offset_cm", edited.capture.offsetCm, 1.0, 0.0, 1000.0, "%.0f");
        changed |=
            dragDouble("capture distance_cm", edited.capture.distanceCm, 1.0, 1.0, 2000.0, "%.0f");
        ImGui::PopItemWidth();
    }
    if (ImGui::CollapsingHeader("Look")) {
        ImGui::PushItemWidth(-140.0f);
        LookSettings& look = edited.look;
        changed |= ImGui::ColorEdit3("snow_colour", &look.snowColour.x);
        changed |= ImGui::ColorEdit3("packed_colour", &look.packedColour.x);
        changed |= ImGui::ColorEdit3("ground_colour", &look.groundColour.x);
        changed |= ImGui::ColorEdit3("sun_colour", &look.sunColour.x);
        changed |= ImGui::ColorEdit3("sky_colour", &look.skyColour.x);
        changed |= ImGui::DragFloat3("sun_direction", &look.sunDirection.x, 0.01f, -1.0f, 1.0f);
        changed |= sliderDouble("wrap", look.wrap, 0.0, 1.0, "%.2f");
        changed |= sliderDouble("ground_reveal", look.groundReveal, 0.0, 1.0, "%.2f");
        changed |= sliderDouble("detail_normal", look.detailNormal, 0.0, 1.0, "%.2f");
        changed |= sliderDouble("crevice_occlusion", look.creviceOcclusion, 0.0, 1.0, "%.2f");
        changed |= sliderDouble("snow roughness", look.snowOr[1], 0.0, 1.0, "%.2f");
        changed |= sliderDouble("packed roughness", look.packedOr[1], 0.0, 1.0, "%.2f");
        changed |= ImGui::Checkbox("specular", &look.specular);
        changed |= ImGui::Checkbox("sparkle", &look.sparkle);
        changed |= ImGui::Checkbox("deformer_shadows", &look.deformerShadows);
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
