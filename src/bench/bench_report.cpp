#include "bench/bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <set>

namespace snowcap::bench {

namespace {

const Case* findCase(const std::vector<Case>& cases, std::string_view pass,
                     std::string_view variant, std::string_view size) {
    for (const Case& c : cases)
        if (c.pass == pass && c.variant == variant && c.size == size)
            return &c;
    return nullptr;
}

bool isScreen(const std::string& size) {
    return size.find('x') != std::string::npos;
}

double rateM(const Case& c) {
    return c.medianMs > 0 ? double(c.elements) / (c.medianMs * 1e3) : 0.0;
}

Target compare(std::string name, std::optional<double> value, std::string op, double goal,
               std::string unit, std::string why) {
    const bool timed = unit.starts_with("x ") || unit == "fps";
    Target t{std::move(name), value, fmt::format("{} {}", op, goal), std::nullopt, std::move(unit),
             std::move(why),  timed};
    if (value) {
        if (op == "<=")
            t.met = *value <= goal + 1e-12;
        else if (op == ">=")
            t.met = *value >= goal - 1e-12;
        else
            t.met = std::fabs(*value - goal) <= 1e-9;
    }
    return t;
}

} // namespace

void computeRatios(std::vector<Case>& cases) {
    for (Case& c : cases) {
        const Case* floor = findCase(cases, "copy", "r16f", c.floor);
        c.ratioToCopy = floor && floor->medianMs > 0 ? c.medianMs / floor->medianMs : 0.0;
    }
}

namespace {

// A case's median over its copy floor; none where the case or its floor was not measured.
std::optional<double> ratioToCopy(const std::vector<Case>& cases, std::string_view pass,
                                  std::string_view variant, std::string_view size) {
    const Case* c = findCase(cases, pass, variant, size);
    if (!c || c->ratioToCopy <= 0)
        return std::nullopt;
    return c->ratioToCopy;
}

// The sim passes over the copy floor: accumulate (alone and fused), capture, crowds.
void addSimPassTargets(std::vector<Target>& targets, const std::vector<Case>& cases) {
    auto ratio = [&](std::string_view pass, std::string_view variant, std::string_view size) {
        return ratioToCopy(cases, pass, variant, size);
    };
    for (const char* size : {"1024", "2048"})
        targets.push_back(compare(fmt::format("accumulate_{}_x_copy", size),
                                  ratio("accumulate", "add_r16f", size), "<=", 1.3, "x copy",
                                  "accumulate (add, r16f) median over the copy floor"));
    // Per sim, where sims share a capture: the fused pass over its sims (the viewer's A/B pair
    // and four sims), with the default (d16) capture depth.
    for (const char* size : {"1024", "2048"})
        for (int sims : {2, 4}) {
            const std::optional<double> pass =
                ratio("accumulate_fused", fmt::format("{}x_d16", sims), size);
            targets.push_back(compare(
                fmt::format("accumulate_fused{}_{}_per_sim_x_copy", sims, size),
                pass ? std::optional<double>(*pass / sims) : std::nullopt, "<=", 1.3, "x copy",
                fmt::format("one accumulate pass for {} sims sharing a d16 "
                            "capture, over {} copies",
                            sims, sims)));
        }
    targets.push_back(compare("capture_accumulate_4x50k_2048_x_copy",
                              ratio("capture_accumulate", "4x50k", "2048"), "<=", 3.0, "x copy",
                              "4 deformers x 50k triangles captured, then one accumulate"));
    targets.push_back(compare("capture_accumulate_4x50k_proxy_2048_x_copy",
                              ratio("capture_accumulate", "4x50k_proxy", "2048"), "<=", 3.0,
                              "x copy", "the same through capture proxies (capture.proxy = auto)"));
    std::optional<double> terrainCapture;
    if (const Case* c = findCase(cases, "capture_terrain", "terrain", "2048");
        c && c->extra.contains("ratio_to_plane"))
        terrainCapture = c->extra["ratio_to_plane"].get<double>();
    targets.push_back(compare("capture_terrain_2048_x_plane", terrainCapture, "<=", 1.05, "x plane",
                              "the capture against seeded hills over the plane capture of the "
                              "same spheres, in the same run"));
    targets.push_back(compare("crowd_1000_bipeds_2048_x_copy",
                              ratio("crowd", "1000_bipeds", "2048"), "<=", 4.0, "x copy",
                              "1,000 skinned bipeds (one instanced draw) captured, then one "
                              "accumulate"));
    std::optional<double> marginal;
    if (const Case* c = findCase(cases, "crowd", "1000_bipeds", "2048");
        c && c->extra.contains("marginal_x_copy"))
        marginal = c->extra["marginal_x_copy"].get<double>();
    targets.push_back(compare("crowd_one_more_deformer_2048_x_copy", marginal, "<=", 0.01, "x copy",
                              "capture + accumulate per biped, slope from the smallest "
                              "crowd to 1,000"));
}

// The blur modes against the per-pixel surface, the switched-off and idle snow, the viewer's
// frame (flat, snowpack, snowing, on terrain), at the frame's screen size.
void addFrameTargets(std::vector<Target>& targets, const std::vector<Case>& cases,
                     const Screen& frameScreen) {
    // The cheapest blur mode against the UE-faithful per-pixel spiral, and its image quality.
    const std::string screen = frameScreen.label();
    const Case* perPixel = findCase(cases, "blur_per_pixel", "surface", screen);
    const Case* fastest = nullptr;
    for (const Case& c : cases)
        if (c.pass.rfind("blur_", 0) == 0 && c.pass != "blur_per_pixel" && c.variant == "surface" &&
            c.size == screen && (!fastest || c.medianMs < fastest->medianMs))
            fastest = &c;
    std::optional<double> blurRatio, psnr;
    std::string fastestName = fastest ? fastest->pass.substr(5) : "none";
    if (perPixel && fastest && perPixel->medianMs > 0)
        blurRatio = fastest->medianMs / perPixel->medianMs;
    if (fastest && fastest->extra.contains("psnr_db_vs_per_pixel"))
        psnr = fastest->extra["psnr_db_vs_per_pixel"].get<double>();
    targets.push_back(compare(fmt::format("blur_fastest_{}_x_per_pixel", screen), blurRatio,
                              "<=", 0.3, "x per_pixel",
                              "fastest mode (" + fastestName +
                                  ": its per-step pass + the surface) over the per-pixel surface"));
    targets.push_back(compare("blur_fastest_psnr_db", psnr, ">=", 40.0, "dB",
                              fastestName + " lit A|B frame against per_pixel"));

    auto extra = [&](std::string_view pass, std::string_view variant,
                     const char* key) -> std::optional<double> {
        const Case* c = findCase(cases, pass, variant, screen);
        if (!c || !c->extra.contains(key))
            return std::nullopt;
        return c->extra[key].get<double>();
    };
    targets.push_back(compare("quality_off_snow_passes_per_frame",
                              extra("quality", "off", "snow_passes_per_frame"), "==", 0, "passes",
                              "capture + accumulate passes per frame with snow.quality = off"));
    targets.push_back(compare("quality_off_snow_bytes", extra("quality", "off", "snow_bytes"),
                              "==", 0, "bytes", "snow textures held with snow.quality = off"));
    targets.push_back(compare("idle_skip_snow_passes_per_frame",
                              extra("idle_skip", "on", "snow_passes_per_frame"), "==", 0, "passes",
                              "passes per frame over an idle stretch (0 passes: 0 snow bytes "
                              "read or written)"));
    targets.push_back(compare(fmt::format("frame_ab_{}_fps", screen),
                              extra("frame_ab", "default", "fps"), ">=", 15.0, "fps",
                              "default A/B viewer frame (step + both views), median wall time"));
    targets.push_back(compare(fmt::format("frame_ab_snowpack_b_{}_fps", screen),
                              extra("frame_ab", "snowpack_b", "fps"), ">=", 15.0, "fps",
                              "the same frame with sim B a snowpack"));
    targets.push_back(compare(fmt::format("frame_ab_falling_snow_{}_fps", screen),
                              extra("frame_ab", "falling_snow", "fps"), ">=", 15.0, "fps",
                              "the default frame while it snows (the falling snow drawn)"));
    {
        const Case* flat = findCase(cases, "frame_ab", "default", screen);
        const Case* hills = findCase(cases, "frame_ab", "terrain", screen);
        std::optional<double> onTerrain;
        if (flat && hills && flat->medianMs > 0)
            onTerrain = hills->medianMs / flat->medianMs;
        targets.push_back(compare(fmt::format("frame_ab_terrain_{}_x_flat", screen), onTerrain,
                                  "<=", 1.2, "x flat",
                                  "the default frame on noise hills (surface draped, captures "
                                  "following the terrain) over the same frame flat, one run"));
    }
}

// The snowpack's step and the weather's tick, over the R16F floor and over a copy of the
// state's own format.
void addSnowpackTargets(std::vector<Target>& targets, const std::vector<Case>& cases) {
    auto ratio = [&](std::string_view pass, std::string_view variant, std::string_view size) {
        return ratioToCopy(cases, pass, variant, size);
    };
    for (const char* size : {"1024", "2048"})
        targets.push_back(compare(fmt::format("snowpack_step_{}_x_copy", size),
                                  ratio("snowpack", "step", size), "<=", 6.0, "x copy",
                                  "one snowpack step (its active tiles) over the copy floor"));
    for (const char* size : {"1024", "2048"}) {
        const std::optional<double> step = ratio("snowpack", "step", size);
        const std::optional<double> tick = ratio("weather", "storm", size);
        targets.push_back(compare(
            fmt::format("snowpack_weather_{}_x_copy", size),
            step && tick ? std::optional<double>(*step + *tick) : std::nullopt, "<=", 10.0,
            "x copy",
            "a snowpack step with a weather tick in a storm (snowfall, melt, drift) over the "
            "copy floor"));
    }
    // The same step and tick over a copy of the state's own format: what the state's bytes
    // leave to the passes (the R16F floor moves an eighth of them).
    for (const char* size : {"1024", "2048"}) {
        const Case* step = findCase(cases, "snowpack", "step", size);
        const Case* tick = findCase(cases, "weather", "storm", size);
        const Case* floor = findCase(cases, "copy", "rgba32f", size);
        std::optional<double> value;
        if (step && tick && floor && floor->medianMs > 0)
            value = (step->medianMs + tick->medianMs) / floor->medianMs;
        targets.push_back(compare(fmt::format("snowpack_weather_{}_x_copy_rgba32f", size), value,
                                  "<=", 4.0, "x copy rgba32f",
                                  "a snowpack step with a storm tick over a copy of an RGBA32F "
                                  "buffer (the state's format), in one run"));
    }
}

// What bodies add to a step, and a world store's paging and return.
void addPhysicsWorldTargets(std::vector<Target>& targets, const std::vector<Case>& cases) {
    // 100 bodies are 100 instanced deformers: what they add to the step (the physics steps,
    // their poses and their capture) over the same step without them, in copies at 1024.
    for (const char* variant : {"100_bodies_resting", "100_bodies_rolling"}) {
        std::optional<double> added;
        if (const Case* c = findCase(cases, "physics", variant, "1024");
            c && c->extra.contains("added_x_copy"))
            added = c->extra["added_x_copy"].get<double>();
        targets.push_back(compare(fmt::format("physics_{}_1024_added_x_copy", variant), added,
                                  "<=", 2.0, "x copy",
                                  "what 100 bodies add to a frame's step (Bullet's steps, the "
                                  "poses, the capture) over the step without them"));
    }
    for (const char* size : {"1024", "2048"}) {
        auto world = [&](const char* variant, const char* key) -> std::optional<double> {
            const Case* c = findCase(cases, "world", variant, size);
            if (!c || !c->extra.contains(key))
                return std::nullopt;
            return c->extra[key].get<double>();
        };
        targets.push_back(compare(fmt::format("world_paging_{}_x_follow", size),
                                  world("follow_paging", "x_follow_window"), "<=", 1.25,
                                  "x follow step",
                                  "follow step paging a world store, median, "
                                  "over the same step without it"));
        targets.push_back(compare(fmt::format("world_return_worst_{}_x_follow", size),
                                  world("return", "worst_x_follow_window"), "<=", 2.0,
                                  "x follow step",
                                  "worst step of the walk back over the stored "
                                  "trail over a follow step without paging"));
    }
}

// The buffers' sizes as allocated against texels x format.
void addMemoryTargets(std::vector<Target>& targets, const nlohmann::json& memory) {
    std::optional<double> mib2048;
    int mismatches = 0;
    bool anyMemory = false;
    for (const auto& row : memory) {
        anyMemory = true;
        mismatches += row["buffer_bytes"] != row["expected_buffer_bytes"];
        if (row["size"] == 2048 && row["format"] == "R16F")
            mib2048 = row["buffer_bytes"].get<double>() / (1024.0 * 1024.0);
    }
    targets.push_back(compare("vram_r16f_2048_buffer_mib", mib2048, "==", 8.0, "MiB",
                              "one R16F 2048^2 buffer as allocated"));
    targets.push_back(compare("vram_buffers_off_table",
                              anyMemory ? std::optional<double>(mismatches) : std::nullopt, "==", 0,
                              "sizes", "sizes whose buffer bytes differ from texels x format"));
}

} // namespace

std::vector<Target> computeTargets(const std::vector<Case>& cases, const nlohmann::json& memory,
                                   const Screen& frameScreen, double peakRss) {
    std::vector<Target> targets;
    addSimPassTargets(targets, cases);
    addFrameTargets(targets, cases, frameScreen);
    addSnowpackTargets(targets, cases);
    addPhysicsWorldTargets(targets, cases);
    addMemoryTargets(targets, memory);
    Target rss{"peak_rss_mib", peakRss, "reported", true, "MiB", "getrusage ru_maxrss"};
    targets.push_back(rss);
    return targets;
}

nlohmann::json scalingSeries(const std::vector<Case>& cases) {
    nlohmann::json out = nlohmann::json::object();

    // Time against buffer texels: every pass/variant measured at more than one buffer size.
    std::set<int> sizes;
    for (const Case& c : cases)
        if (!isScreen(c.size) && c.pass == "copy")
            sizes.insert(std::stoi(c.size));
    auto seriesOver = [&](const std::vector<std::string>& sizeLabels, auto accept) {
        std::vector<std::pair<std::string, std::string>> keys; // pass, variant in first-seen order
        for (const Case& c : cases)
            if (accept(c) &&
                std::find(keys.begin(), keys.end(), std::pair(c.pass, c.variant)) == keys.end())
                keys.emplace_back(c.pass, c.variant);
        nlohmann::json series = nlohmann::json::array();
        for (const auto& [pass, variant] : keys) {
            nlohmann::json y = nlohmann::json::array();
            int found = 0;
            for (const std::string& size : sizeLabels) {
                const Case* c = findCase(cases, pass, variant, size);
                y.push_back(c ? nlohmann::json(c->medianMs) : nlohmann::json(nullptr));
                found += c != nullptr;
            }
            if (found >= 2)
                series.push_back({{"name", pass + " " + variant}, {"median_ms", y}});
        }
        return series;
    };
    std::vector<std::string> sizeLabels;
    nlohmann::json texels = nlohmann::json::array();
    for (int size : sizes) {
        sizeLabels.push_back(std::to_string(size));
        texels.push_back(static_cast<long long>(size) * size);
    }
    out["buffer_texels"] = {{"x", texels},
                            {"x_label", "buffer texels"},
                            {"sizes", sizeLabels},
                            {"series", seriesOver(sizeLabels, [](const Case& c) {
                                 return !isScreen(c.size) && c.pass != "capture";
                             })}};
    // Capture of one dense deformer against its triangles, at the size with the most counts.
    std::map<std::string, std::vector<const Case*>> byTriangles;
    for (const Case& c : cases)
        if (c.pass == "capture" && c.variant.rfind("1x", 0) == 0 && c.extra.contains("triangles"))
            byTriangles[c.size].push_back(&c);
    const std::vector<const Case*>* best = nullptr;
    std::string bestSize;
    for (auto& [size, list] : byTriangles)
        if (!best || list.size() > best->size()) {
            best = &list;
            bestSize = size;
        }
    nlohmann::json triangles = nlohmann::json::array(), captureMs = nlohmann::json::array();
    if (best) {
        std::vector<const Case*> sorted = *best;
        std::sort(sorted.begin(), sorted.end(), [](const Case* a, const Case* b) {
            return a->extra["triangles"].get<long long>() < b->extra["triangles"].get<long long>();
        });
        for (const Case* c : sorted) {
            triangles.push_back(c->extra["triangles"]);
            captureMs.push_back(c->medianMs);
        }
    }
    out["deformer_triangles"] = {{"x", triangles},
                                 {"x_label", "deformer triangles"},
                                 {"buffer_size", bestSize},
                                 {"series", nlohmann::json::array({{{"name", "capture 1 deformer"},
                                                                    {"median_ms", captureMs}}})}};
    // The lit surface against its vertex grid at one screen.
    std::vector<const Case*> grids;
    for (const Case& c : cases)
        if (c.pass == "surface_vertex" && c.extra.contains("grid_vertices"))
            grids.push_back(&c);
    std::sort(grids.begin(), grids.end(), [](const Case* a, const Case* b) {
        return a->extra["grid_vertices"].get<long long>() <
               b->extra["grid_vertices"].get<long long>();
    });
    nlohmann::json vertices = nlohmann::json::array(), gridMs = nlohmann::json::array();
    for (const Case* c : grids) {
        vertices.push_back(c->extra["grid_vertices"]);
        gridMs.push_back(c->medianMs);
    }
    out["surface_grid"] = {
        {"x", vertices},
        {"x_label", "surface grid vertices"},
        {"screen", grids.empty() ? std::string() : grids.front()->size},
        {"series", nlohmann::json::array(
                       {{{"name", "surface_vertex (prepass blur)"}, {"median_ms", gridMs}}})}};
    // Screen-space passes against pixels.
    std::vector<std::pair<long long, std::string>> screens;
    for (const Case& c : cases)
        if (isScreen(c.size) && c.pass == "copy")
            screens.emplace_back(c.elements, c.size);
    std::sort(screens.begin(), screens.end());
    std::vector<std::string> screenLabels;
    nlohmann::json pixels = nlohmann::json::array();
    for (const auto& [count, label] : screens) {
        screenLabels.push_back(label);
        pixels.push_back(count);
    }
    out["screen_pixels"] = {
        {"x", pixels},
        {"x_label", "screen pixels"},
        {"sizes", screenLabels},
        {"series", seriesOver(screenLabels, [](const Case& c) { return isScreen(c.size); })}};
    return out;
}

nlohmann::json toJson(const RunInfo& info, const std::vector<Case>& cases,
                      const std::vector<Target>& targets, const nlohmann::json& memory) {
    nlohmann::json caseList = nlohmann::json::array();
    for (const Case& c : cases) {
        nlohmann::json entry = {{"pass", c.pass},
                                {"variant", c.variant},
                                {"size", c.size},
                                {"median_ms", c.medianMs},
                                {"min_ms", c.minMs},
                                {"max_ms", c.maxMs},
                                {"ratio_to_copy", c.ratioToCopy},
                                {"floor", c.floor},
                                {"samples", c.samples},
                                {"method", c.method},
                                {"elements", c.elements},
                                {"unit", c.unit},
                                {"rate_m_per_s", rateM(c)}};
        if (!c.note.empty())
            entry["note"] = c.note;
        for (const auto& [key, value] : c.extra.items())
            entry[key] = value;
        caseList.push_back(std::move(entry));
    }
    nlohmann::json targetList = nlohmann::json::array();
    for (const Target& t : targets)
        targetList.push_back({{"name", t.name},
                              {"value", t.value ? nlohmann::json(*t.value) : nullptr},
                              {"goal", t.goal},
                              {"met", t.met ? nlohmann::json(*t.met) : nullptr},
                              {"unit", t.unit},
                              {"what", t.why},
                              {"needs_gpu", t.needsGpu}});
    return {{"schema", kSchemaVersion},
            {"machine",
             {{"cores", info.machine.cores},
              {"cpu_model", info.machine.cpuModel},
              {"ram_gib", info.machine.ramGiB},
              {"os", info.machine.os},
              {"peak_rss_mib", info.peakRssMiB}}},
            {"gl",
             {{"renderer", info.gl.renderer},
              {"version", info.gl.version},
              {"vendor", info.gl.vendor},
              {"platform", info.gl.platform}}},
            {"method", info.method},
            {"frames", info.frames},
            {"wall_s", info.wallSeconds},
            {"overrides", info.overrides},
            {"notes", info.notes},
            {"cases", caseList},
            {"targets", targetList},
            {"memory", memory},
            {"scaling", scalingSeries(cases)}};
}

void printReport(const RunInfo& info, const std::vector<Case>& cases,
                 const std::vector<Target>& targets, bool selective) {
    std::fflush(stderr);
    std::printf("snowcap bench: %s | %s | %s\n", info.gl.renderer.c_str(), info.gl.version.c_str(),
                info.gl.platform.c_str());
    std::printf("machine: %u cores, %s, %.1f GiB RAM | method %s | up to %d frames a case\n",
                info.machine.cores, info.machine.cpuModel.c_str(), info.machine.ramGiB,
                info.method.c_str(), info.frames);
    std::printf("%-18s %-12s %-10s %10s %10s %10s %7s %10s %4s\n", "pass", "variant", "size",
                "median ms", "min ms", "max ms", "x copy", "M/s", "n");
    for (const Case& c : cases) {
        const std::string unit = c.unit == "pixels"   ? "px"
                                 : c.unit == "texels" ? "tx"
                                 : c.unit == "tiles"  ? "tl"
                                                      : "tri";
        std::printf("%-18s %-12s %-10s %10.3f %10.3f %10.3f %7.2f %7.1f %-2s %4d%s%s\n",
                    c.pass.c_str(), c.variant.c_str(), c.size.c_str(), c.medianMs, c.minMs, c.maxMs,
                    c.ratioToCopy, rateM(c), unit.c_str(), c.samples, c.note.empty() ? "" : "  ",
                    c.note.c_str());
    }
    for (const std::string& note : info.notes)
        std::printf("note: %s\n", note.c_str());
    // Which targets a software renderer can judge: a time's goal is set for a GPU.
    const bool software = info.gl.renderer.find("llvmpipe") != std::string::npos ||
                          info.gl.renderer.find("softpipe") != std::string::npos;
    std::printf("targets: (on GPU: a time, its goal set for a GPU%s; on any: holds on any "
                "renderer)\n",
                software ? ", not judged on this software renderer" : "");
    int unmeasured = 0;
    for (const Target& t : targets) {
        if (selective && !t.met) {
            ++unmeasured;
            continue;
        }
        const char* verdict = !t.met                   ? "not measured"
                              : *t.met                 ? "met"
                              : t.needsGpu && software ? "missed here (needs a GPU)"
                                                       : "MISSED";
        const std::string value = t.value ? fmt::format("{:.3f}", *t.value) : "-";
        std::printf("  %-40s %12s %-14s goal %-10s on %-3s  %s\n", t.name.c_str(), value.c_str(),
                    t.unit.c_str(), t.goal.c_str(), t.needsGpu ? "GPU" : "any", verdict);
    }
    if (unmeasured > 0)
        std::printf("  (%d more need cases --only left out; a run without --only measures them)\n",
                    unmeasured);
    std::printf("peak RSS %.1f MiB; %.1f s\n", info.peakRssMiB, info.wallSeconds);
    std::fflush(stdout);
}

} // namespace snowcap::bench
