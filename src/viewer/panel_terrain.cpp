// The Scene panel's Terrain section (docs/terrain.md, docs/viewer.md): [terrain]'s keys from the
// parameter table, its file typed and loaded, and what the field holds now. A change goes
// through Lab::apply as every live edit does: a file that cannot be the terrain is one line
// naming the key, the file and why, and the field keeps the terrain it had.
#include "core/params.hpp"
#include "lab/lab.hpp"
#include "viewer/param_widgets.hpp"
#include "viewer/viewer_panels.hpp"

#include <cstdio>
#include <imgui.h>
#include <spdlog/spdlog.h>

namespace snowcap {

void terrainSection(PanelContext& context) {
    Lab& lab = context.lab;
    ViewerState& state = context.state;
    TerrainSettings terrain = lab.settings().terrain;
    ImGui::PushItemWidth(-140.0f);
    bool changed = paramWidgets(params::terrainParams(), terrain, {"file"});
    // The file: typed, then loaded (Enter or the button).
    if (!state.terrainFileTyped)
        state.terrainFilePath = terrain.file;
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), "%s", state.terrainFilePath.c_str());
    ImGui::SetNextItemWidth(-60.0f);
    const bool entered =
        ImGui::InputTextWithHint("##terrain_file", "tests/data/terrain/ridge.png", buffer,
                                 sizeof(buffer), ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("terrain.file: a 16-bit PNG or .r16 (kind = \"heightmap\") or a DEM "
                          "(kind = \"dem\"), under the repository root unless absolute");
    if (state.terrainFilePath != buffer) {
        state.terrainFilePath = buffer;
        state.terrainFileTyped = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("load##terrain") || entered) {
        terrain.file = state.terrainFilePath;
        changed = true;
    }
    ImGui::PopItemWidth();
    if (changed) {
        Settings edited = lab.settings();
        edited.terrain = terrain;
        if (auto error = lab.apply(edited)) {
            spdlog::warn("{}", *error); // the field kept the terrain it had
            state.terrainError = *error;
        } else {
            state.terrainError.clear();
            state.terrainFileTyped = false; // the field shows what it took
        }
    }
    if (!state.terrainError.empty())
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", state.terrainError.c_str());
    const std::shared_ptr<const HeightField>& field = lab.field().terrain();
    if (!field || field->flat()) {
        ImGui::TextDisabled("flat: the snow lies at snow.surface_z_cm");
        return;
    }
    const HeightSpan span = field->spanCm();
    ImGui::Text("%d x %d samples, %.1f x %.1f m", field->columns(), field->rows(),
                field->sizeCm().x / 100.0, field->sizeCm().y / 100.0);
    ImGui::Text("heights %.2f .. %.2f m (relief %.2f m)", span.lowCm / 100.0, span.highCm / 100.0,
                (span.highCm - span.lowCm) / 100.0);
    const glm::dvec2 cell = field->cellCm();
    ImGui::TextDisabled("a sample every %.1f x %.1f cm, centre at (%.0f, %.0f) cm", cell.x, cell.y,
                        field->centreCm().x, field->centreCm().y);
}

} // namespace snowcap
