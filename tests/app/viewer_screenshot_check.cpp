// Checks a viewer screenshot taken by `snowcap view --frames N --screenshot F` under Xvfb
// (tests/app/ViewerCliTest.cmake) or `snowcap render --ui`.
// Usage: viewer_screenshot_check [--no-ab] FILE
//  1. not blank: the luminance varies (a black or single-colour window fails);
//  2. the UI is drawn: the side bar's top (its control window, 300 x 90 px from 12, 30) is
//     ImGui's dark panel background with bright text and the blue of its checkmarks / slider
//     grab, which nothing in the scene has;
//  3. A and B differ: the two panes of the split view right of the side bar (the viewer's own
//     layoutPanes at the image's size), compared pixel by pixel, differ in enough pixels once a
//     deformer has walked (A's trail fades at 0.95, B's stays at 0.999). Identical sims render
//     identical panes: 0 differing pixels.
#include "io/image.hpp"
#include "viewer/viewer_views.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace snowcap;

namespace {

double luminance(glm::u8vec4 p) {
    return 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z;
}

bool near(glm::u8vec4 p, int r, int g, int b, int tolerance) {
    return std::abs(p.x - r) <= tolerance && std::abs(p.y - g) <= tolerance &&
           std::abs(p.z - b) <= tolerance;
}

} // namespace

int main(int argc, char** argv) {
    const bool checkAb = !(argc == 3 && std::string(argv[1]) == "--no-ab");
    if (argc != 2 && checkAb) {
        std::fprintf(stderr, "usage: viewer_screenshot_check [--no-ab] FILE.png\n");
        return 2;
    }
    auto loaded = readPng(argv[argc - 1]);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        std::fprintf(stderr, "%s\n", error->c_str());
        return 2;
    }
    const ImageRgba8& image = std::get<ImageRgba8>(loaded);
    const int w = image.width, h = image.height;
    bool ok = true;

    // 1. Not blank.
    double sum = 0.0, sumSq = 0.0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double l = luminance(image.at(x, y));
            sum += l;
            sumSq += l * l;
        }
    const double n = double(w) * h, mean = sum / n;
    const double stddev = std::sqrt(std::max(sumSq / n - mean * mean, 0.0));
    std::printf("size %dx%d, luminance mean %.1f stddev %.1f\n", w, h, mean, stddev);
    if (stddev < 10.0) {
        std::printf("FAIL: the screenshot is blank (stddev < 10)\n");
        ok = false;
    }

    // 2. The control window: dark background, text, ImGui's accent blue.
    int dark = 0, text = 0, accent = 0, corner = 0;
    for (int y = 30; y < std::min(h, 120); ++y)
        for (int x = 12; x < std::min(w, 300); ++x, ++corner) {
            const glm::u8vec4 p = image.at(x, y);
            dark += p.x < 40 && p.y < 40 && p.z < 45;
            text += p.x > 200 && p.y > 200 && p.z > 200;
            // CheckMark (0.26, 0.59, 0.98) and SliderGrab (0.24, 0.52, 0.88) of the dark style.
            accent += near(p, 66, 150, 250, 10) || near(p, 61, 133, 224, 10);
        }
    std::printf("control corner: %d px, dark %d, text %d, accent %d\n", corner, dark, text, accent);
    if (dark < corner / 3 || text < 100 || accent < 10) {
        std::printf("FAIL: no ImGui control window in the top-left corner\n");
        ok = false;
    }

    // 3. A | B: the panes of the default split at this size (GL rows count from the bottom).
    const std::vector<Pane> panes = layoutPanes(ViewerState{}, w, h);
    const glm::ivec4 a = panes.at(0).rect, b = panes.at(1).rect;
    long long differing = 0, compared = 0;
    for (int y = 0; y < std::min(a.w, b.w); ++y)
        for (int x = 0; x < std::min(a.z, b.z); ++x, ++compared) {
            const glm::u8vec4 pa = image.at(a.x + x, h - 1 - (a.y + y)),
                              pb = image.at(b.x + x, h - 1 - (b.y + y));
            differing += std::abs(pa.x - pb.x) + std::abs(pa.y - pb.y) + std::abs(pa.z - pb.z) > 24;
        }
    std::printf("A vs B: %lld of %lld px differ by more than 24 (sum of channels)\n", differing,
                compared);
    if (checkAb && differing < 150) {
        std::printf("FAIL: A and B look the same (fewer than 150 differing pixels)\n");
        ok = false;
    }
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
