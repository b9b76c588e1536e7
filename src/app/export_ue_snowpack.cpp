#include "app/export_ue_snowpack.hpp"

#include "app/export_ue_card.hpp"
#include "app/export_ue_ground.hpp"
#include "core/config.hpp"
#include "core/params.hpp"
#include "core/quality.hpp"
#include "core/snowpack_laws.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace snowcap {

using json = nlohmann::ordered_json;

namespace {

// The Snowpack uniform block (shaders/snowpack/snowpack_block.glsl, std140).
constexpr int kBlockBytes = 48;
// The active tiles (docs/snowpack.md, section 3.1): 16 x 16 texels, one group of 16 x 16 threads
// each in every pass on the texels (shaders/snowpack/*.comp); three lists.
constexpr int kTileSide = 16;
constexpr int kTileLists = 3;

double tiles(int n) {
    const double side = (n + kTileSide - 1) / kTileSide;
    return side * side;
}

json resources(int n) {
    const double texels = double(n) * n;
    auto resource = [&](const char* name, const char* unreal, double bytes, const char* note) {
        return json{{"name", name}, {"unreal", unreal}, {"bytes", bytes}, {"note", note}};
    };
    return json::array({
        resource("state 0, state 1", "2 x UTextureRenderTarget2D, RTF_RGBA32f, bCanCreateUAV",
                 2.0 * texels * 16.0,
                 "a ping-pong pair; R depth above the ground (cm), G mass (kg/m2), B liquid "
                 "water (kg/m2), A free. 32-bit floats: half floats lose 11.7 % of the mass "
                 "over 10,000 steps where floats keep it to 2e-6 (docs/snowpack.md, section 2)"),
        resource("quanta", "RDG buffer of uint32, one a texel (UAV)", texels * 4.0,
                 "what each texel cannot compact, in quanta of 2^-18 kg/m2"),
        resource("inside", "RDG buffer of uint32, one a texel (UAV)", texels * 4.0,
                 "1 where a contact reaches below (or rests on) the snow top"),
        resource("received", "RDG buffer of uint32, one a texel (UAV, InterlockedAdd)",
                 texels * 4.0,
                 "ploughed quanta landing on each texel: integer atomics, so the sums do not "
                 "depend on the order threads run in"),
        resource("tile state", "RDG buffer of uint32, one a 16 x 16 tile (UAV)", tiles(n) * 4.0,
                 "two 'touched' bits a tile that take turns (which tiles the last pass changed) "
                 "and the contact flag of the last step"),
        resource("tile lists", "RDG buffer of uint32 (UAV + indirect dispatch arguments)",
                 (kTileLists * 4.0 + kTileLists * tiles(n)) * 4.0,
                 "three lists (compact, resolve, slump), each a DispatchIndirect argument "
                 "triple and a count followed by tile indices: the passes run only where "
                 "something can change"),
        resource("Snowpack block", "a uniform buffer (SHADER_PARAMETER_STRUCT)", kBlockBytes,
                 "capture far and height, texel size, densities, angles, settling dt"),
    });
}

json passes(int n, const SnowpackSettings& snowpack, double fps) {
    // The slump iterations of one second at the run's rate, from the sim's own clock.
    SnowpackClock clock(snowpack);
    int fewest = 1 << 30, most = 0, total = 0;
    const int frames = std::max(1, int(std::lround(fps)));
    for (int f = 0; f < frames; ++f) {
        const int k = clock.advance(1.0 / fps).slumpIterations;
        fewest = std::min(fewest, k), most = std::max(most, k), total += k;
    }
    using Names = std::vector<std::string>;
    const int side = (n + kTileSide - 1) / kTileSide;
    const int tileCount = side * side;
    const json onTiles = "indirect: one group of 16 x 16 a listed tile";
    auto pass = [&](int order, const char* name, const char* shader, const Names& reads,
                    const Names& writes, json dispatch, std::string runs, const char* unreal) {
        return json{{"order", order},          {"name", name},
                    {"shader", shader},        {"reads", json(reads)},
                    {"writes", json(writes)},  {"dispatch", std::move(dispatch)},
                    {"runs", std::move(runs)}, {"unreal", unreal}};
    };
    const std::string onceAStep = "once a step, after the contact capture";
    return json::array({
        pass(1, "classify", "shaders/snowpack/classify.comp",
             Names{"the capture depth (RT_Capture's depth, R32f)", "tile state"},
             Names{"tile lists (the compact list)", "tile state (contact flags)"},
             json::array({side, side, 1}),
             onceAStep + "; every tile on a settling tick (settle_interval_s of sim time)",
             "a global compute shader (FGlobalShader) added to the render graph after the "
             "SceneCapture, one group a tile over the whole region: the only pass that reads "
             "every texel (the capture alone)"),
        pass(2, "compact", "shaders/snowpack/compact.comp",
             Names{"state (in place)", "the capture depth"},
             Names{"state (in place)", "quanta", "inside", "tile state (touched)"}, onTiles,
             onceAStep + " on the compact list; settling folded in on its ticks",
             "the same shader type, dispatched indirectly (DispatchIndirect) from the compact "
             "list's arguments; a texture SRV for the capture, UAVs for the rest"),
        pass(3, "plough scatter", "shaders/snowpack/plough_scatter.comp", Names{"quanta", "inside"},
             Names{"received (InterlockedAdd)", "tile state (where it lands)"}, onTiles,
             onceAStep + " on the compact list",
             "the same, with a ring search of plough_reach_cm for the nearest texel outside the "
             "contact"),
        pass(4, "plough resolve", "shaders/snowpack/resolve_tiles.comp, plough_resolve.comp",
             Names{"tile state", "received", "state (in place)"},
             Names{"tile lists (the resolve list)", "state (in place)", "received (cleared)"},
             onTiles,
             onceAStep + ": a list builder (" + std::to_string((tileCount + 63) / 64) +
                 " groups of 64 tiles) then the resolve on its list",
             "two dispatches: the builder over the tiles, then the resolve indirectly; it "
             "returns received to 0 where it ran, so no clear pass over the region"),
        pass(5, "slump", "shaders/snowpack/slump_tiles.comp, slump.comp",
             Names{"tile state", "state", "inside"},
             Names{"tile lists (the slump list)", "state (the other half)", "tile state (touched)"},
             onTiles,
             fmt::format("{:g} times a simulated second on fixed instants (slump_rate_hz): at "
                         "{:g} fps {} to {} a frame, {} in a second; each on the tiles touched "
                         "last iteration and their neighbours",
                         snowpack.slumpRateHz, fps, fewest, most, total),
             "two dispatches an iteration (the list builder, then the slump indirectly, a "
             "ping-pong swap each): the frame's iteration count comes from a clock the game "
             "thread keeps, not from DeltaTime alone"),
    });
}

// Copies a bench report's snowpack cases (and their copy floor) with where they ran.
json measured(const nlohmann::json& bench) {
    if (bench.is_null() || !bench.contains("cases"))
        return {{"source", nullptr},
                {"how", "snowcap bench --only copy,snowpack --sizes 1024,2048 --json bench.json, "
                        "then snowcap export-ue --bench bench.json"}};
    json cases = json::array();
    for (const auto& c : bench["cases"])
        if (c.value("pass", "") == "snowpack")
            cases.push_back({{"variant", c.value("variant", "")},
                             {"size", c.value("size", nlohmann::json())},
                             {"median_ms", c.value("median_ms", 0.0)},
                             {"ratio_to_copy", c.value("ratio_to_copy", 0.0)},
                             {"method", c.value("method", "")}});
    const auto field = [&](const char* a, const char* b) {
        return bench.contains(a) && bench[a].contains(b) ? bench[a][b] : nlohmann::json();
    };
    return {{"source", "snowcap bench"},
            {"renderer", field("gl", "renderer")},
            {"cores", field("machine", "cores")},
            {"cases", cases},
            {"note", "one whole step (the four passes) as a ratio to a plain copy of an R16F "
                     "buffer of the same size, the bandwidth floor"}};
}

} // namespace

json ueSnowpackCard(const Settings& loaded, int simIndex, const std::string& scenario,
                    const std::vector<std::string>& overrides, const nlohmann::json& bench) {
    const Settings settings = effectiveSettings(loaded);
    const SimSettings& sim = settings.sims[simIndex];
    const std::string x(simName(simIndex));
    const int n = sim.resolution > 0 ? sim.resolution : settings.snow.resolution;
    const double texelCm = settings.snow.orthoWidthCm / n;

    json card;
    card["scenario"] = scenario;
    card["sim"] = x;
    card["overrides"] = overrides;
    card["model"] = "snowpack";
    card["summary"] =
        "The Unreal write-up (Foliage Snow Interaction) has no snowpack: its M_Snow displaces "
        "by a decaying mask. This card lists what building sim " +
        x +
        "'s model in Unreal takes: the formats, the compute passes in order, the values, the "
        "cost. The contact capture (SceneCaptureComponent2D below the snow, looking up) is the "
        "decay model's, unchanged.";
    card["resolution"] = {{"texels", n},
                          {"ortho_width_cm", settings.snow.orthoWidthCm},
                          {"texel_cm", texelCm},
                          {"snowcap", fmt::format("sim.{}.resolution, snow.ortho_width_cm", x)}};
    json values = json::object();
    for (const auto& param : params::snowpackParams().params)
        values[std::string(param.key)] = {
            {"value", params::tomlText(params::valueOf(param, sim.snowpack))},
            {"unit", std::string(param.unit)},
            {"snowcap", fmt::format("sim.{}.snowpack.{}", x, param.key)}};
    card["values"] = values;
    card["resources"] = resources(n);
    card["passes"] = passes(n, sim.snowpack, settings.run.fps);
    card["material"] =
        "M_Snow reads the state instead of the mask: World Position Offset down by "
        "(depth_cm - R) (the undisturbed top stays at the landscape's snow height), normals from "
        "that height, packed snow (density G / R towards max_density) bluer and smoother, water "
        "(B) darker, the ground layer where R nears 0; the rim trick does not apply";
    double bytes = 0.0;
    for (const auto& r : card["resources"])
        bytes += r["bytes"].get<double>();
    const int side = (n + kTileSide - 1) / kTileSide;
    card["cost"] = {{"memory_bytes", bytes},
                    {"memory_vs_r16f_pair", bytes / (2.0 * double(n) * n * 2.0)},
                    {"tiles", side * side},
                    {"groups_a_dispatch", "a group a listed tile (the classify: a group a tile)"},
                    {"dispatches_a_step", "5 + 2 for each slump iteration of the step (see "
                                          "passes); a step touching few tiles costs little more "
                                          "than the classify"},
                    {"measured", measured(bench)}};
    card["simplifications"] =
        "The deformer is kinematic: it goes where its animation puts it and the snow yields "
        "(no bearing strength stops a foot; docs/snowpack.md). The weather ([weather]: "
        "snowfall, melt, drift; docs/weather.md) adds passes of its own that this card does not "
        "list. The region is fixed (no following window, no world store).";
    return card;
}

std::string ueSnowpackCardMarkdown(const json& card) {
    std::string md = ueCardHeading("Unreal card for a snowpack", card);
    md += card["summary"].get<std::string>() + "\n\n";
    const json& r = card["resolution"];
    md += fmt::format("Resolution {0} x {0} texels over {1:g} cm ({2:g} cm a texel).\n\n",
                      r["texels"].get<int>(), r["ortho_width_cm"].get<double>(),
                      r["texel_cm"].get<double>());
    md += "## Resources\n\n| resource | in Unreal | bytes | note |\n| --- | --- | --- | --- |\n";
    for (const auto& res : card["resources"])
        md += fmt::format("| {} | {} | {:.0f} | {} |\n", res["name"].get<std::string>(),
                          res["unreal"].get<std::string>(), res["bytes"].get<double>(),
                          res["note"].get<std::string>());
    md += "\n## Passes, in order\n\n| # | pass | reads | writes | runs | in Unreal |\n"
          "| --- | --- | --- | --- | --- | --- |\n";
    const auto list = [](const json& items) {
        std::string text;
        for (const auto& item : items)
            text += (text.empty() ? "" : ", ") + item.get<std::string>();
        return text;
    };
    for (const auto& p : card["passes"])
        md += fmt::format("| {} | {} (`{}`) | {} | {} | {} | {} |\n", p["order"].get<int>(),
                          p["name"].get<std::string>(), p["shader"].get<std::string>(),
                          list(p["reads"]), list(p["writes"]), p["runs"].get<std::string>(),
                          p["unreal"].get<std::string>());
    md += "\n## Values\n\n| key | value | unit |\n| --- | --- | --- |\n";
    for (auto it = card["values"].begin(); it != card["values"].end(); ++it)
        md += fmt::format("| `{}` | `{}` | {} |\n", it.value()["snowcap"].get<std::string>(),
                          it.value()["value"].get<std::string>(),
                          it.value()["unit"].get<std::string>());
    const json& cost = card["cost"];
    md += fmt::format("\n## Cost\n\nMemory {:.1f} MiB ({:.1f} x the decay model's R16F pair); "
                      "{} tiles of 16 x 16 texels, {}; {}.\n\n",
                      cost["memory_bytes"].get<double>() / double(1 << 20),
                      cost["memory_vs_r16f_pair"].get<double>(), cost["tiles"].get<int>(),
                      cost["groups_a_dispatch"].get<std::string>(),
                      cost["dispatches_a_step"].get<std::string>());
    const json& m = cost["measured"];
    if (m["source"].is_null()) {
        md += "Not timed: " + m["how"].get<std::string>() + ".\n";
    } else {
        md += fmt::format("Timed by `snowcap bench` on {} ({} cores); {}.\n\n"
                          "| size | step ms (median) | x copy |\n| --- | --- | --- |\n",
                          m["renderer"].is_string() ? m["renderer"].get<std::string>() : "?",
                          m["cores"].is_number() ? m["cores"].dump() : "?",
                          m["note"].get<std::string>());
        for (const auto& c : m["cases"])
            md +=
                fmt::format("| {} | {:.3f} | {:.2f} |\n",
                            c["size"].is_string() ? c["size"].get<std::string>() : c["size"].dump(),
                            c["median_ms"].get<double>(), c["ratio_to_copy"].get<double>());
    }
    md += "\n## Material\n\n" + card["material"].get<std::string>() + ".\n\n## What the lab " +
          "simplifies\n\n" + card["simplifications"].get<std::string>() + "\n";
    return md;
}

std::string ueSnowpackEditorPython(const json& card) {
    const int n = card["resolution"]["texels"].get<int>();
    std::string py = fmt::format(
        "# Creates the two state render targets of the snowcap snowpack card (scenario {}, sim "
        "{}):\n"
        "# Tools > Execute Python Script. The four compute passes are C++ global shaders (see "
        "the card);\n"
        "# no editor script can add them.\n"
        "import unreal\n\n"
        "FOLDER = '/Game/Snow'\n"
        "SIZE = {}\n\n"
        "tools = unreal.AssetToolsHelpers.get_asset_tools()\n"
        "for name in ('RT_Snowpack_0', 'RT_Snowpack_1'):\n"
        "    target = tools.create_asset(name, FOLDER, unreal.TextureRenderTarget2D,\n"
        "                                unreal.TextureRenderTargetFactoryNew())\n"
        "    target.set_editor_property('size_x', SIZE)\n"
        "    target.set_editor_property('size_y', SIZE)\n"
        "    target.set_editor_property('render_target_format',\n"
        "                               unreal.TextureRenderTargetFormat.RTF_RGBA32F)\n"
        "    target.set_editor_property('can_create_uav', True)\n"
        "    unreal.EditorAssetLibrary.save_loaded_asset(target)\n",
        card["scenario"].get<std::string>(), card["sim"].get<std::string>(), n);
    if (card.contains("Ground"))
        py += "\n# The snow material's instance (edit to your project's).\n"
              "SNOW_MI_PATH = '/Game/Snow/MI_Snow'\n"
              "instance = unreal.EditorAssetLibrary.load_asset(SNOW_MI_PATH)\n" +
              ueGroundEditorPython(card.at("Ground"), "instance") +
              "unreal.EditorAssetLibrary.save_loaded_asset(instance)\n";
    return py;
}

} // namespace snowcap
