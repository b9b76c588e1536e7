// `snowcap export-ue`: the settings card for Unreal (docs/unreal.md) as Markdown and JSON.
#include "app/commands.hpp"
#include "app/export_ue_card.hpp"
#include "app/export_ue_ground.hpp"
#include "app/export_ue_landscape.hpp"
#include "app/export_ue_snowpack.hpp"
#include "core/config.hpp"
#include "core/paths.hpp"
#include "io/image.hpp"
#include "lab/json_file.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <variant>

namespace snowcap {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

std::string shown(const json& value) {
    if (value.is_null())
        return "—";
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_array()) {
        std::string text = "(";
        for (std::size_t i = 0; i < value.size(); ++i)
            text += (i ? ", " : "") + shown(value[i]);
        return text + ")";
    }
    if (value.is_number_float())
        return fmt::format("{:.6g}", value.get<double>());
    return value.dump();
}

// One asset's parameters: name | value | unit | snowcap key | note.
void assetTable(std::string& md, const std::string& title, const json& asset) {
    md += fmt::format("## {}\n\n| Unreal | value | unit | snowcap key | note |\n"
                      "| --- | --- | --- | --- | --- |\n",
                      title);
    auto row = [&](const std::string& name, const json& e) {
        const std::string key = e["snowcap"].get<std::string>(); // "" for a fixed UE setting
        md += fmt::format("| {} | `{}` | {} | {} | {} |\n", name, shown(e["value"]),
                          e["unit"].get<std::string>(), key.empty() ? "" : "`" + key + "`",
                          e.value("note", std::string()));
    };
    if (asset.contains("value"))
        row(title, asset);
    else
        for (auto it = asset.begin(); it != asset.end(); ++it)
            row(it.key(), it.value());
    md += "\n";
}

std::string percent(const json& fraction) {
    return fraction.is_null() ? "—" : fmt::format("{:.3g} %", fraction.get<double>() * 100.0);
}

std::string seconds(const json& value) {
    return value.is_null() ? "not reached" : fmt::format("{:.2f} s", value.get<double>());
}

// The `snowcap bench --json` report named by --bench, or the file and the reason.
std::variant<nlohmann::json, std::string> readBenchReport(const fs::path& path) {
    auto read = readUntrustedJson(path, 64ull << 20); // a report is kilobytes
    if (auto* error = std::get_if<std::string>(&read); error && !error->ends_with(": not JSON"))
        return "--bench " + *error;
    nlohmann::json report = std::holds_alternative<nlohmann::json>(read)
                                ? std::move(std::get<nlohmann::json>(read))
                                : nlohmann::json();
    if (!report.is_object() || !report.contains("cases") || !report["cases"].is_array())
        return fmt::format("--bench {}: not a snowcap bench report (JSON with a \"cases\" list)",
                           path.string());
    return report;
}

} // namespace

std::string ueCardHeading(const char* title, const json& card) {
    std::string md =
        fmt::format("# {}: scenario `{}`, sim {}\n\n", title, card["scenario"].get<std::string>(),
                    card["sim"].get<std::string>());
    if (!card["overrides"].empty()) {
        md += "Overrides:";
        for (const auto& o : card["overrides"])
            md += fmt::format(" `--set {}`", o.get<std::string>());
        md += "\n\n";
    }
    return md;
}

std::string ueSettingsCardMarkdown(const json& card) {
    std::string md = ueCardHeading("Settings card for Unreal", card);
    md += "Written by `snowcap export-ue`; the names are those of the Unreal write-up "
          "(Foliage Snow Interaction). The same values are in the JSON beside this file.\n\n";
    for (const char* asset :
         {"MPC_FoliageInteraction", "PP_Depth_Snow", "M_Snow", "MF_FoliageInteraction_Snow",
          "SceneCaptureComponent2D", "Enum_FoliageResolution", "RenderTargetFormat"})
        assetTable(md, asset, card[asset]);

    md += "## snowcap-only switches\n\n| switch | value | original | Unreal side |\n"
          "| --- | --- | --- | --- |\n";
    for (const auto& sw : card["snowcap_only"])
        md += fmt::format("| `{}` | `{}` | `{}` | {} |\n", sw["key"].get<std::string>(),
                          sw["value"].get<std::string>(), sw["original"].get<std::string>(),
                          sw["unreal"].get<std::string>());

    const json& b = card["behaviour"];
    md += fmt::format("\n## Behaviour to expect\n\n{}; {}.\n\n", b["print"].get<std::string>(),
                      b["method"].get<std::string>());
    md += "| fps | after 1 s | after 10 s | after 60 s | to 10 % | to 0.1 % | to 0 | law alone "
          "(1 / 10 / 60 s) |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const auto& r : b["rates"]) {
        const json& rem = r["remaining"];
        const json& law = r["analytic"];
        md += fmt::format("| {:g} | {} | {} | {} | {} | {} | {} | {} / {} / {} |\n",
                          r["fps"].get<double>(), percent(rem["1"]), percent(rem["10"]),
                          percent(rem["60"]), seconds(r["time_to_10pct_s"]),
                          seconds(r["time_to_0.1pct_s"]), seconds(r["time_to_zero_s"]),
                          percent(law["1"]), percent(law["10"]), percent(law["60"]));
    }
    md += fmt::format("\n\"not reached\": still above the mark after {:g} s.\n",
                      b["horizon_s"].get<double>());
    md += "\n## Applying it in the editor\n\nThe `.py` file written beside this card is an "
          "Unreal editor Python script that sets the MPC's scalars and the snow material "
          "instance's parameters to these values (edit the two asset paths at its top first).\n";
    return md;
}

CLI::App* addExportUeCommand(CLI::App& app, ExportUeOptions& options) {
    CLI::App* command = app.add_subcommand(
        "export-ue", "Write a sim's settings under their Unreal names (Markdown + JSON)");
    command->add_option("--scenario", options.scenario, "Scenario name or TOML file")
        ->capture_default_str();
    command->add_option("--sim", options.sim, "Which sim: a, b, ...")->capture_default_str();
    command
        ->add_option(
            "--out", options.out,
            "FILE: writes FILE.md, FILE.json and FILE.py (a .md or .json ending is replaced)")
        ->capture_default_str();
    command->add_option("--bench", options.bench,
                        "A `snowcap bench --json` report: a snowpack sim's card copies its "
                        "snowpack step timings");
    return command;
}

int runExportUe(const CommonOptions& common, const ExportUeOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    auto loaded = loadScenarioSettings(options.scenario, common.overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    const Settings& settings = std::get<Settings>(loaded);
    const int count = static_cast<int>(settings.sims.size());
    const int index = options.sim.size() == 1 ? options.sim[0] - 'a' : -1;
    if (index < 0 || index >= count) {
        spdlog::error("--sim {}: the scenario has sims a .. {}", options.sim,
                      static_cast<char>('a' + count - 1));
        return 2;
    }
    // A snowpack sim's card says what the model would need in Unreal (export_ue_snowpack.cpp);
    // --bench adds the step's measured cost.
    nlohmann::json bench;
    if (!options.bench.empty()) {
        auto read = readBenchReport(options.bench);
        if (auto* error = std::get_if<std::string>(&read)) {
            spdlog::error("{}", *error);
            return 2;
        }
        bench = std::move(std::get<nlohmann::json>(read));
    }
    const bool snowpack = settings.sims[index].model == SimModel::Snowpack;
    fs::path base = options.out;
    if (base.extension() == ".md" || base.extension() == ".json")
        base.replace_extension();
    if (base.filename().empty()) {
        spdlog::error("--out {}: names a directory, not a file", options.out.string());
        return 2;
    }
    json card = snowpack
                    ? ueSnowpackCard(settings, index, options.scenario, common.overrides, bench)
                    : ueSettingsCard(settings, index, options.scenario, common.overrides);
    // The ground under the snow; a texture's PNG goes beside the card as FILE_ground.png.
    fs::path groundPath = base;
    groundPath += "_ground.png";
    const bool texture = settings.ground.kind == GroundKind::Texture;
    card["Ground"] = ueGroundSection(settings, groundPath.filename().string());
    // The terrain under it as a Landscape's import values (none when flat).
    auto landscape = ueLandscapeSection(settings, resourceRoot());
    if (auto* error = std::get_if<std::string>(&landscape)) {
        spdlog::error("{}", *error);
        return 2;
    }
    if (auto& section = std::get<std::optional<json>>(landscape))
        card["Landscape"] = std::move(*section);
    const std::string text = card.dump(2) + "\n";
    const std::string md =
        (snowpack ? ueSnowpackCardMarkdown(card) : ueSettingsCardMarkdown(card)) +
        ueGroundMarkdown(card["Ground"]) +
        (card.contains("Landscape") ? ueLandscapeMarkdown(card["Landscape"]) : "");
    const std::string py = snowpack ? ueSnowpackEditorPython(card) : ueEditorPython(card);
    fs::path jsonPath = base, mdPath = base, pyPath = base;
    jsonPath += ".json";
    mdPath += ".md";
    pyPath += ".py";
    // Every target checked before anything is written (a FIFO or a device is never replaced),
    // then all or nothing: the cards are written beside their places, the ground copied, and
    // only then the cards renamed in, so a refusal or a full disk replaces none of them.
    for (const fs::path& path : {jsonPath, mdPath, pyPath, groundPath})
        if (texture || path != groundPath)
            if (auto refused = checkReplaceable(path)) {
                spdlog::error("{}", *refused);
                return 2;
            }
    std::error_code ec;
    if (base.has_parent_path())
        fs::create_directories(base.parent_path(), ec);
    std::vector<std::pair<fs::path, fs::path>> staged; // temporary -> target
    const auto unstage = [&] {
        for (const auto& [temp, target] : staged)
            fs::remove(temp, ec);
    };
    for (const auto& [path, bytes] :
         {std::pair{jsonPath, &text}, std::pair{mdPath, &md}, std::pair{pyPath, &py}}) {
        fs::path temp = path;
        temp += fmt::format(".export-{}", static_cast<long>(getpid()));
        if (auto error = writeFileAtomically(
                temp, std::vector<std::uint8_t>(bytes->begin(), bytes->end()))) {
            unstage();
            spdlog::error("{}", *error);
            return 1;
        }
        staged.emplace_back(temp, path);
    }
    // The ground's file first: one the field would refuse stops the export before any card.
    if (texture) {
        if (auto error = copyGroundTexture(settings, resourceRoot(), groundPath)) {
            unstage();
            spdlog::error("{}", *error);
            return 2;
        }
    }
    for (const auto& [temp, target] : staged) {
        fs::rename(temp, target, ec);
        if (ec) {
            unstage();
            spdlog::error("{}: cannot rename into place ({})", target.string(), ec.message());
            return 1;
        }
    }
    spdlog::info("export-ue: wrote {}, {} and {} (the editor script){} in {:.2f} s",
                 mdPath.string(), jsonPath.string(), pyPath.string(),
                 texture ? fmt::format(" and {} (the ground)", groundPath.string()) : "",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    return 0;
}

} // namespace snowcap
