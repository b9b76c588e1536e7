// The parameter table as text: config/default.toml (`snowcap params --toml`) and
// docs/parameters.md (`snowcap params --markdown`). Tests compare both committed files with
// these, so neither can drift from the table.
#include "core/params.hpp"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace snowcap::params {
namespace {

template <class... F> struct Overloaded : F... { using F::operator()...; };

// A number as TOML reads it back to the same double; integral values keep a ".0" so the file
// says which keys are numbers and which are integers.
std::string numberText(double value) {
    std::string text = show(value);
    if (text.find_first_of(".en") == std::string::npos)
        text += ".0";
    return text;
}

std::string listText(const toml::array& array) {
    std::string text = "[";
    for (std::size_t i = 0; i < array.size(); ++i) {
        text += i ? ", " : "";
        const toml::node& node = *array.get(i);
        if (const auto* inner = node.as_array())
            text += listText(*inner);
        else if (node.is_integer())
            text += std::to_string(node.as_integer()->get());
        else
            text += numberText(node.value_or(0.0));
    }
    return text + "]";
}

// `text` as lines of at most 100 columns, each starting with `prefix`.
std::string wrap(std::string_view text, std::string_view prefix) {
    std::string out, line;
    std::istringstream words{std::string(text)};
    for (std::string word; words >> word;) {
        if (!line.empty() && prefix.size() + line.size() + 1 + word.size() > 100) {
            out += std::string(prefix) + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty())
        out += std::string(prefix) + line + "\n";
    return out;
}

std::string comment(std::string_view text) {
    return wrap(text, "# ");
}

template <class S> std::string typeText(const Param<S>& param) {
    return std::visit(Overloaded{
                          [](double S::*) -> std::string { return "number"; },
                          [](int S::*) -> std::string { return "integer"; },
                          [](bool S::*) -> std::string { return "boolean"; },
                          [](std::string S::*) -> std::string { return "string"; },
                          [](glm::vec3 S::*) -> std::string { return "[x, y, z]"; },
                          [](std::array<double, 2> S::*) -> std::string { return "[x, y]"; },
                          [](std::array<double, 3> S::*) -> std::string { return "[x, y, z]"; },
                          [](const Choice<S>& c) {
                              std::string names;
                              for (std::string_view name : c.names)
                                  names += (names.empty() ? "" : " | ") + std::string(name);
                              return names;
                          },
                          [](const Custom<S>& c) { return std::string(c.shape); },
                      },
                      param.member);
}

template <class S> bool isNumeric(const Param<S>& param) {
    return std::holds_alternative<double S::*>(param.member) ||
           std::holds_alternative<int S::*>(param.member) ||
           std::holds_alternative<glm::vec3 S::*>(param.member) ||
           std::holds_alternative<std::array<double, 2> S::*>(param.member) ||
           std::holds_alternative<std::array<double, 3> S::*>(param.member);
}

// default.toml's comment for a key: its doc, then its range and unit, or its spellings.
template <class S> std::string keyNote(const Param<S>& param) {
    std::string note(param.doc);
    const std::string unit = param.unit.empty() ? "" : " " + std::string(param.unit);
    if (const auto* choice = std::get_if<Choice<S>>(&param.member)) {
        std::string names;
        for (std::string_view name : choice->names)
            names += (names.empty() ? "" : ", ") + std::string(name);
        note += " One of: " + names + ".";
    } else if (isNumeric(param) && param.range.kind != Range::Kind::Any) {
        note += " Range " + param.range.text() + unit + ".";
    } else if (!unit.empty()) {
        note += " In" + unit + ".";
    }
    return note;
}

template <class S> std::string valueText(const Param<S>& param, const S& owner) {
    if (const auto* custom = std::get_if<Custom<S>>(&param.member))
        return listText(custom->write(owner));
    return tomlText(valueOf(param, owner));
}

template <class S>
void tomlSection(std::string& out, const Section<S>& section, std::string_view header,
                 const S& values, bool documented) {
    out += "\n";
    if (documented)
        out += comment(section.doc);
    out += "[" + std::string(header) + "]\n";
    for (const Param<S>& param : section.params) {
        if (documented)
            out += comment(keyNote(param));
        out += std::string(param.key) + " = " + valueText(param, values) + "\n";
    }
}

// A markdown table cell: pipes would end the cell.
std::string cell(std::string_view text) {
    std::string out;
    for (char c : text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

template <class S> std::string defaultCell(const Param<S>& param) {
    if (param.presence == Presence::Required)
        return "required";
    if (std::holds_alternative<std::monostate>(param.def.value))
        return "(none)";
    std::string text = "`" + tomlText(param.def.value) + "`";
    for (const auto& [sim, value] : param.def.sims)
        text += ", sim." + std::string(1, sim) + ": `" + tomlText(value) + "`";
    return text;
}

template <class S> void markdownSection(std::string& out, const Section<S>& section) {
    const std::string name(section.name);
    out += "\n## " + (section.list ? "[[" + name + "]]" : "[" + name + "]") + "\n\n";
    out += wrap(section.doc, "") + "\n";
    out += "| key | type | default | range | unit | meaning |\n";
    out += "| --- | --- | --- | --- | --- | --- |\n";
    for (const Param<S>& param : section.params) {
        const std::string range = isNumeric(param) ? param.range.text() : "";
        out += "| `" + name + "." + std::string(param.key) + "` | " + cell(typeText(param)) +
               " | " + cell(defaultCell(param)) + " | " + cell(range) + " | " +
               std::string(param.unit) + " | " + cell(param.doc) + " |\n";
    }
}

} // namespace

std::string defaultToml() {
    const Settings defaults;
    std::string out = comment(
        "snowcap defaults: every key of every table but the lists, loaded first. Generated from "
        "the parameter table (src/core/params_table*.cpp) by `snowcap params --toml`; edit the "
        "table, not this file (a test fails when they differ). A scenario file is merged over "
        "this one (tables key by key; arrays and scalars replace), then `--set key=value` flags "
        "over both. Units: centimetres (cm) and seconds (s). Deformers and probes belong to "
        "scenarios, so there are none here. docs/parameters.md is the reference.");
    tomlSection(out, runParams(), "run", defaults.run, true);
    tomlSection(out, snowParams(), "snow", defaults.snow, true);
    tomlSection(out, captureParams(), "capture", defaults.capture, true);
    for (std::size_t i = 0; i < defaults.sims.size(); ++i) {
        const std::string sim = "sim." + std::string(simKey(i));
        if (i > 0)
            out += "\n# " + sim + ": every key is explained under [sim.a].";
        tomlSection(out, simParams(), sim, defaults.sims[i], i == 0);
        tomlSection(out, materialParams(), sim + ".material", defaults.sims[i].material, i == 0);
        tomlSection(out, snowpackParams(), sim + ".snowpack", defaults.sims[i].snowpack, i == 0);
    }
    out += "\n" +
           comment("sim.c .. sim.h: more sims, side by side with A and B. A scenario makes "
                   "one by giving its table ([sim.c], or --set sim.c.KEY=VALUE), and the "
                   "sims before it exist then too. They start from the defaults sim.b has here.");
    tomlSection(out, lookParams(), "look", defaults.look, true);
    tomlSection(out, viewParams(), "view", defaults.view, true);
    tomlSection(out, windParams(), "wind", defaults.wind, true);
    tomlSection(out, weatherParams(), "weather", defaults.weather, true);
    tomlSection(out, groundParams(), "ground", defaults.ground, true);
    tomlSection(out, terrainParams(), "terrain", defaults.terrain, true);
    tomlSection(out, physicsParams(), "physics", defaults.physics, true);
    tomlSection(out, soakParams(), "soak", defaults.soak, true);
    tomlSection(out, importParams(), "import", defaults.import, true);
    tomlSection(out, netParams(), "net", defaults.net, true);
    return out;
}

std::string parameterMarkdown() {
    std::string out = "# Parameters\n\n";
    out += wrap("Every key snowcap reads, generated from the parameter table "
                "(`src/core/params_table.cpp`, `src/core/params_table_scene.cpp`, "
                "`src/core/params_table_weather.cpp`, `src/core/params_table_ground.cpp`, "
                "`src/core/params_table_net.cpp`) by `snowcap "
                "params --markdown`; a test fails when this page and the table differ. The same "
                "rows give the reader its checks and messages, the viewer its widgets and their "
                "limits, `stats.json` its `params` and `config/default.toml` its values.",
                "");
    out += "\n";
    out += wrap("Settings are layered: `config/default.toml`, then the scenario file, then each "
                "`--set key=value`. Tables merge key by key; arrays (the `[[deformer]]` and "
                "`[[probe]]` lists among them) replace. An unknown key, a value of the wrong type "
                "or out of its range stops the load with one line naming where it came from, the "
                "key and the rule:",
                "");
    out += "\n```\n"
           "config/x.toml:3:1: unknown key 'snow.resolutoin'\n"
           "--set sim.a.decay=1.5: key 'sim.a.decay': must be in (0, 1], got 1.5\n"
           "```\n\n";
    out += wrap(
        "Numbers accept integers (`fps = 60`); integers refuse fractions. Ranges: `[a, "
        "b]` includes both ends, `(a, b]` excludes a; `2^k` is a power of two. `sim.X` is "
        "each sim: `sim.a`, `sim.b` and, when a config gives their tables, `sim.c` .. "
        "`sim.h` (starting from `sim.b`'s defaults). A deformer's keys are checked together too: "
        "the keys its path_kind needs must be there, and keys it would ignore are refused.",
        "");
    markdownSection(out, runParams());
    markdownSection(out, snowParams());
    markdownSection(out, captureParams());
    markdownSection(out, simParams());
    markdownSection(out, materialParams());
    markdownSection(out, snowpackParams());
    markdownSection(out, lookParams());
    markdownSection(out, viewParams());
    markdownSection(out, deformerParams());
    markdownSection(out, crowdParams());
    markdownSection(out, probeParams());
    markdownSection(out, windParams());
    markdownSection(out, weatherParams());
    markdownSection(out, groundParams());
    markdownSection(out, terrainParams());
    markdownSection(out, foliageParams());
    markdownSection(out, physicsParams());
    markdownSection(out, bodyParams());
    markdownSection(out, vehicleParams());
    markdownSection(out, soakParams());
    markdownSection(out, importParams());
    markdownSection(out, netParams());
    return out;
}

namespace {

bool numberChar(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
           c == '+' || c == '-' || c == '_';
}

} // namespace

std::string readableToml(const toml::table& table) {
    std::ostringstream printed;
    printed << table;
    const std::string text = printed.str();
    // toml++ (as Debian builds it) prints every double with 17 significant digits. Rewrite each
    // float literal outside strings; keys and table headers have no float literals, and a value
    // that is not one (an integer, a date) is copied as it was.
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                inString = false;
            ++i;
            continue;
        }
        const bool tokenStart = i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                            text[i - 1] == '_' || text[i - 1] == '.');
        if (tokenStart && (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+')) {
            std::size_t end = i;
            while (end < text.size() && numberChar(text[end]))
                ++end;
            const std::string token = text.substr(i, end - i);
            char* parsedEnd = nullptr;
            const double value = std::strtod(token.c_str(), &parsedEnd);
            const bool isFloat = token.find_first_of(".eE") != std::string::npos &&
                                 token.find('_') == std::string::npos && !token.empty() &&
                                 parsedEnd == token.c_str() + token.size();
            out += isFloat ? numberText(value) : token;
            i = end;
            continue;
        }
        if (c == '"')
            inString = true;
        out += c;
        ++i;
    }
    return out;
}

std::string tomlText(const Value& value) {
    return std::visit(Overloaded{
                          [](std::monostate) -> std::string { return ""; },
                          [](bool b) -> std::string { return b ? "true" : "false"; },
                          [](std::int64_t i) { return std::to_string(i); },
                          [](double d) { return numberText(d); },
                          [](const std::string& s) { return "\"" + s + "\""; },
                          [](const std::vector<double>& list) {
                              std::string text = "[";
                              for (std::size_t i = 0; i < list.size(); ++i)
                                  text += (i ? ", " : "") + numberText(list[i]);
                              return text + "]";
                          },
                      },
                      value);
}

} // namespace snowcap::params
