#include "lab/run_outputs.hpp"

#include "core/config.hpp"
#include "core/params.hpp"
#include "lab/exr_outputs.hpp"
#include "lab/print_metrics.hpp"
#include "lab/snowpack_stats.hpp"
#include "lab/world_stats.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace snowcap {

namespace fs = std::filesystem;

BufferStats bufferStats(const std::vector<float>& values, int channels) {
    BufferStats stats;
    bool first = true;
    double sum = 0;
    long long finite = 0;
    for (std::size_t i = 0; i < values.size(); i += channels) {
        const float v = values[i];
        if (!std::isfinite(v)) {
            ++stats.nanOrInf;
            continue;
        }
        if (first || v < stats.min)
            stats.min = v;
        if (first || v > stats.max)
            stats.max = v;
        first = false;
        sum += v;
        ++finite;
        stats.nonzero += v != 0.0f;
        stats.above[0] += v > 0.01f;
        stats.above[1] += v > 0.1f;
        stats.above[2] += v > 0.5f;
    }
    stats.mean = finite ? sum / finite : 0.0;
    return stats;
}

ImageFloat readPersistent(const SnowSim& sim) {
    const gpu::Texture2D& texture = sim.persistent();
    const int channels = gpu::formatInfo(texture.format()).channels;
    const std::vector<float> texels = texture.readFloats();
    ImageFloat image(texture.width(), texture.height());
    for (std::size_t i = 0; i < image.values.size(); ++i)
        image.values[i] = texels[i * channels];
    return image;
}

ImageFloat readCaptureDepthCm(const ContactCapture& capture) {
    ImageFloat image(capture.depth().width(), capture.depth().height());
    image.values = capture.depth().readFloats();
    for (float& v : image.values)
        v *= static_cast<float>(capture.key().farCm);
    return image;
}

RunRecorder::RunRecorder(const Settings& settings, const SnowField& field) {
    for (const ProbeSettings& probe : settings.probes) {
        Probe p;
        p.name = probe.name;
        p.worldCm = probe.worldCm;
        for (int s = 0; s < field.simCount(); ++s) {
            const Region& region = field.sim(s).region();
            const glm::ivec2 texel = worldToTexel({probe.worldCm[0], probe.worldCm[1]}, region);
            p.texel.push_back(texel);
            p.inside.push_back(texel.x >= 0 && texel.y >= 0 && texel.x < region.resolution &&
                               texel.y < region.resolution);
        }
        p.values.resize(p.texel.size());
        probes_.push_back(std::move(p));
    }
}

void RunRecorder::recordProbes(const SnowField& field) {
    ++frames_;
    for (Probe& probe : probes_)
        for (int s = 0; s < static_cast<int>(probe.texel.size()); ++s) {
            float value = NAN;
            if (probe.inside[s]) {
                const gpu::Texture2D& texture = field.sim(s).persistent();
                glGetTextureSubImage(texture.id(), 0, probe.texel[s].x, probe.texel[s].y, 0, 1, 1,
                                     1, GL_RED, GL_FLOAT, sizeof(float), &value);
            }
            probe.values[s].push_back(value);
        }
}

namespace {

// Small test buffers (64 texels) would make unreadable pictures: enlarge by whole texels.
ImageRgba8 enlarged(const ImageRgba8& image, int minimumWidth) {
    const int factor = std::max(1, minimumWidth / std::max(image.width, 1));
    if (factor == 1)
        return image;
    ImageRgba8 out(image.width * factor, image.height * factor);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x)
            out.set(x, y, image.at(x / factor, y / factor));
    return out;
}

} // namespace

namespace {

// The switches in which sim s differs from the sim it is compared with (A with B, every other
// sim with A), as ", format rgba16f, rims on": the labels of a comparison name what is being
// compared, not only the decay.
std::string switchDifferences(const SnowField& field, int s) {
    if (field.simCount() < 2)
        return "";
    const SimSettings& mine = field.sim(s).settings();
    const SimSettings& other = field.sim(s == 0 ? 1 : 0).settings();
    std::string text;
    const auto differs = [&](std::string_view key, auto mineValue, auto otherValue) {
        if (mineValue != otherValue)
            text += fmt::format(", {} {}", key, toString(mineValue));
    };
    differs("accumulate", mine.accumulate, other.accumulate);
    differs("contact", mine.contactTiming, other.contactTiming);
    differs("format", mine.format, other.format);
    differs("normals", mine.normals, other.normals);
    differs("region", mine.region, other.region);
    differs("rims", mine.rims, other.rims);
    differs("refill", mine.refill, other.refill);
    differs("blur", mine.blur, other.blur);
    differs("displacement", mine.displacement, other.displacement);
    return text;
}

// "A", "B", ...: how the images and the viewer label sim s.
std::string paneName(int s) {
    std::string name(simName(s));
    name[0] = static_cast<char>(name[0] - 'a' + 'A');
    return name;
}

// Panels in `columns` columns, row by row, `gap` pixels apart (sideBySide for one row).
ImageRgba8 panelGrid(const std::vector<ImageRgba8>& panels, int columns, int gap,
                     glm::u8vec4 gapColour) {
    const int rows = (static_cast<int>(panels.size()) + columns - 1) / columns;
    std::vector<int> widths(columns, 0), heights(rows, 0);
    for (std::size_t i = 0; i < panels.size(); ++i) {
        widths[i % columns] = std::max(widths[i % columns], panels[i].width);
        heights[i / columns] = std::max(heights[i / columns], panels[i].height);
    }
    const auto offset = [gap](const std::vector<int>& sizes, int until) {
        int at = 0;
        for (int i = 0; i < until; ++i)
            at += sizes[i] + gap;
        return at;
    };
    ImageRgba8 out(offset(widths, columns) - gap, offset(heights, rows) - gap, gapColour);
    for (std::size_t i = 0; i < panels.size(); ++i)
        out.blit(panels[i], offset(widths, int(i) % columns), offset(heights, int(i) / columns));
    return out;
}

} // namespace

std::optional<std::string> writeBufferImage(const SnowField& field, const fs::path& path) {
    // Observers (snow.follow): one row per sim, one panel per window (blank where a sim has
    // fewer); otherwise the sims side by side.
    int windows = 1;
    for (int s = 0; s < field.simCount(); ++s)
        windows = std::max(windows, field.windowCount(s));
    std::vector<ImageRgba8> panels;
    for (int s = 0; s < field.simCount(); ++s) {
        for (int w = 0; w < windows; ++w) {
            if (w >= field.windowCount(s)) {
                panels.emplace_back(panels.back().width, panels.back().height,
                                    glm::u8vec4{40, 40, 40, 255});
                continue;
            }
            const SnowSim& sim = field.window(s, w);
            const SimSettings& settings = sim.settings();
            // A snowpack's depth, 0 (ground) .. twice the initial depth (untouched is mid-scale).
            const float hi = settings.model == SimModel::Snowpack
                                 ? static_cast<float>(2.0 * settings.snowpack.depthCm)
                                 : 1.0f;
            ImageRgba8 panel =
                enlarged(colourMapped(readPersistent(sim), ColourMap::Inferno, 0.0f, hi), 512);
            const std::string window =
                windows > 1 ? fmt::format(" (window {})", w + 1) : std::string();
            const std::string label =
                settings.model == SimModel::Snowpack
                    ? fmt::format("{}{}: snowpack depth 0..{:g} cm", paneName(s), window, hi)
                    : fmt::format("{}{}: decay {} {}{}", paneName(s), window, settings.decay,
                                  toString(settings.decayTiming), switchDifferences(field, s));
            drawLabel(panel, 6, 6, label, {255, 255, 255, 255}, panel.width >= 384 ? 2 : 1);
            panels.push_back(std::move(panel));
        }
    }
    const int columns = windows > 1 ? windows : paneGrid(field.simCount()).columns;
    const ImageRgba8 image = panelGrid(panels, columns, 4, {40, 40, 40, 255});
    return writePng(path, image);
}

namespace {

std::string simLabel(const SnowField& field, int s, bool compact) {
    const SimSettings& sim = field.sim(s).settings();
    if (compact)
        return fmt::format("{} {}", paneName(s), sim.decay);
    return fmt::format("{}: decay {} ({}){}", paneName(s), sim.decay, toString(sim.decayTiming),
                       switchDifferences(field, s));
}

} // namespace

glm::u8vec4 stageColour(SurfaceOutput output, const float* texel, float snowDepthCm) {
    switch (output) {
    case SurfaceOutput::Persistent:
    case SurfaceOutput::SnowMask:
        return colourMap(ColourMap::Inferno, texel[0]);
    case SurfaceOutput::Height:
        return colourMap(ColourMap::Inferno, 1.0f + texel[0] / std::max(snowDepthCm, 1e-3f));
    case SurfaceOutput::Normal:
        return {static_cast<std::uint8_t>(std::clamp(texel[0] * 0.5f + 0.5f, 0.0f, 1.0f) * 255.0f +
                                          0.5f),
                static_cast<std::uint8_t>(std::clamp(texel[1] * 0.5f + 0.5f, 0.0f, 1.0f) * 255.0f +
                                          0.5f),
                static_cast<std::uint8_t>(std::clamp(texel[2] * 0.5f + 0.5f, 0.0f, 1.0f) * 255.0f +
                                          0.5f),
                255};
    case SurfaceOutput::Occlusion:
    case SurfaceOutput::Roughness:
    case SurfaceOutput::Shadow:
    case SurfaceOutput::SparkleSeed: {
        // Linear grey: 0 black, 1 white, so the picture reads as the value.
        const auto v = static_cast<std::uint8_t>(std::clamp(texel[0], 0.0f, 1.0f) * 255.0f + 0.5f);
        return {v, v, v, 255};
    }
    case SurfaceOutput::Specular: // already tone-mapped and sRGB-encoded by the shader
        return {static_cast<std::uint8_t>(std::clamp(texel[0], 0.0f, 1.0f) * 255.0f + 0.5f),
                static_cast<std::uint8_t>(std::clamp(texel[1], 0.0f, 1.0f) * 255.0f + 0.5f),
                static_cast<std::uint8_t>(std::clamp(texel[2], 0.0f, 1.0f) * 255.0f + 0.5f), 255};
    default:
        return {static_cast<std::uint8_t>(
                    std::clamp(std::pow(texel[0], 1.0f / 2.2f), 0.0f, 1.0f) * 255.0f + 0.5f),
                static_cast<std::uint8_t>(
                    std::clamp(std::pow(texel[1], 1.0f / 2.2f), 0.0f, 1.0f) * 255.0f + 0.5f),
                static_cast<std::uint8_t>(
                    std::clamp(std::pow(texel[2], 1.0f / 2.2f), 0.0f, 1.0f) * 255.0f + 0.5f),
                255};
    }
}

ImageRgba8 renderFinalImage(SnowField& field, SceneRenderer& renderer,
                            std::span<const DeformerInstance> deformers, const Settings& settings,
                            SurfaceOutput output) {
    const int width = settings.view.width, height = settings.view.height;
    const bool lit = output == SurfaceOutput::Lit;
    gpu::Texture2D colour(width, height,
                          lit ? gpu::TextureFormat::RGBA8 : gpu::TextureFormat::RGBA32F,
                          "final.colour");
    gpu::Texture2D depth(width, height, gpu::TextureFormat::D32F, "final.depth");
    gpu::Framebuffer framebuffer(&colour, &depth, "final");
    // The snow as it stands (no step): the blur, then a view per sim.
    runFrame(
        field, renderer,
        {deformers, 0.0, {splitViews(field, settings, framebuffer.id(), width, height, output)}});
    // Read back (bottom row first) into a top-first image.
    ImageRgba8 image(width, height);
    if (lit) {
        std::vector<std::uint8_t> rows(static_cast<std::size_t>(width) * height * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTextureImage(colour.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                          static_cast<GLsizei>(rows.size()), rows.data());
        image = imageFromBottomUpRows(rows.data(), width, height);
    } else {
        const std::vector<float> texels = colour.readFloats();
        const float snowDepth = static_cast<float>(settings.snow.depthCm);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                image.set(x, height - 1 - y,
                          stageColour(output,
                                      &texels[(static_cast<std::size_t>(y) * width + x) * 4],
                                      snowDepth));
    }
    // The lines between the panes (and what a pixel division left over), then the labels.
    const PaneGrid grid = paneGrid(field.simCount());
    const glm::u8vec4 line{20, 22, 28, 255};
    const int paneWidth = width / grid.columns, paneHeight = height / grid.rows;
    for (int c = 1; c < grid.columns; ++c) {
        const int x = c == grid.columns - 1 ? width - paneWidth : c * paneWidth;
        const int previousEnd = (c - 1) * paneWidth + paneWidth;
        image.fillRect(previousEnd - 1, 0, 2 + (x - previousEnd), height, line);
    }
    for (int r = 1; r < grid.rows; ++r) {
        const int y = r == grid.rows - 1 ? height - paneHeight : r * paneHeight;
        const int previousEnd = (r - 1) * paneHeight + paneHeight;
        image.fillRect(0, previousEnd - 1, width, 2 + (y - previousEnd), line);
    }
    // A grid with an odd number of sims has an empty last cell: no view drew there.
    for (int s = field.simCount(); s < grid.columns * grid.rows; ++s) {
        const glm::ivec4 rect = gridPaneRect(s, grid.columns * grid.rows, width, height);
        image.fillRect(rect.x, height - rect.y - rect.w, rect.z, rect.w, line);
    }
    const int scale = paneWidth >= 480 ? 2 : 1;
    for (int s = 0; s < field.simCount(); ++s) {
        // The pane's top-left corner in the image (rows top first).
        const glm::ivec4 rect = gridPaneRect(s, field.simCount(), width, height);
        drawLabel(image, rect.x + 8 * scale, height - rect.y - rect.w + 8 * scale,
                  simLabel(field, s, paneWidth < 240), {255, 255, 255, 255}, scale);
    }
    return image;
}

std::optional<std::string> writeFinalImage(SnowField& field, SceneRenderer& renderer,
                                           std::span<const DeformerInstance> deformers,
                                           const Settings& settings, const fs::path& path,
                                           SurfaceOutput output) {
    return writePng(path, renderFinalImage(field, renderer, deformers, settings, output));
}

namespace {

nlohmann::json statsJson(const BufferStats& stats) {
    return {
        {"min", stats.min},
        {"max", stats.max},
        {"mean", stats.mean},
        {"nonzero", stats.nonzero},
        {"nan_or_inf", stats.nanOrInf},
        {"above", {{"0.01", stats.above[0]}, {"0.1", stats.above[1]}, {"0.5", stats.above[2]}}}};
}

// A TOML value as JSON: tables become objects, arrays arrays, values stay what they are.
nlohmann::json tomlToJson(const toml::node& node) {
    if (const toml::table* table = node.as_table()) {
        nlohmann::json object = nlohmann::json::object();
        for (auto&& [key, value] : *table)
            object[std::string(key.str())] = tomlToJson(value);
        return object;
    }
    if (const toml::array* array = node.as_array()) {
        nlohmann::json list = nlohmann::json::array();
        for (const toml::node& value : *array)
            list.push_back(tomlToJson(value));
        return list;
    }
    if (const auto* text = node.as_string())
        return text->get();
    if (const auto* integer = node.as_integer())
        return integer->get();
    if (const auto* number = node.as_floating_point())
        return number->get();
    if (const auto* flag = node.as_boolean())
        return flag->get();
    return nullptr;
}

// JSON has no NaN: a probe outside the region records null.
nlohmann::json probeValues(const std::vector<float>& values) {
    nlohmann::json out = nlohmann::json::array();
    for (float v : values)
        out.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
    return out;
}

// lab/print_metrics.hpp's fade times and relief; null where not reached.
nlohmann::json seconds(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
nlohmann::json fadeJson(const MeasuredFade& fade) {
    return {{"peak", seconds(fade.peak)},
            {"start_s", seconds(fade.startS)},
            {"to50_s", seconds(fade.to50S)},
            {"to10_s", seconds(fade.to10S)},
            {"to0_s", seconds(fade.toZeroS)}};
}
nlohmann::json fadeJson(const PredictedFade& fade) {
    return {{"to50_s", seconds(fade.to50S)},
            {"to10_s", seconds(fade.to10S)},
            {"to0_s", seconds(fade.toZeroS)}};
}
nlohmann::json reliefJson(SnowField& field, SceneRenderer& renderer, int s,
                          const Settings& settings) {
    if (!field.enabled())
        return nullptr;
    const Relief relief = measureRelief(field, renderer, s, settings);
    return {{"deepest_cm", relief.deepestCm}, {"crest_cm", relief.crestCm}};
}

} // namespace

std::optional<std::string> writeRunOutputs(const fs::path& dir, const Settings& settings,
                                           const GlInfo& gl, SnowField& field,
                                           const RunRecorder& recorder, SceneRenderer& renderer,
                                           std::span<const DeformerInstance> deformers,
                                           SurfaceOutput output, double wallSeconds) {
    nlohmann::json stats;
    stats["gl"] = {{"vendor", gl.vendor},
                   {"renderer", gl.renderer},
                   {"version", gl.version},
                   {"platform", gl.platform},
                   {"half_store_rounding", gl.halfStoreRounding}};
    stats["frames"] = recorder.frames();
    stats["fps"] = settings.run.fps;
    stats["dt"] = 1.0 / settings.run.fps;
    stats["wall_seconds"] = wallSeconds;
    stats["captures"] = field.captureCount();
    stats["passes_run"] = {{"capture", field.passesRun().capture},
                           {"accumulate", field.passesRun().accumulate},
                           {"accumulate_outputs", field.passesRun().accumulateOutputs}};
    // Every key of the run's settings, named as in the TOML files (the parameter table).
    stats["params"] = tomlToJson(params::toToml(settings));

    for (int s = 0; s < field.simCount(); ++s) {
        const SnowSim& sim = field.sim(s);
        const SimSettings& p = sim.settings();
        // snow.quality = "off" allocates no buffer: its stats say so instead of reading one.
        nlohmann::json buffer = nullptr;
        if (field.enabled()) {
            const gpu::Texture2D& texture = sim.persistent();
            buffer = statsJson(
                bufferStats(texture.readFloats(), gpu::formatInfo(texture.format()).channels));
            buffer["width"] = texture.width();
            buffer["height"] = texture.height();
            buffer["format"] = gpu::formatInfo(texture.format()).name;
            buffer["bytes"] = sim.bytes();
        }
        nlohmann::json probes = nlohmann::json::array();
        for (const auto& probe : recorder.probes())
            probes.push_back({{"name", probe.name},
                              {"world_cm", probe.worldCm},
                              {"texel", {probe.texel[s].x, probe.texel[s].y}},
                              {"values", probeValues(probe.values[s])}});
        for (std::size_t i = 0; i < probes.size(); ++i) // the sweep's fade times (sweeps.md)
            probes[i]["fade"] =
                fadeJson(measureFade(recorder.probes()[i].values[s], 1.0 / settings.run.fps));
        const Region& region = sim.region();
        stats["sims"][std::string(simName(s))] = {
            {"params", tomlToJson(params::toToml(p))},
            {"effective",
             {{"resolution", region.resolution},
              {"ortho_width_cm", region.widthCm},
              {"region_centre_cm", {region.centreCm.x, region.centreCm.y}},
              {"rt_blur_distance", sim.params().rtBlurDistance}}},
            {"buffer", buffer},
            {"vram_bytes", sim.bytes()},
            {"probes", probes},
            {"predicted_fade", fadeJson(predictFade(p, settings.run.fps))},
            {"relief", reliefJson(field, renderer, s, settings)}};
        addWorldStats(stats["sims"][std::string(simName(s))], field, s, settings);
        addSnowpackStats(stats["sims"][std::string(simName(s))], field, s);
        const std::string name(simName(s));
        if (field.enabled() && sim.snowpack()) {
            // depth_cm, density, water (a PFM holds three; the EXR has the free channel too).
            if (auto error = writeSnowpackPfm(dir / ("sim_" + name + ".pfm"), *sim.snowpack()))
                return error;
            if (auto error =
                    writeSnowpackImage(dir / ("snowpack_" + name + ".png"), *sim.snowpack()))
                return error;
        } else if (field.enabled()) {
            if (auto error = writePfm(dir / ("sim_" + name + ".pfm"), readPersistent(sim)))
                return error;
        }
        if (field.enabled())
            if (auto error = writePersistentExr(dir / ("sim_" + name + ".exr"), sim, name))
                return error;
    }
    // Every distinct capture; capture_depth.pfm is sim A's (and B's too when they share it).
    nlohmann::json captures = nlohmann::json::array();
    std::size_t captureBytes = 0;
    for (int c = 0; c < field.captureCount(); ++c) {
        const ContactCapture& capture = field.capture(c);
        captures.push_back({{"resolution", capture.key().region.resolution},
                            {"ortho_width_cm", capture.key().region.widthCm},
                            {"format", gpu::formatInfo(capture.depth().format()).name},
                            {"bytes", capture.bytes()}});
        captureBytes += capture.bytes();
    }
    stats["capture_list"] = captures;
    stats["capture_vram_bytes"] = captureBytes;
    stats["snow_enabled"] = field.enabled();
    if (field.enabled()) {
        if (auto error =
                writePfm(dir / "capture_depth.pfm", readCaptureDepthCm(field.captureOf(0))))
            return error;
        if (auto error = writeCaptureDepthExr(dir / "capture_depth.exr", field.captureOf(0)))
            return error;
        if (auto error = writeBufferImage(field, dir / "buffers.png"))
            return error;
    }
    if (auto error =
            writeFinalImage(field, renderer, deformers, settings, dir / "final.png", output))
        return error;

    // Replace: `render --out DIR` refreshes its own outputs (docs/reliability.md).
    const std::string text = stats.dump(2) + "\n";
    if (auto error = writeFileAtomically(dir / "stats.json",
                                         std::vector<std::uint8_t>(text.begin(), text.end())))
        return error;
    return std::nullopt;
}

} // namespace snowcap
