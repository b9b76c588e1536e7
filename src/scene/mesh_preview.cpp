// Orthographic silhouettes: every triangle projected onto the view's plane and filled (edge
// functions over its bounding box), so a model of any size costs one pass over its triangles
// per view.

#include "scene/mesh_preview.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/vec2.hpp>

namespace snowcap {
namespace {

constexpr glm::u8vec4 kBackground{246, 246, 242, 255};
constexpr glm::u8vec4 kSilhouette{52, 86, 140, 255};
constexpr glm::u8vec4 kMuted{190, 196, 206, 255};
constexpr glm::u8vec4 kHighlight{226, 106, 24, 255};
constexpr glm::u8vec4 kGround{150, 90, 40, 255};
constexpr glm::u8vec4 kInk{30, 30, 30, 255};
constexpr glm::u8vec4 kOrigin{200, 30, 30, 255};
constexpr int kMargin = 24;
constexpr int kCaptionHeight = 28;

struct View {
    const char* name;
    int horizontal, vertical; // world axes shown left to right and bottom to top
    bool ground;              // the ground line z = 0 is an edge-on line in this view
};

// Seen from +X (looking along -X, Z up) the viewer's right is +Y; from -Y it is +X; from +Z
// with +Y at the top of the picture it is +X.
constexpr View kViews[] = {{"front (from +X)", 1, 2, true},
                           {"side (from -Y)", 0, 2, true},
                           {"top (from +Z)", 0, 1, false}};

void fillTriangle(ImageRgba8& image, glm::vec2 a, glm::vec2 b, glm::vec2 c, glm::ivec4 clip,
                  glm::u8vec4 colour) {
    const int x0 = std::max(clip.x, int(std::floor(std::min({a.x, b.x, c.x}))));
    const int x1 = std::min(clip.z - 1, int(std::ceil(std::max({a.x, b.x, c.x}))));
    const int y0 = std::max(clip.y, int(std::floor(std::min({a.y, b.y, c.y}))));
    const int y1 = std::min(clip.w - 1, int(std::ceil(std::max({a.y, b.y, c.y}))));
    auto edge = [](glm::vec2 p, glm::vec2 q, glm::vec2 r) {
        return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
    };
    if (edge(a, b, c) == 0.0f) {
        // Edge-on in this view: its corners still mark the pixels they fall in, so a thin part
        // (a flat sheet seen from its side) does not vanish.
        for (glm::vec2 p : {a, b, c})
            if (p.x >= clip.x && p.x < clip.z && p.y >= clip.y && p.y < clip.w)
                image.set(int(p.x), int(p.y), colour);
        return;
    }
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const glm::vec2 p(x + 0.5f, y + 0.5f);
            const float w0 = edge(b, c, p), w1 = edge(c, a, p), w2 = edge(a, b, p);
            // Either winding: a silhouette has no back faces.
            if ((w0 >= 0 && w1 >= 0 && w2 >= 0) || (w0 <= 0 && w1 <= 0 && w2 <= 0))
                image.set(x, y, colour);
        }
}

std::string centimetres(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

} // namespace

ImageRgba8 renderMeshPreview(const Mesh& mesh, const std::string& caption, int viewSize,
                             std::span<const std::uint32_t> highlight, float lineZCm) {
    const int width = 3 * viewSize, height = viewSize + kCaptionHeight;
    ImageRgba8 image(width, height, kBackground);
    Aabb box = mesh.bounds();
    // The origin and the ground stay in view even when the model is placed away from them.
    box.min = glm::min(box.min, glm::vec3(0.0f));
    box.max = glm::max(box.max, glm::vec3(0.0f));
    const glm::vec3 size = box.max - box.min;
    const float extent = std::max({size.x, size.y, size.z, 1.0f});
    const float pixelsPerCm = float(viewSize - 2 * kMargin) / extent; // one scale for all views
    drawText(image, 6, 6, caption, kInk, 1);

    for (int v = 0; v < 3; ++v) {
        const View& view = kViews[v];
        const glm::ivec4 clip(v * viewSize, kCaptionHeight, (v + 1) * viewSize, height);
        const float lo = box.min[view.horizontal];
        const float span = size[view.horizontal];
        // Centred horizontally; the side views stand on a common ground line, the top view is
        // centred (image rows grow downwards).
        const float left = clip.x + 0.5f * (viewSize - span * pixelsPerCm);
        const float bottom = view.ground
                                 ? float(height - kMargin)
                                 : clip.y + 0.5f * (viewSize + size[view.vertical] * pixelsPerCm);
        auto project = [&](const glm::vec3& p) {
            const float h = p[view.horizontal] - lo;
            const float u = p[view.vertical] - box.min[view.vertical];
            return glm::vec2(left + h * pixelsPerCm, bottom - u * pixelsPerCm);
        };
        const auto fill = [&](std::span<const std::uint32_t> indices, glm::u8vec4 colour) {
            for (std::size_t i = 0; i + 2 < indices.size(); i += 3) {
                if (std::max({indices[i], indices[i + 1], indices[i + 2]}) >= mesh.positions.size())
                    continue;
                fillTriangle(image, project(mesh.positions[indices[i]]),
                             project(mesh.positions[indices[i + 1]]),
                             project(mesh.positions[indices[i + 2]]), clip, colour);
            }
        };
        fill(mesh.indices, highlight.empty() ? kSilhouette : kMuted);
        fill(highlight, kHighlight);
        if (view.ground && std::isfinite(lineZCm)) {
            const float y = project(glm::vec3(0.0f, 0.0f, lineZCm)).y;
            for (int x = clip.x + 4; x < clip.z - 4; x += 8)
                image.fillRect(x, int(std::lround(y)), 4, 1, kHighlight);
        }
        const glm::vec2 origin = project(glm::vec3(0.0f));
        if (view.ground)
            image.fillRect(clip.x + 4, int(std::lround(origin.y)), viewSize - 8, 2, kGround);
        image.fillRect(int(origin.x) - 6, int(origin.y), 13, 1, kOrigin);
        image.fillRect(int(origin.x), int(origin.y) - 6, 1, 13, kOrigin);
        drawText(image, clip.x + 6, clip.y + 4, view.name, kInk, 1);
        // Extents in this view, in cm.
        const std::string extents =
            centimetres(size[view.horizontal]) + " x " + centimetres(size[view.vertical]) + " cm";
        drawText(image, clip.x + 6, clip.y + 4 + kTextLineHeight, extents, kInk, 1);
        if (v > 0)
            image.fillRect(clip.x, clip.y, 1, viewSize, {200, 200, 200, 255});
    }
    // The scale bar: 1 m at the common scale, in the caption line at the right.
    const int bar = std::max(1, int(std::lround(100.0f * pixelsPerCm)));
    const int barX = width - 10 - bar, barY = 12;
    image.fillRect(barX, barY, bar, 3, kInk);
    image.fillRect(barX, barY - 4, 1, 11, kInk);
    image.fillRect(barX + bar - 1, barY - 4, 1, 11, kInk);
    drawText(image, barX - 6 - textWidth("1 m"), barY - 2, "1 m", kInk, 1);
    return image;
}

} // namespace snowcap
