// The Snowpack panel (sim.X.model = "snowpack", docs/snowpack.md): a snowpack sim's mass budget
// (the figures of stats.json's sims.X.snowpack, from the same list), refreshed every few frames,
// and its state as two live buffer views, depth and density, each with its legend: a colour bar
// of the very ramp the view maps onto, its range and unit. Hovering a view reads that texel.
#include "lab/snowpack_stats.hpp"
#include "snow/snowpack_sim.hpp"
#include "viewer/viewer_panels.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <glm/vec3.hpp>
#include <imgui.h>

namespace snowcap {

namespace {

// The budget reads the whole state back (4 MiB at 512², 16 MiB at 1024²): every this many
// frames, and at once after a change of sim, a restart or a single step.
constexpr int kRefreshFrames = 10;
// Preview slots of ViewerGl (the Buffers panel uses 10 .. 89 and 100 +).
constexpr int kPreviewSlot = 200;
constexpr int kBarHeight = 12;

} // namespace

struct SnowpackPanelState {
    int sim = -1; // the snowpack sim shown (-1: the first)
    // Ranges of the two views; reset to the sim's own (0 .. twice the initial depth, initial
    // .. max density, as snowpack_X.png) whenever those constants change.
    glm::vec2 depthRange{0.0f}, densityRange{0.0f};
    glm::vec3 rangesFor{-1.0f}; // initial depth, initial density, max density

    // The last budget and when it was read.
    std::vector<SnowpackFigure> figures;
    long long figuresStep = -1;
    int framesToRefresh = 0;
    int figuresSim = -1;
};

namespace {

std::string figureText(const SnowpackFigure& f) {
    if (f.key == std::string_view("mass_error"))
        return fmt::format("{:+.2e}", f.value);
    if (f.key == std::string_view("compacted_fraction"))
        return fmt::format("{:.2f} %", f.value * 100.0);
    return fmt::format("{:.6g} {}", f.value, f.unit);
}

void budgetTable(const std::vector<SnowpackFigure>& figures) {
    if (!ImGui::BeginTable("budget", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg))
        return;
    for (const SnowpackFigure& f : figures) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(f.label);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("stats.json: sims.X.snowpack.%s", f.key);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(figureText(f).c_str());
    }
    ImGui::EndTable();
}

// One view of the state with its legend under it: the colour bar, "lo unit" at its left end
// and "hi" at its right. Hovering the view shows the texel's whole column.
void stateView(PanelContext& context, int slot, const gpu::Texture2D& state,
               ViewerGl::PreviewValue value, glm::vec2 range, const char* caption, const char* unit,
               int size) {
    const gpu::Texture2D& image = context.gl.preview(slot, state, 0, range, size, value);
    ImGui::BeginGroup();
    if (const auto hovered = bufferImage(image, state, size, caption)) {
        const int x = hovered->x, y = hovered->y;
        const glm::vec4 texel = readTexel(state, x, y);
        const SnowColumn column{texel.x, texel.y, texel.z, texel.w};
        ImGui::SetTooltip("texel (%d, %d)\ndepth %.4g cm\nmass %.4g kg/m2\ndensity %.4g kg/m3%s\n"
                          "water %.4g kg/m2",
                          x, y, column.depthCm, column.massKgM2, densityOf(column),
                          column.depthCm < kBareDepthCm ? " (bare)" : "", column.waterKgM2);
    }
    bufferLegend(context, slot, size, range, unit);
    ImGui::EndGroup();
}

} // namespace

void bufferLegend(PanelContext& context, int slot, int size, glm::vec2 range, const char* unit,
                  ViewerGl::BarMap map) {
    const gpu::Texture2D& bar = context.gl.colourBar(slot, size, kBarHeight, map);
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(bar.id())),
                 ImVec2(float(size), float(kBarHeight)));
    const std::string lo = fmt::format("{:g} {}", range.x, unit);
    const std::string hi = fmt::format("{:g}", range.y);
    ImGui::TextUnformatted(lo.c_str());
    // Inside a group SameLine's offset counts from the group's left edge: hi ends under the
    // bar's right end, or follows lo where the view is too narrow for both.
    const float loWidth = ImGui::CalcTextSize(lo.c_str()).x + ImGui::GetStyle().ItemSpacing.x;
    ImGui::SameLine(std::max(loWidth, float(size) - ImGui::CalcTextSize(hi.c_str()).x));
    ImGui::TextUnformatted(hi.c_str());
}

void snowpackPanel(PanelContext& context) {
    if (!context.state.snowpackPanel)
        context.state.snowpackPanel = std::make_shared<SnowpackPanelState>();
    SnowpackPanelState& ps = *context.state.snowpackPanel;
    Lab& lab = context.lab;
    const SnowField& field = lab.field();
    std::vector<int> snowpacks;
    for (int i = 0; i < field.simCount(); ++i)
        if (const SnowpackSim* s = field.snowpack(i); s && s->allocated())
            snowpacks.push_back(i);
    if (snowpacks.empty()) {
        ImGui::TextWrapped("No snowpack sim: set a sim's model to \"snowpack\" (Sims panel, or "
                           "--set sim.b.model=snowpack, or --scenario snowpack_compare) to see "
                           "its mass budget and its depth and density here.");
        return;
    }
    if (std::find(snowpacks.begin(), snowpacks.end(), ps.sim) == snowpacks.end())
        ps.sim = snowpacks.front();
    if (snowpacks.size() > 1)
        for (int i : snowpacks) {
            if (i != snowpacks.front())
                ImGui::SameLine();
            if (ImGui::RadioButton(fmt::format("sim {}", simName(i)).c_str(), ps.sim == i))
                ps.sim = i;
        }
    const SnowpackSim& snowpack = *field.snowpack(ps.sim);
    const gpu::Texture2D& state = snowpack.state();
    const SnowpackConstants& c = snowpack.constants();
    ImGui::Text("Sim %c  %dx%d RGBA32F (depth, mass, water, free), %.2f cm a texel", 'A' + ps.sim,
                state.width(), state.height(), double(c.texelCm));

    // The budget, refreshed every kRefreshFrames frames while the lab runs.
    const bool stale = ps.figuresSim != ps.sim || ps.figuresStep > lab.steps();
    if (stale || (ps.figuresStep != lab.steps() && ps.framesToRefresh <= 0) ||
        (context.state.paused && ps.figuresStep != lab.steps())) {
        ps.figures = snowpackFigures(snowpack);
        ps.figuresStep = lab.steps();
        ps.figuresSim = ps.sim;
        ps.framesToRefresh = kRefreshFrames;
    }
    --ps.framesToRefresh;
    budgetTable(ps.figures);
    ImGui::TextDisabled("as of step %lld; in and out stay 0 until weather", ps.figuresStep);

    // The two views and their legends.
    const glm::vec3 column{c.initialDepthCm, c.initialDensity, c.maxDensity};
    if (ps.rangesFor != column) {
        ps.depthRange = {0.0f, 2.0f * c.initialDepthCm};
        ps.densityRange = {c.initialDensity, c.maxDensity};
        ps.rangesFor = column;
    }
    ImGui::Separator();
    ImGui::SetNextItemWidth(180.0f);
    ImGui::DragFloatRange2("depth range", &ps.depthRange.x, &ps.depthRange.y, 0.1f, 0.0f, 1000.0f,
                           "%.1f cm");
    ImGui::SetNextItemWidth(180.0f);
    ImGui::DragFloatRange2("density range", &ps.densityRange.x, &ps.densityRange.y, 1.0f, 0.0f,
                           917.0f, "%.0f kg/m3");
    const float available = ImGui::GetContentRegionAvail().x;
    const int size = std::clamp(int((available - ImGui::GetStyle().ItemSpacing.x) / 2.0f), 96,
                                context.state.previewSize);
    stateView(context, kPreviewSlot + 2 * ps.sim, state, ViewerGl::PreviewValue::Channel,
              ps.depthRange, "depth above the ground", "cm", size);
    ImGui::SameLine();
    stateView(context, kPreviewSlot + 2 * ps.sim + 1, state,
              ViewerGl::PreviewValue::SnowpackDensity, ps.densityRange, "density", "kg/m3", size);
    ImGui::TextDisabled("inferno: dark low, bright high; slate grey: bare ground");
}

} // namespace snowcap
