#include "lab/sweep_plan.hpp"

#include "core/untrusted_file.hpp"
#include "lab/session.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <set>

namespace snowcap {

namespace {

// "sim.b.decay" -> 1 (the sim's index); nullopt for keys outside sim.X.
std::optional<int> simOfKey(const std::string& key) {
    if (key.size() < 7 || key.compare(0, 4, "sim.") != 0 || key[5] != '.')
        return std::nullopt;
    if (key[4] < 'a' || key[4] > 'z')
        return std::nullopt;
    return key[4] - 'a';
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t");
    return std::string(text.substr(first, last - first + 1));
}

} // namespace

int sweepFieldCapacity() {
    return kMaxSims;
}

std::variant<SweepAxis, std::string> parseSweepAxis(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        return fmt::format("--vary '{}': expected KEY=V1,V2,...", text);
    SweepAxis axis;
    axis.key = trimmed(std::string_view(text).substr(0, equals));
    const std::string_view list = std::string_view(text).substr(equals + 1);
    int depth = 0;
    char quote = 0;
    std::string current;
    for (char c : list) {
        if (quote) {
            quote = c == quote ? 0 : quote;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            --depth;
        } else if (c == ',' && depth == 0) {
            axis.values.push_back(trimmed(current));
            current.clear();
            continue;
        }
        current += c;
    }
    axis.values.push_back(trimmed(current));
    for (const std::string& value : axis.values)
        if (value.empty())
            return fmt::format("--vary '{}': an empty value", text);
    if (quote || depth != 0)
        return fmt::format("--vary '{}': unbalanced quotes or brackets", text);
    return axis;
}

std::string SweepPlan::label(int combination) const {
    std::string text;
    const SweepCombination& c = combinations[combination];
    for (std::size_t a = 0; a < request.axes.size(); ++a) {
        std::string key = request.axes[a].key;
        if (simOfKey(key))
            key = key.substr(6); // "sim.b.decay" -> "decay": the sheet is about one sim
        text += fmt::format("{}{} {}", text.empty() ? "" : ", ", key, c.values[a]);
    }
    return text;
}

std::variant<SweepPlan, std::string> planSweep(const SweepRequest& request) {
    if (request.axes.empty())
        return std::string("sweep: give at least one --vary KEY=V1,V2,...");
    if (request.atS.empty())
        return std::string("sweep: give the sheet's times with --at T1,T2,...");
    if (request.atS.size() > kMaxSweepTimes)
        return fmt::format("--at: {} times, at most {}", request.atS.size(), kMaxSweepTimes);
    for (double t : request.atS)
        if (!(t > 0.0) || !std::isfinite(t) || t > kMaxSweepSeconds)
            return fmt::format("--at: {} is not a time after the start (seconds in (0, {:g}])", t,
                               kMaxSweepSeconds);
    if (request.frames < 0)
        return fmt::format("--frames {}: not a number of steps (1 or more, 0 for up to the "
                           "last --at)",
                           request.frames);
    std::set<std::string> keys;
    std::set<int> simsNamed;
    bool onlySimKeys = true;
    for (const SweepAxis& axis : request.axes) {
        if (!keys.insert(axis.key).second)
            return fmt::format("--vary {}: the key is varied twice", clipForMessage(axis.key));
        std::set<std::string> values;
        for (const std::string& value : axis.values)
            if (!values.insert(value).second)
                return fmt::format("--vary {}={}: the value is given twice",
                                   clipForMessage(axis.key), clipForMessage(value));
        if (auto sim = simOfKey(axis.key))
            simsNamed.insert(*sim);
        else
            onlySimKeys = false;
    }

    SweepPlan plan;
    plan.request = request;
    if (!request.sim.empty()) {
        if (request.sim.size() != 1 || request.sim[0] < 'a' || request.sim[0] > 'z')
            return fmt::format("--sim '{}': a sim is named by one letter (a, b, ...)", request.sim);
        plan.measuredSim = request.sim[0] - 'a';
        if (!simsNamed.empty() && (simsNamed.size() > 1 || *simsNamed.begin() != plan.measuredSim))
            return fmt::format("--sim {}: the varied keys belong to another sim", request.sim);
    } else if (simsNamed.size() > 1) {
        return std::string("--vary names keys of several sims: say which one to measure with "
                           "--sim");
    } else if (simsNamed.size() == 1) {
        plan.measuredSim = *simsNamed.begin();
    }
    plan.packed = onlySimKeys && simsNamed.size() == 1;

    // Every combination, the first axis slowest (rows read like nested loops).
    std::size_t count = 1;
    for (const SweepAxis& axis : request.axes) {
        if (axis.values.size() > kMaxSweepCombinations / count)
            return fmt::format("--vary: more than {} combinations (each is a run of its own)",
                               kMaxSweepCombinations);
        count *= axis.values.size();
    }
    const double lastAt = *std::max_element(request.atS.begin(), request.atS.end());
    for (std::size_t n = 0; n < count; ++n) {
        SweepCombination c;
        c.index = static_cast<int>(n);
        c.overrides = request.overrides;
        std::size_t rest = n;
        std::vector<std::size_t> picks(request.axes.size());
        for (std::size_t a = request.axes.size(); a-- > 0;) {
            picks[a] = rest % request.axes[a].values.size();
            rest /= request.axes[a].values.size();
        }
        for (std::size_t a = 0; a < request.axes.size(); ++a) {
            c.values.push_back(request.axes[a].values[picks[a]]);
            c.overrides.push_back(request.axes[a].key + "=" + c.values.back());
        }
        auto loaded = loadScenarioSettings(request.scenario, c.overrides);
        if (auto* error = std::get_if<ConfigError>(&loaded)) {
            // A varied value is refused as the --vary it came from, not as an internal --set.
            for (std::size_t a = 0; a < request.axes.size(); ++a) {
                const std::string given = request.axes[a].key + "=" + c.values[a];
                if (error->message.starts_with("--set " + given + ":"))
                    return "--vary " + given + error->message.substr(6 + given.size());
            }
            return error->message;
        }
        c.settings = std::get<Settings>(std::move(loaded));
        if (plan.measuredSim >= static_cast<int>(c.settings.sims.size()))
            return fmt::format("--sim {}: the scenario has no such sim",
                               char('a' + plan.measuredSim));
        const double fps = c.settings.run.fps;
        const double steps = std::ceil(lastAt * fps - 1e-6);
        if (!(steps <= double(std::numeric_limits<int>::max())))
            return fmt::format("--at {}: {:.0f} steps at {} fps, more than a run takes ({})",
                               lastAt, steps, fps, std::numeric_limits<int>::max());
        const int needed = static_cast<int>(steps);
        if (request.frames > 0 && request.frames < needed)
            return fmt::format("--at {}: past the run's end (--frames {} at {} fps is {} s)",
                               lastAt, request.frames, fps, request.frames / fps);
        c.settings.run.frames = request.frames > 0 ? request.frames : needed;
        plan.combinations.push_back(std::move(c));
    }

    if (plan.packed) {
        const int capacity = sweepFieldCapacity();
        for (std::size_t first = 0; first < plan.combinations.size(); first += capacity) {
            SweepBatch batch;
            batch.settings = plan.combinations[first].settings;
            std::vector<SimSettings> sims;
            for (std::size_t c = first; c < std::min(first + capacity, plan.combinations.size());
                 ++c) {
                batch.combinations.push_back(static_cast<int>(c));
                batch.slots.push_back(static_cast<int>(sims.size()));
                sims.push_back(plan.combinations[c].settings.sims[plan.measuredSim]);
            }
            batch.settings.sims = std::move(sims); // as many sims as combinations
            plan.batches.push_back(std::move(batch));
        }
    } else {
        for (const SweepCombination& c : plan.combinations)
            plan.batches.push_back({c.settings, {c.index}, {plan.measuredSim}});
    }
    return plan;
}

} // namespace snowcap
