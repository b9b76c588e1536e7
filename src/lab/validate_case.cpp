#include "lab/validate_case.hpp"

#include "lab/session.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>
#include <toml++/toml.h>

namespace snowcap {

namespace {

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r");
    return std::string(text.substr(first, last - first + 1));
}

std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream stream(line);
    std::string cell;
    while (std::getline(stream, cell, ','))
        out.push_back(trimmed(cell));
    if (!line.empty() && line.back() == ',')
        out.emplace_back();
    return out;
}

} // namespace

std::variant<std::vector<MeasuredRow>, std::string>
readMeasuredCsv(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in)
        return fmt::format("{}: cannot be read", file.string());
    std::vector<std::string> header;
    std::vector<MeasuredRow> rows;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string text = trimmed(line);
        if (text.empty() || text.front() == '#')
            continue;
        const std::vector<std::string> fields = cells(text);
        if (header.empty()) {
            std::set<std::string> seen;
            for (const std::string& name : fields) {
                if (name.empty() || !seen.insert(name).second)
                    return fmt::format("{}:{}: the header names each column once, none empty",
                                       file.string(), number);
            }
            header = fields;
            continue;
        }
        if (fields.size() != header.size())
            return fmt::format("{}:{}: {} cells where the header has {}", file.string(), number,
                               fields.size(), header.size());
        MeasuredRow row;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            double value = 0.0;
            const char* begin = fields[i].data();
            const char* end = begin + fields[i].size();
            const auto [stop, error] = std::from_chars(begin, end, value);
            if (error != std::errc{} || stop != end || !std::isfinite(value))
                return fmt::format("{}:{}: column {} is '{}', not a finite number", file.string(),
                                   number, header[i], fields[i]);
            row[header[i]] = value;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty())
        return fmt::format("{}: no measurements (a header row and at least one row of numbers)",
                           file.string());
    return rows;
}

MeasuredInterval measuredInterval(const ValidationCase& c, std::size_t i) {
    const MeasuredRow& row = c.rows[i];
    MeasuredInterval out;
    out.value = row.at(c.measuredColumn);
    if (!c.uncertaintyColumn.empty()) {
        const double u = std::abs(row.at(c.uncertaintyColumn));
        out.low = out.value - u;
        out.high = out.value + u;
    } else {
        out.low = row.at(c.lowColumn);
        out.high = row.at(c.highColumn);
    }
    return out;
}

std::variant<ValidationCase, std::string>
loadValidationCase(const std::filesystem::path& folder, const std::vector<std::string>& overrides) {
    ValidationCase c;
    c.folder = folder;
    c.name = folder.filename().string();
    const std::filesystem::path caseFile = folder / "case.toml";
    toml::table table;
    try {
        table = toml::parse_file(caseFile.string());
    } catch (const toml::parse_error& error) {
        return fmt::format("{}:{}:{}: {}", caseFile.string(), error.source().begin.line,
                           error.source().begin.column, error.description());
    }
    static const std::set<std::string, std::less<>> kKnown = {
        "title",       "experiment", "source",  "citation", "band",       "x",
        "x_label",     "measured",   "y_label", "unit",     "tolerance",  "tolerance_why",
        "uncertainty", "low",        "high",    "texel_cm", "resolution", "group"};
    for (const auto& [key, value] : table) {
        if (!kKnown.contains(key.str()))
            return fmt::format("{}: unknown key '{}'", caseFile.string(), key.str());
    }
    const auto text = [&](std::string_view key, std::string& out, bool required) {
        if (const auto value = table[key].value<std::string>())
            out = *value;
        else if (table.contains(key) || required)
            return fmt::format("{}: '{}' must be {}", caseFile.string(), key,
                               required ? "given, as a string" : "a string");
        return std::string();
    };
    for (const auto& [key, out] : std::initializer_list<std::pair<std::string_view, std::string*>>{
             {"title", &c.title},
             {"experiment", &c.experiment},
             {"source", &c.source},
             {"citation", &c.citation},
             {"band", &c.bandWhy},
             {"x", &c.xColumn},
             {"x_label", &c.xLabel},
             {"measured", &c.measuredColumn},
             {"y_label", &c.yLabel},
             {"unit", &c.unit},
             {"tolerance_why", &c.toleranceWhy}}) {
        if (std::string error = text(key, *out, true); !error.empty())
            return error;
    }
    for (const auto& [key, out] : std::initializer_list<std::pair<std::string_view, std::string*>>{
             {"uncertainty", &c.uncertaintyColumn},
             {"low", &c.lowColumn},
             {"high", &c.highColumn},
             {"group", &c.groupColumn}}) {
        if (std::string error = text(key, *out, false); !error.empty())
            return error;
    }
    if (c.uncertaintyColumn.empty() == (c.lowColumn.empty() || c.highColumn.empty()))
        return fmt::format("{}: give either 'uncertainty' or both 'low' and 'high' (the "
                           "measurement's interval)",
                           caseFile.string());
    const auto number = [&](std::string_view key, double& out, double least) {
        const auto value = table[key].value<double>();
        if (!value || !std::isfinite(*value) || *value < least)
            return fmt::format("{}: '{}' must be a number of at least {}", caseFile.string(), key,
                               least);
        out = *value;
        return std::string();
    };
    if (std::string error = number("tolerance", c.tolerance, 0.0); !error.empty())
        return error;
    if (table.contains("texel_cm")) {
        if (std::string error = number("texel_cm", c.texelCm, 0.01); !error.empty())
            return error;
    }
    if (table.contains("resolution")) {
        double resolution = 0.0;
        if (std::string error = number("resolution", resolution, 4.0); !error.empty())
            return error;
        if (resolution > 256.0 || resolution != std::floor(resolution))
            return fmt::format("{}: 'resolution' must be a whole number of texels, 4..256",
                               caseFile.string());
        c.resolution = static_cast<int>(resolution);
    }

    const std::filesystem::path csv = folder / "measured.csv";
    auto rows = readMeasuredCsv(csv);
    if (auto* error = std::get_if<std::string>(&rows))
        return *error;
    c.rows = std::move(std::get<std::vector<MeasuredRow>>(rows));
    for (const std::string* column : {&c.xColumn, &c.measuredColumn, &c.uncertaintyColumn,
                                      &c.lowColumn, &c.highColumn, &c.groupColumn}) {
        if (!column->empty() && !c.rows.front().contains(*column))
            return fmt::format("{}: no column '{}' (named in case.toml)", csv.string(), *column);
    }

    const std::filesystem::path scenario = folder / "scenario.toml";
    auto loaded = loadScenarioSettings(scenario.string(), overrides);
    if (const auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    c.settings = std::move(std::get<Settings>(loaded));
    if (c.settings.sims.empty() || c.settings.sims.front().model != SimModel::Snowpack)
        return fmt::format("{}: sim.a must be the snowpack the experiment runs (model = "
                           "\"snowpack\")",
                           scenario.string());
    return c;
}

std::variant<std::vector<std::filesystem::path>, std::string>
validationFolders(const std::filesystem::path& root, const std::vector<std::string>& only) {
    std::vector<std::filesystem::path> folders;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
        if (entry.is_directory() && std::filesystem::exists(entry.path() / "case.toml"))
            folders.push_back(entry.path());
    }
    if (error)
        return fmt::format("{}: {}", root.string(), error.message());
    std::sort(folders.begin(), folders.end());
    if (only.empty())
        return folders;
    std::vector<std::filesystem::path> picked;
    for (const std::string& name : only) {
        const auto found = std::find_if(folders.begin(), folders.end(), [&](const auto& folder) {
            return folder.filename().string() == name;
        });
        if (found == folders.end())
            return fmt::format("--only: no case '{}' under {}", name, root.string());
        picked.push_back(*found);
    }
    return picked;
}

} // namespace snowcap
