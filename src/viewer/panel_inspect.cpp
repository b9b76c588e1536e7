// The inspection panels: Buffers (live colour-mapped previews, the hovered texel read back),
// Decay (each sim's fade by its own clock per frame rate, the probe's measured value) and
// Timings (the pass timer ring as rolling graphs).
#include "core/sim_clock.hpp"
#include "core/snow_math.hpp"
#include "snow/snowpack_sim.hpp"
#include "viewer/viewer_panels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <glm/mat4x4.hpp>
#include <imgui.h>
#include <optional>

namespace snowcap {

namespace {

struct Series {
    std::vector<float> values; // evenly spaced over the x range
    ImU32 colour;
    std::string name;
};

// Several curves in one frame with a legend (ImGui's PlotLines draws one series per widget), its
// axes labelled: the y axis's name over it and its values at the ends and the middle, the x
// axis's ends under it with its name after the right one.
void plotCurves(const char* id, const std::vector<Series>& series, float xMax, const char* xName,
                float yMin, float yMax, const char* yName, ImVec2 size) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 ink = IM_COL32(180, 180, 180, 255);
    const float line = ImGui::GetTextLineHeight();
    ImGui::TextDisabled("%s", yName);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size);
    // The plot's frame, inside the margins for the values: y's at the left, x's underneath.
    char label[64];
    std::snprintf(label, sizeof(label), "%.3g", std::max(std::abs(yMin), std::abs(yMax)));
    const float left = ImGui::CalcTextSize(label).x + 6.0f;
    const ImVec2 p0(origin.x + left, origin.y + 0.5f * line);
    const ImVec2 p1(origin.x + size.x, origin.y + size.y - line - 2.0f);
    const ImVec2 extent(p1.x - p0.x, p1.y - p0.y);
    draw->AddRectFilled(p0, p1, IM_COL32(25, 27, 33, 255));
    for (int g = 1; g < 4; ++g) { // quarter grid lines
        const float y = p0.y + extent.y * g / 4.0f, x = p0.x + extent.x * g / 4.0f;
        draw->AddLine({p0.x, y}, {p1.x, y}, IM_COL32(60, 62, 70, 255));
        draw->AddLine({x, p0.y}, {x, p1.y}, IM_COL32(60, 62, 70, 255));
    }
    for (const Series& s : series) {
        const std::size_t n = s.values.size();
        for (std::size_t i = 1; i < n; ++i) {
            auto at = [&](std::size_t k) {
                const float t = std::clamp((s.values[k] - yMin) / (yMax - yMin), 0.0f, 1.0f);
                return ImVec2(p0.x + extent.x * k / float(n - 1), p1.y - extent.y * t);
            };
            if (std::isfinite(s.values[i - 1]) && std::isfinite(s.values[i]))
                draw->AddLine(at(i - 1), at(i), s.colour, 1.5f);
        }
    }
    // The y axis: its top, middle and bottom values, right-aligned against the frame.
    for (int g = 0; g <= 2; ++g) {
        std::snprintf(label, sizeof(label), "%.3g", yMax - (yMax - yMin) * g / 2.0f);
        const float y = p0.y + extent.y * g / 2.0f - 0.5f * line;
        draw->AddText({p0.x - ImGui::CalcTextSize(label).x - 3.0f, y}, ink, label);
    }
    // The x axis under the frame: 0 at its left, "xMax  name" at its right end.
    draw->AddText({p0.x, p1.y + 2.0f}, ink, "0");
    std::snprintf(label, sizeof(label), "%.3g  %s", xMax, xName);
    draw->AddText({p1.x - ImGui::CalcTextSize(label).x, p1.y + 2.0f}, ink, label);
    // The legend, three entries a line (one line per sim in the Decay panel).
    for (std::size_t i = 0; i < series.size(); ++i) {
        const Series& s = series[i];
        if (i % 3)
            ImGui::SameLine();
        ImGui::ColorButton(s.name.c_str(), ImGui::ColorConvertU32ToFloat4(s.colour),
                           ImGuiColorEditFlags_NoTooltip, {10, 10});
        ImGui::SameLine();
        ImGui::TextUnformatted(s.name.c_str());
    }
}

constexpr std::array<double, 3> kDecayPanelRates{30.0, 60.0, 144.0};
constexpr int kDecayPanelPoints = 121;

// What a full print keeps over time, per sim and frame rate, by the sim's own clock (its decay
// keys, quanta and refill: core/sim_clock.hpp), over a horizon long enough for the slowest
// curve to fall to 1 % (within [1, 120] s). Recomputed only when a clock's settings change: a
// slow decay at 144 fps is 17 000 clock steps.
struct FadeCurves {
    std::array<AccumulateLaw, 2> clocks;
    double horizonS = 1.0;
    std::array<std::array<std::vector<float>, kDecayPanelRates.size()>, 2> values;
};

const FadeCurves& fadeCurves(const Settings& settings) {
    static FadeCurves cache;
    static bool filled = false;
    const std::array<AccumulateLaw, 2> clocks{
        AccumulateLaw::of(settings.sims[0], settings.capture),
        AccumulateLaw::of(settings.sims[1], settings.capture)};
    if (filled && cache.clocks == clocks)
        return cache;
    cache.clocks = clocks;
    cache.horizonS = 1.0;
    for (const AccumulateLaw& clock : clocks)
        for (double fps : kDecayPanelRates) {
            const std::vector<double> toOnePercent = fadeCurve(clock, fps, 120.0, 0.01);
            cache.horizonS = std::max(cache.horizonS, double(toOnePercent.size() - 1) / fps);
        }
    for (int s = 0; s < 2; ++s)
        for (std::size_t r = 0; r < kDecayPanelRates.size(); ++r) {
            const double fps = kDecayPanelRates[r];
            const std::vector<double> curve = fadeCurve(clocks[s], fps, cache.horizonS);
            std::vector<float>& values = cache.values[s][r];
            values.clear();
            for (int i = 0; i < kDecayPanelPoints; ++i) {
                const double t = cache.horizonS * i / (kDecayPanelPoints - 1);
                const auto step = static_cast<std::size_t>(std::llround(t * fps));
                values.push_back(static_cast<float>(curve[std::min(step, curve.size() - 1)]));
            }
        }
    filled = true;
    return cache;
}

const char* const kChannelNames[] = {"R mask", "G age", "B type", "A"};
// A snowpack sim's state (RGBA32F): its channels by what they hold (docs/snowpack.md).
const char* const kSnowpackChannelNames[] = {"R depth cm", "G mass kg/m2", "B water kg/m2", "A"};

// One preview image; hovering it reads back that one texel.
void previewImage(PanelContext& context, int slot, const gpu::Texture2D& source, int channel,
                  glm::vec2 range, const char* caption,
                  ViewerGl::PreviewValue value = ViewerGl::PreviewValue::Channel) {
    const int size = context.state.previewSize;
    const gpu::Texture2D& image = context.gl.preview(slot, source, channel, range, size, value);
    ImGui::BeginGroup();
    if (const auto hovered = bufferImage(image, source, size, caption)) {
        const glm::vec4 texel = readTexel(source, hovered->x, hovered->y);
        ImGui::SetTooltip("texel (%d, %d)\n%s = %.6g", hovered->x, hovered->y, caption,
                          texel[channel]);
    }
    ImGui::EndGroup();
}

// What drifted into and out of each texel of a snowpack under a sky (WeatherSim::driftRecordKgM2,
// docs/weather.md §2), on a row of its own with its diverging legend: deposit red, erosion
// blue, white where as much arrived as left.
void driftView(PanelContext& context, int sim, SnowpackSim& snowpack) {
    const gpu::Texture2D* record = snowpack.weather().driftRecordKgM2(snowpack);
    if (!record)
        return;
    float& range = context.state.driftRangeKgM2[sim];
    const int slot = 10 * (sim + 1) + 4;
    const std::string caption = std::string(1, char('A' + sim)) + " drift in - out kg/m2";
    if (context.state.scrollTo == "drift") // render --ui --panels buffers:drift: this row on top
        ImGui::SetScrollHereY(0.0f);
    ImGui::BeginGroup();
    ImGui::SetNextItemWidth(160.0f);
    ImGui::DragFloat("drift range", &range, 0.01f, 0.001f, 1000.0f, "+-%.3g kg/m2");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("full colour at this much drifted in (red) or out (blue)");
    previewImage(context, slot, *record, 0, {-range, range}, caption.c_str(),
                 ViewerGl::PreviewValue::Diverging);
    bufferLegend(context, slot, context.state.previewSize, {-range, range}, "kg/m2",
                 ViewerGl::BarMap::Diverging);
    ImGui::EndGroup();
}

} // namespace

void buffersPanel(PanelContext& context) {
    Lab& lab = context.lab;
    ViewerState& state = context.state;
    ImGui::SetNextItemWidth(120.0f);
    ImGui::SliderInt("preview size", &state.previewSize, 96, 384);
    const SnowField& field = lab.field();
    for (int c = 0; c < field.captureCount(); ++c) {
        ImGui::PushID(c);
        const ContactCapture& capture = field.capture(c);
        if (state.previewRange[0] == glm::vec2(0.0f)) {
            // Dark where nothing is (depth 1 = far), bright at the ground: the surface's depth
            // maps to 0 and the ground's to 1.
            const double far = capture.key().farCm, below = -lab.settings().snow.captureZCm;
            state.previewRange[0] = {float(below / far),
                                     float((below - lab.settings().snow.depthCm) / far)};
        }
        ImGui::SetNextItemWidth(240.0f);
        ImGui::DragFloat2("depth at dark, bright", &state.previewRange[0].x, 0.0005f, 0.0f, 1.0f,
                          "%.4f");
        const std::string caption = "capture " + std::to_string(c) +
                                    " depth (x far = " + std::to_string(int(capture.key().farCm)) +
                                    " cm)";
        previewImage(context, 100 + c, capture.depth(), 0, state.previewRange[0], caption.c_str());
        ImGui::PopID();
    }
    for (int s = 0; s < field.simCount(); ++s) {
        ImGui::PushID(10 + s);
        const SnowSim& sim = field.sim(s);
        const gpu::Texture2D& buffer = sim.persistent();
        const int channels = gpu::formatInfo(buffer.format()).channels;
        ImGui::Separator();
        ImGui::Text("Sim %c %s  %dx%d %s", 'A' + s,
                    sim.snowpack() ? "snowpack state" : "persistent", buffer.width(),
                    buffer.height(), gpu::formatInfo(buffer.format()).name);
        if (sim.snowpack() && ImGui::IsItemHovered())
            ImGui::SetTooltip("the Snowpack panel shows its depth and density with legends");
        // A snowpack's 30 cm would saturate the mask's 0..1: its depth's own scale instead
        // (0 .. twice the initial depth, as snowpack_X.png), until the range is dragged.
        if (sim.snowpack() && state.previewRange[1 + s] == glm::vec2(0.0f, 1.0f))
            state.previewRange[1 + s] = {0.0f, 2.0f * sim.snowpack()->constants().initialDepthCm};
        ImGui::SameLine();
        ImGui::SetNextItemWidth(160.0f);
        ImGui::DragFloatRange2("range", &state.previewRange[1 + s].x, &state.previewRange[1 + s].y,
                               0.005f, -4.0f, sim.snowpack() ? 1000.0f : 64.0f, "%.3f");
        // A snowpack's water (B) has its own scale and a legend: kg/m2, not the depth's cm.
        if (sim.snowpack()) {
            ImGui::SetNextItemWidth(160.0f);
            ImGui::DragFloatRange2("water range", &state.waterRange[s].x, &state.waterRange[s].y,
                                   0.01f, 0.0f, 1000.0f, "%.2f kg/m2");
        }
        // rgba16f carries mask, age and type: each channel its own picture.
        for (int ch = 0; ch < std::min(channels, 3); ++ch) {
            if (ch > 0 && !(sim.snowpack() && ch == 2))
                ImGui::SameLine();
            const std::string caption =
                std::string(1, char('A' + s)) + " " +
                (sim.snowpack() ? kSnowpackChannelNames : kChannelNames)[ch];
            if (sim.snowpack() && ch == 2) {
                // The liquid water on a row of its own (the panel's width holds two views), with
                // its legend: the bar of the view's ramp and its range.
                ImGui::BeginGroup();
                previewImage(context, 10 * (s + 1) + ch, buffer, ch, state.waterRange[s],
                             caption.c_str());
                bufferLegend(context, 10 * (s + 1) + ch, state.previewSize, state.waterRange[s],
                             "kg/m2");
                ImGui::EndGroup();
                continue;
            }
            previewImage(context, 10 * (s + 1) + ch, buffer, ch, state.previewRange[1 + s],
                         caption.c_str());
        }
        if (SnowpackSim* snowpack = lab.field().snowpack(s);
            snowpack && snowpack->weather().active()) {
            ImGui::SameLine();
            driftView(context, s, *snowpack);
        }
        ImGui::PopID();
    }
}

void decayPanel(PanelContext& context) {
    const Settings& settings = context.lab.settings();
    ViewerState& state = context.state;
    const FadeCurves& fades = fadeCurves(settings);
    const double horizon = fades.horizonS;
    std::vector<Series> curves;
    const auto& rates = kDecayPanelRates;
    const ImU32 colours[2][3] = {
        {IM_COL32(70, 130, 230, 255), IM_COL32(120, 180, 255, 255), IM_COL32(190, 220, 255, 255)},
        {IM_COL32(220, 110, 40, 255), IM_COL32(255, 160, 80, 255), IM_COL32(255, 210, 160, 255)}};
    for (int s = 0; s < 2; ++s)
        for (int r = 0; r < 3; ++r) {
            Series series;
            series.colour = colours[s][r];
            char name[48];
            std::snprintf(name, sizeof(name), "%c %.0f fps", s == 0 ? 'A' : 'B', rates[r]);
            series.name = name;
            series.values = fades.values[s][r];
            curves.push_back(std::move(series));
        }
    auto timing = [](const SimSettings& sim) {
        return sim.refill == RefillMode::Linear           ? "linear refill"
               : sim.decayTiming == DecayTiming::PerFrame ? "per_frame"
                                                          : "delta_time";
    };
    ImGui::Text("full print remaining: A %.4f %s | B %.4f %s", settings.sims[0].decay,
                timing(settings.sims[0]), settings.sims[1].decay, timing(settings.sims[1]));
    const float width = ImGui::GetContentRegionAvail().x;
    plotCurves("clock", curves, float(horizon), "time after the press (s)", 0.0f, 1.0f,
               "a full print's value left (1 = as pressed)", {width, 130.0f});
    decayInverseSection(context);

    ImGui::Separator();
    ImGui::SetNextItemWidth(120.0f);
    float snapCm = float(state.probeSnapCm);
    if (ImGui::DragFloat("snap to a print within", &snapCm, 0.5f, 0.0f, 100.0f, "%.0f cm"))
        state.probeSnapCm = std::clamp(double(snapCm), 0.0, 100.0);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("a click moves the probe to the nearest texel of a print of the\n"
                          "clicked pane's sim within this radius (a mask of 0.05 or more,\n"
                          "or a snowpack pressed 0.5 cm); 0: exactly where the click hit");
    if (!state.probeNote.empty())
        ImGui::TextDisabled("%s", state.probeNote.c_str());
    if (!state.probeCm) {
        ImGui::TextWrapped("Click the snow (without dragging) to place a probe; its value in "
                           "both sims is read back every frame, and a yellow stake marks it.");
        return;
    }
    ImGui::Text("probe at (%.0f, %.0f) cm", state.probeCm->x, state.probeCm->y);
    ImGui::SameLine();
    if (ImGui::SmallButton("clear")) {
        state.probeCm.reset();
        state.probeSamples.clear();
        return;
    }
    if (state.probeSamples.empty())
        return;
    const ProbeSample& last = state.probeSamples.back();
    ImGui::Text("now: A %.5f  B %.5f", last.value[0], last.value[1]);
    std::vector<Series> measured(2);
    measured[0] = {{}, IM_COL32(120, 180, 255, 255), "A measured"};
    measured[1] = {{}, IM_COL32(255, 160, 80, 255), "B measured"};
    for (const ProbeSample& sample : state.probeSamples)
        for (int s = 0; s < 2; ++s)
            measured[s].values.push_back(sample.value[s]);
    const float span = float(state.probeSamples.back().timeS - state.probeSamples.front().timeS);
    plotCurves("measured", measured, span, "time shown (s)", 0.0f, 1.0f,
               "the probe's persistent value (0..1)", {width, 110.0f});
}

void probeMarker(PanelContext& context) {
    const ViewerState& state = context.state;
    if (!state.probeCm)
        return;
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    const int width = static_cast<int>(io.DisplaySize.x * scale.x);
    const int height = static_cast<int>(io.DisplaySize.y * scale.y);
    const double surface = context.lab.settings().snow.surfaceZCm;
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    for (const Pane& pane : layoutPanes(state, width, height)) {
        const glm::mat4 viewProjection = paneCamera(state, context.lab, pane).viewProjection();
        const glm::ivec4 r = pane.rect;
        // A stake 15 cm tall standing on the snow at the probe, drawn over the scene.
        auto onScreen = [&](double zCm) -> std::optional<ImVec2> {
            const glm::vec4 clip =
                viewProjection *
                glm::vec4(float(state.probeCm->x), float(state.probeCm->y), float(zCm), 1.0f);
            if (clip.w <= 0.0f)
                return std::nullopt;
            const glm::vec2 ndc = glm::vec2(clip) / clip.w;
            const float x = float(r.x + (ndc.x + 1.0f) * 0.5f * r.z);
            const float y = float(r.y + (ndc.y + 1.0f) * 0.5f * r.w);
            if (x < r.x || x >= r.x + r.z || y < r.y || y >= r.y + r.w)
                return std::nullopt;
            return ImVec2(x / scale.x, (height - y) / scale.y);
        };
        const auto base = onScreen(surface), top = onScreen(surface + 15.0);
        if (!base)
            continue;
        const ImU32 dark = IM_COL32(0, 0, 0, 200), bright = IM_COL32(255, 220, 60, 255);
        if (top) {
            draw->AddLine(*base, *top, dark, 4.0f);
            draw->AddLine(*base, *top, bright, 2.0f);
            draw->AddCircleFilled(*top, 4.0f, bright);
        }
        draw->AddCircle(*base, 7.0f, dark, 0, 4.0f);
        draw->AddCircle(*base, 7.0f, bright, 0, 2.0f);
    }
}

void timingsPanel(PanelContext& context) {
    ViewerState& state = context.state;
    ImGui::Text("method: %s", state.timingMethod.c_str());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("timer_query: GL timestamps read %d frames later, never blocking;\n"
                          "serialized: glFinish + clock around each pass (llvmpipe, whose\n"
                          "timer queries miss most of a draw's cost)",
                          gpu::PassTimer::kFrames);
    const float width = ImGui::GetContentRegionAvail().x;
    auto graph = [&](const char* name, const History& history) {
        if (history.values.empty())
            return;
        std::vector<float> values(history.values.begin(), history.values.end());
        float peak = 0.0f;
        for (float v : values)
            peak = std::max(peak, v);
        char overlay[64];
        std::snprintf(overlay, sizeof(overlay), "%s %.3f ms (max %.3f)", name, values.back(), peak);
        ImGui::PlotLines("##graph", values.data(), int(values.size()), 0, overlay, 0.0f,
                         peak * 1.1f + 1e-3f, {width, 44.0f});
    };
    // What the graphs' axes are: no room for numbers on a 44-point strip.
    ImGui::TextDisabled("x: the last %zu frames; y: 0 to 1.1 x each one's max, in ms",
                        state.frameMs.capacity);
    ImGui::PushID("frame");
    graph("frame", state.frameMs);
    ImGui::PopID();
    for (const auto& [pass, history] : state.passHistory) {
        ImGui::PushID(pass.c_str());
        graph(pass.c_str(), history);
        ImGui::PopID();
    }
}

} // namespace snowcap
