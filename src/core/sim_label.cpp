#include "core/sim_label.hpp"

#include "core/config.hpp"
#include "core/params.hpp"

#include <algorithm>
#include <cstdio>
#include <variant>

namespace snowcap {

namespace {

// A value as a label reads it: numbers shortest (0.9995), words bare (on, not "on").
std::string labelText(const params::Value& value) {
    if (const auto* word = std::get_if<std::string>(&value))
        return *word;
    return params::tomlText(value);
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// The differences of one section, `prefix` before each key ("material." for sim.X.material).
template <class S>
void differencesIn(const params::Section<S>& section, const S& mine, const S& other,
                   std::string_view prefix, std::vector<std::string>& out,
                   std::initializer_list<std::string_view> skip = {}) {
    for (const params::Param<S>& param : section.params) {
        if (std::find(skip.begin(), skip.end(), param.key) != skip.end())
            continue;
        const params::Value a = params::valueOf(param, mine);
        if (a == params::valueOf(param, other) || std::holds_alternative<std::monostate>(a))
            continue;
        out.push_back(std::string(prefix) + std::string(param.key) + " " + labelText(a));
    }
}

} // namespace

int comparedSim(int s, int count) {
    if (count < 2)
        return -1;
    return s == 0 ? 1 : 0;
}

std::string simSummary(const SimSettings& sim) {
    if (sim.model == SimModel::Snowpack)
        return "snowpack " + number(sim.snowpack.depthCm) + " cm at " +
               number(sim.snowpack.densityKgM3) + " kg/m3";
    std::string text = "decay " + number(sim.decay) + " (" + std::string(toString(sim.decayTiming));
    if (!sim.decayKeys.empty())
        text += ", " + std::to_string(sim.decayKeys.size()) + " keys";
    return text + ")";
}

std::vector<std::string> simDifferences(const SimSettings& mine, const SimSettings& other) {
    std::vector<std::string> out;
    // The summary states the model and its figures; decay_keys has no one value to show.
    differencesIn(params::simParams(), mine, other, "", out,
                  {"model", "decay", "decay_timing", "decay_keys"});
    differencesIn(params::materialParams(), mine.material, other.material, "material.", out);
    if (mine.model == SimModel::Snowpack && other.model == SimModel::Snowpack)
        differencesIn(params::snowpackParams(), mine.snowpack, other.snowpack, "snowpack.", out,
                      {"depth_cm", "density_kg_m3"});
    return out;
}

std::string simLabel(std::span<const SimSettings> sims, int s) {
    std::string text = simSummary(sims[s]);
    const int other = comparedSim(s, static_cast<int>(sims.size()));
    if (other >= 0)
        for (const std::string& difference : simDifferences(sims[s], sims[other]))
            text += ", " + difference;
    return text;
}

} // namespace snowcap
