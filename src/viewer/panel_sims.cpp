// The Sims panel: every sim side by side (A, B, ... a column each, a row per key of sim.X from
// the parameter table), copy / swap / reset, adding and removing sims, presets that make B
// differ from A in one switch, and decay ladders that fill four or six sims in one click. Also
// the scene panes' labels.
#include "core/config.hpp"
#include "core/sim_label.hpp"
#include "core/snow_math.hpp"
#include "lab/print_metrics.hpp"
#include "snow/snowpack_sim.hpp"
#include "viewer/param_widgets.hpp"
#include "viewer/viewer_panels.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <imgui.h>

namespace snowcap {

namespace {

// Notes shown after a switch's spelling in its combo.
std::string_view valueNote(std::string_view key, std::string_view value) {
    if (key == "format" && value == "rgba16f")
        return "age, type";
    if (key == "refill" && value == "multiply")
        return "decay";
    if (key == "blur" && value == "per_pixel")
        return "UE";
    if (key == "blur" && value == "separable")
        return "half res";
    return "";
}

// A preset that sets one member of SimSettings: A takes `forA`, B takes `forB`.
template <class T> OnePreset differIn(const char* name, T SimSettings::*member, T forA, T forB) {
    return {name, [=](SimSettings& a, SimSettings& b) {
                a.*member = forA;
                b.*member = forB;
            }};
}

} // namespace

const std::vector<OnePreset>& oneDifferencePresets() {
    using S = SimSettings;
    static const std::vector<OnePreset> presets = {
        differIn("decay 0.95 vs 0.999", &S::decay, 0.95, 0.999),
        differIn("r16f vs rgba16f", &S::format, BufferFormat::R16F, BufferFormat::RGBA16F),
        differIn("naive vs snapped follow", &S::region, RegionMode::FollowNaive,
                 RegionMode::FollowSnapped),
        differIn("per_frame vs delta_time", &S::decayTiming, DecayTiming::PerFrame,
                 DecayTiming::DeltaTime),
        differIn("contact per_frame vs delta_time", &S::contactTiming, ContactTiming::PerFrame,
                 ContactTiming::DeltaTime),
        differIn("add vs max", &S::accumulate, AccumulateMode::Add, AccumulateMode::Max),
        differIn("vertex vs tessellation", &S::displacement, SurfaceGeometry::VertexGrid,
                 SurfaceGeometry::Tessellation),
        differIn("height_to_normal vs sobel", &S::normals, NormalMode::HeightToNormal,
                 NormalMode::Sobel),
        differIn("rims off vs on", &S::rims, RimMode::Off, RimMode::On),
        differIn("multiply vs linear refill", &S::refill, RefillMode::Multiply, RefillMode::Linear),
        differIn("per_pixel vs prepass blur", &S::blur, BlurMode::PerPixel, BlurMode::Prepass),
        differIn("per_pixel vs separable blur", &S::blur, BlurMode::PerPixel, BlurMode::Separable),
        differIn("half_safe off vs on", &S::halfSafe, false, true),
        differIn("512 vs 2048 texels", &S::resolution, 512, 2048),
    };
    return presets;
}

namespace {

// Whether `key` means anything for `sim`: a key that does not apply is greyed out, not hidden,
// so every sim's column keeps the same rows.
bool keyApplies(std::string_view key, const SimSettings& sim) {
    if (key == "refill_rate")
        return sim.refill == RefillMode::Linear;
    if (key == "contact_timing")
        return sim.accumulate != AccumulateMode::Max; // max adds no mask to scale
    if (key == "rim_height_cm" || key == "rim_width_cm")
        return sim.rims != RimMode::Off;
    return true;
}

// One row per key of `section` (in table order): its name once in the first column, then each
// sim's widget filling that sim's column. `part` picks the section's struct out of a sim
// (the sim itself, its material, its snowpack).
template <class S, class Part>
bool keyRows(const params::Section<S>& section, std::vector<SimSettings>& sims, Part part,
             bool (*applies)(std::string_view, const SimSettings&)) {
    const WidgetOptions options{.note = valueNote, .unlabelled = true};
    bool changed = false;
    ImGui::PushID(section.name.data(), section.name.data() + section.name.size());
    for (const params::Param<S>& param : section.params) {
        if (param.widget == params::Widget::None)
            continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(param.key.data(), param.key.data() + param.key.size());
        if (ImGui::IsItemHovered()) // a long name is clipped by its column: the tooltip has it
            ImGui::SetTooltip("%.*s\n%.*s", static_cast<int>(param.key.size()), param.key.data(),
                              static_cast<int>(param.doc.size()), param.doc.data());
        for (std::size_t s = 0; s < sims.size(); ++s) {
            ImGui::TableNextColumn();
            ImGui::PushID(static_cast<int>(s));
            ImGui::BeginDisabled(!applies(param.key, sims[s]));
            ImGui::SetNextItemWidth(-FLT_MIN);
            changed |= paramWidget(param, part(sims[s]), options);
            ImGui::EndDisabled();
            ImGui::PopID();
        }
    }
    ImGui::PopID();
    return changed;
}

bool snowpackApplies(std::string_view, const SimSettings& sim) {
    return sim.model == SimModel::Snowpack;
}

// A row naming the section that follows (material, snowpack).
void sectionRow(const char* name) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Spacing();
    ImGui::TextDisabled("%s", name);
}

// Every key of sim.X, sim.X.material and sim.X.snowpack as the parameter table declares them
// (widget, limits, tooltip), a row per key and a column per sim, so the values of A and B sit
// side by side and each widget has its column's whole width.
bool simRows(std::vector<SimSettings>& sims) {
    bool changed = keyRows(
        params::simParams(), sims, [](SimSettings& s) -> SimSettings& { return s; }, keyApplies);
    sectionRow("material");
    changed |= keyRows(
        params::materialParams(), sims,
        [](SimSettings& s) -> MaterialSettings& { return s.material; }, keyApplies);
    // The snowpack's keys (model = "snowpack"; docs/snowpack.md); its budget is in stats.json.
    sectionRow("snowpack");
    changed |= keyRows(
        params::snowpackParams(), sims,
        [](SimSettings& s) -> SnowpackSettings& { return s.snowpack; }, snowpackApplies);
    return changed;
}

// A decay ladder: sim A's settings in every sim, each with its own decay (keys cleared, so the
// decay is what it shows).
struct Ladder {
    const char* name;
    std::vector<double> decays;
};
const std::vector<Ladder>& decayLadders() {
    static const std::vector<Ladder> ladders = {
        {"4 sims: 0.95 0.99 0.995 0.999", {0.95, 0.99, 0.995, 0.999}},
        {"6 sims: 0.95 0.99 0.995 0.998 0.999 0.9995", {0.95, 0.99, 0.995, 0.998, 0.999, 0.9995}},
    };
    return ladders;
}

// One colour per sim, for its column title and its pane label: A blue and B orange as before.
ImVec4 simColour(int s) {
    static const ImVec4 kColours[kMaxSims] = {
        {0.55f, 0.8f, 1.0f, 1.0f},  {1.0f, 0.7f, 0.45f, 1.0f}, {0.55f, 0.95f, 0.55f, 1.0f},
        {0.9f, 0.6f, 1.0f, 1.0f},   {1.0f, 0.9f, 0.45f, 1.0f}, {0.45f, 0.95f, 0.9f, 1.0f},
        {1.0f, 0.55f, 0.65f, 1.0f}, {0.8f, 0.8f, 0.8f, 1.0f}};
    return kColours[s % kMaxSims];
}

char simLetter(int s) {
    return static_cast<char>('A' + s);
}

} // namespace

// Buttons that flow like words: each goes on the line before it when it fits the panel's width,
// else starts a new line, so none is cut off in a narrow side bar.
class ButtonRow {
public:
    bool operator()(const char* label) {
        const ImGuiStyle& style = ImGui::GetStyle();
        const float width = ImGui::CalcTextSize(label).x + 2.0f * style.FramePadding.x;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (started_ && ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right)
            ImGui::SameLine();
        started_ = true;
        return ImGui::Button(label);
    }

private:
    bool started_ = false;
};

void simsPanel(PanelContext& context) {
    Lab& lab = context.lab;
    Settings edited = lab.settings();
    const int count = static_cast<int>(edited.sims.size());
    bool changed = false;
    ButtonRow button;
    if (button("copy A -> B")) {
        edited.sims[1] = edited.sims[0];
        changed = true;
    }
    if (button("swap A, B")) {
        std::swap(edited.sims[0], edited.sims[1]);
        changed = true;
    }
    if (count > 2 && button("copy A -> all")) {
        std::fill(edited.sims.begin() + 1, edited.sims.end(), edited.sims[0]);
        changed = true;
    }
    if (button("reset to scenario")) {
        edited.sims = lab.scenarioSettings().sims;
        changed = true;
    }
    if (button("reset to defaults")) {
        edited.sims = Settings{}.sims; // two sims, each its own default (A fast, B slowly)
        changed = true;
    }
    ImGui::BeginDisabled(count >= kMaxSims);
    if (button("add sim")) {
        edited.sims.push_back(edited.sims.back()); // a copy of the last: change one thing
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::BeginDisabled(count <= 2);
    const std::string remove = std::string("remove ") + simLetter(count - 1);
    if (button(remove.c_str())) {
        edited.sims.pop_back();
        changed = true;
    }
    ImGui::EndDisabled();
    // The presets' combos take the panel's width: their closed text says what they do.
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##one difference", "one difference: B = A except ...")) {
        for (const OnePreset& preset : oneDifferencePresets())
            if (ImGui::Selectable(preset.name)) {
                edited.sims[1] = edited.sims[0];
                preset.apply(edited.sims[0], edited.sims[1]);
                changed = true;
                context.state.status = std::string("preset: ") + preset.name;
            }
        ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##decay ladder", "decay ladder: every sim = A, decay ...")) {
        for (const Ladder& ladder : decayLadders())
            if (ImGui::Selectable(ladder.name)) {
                const SimSettings base = edited.sims[0];
                edited.sims.assign(ladder.decays.size(), base);
                for (std::size_t i = 0; i < ladder.decays.size(); ++i) {
                    edited.sims[i].decay = ladder.decays[i];
                    edited.sims[i].decayKeys.clear();
                }
                changed = true;
                context.state.layout = CompareLayout::Grid; // every rung in view
                context.state.status = std::string("ladder: ") + ladder.name;
            }
        ImGui::EndCombo();
    }
    // A row per key, its name once on the left, a column per sim. Two sims share the panel's
    // width; more scroll sideways, a fixed column each, the names staying in view.
    const bool scroll = count > 2;
    const ImGuiTableFlags flags =
        ImGuiTableFlags_BordersInnerV | (scroll ? ImGuiTableFlags_ScrollX : ImGuiTableFlags_None);
    if (ImGui::BeginTable("sims", count + 1, flags)) {
        if (scroll) {
            ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 130.0f);
            ImGui::TableSetupScrollFreeze(1, 0);
        } else {
            ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthStretch, 0.7f);
        }
        for (int s = 0; s < count; ++s)
            if (scroll)
                ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed, 150.0f);
            else
                ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        for (int s = 0; s < count; ++s) {
            ImGui::TableNextColumn();
            const Region& region =
                lab.field().sim(std::min(s, lab.field().simCount() - 1)).region();
            ImGui::TextColored(simColour(s), "Sim %c", simLetter(s));
            ImGui::TextDisabled("%d^2, %.2f cm", region.resolution, region.texelCm());
        }
        changed |= simRows(edited.sims);
        ImGui::EndTable();
    }
    if (changed) {
        if (auto error = lab.apply(edited))
            context.state.sceneError = *error;
        else if (edited.sims.size() > 2 && count <= 2)
            context.state.layout = CompareLayout::Grid; // a third sim: show it
        context.state.simCount = lab.field().simCount();
    }
}

namespace {

// The second line of a sim's pane label: the simulated time and the sim's headline figure
// (lab/print_metrics.hpp: a mask's half-life and fade to 10 %, a snowpack's mean depth and
// mass). The figure is kept until half a simulated second has passed or the sim's settings
// change: a snowpack's reads its whole state back.
std::string paneFigures(const Lab& lab, int s, const std::string& label) {
    struct Cached {
        std::string label, headline;
        double timeS = -1.0;
    };
    static std::array<Cached, kMaxSims> cache;
    const SnowSim& sim = lab.field().sim(s);
    // A snowpack sim steps its own clock, not the mask's.
    const double now = sim.snowpack() ? sim.snowpack()->clock().timeS() : sim.timeS();
    Cached& cached = cache[static_cast<std::size_t>(s)];
    if (cached.label != label || std::abs(now - cached.timeS) >= 0.5)
        cached = {label, simHeadline(lab.field(), s, lab.settings().run.fps), now};
    char time[32];
    std::snprintf(time, sizeof time, "t = %.1f s", now);
    return cached.headline.empty() ? time : std::string(time) + ": " + cached.headline;
}

} // namespace

namespace {

// `text` broken, where a line is wider than `width` points, after its ", " and ": " (the
// breaks a pane label's switches and figures leave), each new line indented as the label's
// second line is. A single part wider than `width` stays whole (the label is clipped to its
// pane).
std::string wrapLabel(const std::string& text, float width) {
    const std::string indent = "   ";
    std::string out;
    std::size_t lineStart = 0;
    while (lineStart <= text.size()) {
        const std::size_t newline = text.find('\n', lineStart);
        const std::string line = text.substr(
            lineStart, newline == std::string::npos ? std::string::npos : newline - lineStart);
        // Greedy: the longest head of the rest, ending at a break, that fits.
        std::string current;
        std::size_t pos = 0;
        while (pos < line.size()) {
            std::size_t next = line.size();
            for (const char* mark : {", ", ": "}) {
                const std::size_t at = line.find(mark, pos);
                if (at != std::string::npos)
                    next = std::min(next, at + 2);
            }
            const std::string part = line.substr(pos, next - pos);
            if (!current.empty() && ImGui::CalcTextSize((current + part).c_str()).x > width) {
                out += current + "\n";
                current = indent;
            }
            current += part;
            pos = next;
        }
        out += current;
        if (newline == std::string::npos)
            break;
        out += "\n";
        lineStart = newline + 1;
    }
    return out;
}

} // namespace

std::vector<PaneLabel> paneLabelList(PanelContext& context) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    const int width = static_cast<int>(io.DisplaySize.x * scale.x);
    const int height = static_cast<int>(io.DisplaySize.y * scale.y);
    const SnowField& field = context.lab.field();
    // Every switch in which the sims differ, not only the decay (core/sim_label.hpp).
    std::vector<SimSettings> sims;
    for (int s = 0; s < field.simCount(); ++s)
        sims.push_back(field.sim(s).settings());
    std::vector<PaneLabel> labels;
    for (const Pane& pane : layoutPanes(context.state, width, height)) {
        PaneLabel label{"A - B", {}, IM_COL32_WHITE, pane.sim < 0};
        std::string figures;
        if (pane.sim >= 0 && pane.sim < field.simCount()) {
            label.text = std::string(1, simLetter(pane.sim)) + "  " + simLabel(sims, pane.sim);
            figures = "\n   " + paneFigures(context.lab, pane.sim, label.text);
            label.colour = ImGui::GetColorU32(simColour(pane.sim));
        }
        // The label broken into lines that fit the pane (a narrow pane of a long label: each
        // switch on its own line, the figures after the colon on theirs), at the pane's
        // top-right corner in ImGui's coordinates (top-down, in points), with its dark backing.
        const float paneLeft = pane.rect.x / scale.x, paneWidth = pane.rect.z / scale.x;
        label.text = wrapLabel(label.text + figures, paneWidth - 20.0f);
        const ImVec2 size = ImGui::CalcTextSize(label.text.c_str());
        const float x = std::max(paneLeft + 10.0f, paneLeft + paneWidth - size.x - 10.0f);
        const float y = (height - pane.rect.y - pane.rect.w) / scale.y + 6.0f;
        label.rect = {x - 4.0f, y - 2.0f, size.x + 8.0f, size.y + 4.0f};
        label.clip = {paneLeft, y - 2.0f, paneWidth, pane.rect.w / scale.y};
        if (label.difference) // its colour key hangs under it (differenceKey)
            label.keyRect = {label.rect.x + label.rect.width - 226.0f,
                             label.rect.y + label.rect.height + 2.0f, 226.0f,
                             20.0f + 2.0f * ImGui::GetTextLineHeight()};
        labels.push_back(std::move(label));
    }
    return labels;
}

namespace {

// The difference pane's colour key under its label: the diverging bar of colour_map.frag's
// mode 1, with the A - B value at its ends and middle.
void differenceKey(PanelContext& context, const ScreenRect& label, ImDrawList* draw) {
    constexpr float kWidth = 220.0f, kHeight = 10.0f;
    const float right = label.x + label.width, top = label.y + label.height + 4.0f;
    const float left = right - kWidth;
    const float lineHeight = ImGui::GetTextLineHeight();
    draw->AddRectFilled({left - 6.0f, top - 2.0f}, {right, top + kHeight + lineHeight + 6.0f},
                        IM_COL32(0, 0, 0, 150), 3.0f);
    const gpu::Texture2D& bar = context.gl.colourBar(kDifferenceKeySlot, int(kWidth), int(kHeight),
                                                     ViewerGl::BarMap::Diverging);
    draw->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(bar.id())), {left, top},
                   {right, top + kHeight});
    char low[32], high[32];
    const float range = context.gl.differenceRange(context.state);
    std::snprintf(low, sizeof low, "-%.3g B more", range);
    std::snprintf(high, sizeof high, "A more +%.3g", range);
    // What the colours compare: the buffers, not the lit picture (a material switch leaves
    // them equal), and how the range was chosen.
    const char* caption = context.state.differenceAuto
                              ? "persistent buffers A - B (range: auto, 99th pct)"
                              : "persistent buffers A - B (range: slider)";
    const float captionLeft = right - ImGui::CalcTextSize(caption).x;
    draw->AddRectFilled({captionLeft - 6.0f, top + kHeight + lineHeight + 4.0f},
                        {right, top + kHeight + 2.0f * lineHeight + 8.0f}, IM_COL32(0, 0, 0, 150),
                        3.0f);
    draw->AddText({captionLeft, top + kHeight + lineHeight + 5.0f}, IM_COL32_WHITE, caption);
    const float textY = top + kHeight + 2.0f;
    draw->AddText({left, textY}, IM_COL32_WHITE, low);
    draw->AddText({left + 0.5f * kWidth - 0.5f * ImGui::CalcTextSize("0").x, textY}, IM_COL32_WHITE,
                  "0");
    draw->AddText({right - ImGui::CalcTextSize(high).x, textY}, IM_COL32_WHITE, high);
}

} // namespace

void paneLabels(PanelContext& context) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    for (const PaneLabel& label : paneLabelList(context)) {
        const ScreenRect& r = label.rect;
        const ScreenRect& c = label.clip; // never over the next pane
        draw->PushClipRect({c.x, c.y}, {c.x + c.width, c.y + c.height}, true);
        draw->AddRectFilled({r.x, r.y}, {r.x + r.width, r.y + r.height}, IM_COL32(0, 0, 0, 150),
                            3.0f);
        draw->AddText({r.x + 4.0f, r.y + 2.0f}, label.colour, label.text.c_str());
        if (label.difference)
            differenceKey(context, r, draw);
        draw->PopClipRect();
    }
}

} // namespace snowcap
