// The capture proxy figure of docs/crowds.md: for the bundled paw and a dense 65k-triangle
// sphere, the full mesh and its proxy (at the default bound, half a 1 cm texel) as wireframes,
// and the footprint each leaves in the capture (both, full only, proxy only), zoomed to the
// print. Headless GL for the capture, the CPU drawing kit for the rest.
//
//   proxy_figure OUT.png

#include "core/paths.hpp"
#include "gpu/gpu_mesh.hpp"
#include "gpu/shader_library.hpp"
#include "io/image.hpp"
#include "platform/gl_context.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/deformer.hpp"
#include "snow/contact_capture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/matrix_transform.hpp>
#include <string>

using namespace snowcap;

namespace {

constexpr int kPanel = 300;
constexpr int kResolution = 256;

// A three-quarter view from the front left, slightly above, fitted into the panel.
void drawWireframe(ImageRgba8& image, int left, const Mesh& mesh,
                   std::span<const std::uint32_t> indices, glm::u8vec4 colour) {
    const glm::mat4 view = glm::rotate(glm::mat4(1.0f), glm::radians(-70.0f), glm::vec3(1, 0, 0)) *
                           glm::rotate(glm::mat4(1.0f), glm::radians(-35.0f), glm::vec3(0, 0, 1));
    std::vector<glm::vec2> projected(mesh.positions.size());
    glm::vec2 lo(INFINITY), hi(-INFINITY);
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec4 p = view * glm::vec4(mesh.positions[i], 1.0f);
        projected[i] = {p.x, -p.y};
        lo = glm::min(lo, projected[i]);
        hi = glm::max(hi, projected[i]);
    }
    const float scale = (kPanel - 40) / std::max(hi.x - lo.x, hi.y - lo.y);
    const glm::vec2 offset = glm::vec2(left, 20) +
                             0.5f * (glm::vec2(kPanel - 40) - (hi - lo) * scale) + glm::vec2(20, 0);
    auto point = [&](std::uint32_t i) {
        return offset + (projected[i] - lo) * scale;
    };
    auto line = [&](glm::vec2 a, glm::vec2 b) {
        const int steps = int(std::ceil(std::max(std::abs(b.x - a.x), std::abs(b.y - a.y)))) + 1;
        for (int s = 0; s <= steps; ++s) {
            const glm::vec2 p = a + (b - a) * (float(s) / float(steps));
            image.blend(int(p.x), int(p.y), colour);
        }
    };
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3)
        for (int e = 0; e < 3; ++e)
            line(point(indices[t + e]), point(indices[t + (e + 1) % 3]));
}

struct Footprint {
    std::vector<float> full, proxy;
};

std::vector<float> captureOf(const gpu::ShaderProgram& program, const gpu::GpuMesh& mesh,
                             const Region& region, const glm::mat4& model,
                             std::span<const glm::mat4> skinning) {
    ContactCapture capture({region, -100.0, 2000.0});
    const Aabb everywhere{glm::vec3(-1e5f), glm::vec3(1e5f)};
    const DeformerInstance instance{&mesh, model, everywhere, skinning};
    capture.capture({&instance, 1}, program);
    std::vector<float> depth = capture.depth().readFloats();
    for (float& d : depth)
        d *= 2000.0f;
    return depth;
}

// Both: grey; the full mesh only: red; the proxy only: blue; zoomed to the print. Returns the
// IoU.
double drawFootprint(ImageRgba8& image, int left, const Footprint& f) {
    int both = 0, either = 0;
    int x0 = kResolution, y0 = kResolution, x1 = -1, y1 = -1;
    for (int y = 0; y < kResolution; ++y)
        for (int x = 0; x < kResolution; ++x) {
            const std::size_t i = std::size_t(y) * kResolution + x;
            if (f.full[i] < 100.0f || f.proxy[i] < 100.0f) {
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y);
                y1 = std::max(y1, y);
            }
        }
    if (x1 < 0)
        return 1.0;
    x0 -= 2, y0 -= 2, x1 += 2, y1 += 2;
    const int cell = std::max(1, (kPanel - 50) / std::max(x1 - x0 + 1, y1 - y0 + 1));
    const int left0 = left + (kPanel - cell * (x1 - x0 + 1)) / 2;
    const int top0 = (kPanel - cell * (y1 - y0 + 1)) / 2;
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const bool inside = x >= 0 && y >= 0 && x < kResolution && y < kResolution;
            const std::size_t i = inside ? std::size_t(y) * kResolution + x : 0;
            const bool a = inside && f.full[i] < 100.0f, b = inside && f.proxy[i] < 100.0f;
            both += a && b;
            either += a || b;
            const glm::u8vec4 colour = a && b ? glm::u8vec4{90, 90, 100, 255}
                                       : a    ? glm::u8vec4{220, 40, 40, 255}
                                       : b    ? glm::u8vec4{40, 90, 230, 255}
                                              : glm::u8vec4{235, 235, 240, 255};
            // Row 0 of the capture is the region's -Y edge: draw it at the bottom.
            image.fillRect(left0 + (x - x0) * cell, top0 + (y1 - y) * cell, cell, cell, colour);
        }
    return either ? double(both) / either : 1.0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: proxy_figure OUT.png\n");
        return 2;
    }
    auto context = HeadlessContext::create(false);
    if (auto* error = std::get_if<ContextError>(&context)) {
        std::fprintf(stderr, "proxy_figure: %s\n", error->message.c_str());
        return 1;
    }
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    auto loaded = shaders.load(contactCaptureProgram());
    if (auto* error = std::get_if<std::string>(&loaded)) {
        std::fprintf(stderr, "proxy_figure: %s\n", error->c_str());
        return 1;
    }
    const gpu::ShaderProgram& program = *std::get<gpu::ShaderProgram*>(loaded);

    struct Row {
        const char* name;
        float pressFraction; // of the mesh's height
    };
    const Row rows[] = {{"paw.glb", 0.45f}, {"dense sphere", 0.1f}};
    ImageRgba8 image(3 * kPanel, 2 * kPanel, {250, 250, 252, 255});
    for (int r = 0; r < 2; ++r) {
        const Row& row = rows[r];
        Deformer deformer;
        if (std::string(row.name) == "dense sphere") {
            deformer.mesh = makeSphere(25.0f, 256, 128);
            for (glm::vec3& p : deformer.mesh.positions)
                p.z += 25.0f;
        } else {
            DeformerSettings settings;
            settings.name = row.name;
            settings.mesh = std::string("assets/meshes/") + row.name;
            settings.path = {{0.0, glm::vec3(0.0f)}};
            auto made = loadDeformer(settings, resourceRoot(), 0.0);
            if (auto* error = std::get_if<std::string>(&made)) {
                std::fprintf(stderr, "proxy_figure: %s\n", error->c_str());
                return 1;
            }
            deformer = std::move(std::get<Deformer>(made));
        }
        const Aabb box = deformer.mesh.bounds();
        const float pressCm = row.pressFraction * (box.max.z - box.min.z);
        // The default scenario's texel (1 cm) and bound (half of it), as in the test.
        const Region region{{0.5 * (box.min.x + box.max.x), 0.5 * (box.min.y + box.max.y)},
                            double(kResolution),
                            kResolution};
        const double bound = captureProxyErrorCm(Settings{});
        std::vector<glm::mat4> pose;
        Mesh shown = deformer.mesh;
        CaptureProxy proxy;
        if (deformer.skin) {
            pose = deformer.skinningAt(0.0);
            shown = skinMesh(deformer.mesh, deformer.skin->joints, deformer.skin->weights, pose);
            proxy = buildCaptureProxy(deformer.mesh, bound, deformer.skin->joints,
                                      deformer.skin->weights);
        } else {
            proxy = buildCaptureProxy(deformer.mesh, bound);
        }
        const std::span<const glm::u16vec4> joints =
            deformer.skin ? std::span<const glm::u16vec4>(deformer.skin->joints)
                          : std::span<const glm::u16vec4>();
        const std::span<const glm::vec4> weights =
            deformer.skin ? std::span<const glm::vec4>(deformer.skin->weights)
                          : std::span<const glm::vec4>();
        const gpu::GpuMesh full(deformer.mesh, joints, weights, "full");
        const gpu::GpuMesh simplified(deformer.mesh, joints, weights, "proxy", proxy.indices);
        const glm::mat4 model = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, -pressCm));
        const Footprint footprint{captureOf(program, full, region, model, pose),
                                  captureOf(program, simplified, region, model, pose)};

        ImageRgba8 strip(3 * kPanel, kPanel, {250, 250, 252, 255});
        const std::uint8_t alpha = shown.indices.size() > 30000 ? 25 : 110;
        drawWireframe(strip, 0, shown, shown.indices, {30, 30, 40, alpha});
        drawWireframe(strip, kPanel, shown, proxy.indices, {30, 30, 40, 160});
        const double iou = drawFootprint(strip, 2 * kPanel, footprint);
        char text[160];
        std::snprintf(text, sizeof text, "%s: full mesh, %zu triangles", row.name,
                      deformer.mesh.indices.size() / 3);
        drawLabel(strip, 6, 6, text);
        std::snprintf(text, sizeof text, "capture proxy, %zu triangles (error %.2f cm)",
                      proxy.triangles(), proxy.errorCm);
        drawLabel(strip, kPanel + 6, 6, text);
        std::snprintf(text, sizeof text, "footprint %.1f cm deep, IoU %.4f", pressCm, iou);
        drawLabel(strip, 2 * kPanel + 6, 6, text);
        drawLabel(strip, 2 * kPanel + 6, kPanel - 18, "grey both, red full only, blue proxy only");
        image.blit(strip, 0, r * kPanel);
    }
    if (auto error = writePng(argv[1], image)) {
        std::fprintf(stderr, "proxy_figure: %s\n", error->c_str());
        return 1;
    }
    return 0;
}
