#include "viewer/param_widgets.hpp"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <imgui.h>
#include <stdexcept>
#include <string>

namespace snowcap {
namespace {

using params::Param;
using params::Widget;

template <class... F> struct Overloaded : F... { using F::operator()...; };

// Unbounded ends become the widest limits ImGui's sliders and drags accept.
double lowLimit(const Range& range) {
    return std::isfinite(range.low) ? range.low : -DBL_MAX / 2.0;
}
double highLimit(const Range& range) {
    return std::isfinite(range.high) ? range.high : DBL_MAX / 2.0;
}

// An open low end, (0, 1]: the widget may reach 0, the value stays just above it.
double keepInside(const Range& range, double value) {
    if (range.lowOpen() && value <= range.low)
        return std::nextafter(range.low, range.high);
    return std::clamp(value, lowLimit(range), highLimit(range));
}

double dragSpeed(const Range& range, double value) {
    if (range.bounded())
        return (range.high - range.low) / 1000.0;
    return std::max(std::abs(value), 1.0) * 0.005;
}

template <class S> void tooltip(const Param<S>& param) {
    if (!ImGui::IsItemHovered())
        return;
    std::string text(param.doc);
    const bool numeric = std::holds_alternative<double S::*>(param.member) ||
                         std::holds_alternative<int S::*>(param.member);
    if (numeric && param.range.kind != Range::Kind::Any)
        text += "\nrange " + param.range.text();
    if (!param.unit.empty())
        text += "\nunit " + std::string(param.unit);
    ImGui::SetTooltip("%s", text.c_str());
}

bool numberWidget(const char* label, Widget widget, const Range& range, double& value) {
    const double lo = lowLimit(range), hi = highLimit(range);
    bool changed = false;
    if ((widget == Widget::Slider || widget == Widget::LogSlider) && range.bounded())
        changed =
            ImGui::SliderScalar(label, ImGuiDataType_Double, &value, &lo, &hi, "%.6g",
                                widget == Widget::LogSlider ? ImGuiSliderFlags_Logarithmic : 0);
    else
        changed = ImGui::DragScalar(label, ImGuiDataType_Double, &value,
                                    float(dragSpeed(range, value)), &lo, &hi, "%.6g");
    if (changed)
        value = keepInside(range, value);
    return changed;
}

// Power-of-two keys list every value in their range (0 = "shared": the snow.resolution).
bool powerOfTwoCombo(const char* label, const Range& range, int& value) {
    std::vector<int> values;
    if (range.kind == Range::Kind::ZeroOrPowerOfTwo)
        values.push_back(0);
    for (double v = range.low; v <= range.high; v *= 2.0)
        values.push_back(int(v));
    const auto text = [](int v) {
        return v == 0 ? std::string("shared") : std::to_string(v);
    };
    bool changed = false;
    if (ImGui::BeginCombo(label, text(value).c_str())) {
        for (int v : values)
            if (ImGui::Selectable(text(v).c_str(), v == value) && v != value) {
                value = v;
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

bool integerWidget(const char* label, Widget widget, const Range& range, int& value) {
    if (range.kind == Range::Kind::PowerOfTwo || range.kind == Range::Kind::ZeroOrPowerOfTwo)
        return powerOfTwoCombo(label, range, value);
    const int lo = int(std::max(lowLimit(range), double(INT_MIN)));
    const int hi = int(std::min(highLimit(range), double(INT_MAX)));
    if (widget == Widget::Slider && range.bounded())
        return ImGui::SliderScalar(label, ImGuiDataType_S32, &value, &lo, &hi, "%d");
    return ImGui::DragScalar(label, ImGuiDataType_S32, &value, 0.2f, &lo, &hi, "%d");
}

template <class S>
bool choiceCombo(const char* label, std::string_view key, const params::Choice<S>& choice, S& owner,
                 ValueNote note) {
    const auto text = [&](int i) {
        if (i < 0)
            return std::string("(auto)");
        std::string shown(choice.names[i]);
        if (const std::string_view hint = note ? note(key, choice.names[i]) : ""; !hint.empty())
            shown += " (" + std::string(hint) + ")";
        return shown;
    };
    const int current = choice.index(owner);
    bool changed = false;
    // The closed combo shows the value alone: a note is there to help choose, in the list.
    const std::string preview = current < 0 ? text(current) : std::string(choice.names[current]);
    if (ImGui::BeginCombo(label, preview.c_str())) {
        for (int i = 0; i < int(choice.names.size()); ++i) {
            if (ImGui::Selectable(text(i).c_str(), i == current) && i != current) {
                choice.set(owner, i);
                changed = true;
            }
            if (i == current)
                ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

template <class S> bool drawWidget(const Param<S>& param, S& owner, const WidgetOptions& options) {
    const ValueNote note = options.note;
    const std::string label = (options.unlabelled ? "##" : "") + std::string(param.key);
    const char* name = label.c_str();
    const Range& range = param.range;
    return std::visit(
        Overloaded{
            [&](double S::*m) { return numberWidget(name, param.widget, range, owner.*m); },
            [&](int S::*m) { return integerWidget(name, param.widget, range, owner.*m); },
            [&](bool S::*m) { return ImGui::Checkbox(name, &(owner.*m)); },
            [&](std::string S::*) { return false; }, // names and paths: the panel's own inputs
            [&](glm::vec3 S::*m) {
                glm::vec3& v = owner.*m;
                if (param.widget == Widget::Colour)
                    return ImGui::ColorEdit3(
                        name, &v.x,
                        range.high > 1.0 ? ImGuiColorEditFlags_HDR | ImGuiColorEditFlags_Float : 0);
                const float lo = float(std::max(lowLimit(range), -double(FLT_MAX) / 2));
                const float hi = float(std::min(highLimit(range), double(FLT_MAX) / 2));
                if (!ImGui::DragFloat3(name, &v.x, float(dragSpeed(range, v.x)), lo, hi, "%.3g"))
                    return false;
                for (int i = 0; i < 3; ++i)
                    v[i] = float(keepInside(range, v[i]));
                return true;
            },
            [&](std::array<double, 2> S::*m) {
                const double lo = lowLimit(range), hi = highLimit(range);
                return ImGui::DragScalarN(name, ImGuiDataType_Double, (owner.*m).data(), 2,
                                          float(dragSpeed(range, (owner.*m)[0])), &lo, &hi, "%.6g");
            },
            [&](std::array<double, 3> S::*m) {
                const double lo = lowLimit(range), hi = highLimit(range);
                return ImGui::DragScalarN(name, ImGuiDataType_Double, (owner.*m).data(), 3,
                                          float(dragSpeed(range, (owner.*m)[0])), &lo, &hi, "%.6g");
            },
            [&](const params::Choice<S>& c) {
                return choiceCombo(name, param.key, c, owner, note);
            },
            [&](const params::Custom<S>&) { return false; }, // keyframes: edited in the files
        },
        param.member);
}

} // namespace

template <class S> bool paramWidget(const Param<S>& param, S& owner, const WidgetOptions& options) {
    if (param.widget == Widget::None)
        return false;
    if (!options.onRelease) {
        const bool changed = drawWidget(param, owner, options);
        tooltip(param);
        return changed;
    }
    S edited = owner;
    drawWidget(param, edited, options);
    tooltip(param);
    if (!ImGui::IsItemDeactivatedAfterEdit())
        return false;
    owner = std::move(edited);
    return true;
}

template <class S>
bool paramWidget(const params::Section<S>& section, std::string_view key, S& owner,
                 const WidgetOptions& options) {
    for (const Param<S>& param : section.params)
        if (param.key == key)
            return paramWidget(param, owner, options);
    throw std::logic_error("no key '" + std::string(key) + "' in " + std::string(section.name));
}

template <class S>
bool paramWidgets(const params::Section<S>& section, S& owner,
                  std::initializer_list<std::string_view> skip, const WidgetOptions& options) {
    bool changed = false;
    for (const Param<S>& param : section.params)
        if (std::find(skip.begin(), skip.end(), param.key) == skip.end())
            changed |= paramWidget(param, owner, options);
    return changed;
}

#define SNOWCAP_WIDGETS_FOR(S)                                                                     \
    template bool paramWidget<S>(const Param<S>&, S&, const WidgetOptions&);                       \
    template bool paramWidget<S>(const params::Section<S>&, std::string_view, S&,                  \
                                 const WidgetOptions&);                                            \
    template bool paramWidgets<S>(const params::Section<S>&, S&,                                   \
                                  std::initializer_list<std::string_view>, const WidgetOptions&);
SNOWCAP_WIDGETS_FOR(SnowSettings)
SNOWCAP_WIDGETS_FOR(CaptureSettings)
SNOWCAP_WIDGETS_FOR(SimSettings)
SNOWCAP_WIDGETS_FOR(MaterialSettings)
SNOWCAP_WIDGETS_FOR(SnowpackSettings)
SNOWCAP_WIDGETS_FOR(LookSettings)
SNOWCAP_WIDGETS_FOR(DeformerSettings)
SNOWCAP_WIDGETS_FOR(GroundSettings)
SNOWCAP_WIDGETS_FOR(TerrainSettings)
#undef SNOWCAP_WIDGETS_FOR

} // namespace snowcap
