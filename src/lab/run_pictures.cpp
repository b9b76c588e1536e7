#include "lab/run_pictures.hpp"

#include "core/config.hpp"
#include "lab/run_stats.hpp"

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

std::string simLabel(const SnowField& field, int s, bool compact) {
    const SimSettings& sim = field.sim(s).settings();
    if (compact)
        return fmt::format("{} {}", paneName(s), sim.decay);
    return fmt::format("{}: decay {} ({}){}", paneName(s), sim.decay, toString(sim.decayTiming),
                       switchDifferences(field, s));
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
    for (int s = 0; s < count; ++s) {
        const glm::ivec4 rect = imagePaneRect(s, count, width, height);
        drawLabel(image, rect.x + 8 * scale, rect.y + 8 * scale,
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

} // namespace snowcap
