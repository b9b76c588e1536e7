// The Weather panel ([weather], docs/weather.md §1.1): the sky now (every key's value at the
// run's time), the timeline of the keys that change over the run as strips with a playhead and
// the [[weather.key]] entries marked, a scrubber, the falling snow drawn, and each snowpack
// sim's budget (in, out, held). The model of it (channels, sampling, what a scrub means) is
// core/weather_timeline.hpp, tested on the CPU; the scrub on release goes through the viewer's
// one re-simulation (ViewerState::scrubToS, Lab::simulateTo), as the control window's does.
#include "core/falling_snow.hpp"
#include "core/weather_timeline.hpp"
#include "lab/snowpack_stats.hpp"
#include "viewer/viewer_panels.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <imgui.h>

namespace snowcap {

namespace {

constexpr int kSamples = 240;      // the plot's resolution over the run
constexpr int kRefreshFrames = 10; // the budget reads the states back: every this many frames
constexpr float kStripHeight = 34.0f;

const ImU32 kChannelColours[kWeatherChannels] = {
    IM_COL32(235, 240, 255, 255), IM_COL32(170, 170, 200, 255), IM_COL32(120, 200, 255, 255),
    IM_COL32(120, 160, 200, 255), IM_COL32(255, 150, 90, 255),  IM_COL32(255, 220, 80, 255),
    IM_COL32(160, 160, 160, 255)};

} // namespace

struct WeatherPanelState {
    bool scrubbing = false;
    float scrubS = 0.0f;
    // The plot, sampled again when the weather or the run's length changes.
    WeatherSettings sampledFor;
    double sampledDurationS = -1.0;
    WeatherTimeline timeline;
    // Each snowpack sim's budget, as of a step.
    std::vector<std::pair<int, std::vector<SnowpackFigure>>> budgets;
    long long budgetsStep = -1;
    int framesToRefresh = 0;
};

namespace {

bool hasWeather(const WeatherSettings& weather) {
    return weatherActive(weather) || !weather.keys.empty();
}

// One strip per channel that changes: its curve over [lo, hi], the entries as ticks along the
// bottom, the run's time as a white line and the scrub time (while dragged) as a yellow one.
void timelineStrips(const WeatherTimeline& timeline, double nowS, std::optional<double> scrubS) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, 120.0f);
    const auto xOf = [&](ImVec2 p0, double t) {
        return p0.x + width * float(timeline.durationS > 0.0 ? t / timeline.durationS : 0.0);
    };
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (std::size_t c = 0; c < kWeatherChannels; ++c) {
        if (!timeline.varies(c))
            continue;
        const WeatherChannel& channel = weatherChannels()[c];
        const ImVec2 p0 = ImGui::GetCursorScreenPos();
        const ImVec2 p1(p0.x + width, p0.y + kStripHeight);
        ImGui::InvisibleButton(channel.key, ImVec2(width, kStripHeight));
        draw->AddRectFilled(p0, p1, IM_COL32(25, 27, 33, 255));
        const double lo = timeline.lo[c], hi = timeline.hi[c];
        const auto yOf = [&](double v) {
            return p1.y - 3.0f - (kStripHeight - 6.0f) * float((v - lo) / (hi - lo));
        };
        const std::vector<double>& v = timeline.values[c];
        for (std::size_t i = 1; i < v.size(); ++i)
            draw->AddLine({xOf(p0, timeline.timesS[i - 1]), yOf(v[i - 1])},
                          {xOf(p0, timeline.timesS[i]), yOf(v[i])}, kChannelColours[c], 1.5f);
        for (double t : timeline.keyTimesS[c])
            draw->AddLine({xOf(p0, t), p1.y - 5.0f}, {xOf(p0, t), p1.y},
                          IM_COL32(200, 200, 200, 255));
        draw->AddLine({xOf(p0, nowS), p0.y}, {xOf(p0, nowS), p1.y}, IM_COL32(255, 255, 255, 255),
                      1.5f);
        if (scrubS)
            draw->AddLine({xOf(p0, *scrubS), p0.y}, {xOf(p0, *scrubS), p1.y},
                          IM_COL32(255, 210, 60, 255), 1.5f);
        const std::string label =
            fmt::format("{} {:.3g}..{:.3g} {}", channel.label, lo, hi, channel.unit);
        draw->AddText({p0.x + 3.0f, p0.y + 1.0f}, IM_COL32(190, 190, 190, 255), label.c_str());
        if (ImGui::IsItemHovered()) {
            const double t =
                std::clamp(double((ImGui::GetIO().MousePos.x - p0.x) / width), 0.0, 1.0) *
                timeline.durationS;
            const std::size_t i = std::min<std::size_t>(
                std::size_t(t / std::max(timeline.durationS, 1e-9) * (v.size() - 1) + 0.5),
                v.size() - 1);
            ImGui::SetTooltip("t = %.2f s: %s %.4g %s", timeline.timesS[i], channel.key, v[i],
                              channel.unit);
        }
    }
}

} // namespace

void weatherPanel(PanelContext& context) {
    if (!context.state.weatherPanel)
        context.state.weatherPanel = std::make_shared<WeatherPanelState>();
    WeatherPanelState& ps = *context.state.weatherPanel;
    Lab& lab = context.lab;
    const Settings& settings = lab.field().effectiveSettings();
    const WeatherSettings& weather = settings.weather;
    if (!hasWeather(weather)) {
        ImGui::TextWrapped("No [weather] in this scenario: its sky never snows, blows or thaws. "
                           "Try --scenario storm_thaw or blizzard, or --set "
                           "weather.snowfall_cm_h=4 (docs/weather.md).");
        return;
    }
    const double durationS = timelineSpanS(weather, lab.durationS());
    if (ps.sampledDurationS != durationS || !(ps.sampledFor.keys == weather.keys) ||
        skyValues(skyAt(ps.sampledFor, 0.0)) != skyValues(skyAt(weather, 0.0))) {
        ps.timeline = weatherTimeline(weather, durationS, kSamples);
        ps.sampledFor = weather;
        ps.sampledDurationS = durationS;
    }

    // The scrubber: dragging shows the sky there; releasing moves the run there.
    const double nowS = lab.timeS();
    if (!ps.scrubbing)
        ps.scrubS = static_cast<float>(nowS);
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::SliderFloat("##weather_time", &ps.scrubS, 0.0f, static_cast<float>(durationS),
                       "timeline t = %.2f s");
    ps.scrubbing = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit())
        context.state.scrubToS = clampScrubTime(ps.scrubS, durationS);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("drag: the sky at that time (yellow); release: the run goes there "
                          "(replayed from 0, budgets included)");
    const std::optional<double> scrubS =
        ps.scrubbing ? std::optional<double>(ps.scrubS) : std::nullopt;
    timelineStrips(ps.timeline, nowS, scrubS);

    // The sky now, and at the scrub time while dragging.
    const auto now = skyValues(skyAt(weather, nowS));
    const auto at = skyValues(scrubbedSky(weather, scrubS.value_or(nowS), durationS));
    if (ImGui::BeginTable("sky", scrubS ? 3 : 2,
                          ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        for (std::size_t c = 0; c < kWeatherChannels; ++c) {
            const WeatherChannel& channel = weatherChannels()[c];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kChannelColours[c]), "%s",
                               channel.label);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("weather.%s", channel.key);
            ImGui::TableNextColumn();
            ImGui::Text("%.4g %s", now[c], channel.unit);
            if (scrubS) {
                ImGui::TableNextColumn();
                ImGui::TextColored({1.0f, 0.82f, 0.24f, 1.0f}, "%.4g", at[c]);
            }
        }
        ImGui::EndTable();
    }
    // A perspective view's air (its count does not depend on where the camera stands).
    const FallingSnowAir air = fallingSnowAirAround(weather, settings.wind, settings.look, {},
                                                    settings.snow.surfaceZCm, nowS);
    ImGui::TextDisabled("falling snow: %d flakes a view%s", air.flakes,
                        settings.look.fallingSnow ? "" : " (look.falling_snow off)");

    // Each snowpack sim's budget (what fell and blew in, what drained and blew out, what it
    // holds), read back every few frames.
    ImGui::Separator();
    if (ps.budgetsStep != lab.steps() &&
        (ps.framesToRefresh <= 0 || context.state.paused || ps.budgetsStep > lab.steps())) {
        ps.budgets.clear();
        for (int i = 0; i < lab.field().simCount(); ++i)
            if (const SnowpackSim* s = lab.field().snowpack(i); s && s->allocated())
                ps.budgets.emplace_back(i, snowpackFigures(*s));
        ps.budgetsStep = lab.steps();
        ps.framesToRefresh = kRefreshFrames;
    }
    --ps.framesToRefresh;
    if (ps.budgets.empty()) {
        ImGui::TextWrapped("No snowpack sim: the sky acts on sims with model = \"snowpack\"; "
                           "the decay sims do not see it.");
        return;
    }
    const auto figure = [](const std::vector<SnowpackFigure>& figures, std::string_view key) {
        for (const SnowpackFigure& f : figures)
            if (key == f.key)
                return f.value;
        return 0.0;
    };
    if (ImGui::BeginTable("budgets", 5, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        for (const char* head : {"sim", "in kg", "out kg", "held kg", "error"})
            ImGui::TableSetupColumn(head);
        ImGui::TableHeadersRow();
        for (const auto& [sim, figures] : ps.budgets) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%c", 'A' + sim);
            ImGui::TableNextColumn();
            ImGui::Text("%.4g", figure(figures, "mass_in_kg"));
            ImGui::TableNextColumn();
            ImGui::Text("%.4g", figure(figures, "mass_out_kg"));
            ImGui::TableNextColumn();
            ImGui::Text("%.5g", figure(figures, "mass_kg"));
            ImGui::TableNextColumn();
            ImGui::Text("%+.1e", figure(figures, "mass_error"));
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("as of step %lld (stats.json: sims.X.snowpack)", ps.budgetsStep);
}

} // namespace snowcap
