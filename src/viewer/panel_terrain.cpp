// The Scene panel's Terrain section (docs/terrain.md, docs/viewer.md): [terrain]'s keys from the
// parameter table, its file typed and loaded, and what the field holds now. A change goes
// through Lab::apply as every live edit does: a file that cannot be the terrain is one line
// naming the key, the file and why, and the field keeps the terrain it had. Under the figures,
// the terrain seen from above as its height or its slope, with the colour bar of the view.
#include "core/params.hpp"
#include "lab/lab.hpp"
#include "lab/snow_top_export.hpp"
#include "terrain/terrain_view.hpp"
#include "viewer/param_widgets.hpp"
#include "viewer/viewer_panels.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

namespace snowcap {

struct TerrainPanelState {
    std::shared_ptr<const HeightField> madeFrom; // the field the map shows
    TerrainMap map;
    gpu::Texture2D texture; // the map as RGBA32F: height (cm), slope (degrees), 0, 0
    bool slope = false;
    std::string exportNote; // what the last snow-top export wrote, or why it did not
};

namespace {

constexpr int kMapMaxSide = 512; // the map's cells a side at most (finer fields are sampled)
constexpr int kViewSlot = 300;   // ViewerGl's preview and colour-bar slot
constexpr int kViewSize = 256;

// The terrain from above, north up, as its height (m) or its slope (degrees from level) through
// inferno, its legend under it; hovering shows the cell's point, height and slope.
void terrainView(PanelContext& context, const std::shared_ptr<const HeightField>& field) {
    std::shared_ptr<TerrainPanelState>& pointer = context.state.terrainPanel;
    if (!pointer)
        pointer = std::make_shared<TerrainPanelState>();
    TerrainPanelState& ps = *pointer;
    if (context.state.scrollTo == "terrain_slope") // render --ui --panels scene:terrain_slope
        ps.slope = true;
    if (ps.madeFrom != field) {
        ps.map = terrainMap(*field, kMapMaxSide);
        ps.texture = gpu::Texture2D(ps.map.columns, ps.map.rows, gpu::TextureFormat::RGBA32F,
                                    "viewer.terrain_map");
        ps.texture.upload(ps.map.texels);
        ps.madeFrom = field;
    }
    ImGui::Separator();
    if (ImGui::RadioButton("height", !ps.slope))
        ps.slope = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("slope", ps.slope))
        ps.slope = true;
    const HeightSpan span = field->spanCm();
    // Heights over the field's span out to whole centimetres; slopes from level to the
    // steepest, in whole 10 degrees.
    const float steepest = std::max(10.0f, std::ceil(ps.map.highestSlopeDeg / 10.0f) * 10.0f);
    const glm::vec2 range =
        ps.slope ? glm::vec2(0.0f, steepest)
                 : glm::vec2(float(std::floor(span.lowCm)), float(std::ceil(span.highCm)));
    const gpu::Texture2D& image =
        context.gl.preview(kViewSlot, ps.texture, ps.slope ? 1 : 0, range, kViewSize);
    ImGui::BeginGroup();
    const char* caption = ps.slope ? "slope from level, north up" : "height, north up";
    if (const auto cell = bufferImage(image, ps.texture, kViewSize, caption)) {
        const glm::dvec2 at = ps.map.centreCm(cell->x, cell->y);
        ImGui::SetTooltip("(%.0f, %.0f) cm\nheight %.2f m\nslope %.1f deg", at.x, at.y,
                          ps.map.heightCm(cell->x, cell->y) / 100.0,
                          double(ps.map.slopeDeg(cell->x, cell->y)));
    }
    if (ps.slope)
        bufferLegend(context, kViewSlot, kViewSize, range, "deg");
    else
        bufferLegend(context, kViewSlot, kViewSize, range / 100.0f, "m");
    ImGui::EndGroup();
}

// out/snow_top_YYYYMMDD_HHMMSS/ (a counter rather than a directory that exists): every sim's
// snow top now, as terrain.export_snow_top writes it at the end of a render.
void exportSnowTops(PanelContext& context, TerrainPanelState& ps) {
    namespace fs = std::filesystem;
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", std::localtime(&now));
    fs::path dir = fs::path("out") / (std::string("snow_top_") + stamp);
    std::error_code ec;
    for (int n = 2; fs::exists(dir, ec); ++n)
        dir = fs::path("out") / fmt::format("snow_top_{}_{}", stamp, n);
    fs::create_directories(dir, ec);
    if (ec) {
        ps.exportNote =
            fmt::format("{}: cannot make the directory ({})", dir.string(), ec.message());
        spdlog::warn("{}", ps.exportNote);
        return;
    }
    Lab& lab = context.lab;
    std::vector<fs::path> written;
    if (auto error = writeSnowTops(dir, lab.settings(), lab.field(), lab.renderer(), &written)) {
        ps.exportNote = *error;
        spdlog::warn("{}", *error);
        return;
    }
    ps.exportNote = fmt::format("wrote {} files into {}", written.size(), dir.string());
    spdlog::info("snow top: {}", ps.exportNote);
}

} // namespace

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
    terrainView(context, field);
    // The snow top now, in this terrain's mapping: back into [terrain] or a UE Landscape.
    TerrainPanelState& ps = *state.terrainPanel;
    if (ImGui::Button("export snow top"))
        exportSnowTops(context, ps);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("every sim's snow top as out/snow_top_TIME/snow_top_X.png (16-bit), .exr "
                          "and .toml (a [terrain] that reads it back): docs/terrain_files.md");
    if (!ps.exportNote.empty())
        ImGui::TextWrapped("%s", ps.exportNote.c_str());
}

} // namespace snowcap
