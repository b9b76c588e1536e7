#include "lab/run_pictures.hpp"

#include "core/config.hpp"
#include "core/sim_label.hpp"
#include "io/legend.hpp"
#include "lab/print_metrics.hpp"
#include "lab/run_stats.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace snowcap {

namespace fs = std::filesystem;

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

// Every sim's settings, in order: what core/sim_label.hpp compares.
std::vector<SimSettings> simSettings(const SnowField& field) {
    std::vector<SimSettings> sims;
    for (int s = 0; s < field.simCount(); ++s)
        sims.push_back(field.sim(s).settings());
    return sims;
}

// "A", "B", ...: how the images and the viewer label sim s.
std::string paneName(int s) {
    std::string name(simName(s));
    name[0] = static_cast<char>(name[0] - 'a' + 'A');
    return name;
}

// "A: decay 0.9995 (delta_time), rims on"; in a narrow pane only what differs ("A rims on"), or
// the decay alone when nothing else does ("A 0.95").
std::string paneLabel(std::span<const SimSettings> sims, int s, bool compact) {
    if (!compact)
        return paneName(s) + ": " + simLabel(sims, s);
    const int other = comparedSim(s, static_cast<int>(sims.size()));
    const std::vector<std::string> differences =
        other < 0 ? std::vector<std::string>{} : simDifferences(sims[s], sims[other]);
    if (differences.empty())
        return sims[s].model == SimModel::Snowpack
                   ? paneName(s) + " snowpack"
                   : fmt::format("{} {}", paneName(s), sims[s].decay);
    std::string text = paneName(s);
    for (std::size_t i = 0; i < differences.size(); ++i)
        text += (i ? ", " : " ") + differences[i];
    return text;
}

// "\nt = 15.0 s: half-life 11.6 s, 10 % after 38.4 s": the second line of a pane's label.
std::string timeAndHeadline(const SnowField& field, int s, double fps) {
    const std::string headline = simHeadline(field, s, fps);
    const SnowSim& sim = field.sim(s);
    // A snowpack sim steps its own clock, not the mask's.
    const double timeS = sim.snowpack() ? sim.snowpack()->clock().timeS() : sim.timeS();
    const std::string time = fmt::format("t = {:.1f} s", timeS);
    return "\n" + (headline.empty() ? time : time + ": " + headline);
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

// A colour channel in [0, 1] (clamped) as the nearest byte.
std::uint8_t unitToByte(float v) {
    return static_cast<std::uint8_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f);
}

// Pane `index` of the grid over a width x height image, as x, y (top-left, rows top first),
// width, height: render/frame.hpp's gridPaneRect turned the image's way up.
glm::ivec4 imagePaneRect(int index, int count, int width, int height) {
    const glm::ivec4 rect = gridPaneRect(index, count, width, height);
    return {rect.x, height - rect.y - rect.w, rect.z, rect.w};
}

// The mean of each factor x factor block: a 2048 buffer becomes a 1024 panel whose label and
// key can be read (NaN stays NaN, so a hole still shows magenta).
ImageFloat shrunk(const ImageFloat& image, int factor) {
    if (factor <= 1)
        return image;
    ImageFloat out(image.width / factor, image.height / factor);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x) {
            double sum = 0.0;
            for (int j = 0; j < factor; ++j)
                for (int i = 0; i < factor; ++i)
                    sum += image.at(x * factor + i, y * factor + j);
            out.at(x, y) = static_cast<float>(sum / (factor * factor));
        }
    return out;
}

// Labels longer than the picture is wide drop to the smaller text, then break after commas.
void drawFittedLabel(ImageRgba8& image, int x, int y, const std::string& text, int width,
                     int scale) {
    while (scale > 1 && textWidth(text, scale) > width)
        --scale;
    std::string lines = text;
    if (textWidth(text, scale) > width) {
        lines.clear();
        std::string line;
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find(", ", start);
            const std::string part =
                text.substr(start, end == std::string::npos ? std::string::npos : end - start);
            const std::string tried = line.empty() ? part : line + ", " + part;
            if (!line.empty() && textWidth(tried, scale) > width) {
                lines += line + ",\n";
                line = part;
            } else {
                line = tried;
            }
            start = end == std::string::npos ? text.size() : end + 2;
        }
        lines += line;
    }
    drawLabel(image, x, y, lines, {255, 255, 255, 255}, scale);
}

// One sim's (or window's) buffer as buffers.png shows it.
ImageRgba8 bufferPanel(const SnowSim& sim, const std::string& label) {
    return labelledBufferPanel(readPersistent(sim), label, sim.region().widthCm,
                               bufferKey(sim.settings()));
}

} // namespace

ColourKey bufferKey(const SimSettings& settings) {
    const bool snowpack = settings.model == SimModel::Snowpack;
    ColourKey key;
    key.lo = 0.0f;
    // A snowpack's depth, 0 (ground) .. twice the initial depth (untouched is mid-scale).
    key.hi = snowpack ? static_cast<float>(2.0 * settings.snowpack.depthCm) : 1.0f;
    key.caption = snowpack ? fmt::format("snow depth, cm (untouched {:g}, 0 = ground)",
                                         settings.snowpack.depthCm)
                           : std::string("persistent value (0 untouched .. 1 full press)");
    return key;
}

ImageRgba8 labelledBufferPanel(const ImageFloat& values, const std::string& label,
                               double regionWidthCm, const ColourKey& key) {
    const int factor = (values.width + 1023) / 1024;
    ImageRgba8 panel = enlarged(colourMapped(shrunk(values, factor), key.map, key.lo, key.hi), 512);
    const int scale = panel.width >= 384 ? 2 : 1;
    drawFittedLabel(panel, 6, 6, label, panel.width - 12, scale);
    drawLengthBar(panel, panel.width / regionWidthCm, scale);
    return withColourKey(panel, key, scale);
}

std::optional<std::string> writeBufferImage(const SnowField& field, const fs::path& path) {
    // Observers (snow.follow): one row per sim, one panel per window (blank where a sim has
    // fewer); otherwise the sims side by side.
    int windows = 1;
    for (int s = 0; s < field.simCount(); ++s)
        windows = std::max(windows, field.windowCount(s));
    const std::vector<SimSettings> sims = simSettings(field);
    std::vector<ImageRgba8> panels;
    for (int s = 0; s < field.simCount(); ++s) {
        for (int w = 0; w < windows; ++w) {
            if (w >= field.windowCount(s)) {
                panels.emplace_back(panels.back().width, panels.back().height,
                                    glm::u8vec4{40, 40, 40, 255});
                continue;
            }
            const SnowSim& sim = field.window(s, w);
            const std::string window =
                windows > 1 ? fmt::format(" (window {})", w + 1) : std::string();
            panels.push_back(bufferPanel(sim, paneName(s) + window + ": " + simLabel(sims, s)));
        }
    }
    const int columns = windows > 1 ? windows : paneGrid(field.simCount()).columns;
    const ImageRgba8 image = panelGrid(panels, columns, 4, {40, 40, 40, 255});
    return writePng(path, image);
}

glm::u8vec4 stageColour(SurfaceOutput output, const float* texel, float snowDepthCm) {
    switch (output) {
    case SurfaceOutput::Persistent:
    case SurfaceOutput::SnowMask:
        return colourMap(ColourMap::Inferno, texel[0]);
    case SurfaceOutput::Height:
        return colourMap(ColourMap::Inferno, 1.0f + texel[0] / std::max(snowDepthCm, 1e-3f));
    case SurfaceOutput::Normal:
        return {unitToByte(texel[0] * 0.5f + 0.5f), unitToByte(texel[1] * 0.5f + 0.5f),
                unitToByte(texel[2] * 0.5f + 0.5f), 255};
    case SurfaceOutput::Occlusion:
    case SurfaceOutput::Roughness:
    case SurfaceOutput::Shadow:
    case SurfaceOutput::SparkleSeed: {
        // Linear grey: 0 black, 1 white, so the picture reads as the value.
        const std::uint8_t v = unitToByte(texel[0]);
        return {v, v, v, 255};
    }
    case SurfaceOutput::Specular: // already tone-mapped and sRGB-encoded by the shader
        return {unitToByte(texel[0]), unitToByte(texel[1]), unitToByte(texel[2]), 255};
    default:
        return {unitToByte(std::pow(texel[0], 1.0f / 2.2f)),
                unitToByte(std::pow(texel[1], 1.0f / 2.2f)),
                unitToByte(std::pow(texel[2], 1.0f / 2.2f)), 255};
    }
}

gpu::TextureFormat colourTargetFormat(SurfaceOutput output) {
    return output == SurfaceOutput::Lit ? gpu::TextureFormat::RGBA8 : gpu::TextureFormat::RGBA32F;
}

ImageRgba8 readColourTarget(const gpu::Texture2D& colour, SurfaceOutput output, float snowDepthCm) {
    const int width = colour.width(), height = colour.height();
    // Read back (bottom row first) into a top-first image.
    if (output == SurfaceOutput::Lit) {
        std::vector<std::uint8_t> rows(static_cast<std::size_t>(width) * height * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTextureImage(colour.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                          static_cast<GLsizei>(rows.size()), rows.data());
        return imageFromBottomUpRows(rows.data(), width, height);
    }
    ImageRgba8 image(width, height);
    const std::vector<float> texels = colour.readFloats();
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image.set(x, height - 1 - y,
                      stageColour(output, &texels[(static_cast<std::size_t>(y) * width + x) * 4],
                                  snowDepthCm));
    return image;
}

std::vector<std::string> simFigureLines(const SnowField& field, double fps) {
    const std::vector<SimSettings> sims = simSettings(field);
    std::vector<std::string> lines;
    for (int s = 0; s < field.simCount(); ++s) {
        std::string line = paneLabel(sims, s, false) + timeAndHeadline(field, s, fps);
        line.replace(line.find('\n'), 1, ": ");
        lines.push_back(std::move(line));
    }
    return lines;
}

ImageRgba8 renderFinalImage(SnowField& field, SceneRenderer& renderer,
                            std::span<const DeformerInstance> deformers, const Settings& settings,
                            SurfaceOutput output) {
    const int width = settings.view.width, height = settings.view.height;
    gpu::Texture2D colour(width, height, colourTargetFormat(output), "final.colour");
    gpu::Texture2D depth(width, height, gpu::TextureFormat::D32F, "final.depth");
    gpu::Framebuffer framebuffer(&colour, &depth, "final");
    // The snow as it stands (no step): the blur, then a view per sim.
    runFrame(
        field, renderer,
        {deformers, 0.0, {splitViews(field, settings, framebuffer.id(), width, height, output)}});
    ImageRgba8 image = readColourTarget(colour, output, static_cast<float>(settings.snow.depthCm));
    // The lines between the panes (and what a pixel division left over), then the labels.
    const int count = field.simCount();
    const PaneGrid grid = paneGrid(count);
    const glm::u8vec4 line{20, 22, 28, 255};
    for (int c = 1; c < grid.columns; ++c) {
        const glm::ivec4 left = imagePaneRect(c - 1, count, width, height);
        const glm::ivec4 right = imagePaneRect(c, count, width, height);
        const int leftEnd = left.x + left.z;
        image.fillRect(leftEnd - 1, 0, 2 + (right.x - leftEnd), height, line);
    }
    for (int r = 1; r < grid.rows; ++r) {
        const glm::ivec4 above = imagePaneRect((r - 1) * grid.columns, count, width, height);
        const glm::ivec4 below = imagePaneRect(r * grid.columns, count, width, height);
        const int aboveEnd = above.y + above.w;
        image.fillRect(0, aboveEnd - 1, width, 2 + (below.y - aboveEnd), line);
    }
    // A grid with an odd number of sims has an empty last cell: no view drew there.
    for (int s = count; s < grid.columns * grid.rows; ++s) {
        const glm::ivec4 rect = imagePaneRect(s, grid.columns * grid.rows, width, height);
        image.fillRect(rect.x, rect.y, rect.z, rect.w, line);
    }
    const int paneWidth = gridPaneRect(0, count, width, height).z;
    const int scale = paneWidth >= 480 ? 2 : 1;
    const std::vector<SimSettings> sims = simSettings(field);
    for (int s = 0; s < count; ++s) {
        const glm::ivec4 rect = imagePaneRect(s, count, width, height);
        // A pane wide enough to read adds the time and by how much: the sim's headline figure.
        std::string label = paneLabel(sims, s, paneWidth < 240);
        if (paneWidth >= 240)
            label += timeAndHeadline(field, s, settings.run.fps);
        drawFittedLabel(image, rect.x + 8 * scale, rect.y + 8 * scale, label, rect.z - 16 * scale,
                        scale);
    }
    return image;
}

std::optional<std::string> writeFinalImage(SnowField& field, SceneRenderer& renderer,
                                           std::span<const DeformerInstance> deformers,
                                           const Settings& settings, const fs::path& path,
                                           SurfaceOutput output) {
    return writePng(path, renderFinalImage(field, renderer, deformers, settings, output));
}

} // namespace snowcap
