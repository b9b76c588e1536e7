// The Scene panel's Ground section (docs/ground.md §4, docs/viewer.md): [ground]'s kind, its
// tile and mud keys from the parameter table, and the texture's file typed and loaded. A change
// goes through Lab::apply as every live edit does: a file that cannot be the ground is one line
// naming the key, the file and why, and the field keeps the ground it had.
#include "core/params.hpp"
#include "lab/lab.hpp"
#include "viewer/param_widgets.hpp"
#include "viewer/viewer_panels.hpp"

#include <cstdio>
#include <imgui.h>
#include <spdlog/spdlog.h>

namespace snowcap {

std::optional<std::string> applyGround(Lab& lab, const GroundSettings& ground) {
    Settings edited = lab.settings();
    edited.ground = ground;
    auto error = lab.apply(edited);
    if (error)
        spdlog::warn("{}", *error); // the field kept the ground it had
    return error;
}

GroundSettings groundWithTexture(GroundSettings ground, const std::string& path) {
    ground.kind = GroundKind::Texture;
    ground.texture = path;
    return ground;
}

void groundSection(PanelContext& context) {
    Lab& lab = context.lab;
    ViewerState& state = context.state;
    GroundSettings ground = lab.settings().ground;
    ImGui::PushItemWidth(-140.0f);
    bool changed = paramWidgets(params::groundParams(), ground, {"texture"});
    // The texture's file: typed, then loaded (Enter or the button), which also picks the kind.
    if (!state.groundTextureTyped)
        state.groundTexturePath = ground.texture;
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), "%s", state.groundTexturePath.c_str());
    ImGui::SetNextItemWidth(-60.0f);
    const bool entered =
        ImGui::InputTextWithHint("##ground_texture", "assets/ground/pebbles.png", buffer,
                                 sizeof(buffer), ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("ground.texture: a PNG (under the repository root unless absolute), "
                          "the ground's albedo; loading it sets kind = \"texture\"");
    if (state.groundTexturePath != buffer) {
        state.groundTexturePath = buffer;
        state.groundTextureTyped = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("load##ground") || entered) {
        ground = groundWithTexture(ground, state.groundTexturePath);
        changed = true;
    }
    ImGui::PopItemWidth();
    if (changed) {
        if (auto error = applyGround(lab, ground)) {
            state.groundError = *error;
        } else {
            state.groundError.clear();
            state.groundTextureTyped = false; // the field shows what it took
        }
    }
    if (!state.groundError.empty())
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", state.groundError.c_str());
    else if (lab.settings().ground.kind == GroundKind::Texture)
        ImGui::TextDisabled("texture: %s", lab.settings().ground.texture.c_str());
}

} // namespace snowcap
