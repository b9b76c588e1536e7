// Measures regions of viewer screenshots, so the real-input tests (tests/app/ViewerMouseTest.sh)
// can prove from the pixels that a drag, a wheel notch or a load did what it says. Prints one
// integer; the script compares them.
//
//   viewer_picture divider FILE [Y0 Y1 [X0 X1]]
//                                         x of the A | B divider: the column of X0..X1 (default:
//                                         all; the side bar is darker still) that is darkest
//                                         over rows Y0..Y1 (default: the lower half), or -1
//   viewer_picture ink FILE X Y W H       pixels in the rectangle that are not snow: darker than
//                                         150 in luminance or strongly coloured (a deformer, its
//                                         shadow, the print), where snow is near-white and grey
//   viewer_picture red FILE X Y W H       pixels in the rectangle in the panels' error colour
//                                         (ImGui TextColored (1, 0.45, 0.4)), anti-aliased text
//                                         included
//   viewer_picture diff A B X Y W H       pixels in the rectangle that differ between two
//                                         screenshots by more than 24 (sum of channels)
//
// Rectangles are in image pixels, top-left origin, clipped to the image.
#include "io/image.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace snowcap;

namespace {

struct Rect {
    int x0, y0, x1, y1;
};

Rect clipped(const ImageRgba8& image, int x, int y, int w, int h) {
    return {std::clamp(x, 0, image.width), std::clamp(y, 0, image.height),
            std::clamp(x + w, 0, image.width), std::clamp(y + h, 0, image.height)};
}

int luminance(glm::u8vec4 p) {
    return (2126 * p.x + 7152 * p.y + 722 * p.z) / 10000;
}

bool load(const char* path, ImageRgba8& out) {
    auto loaded = readPng(path);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        std::fprintf(stderr, "%s\n", error->c_str());
        return false;
    }
    out = std::move(std::get<ImageRgba8>(loaded));
    return true;
}

template <typename Test> long long countIn(const ImageRgba8& image, Rect r, Test test) {
    long long n = 0;
    for (int y = r.y0; y < r.y1; ++y)
        for (int x = r.x0; x < r.x1; ++x)
            n += test(image.at(x, y));
    return n;
}

int usage() {
    std::fprintf(stderr, "usage: viewer_picture divider FILE [Y0 Y1 [X0 X1]] | ink FILE X Y W H | "
                         "red FILE X Y W H | diff A B X Y W H\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3)
        return usage();
    const std::string command = argv[1];
    ImageRgba8 image;
    if (!load(argv[2], image))
        return 2;
    std::vector<int> numbers;
    for (int i = command == "diff" ? 4 : 3; i < argc; ++i)
        numbers.push_back(std::atoi(argv[i]));

    if (command == "divider" && (numbers.empty() || numbers.size() == 2 || numbers.size() == 4)) {
        const int y0 = numbers.empty() ? image.height / 2 : std::clamp(numbers[0], 0, image.height);
        const int y1 = numbers.empty() ? image.height : std::clamp(numbers[1], y0, image.height);
        const int x0 = numbers.size() == 4 ? std::clamp(numbers[2], 0, image.width) : 0;
        const int x1 = numbers.size() == 4 ? std::clamp(numbers[3], x0, image.width) : image.width;
        // The split leaves a 2 px gap in the window's clear colour (near black) between the
        // panes; nothing in a lit snow scene is that dark over a whole run of rows.
        int best = -1;
        long long bestSum = 0;
        for (int x = x0; x < x1; ++x) {
            long long sum = 0;
            for (int y = y0; y < y1; ++y)
                sum += luminance(image.at(x, y));
            if (best < 0 || sum < bestSum) {
                best = x;
                bestSum = sum;
            }
        }
        const bool dark = y1 > y0 && bestSum / (y1 - y0) < 60;
        std::printf("%d\n", dark ? best : -1);
        return 0;
    }
    if ((command == "ink" || command == "red") && numbers.size() == 4) {
        const Rect r = clipped(image, numbers[0], numbers[1], numbers[2], numbers[3]);
        const bool ink = command == "ink";
        std::printf("%lld\n", countIn(image, r, [ink](glm::u8vec4 p) {
                        const int spread = std::max({p.x, p.y, p.z}) - std::min({p.x, p.y, p.z});
                        if (ink)
                            return luminance(p) < 150 || spread > 60;
                        // Red over the panel's dark background: red well above green and blue
                        // in the same proportion as the error colour, at any coverage.
                        return p.x > 90 && p.x > p.y * 3 / 2 && p.x > p.z * 3 / 2 &&
                               std::abs(p.y - p.z) < 30;
                    }));
        return 0;
    }
    if (command == "diff" && argc == 8) {
        ImageRgba8 other;
        if (!load(argv[3], other))
            return 2;
        if (other.width != image.width || other.height != image.height) {
            std::fprintf(stderr, "%s and %s differ in size\n", argv[2], argv[3]);
            return 2;
        }
        const Rect r = clipped(image, numbers[0], numbers[1], numbers[2], numbers[3]);
        long long n = 0;
        for (int y = r.y0; y < r.y1; ++y)
            for (int x = r.x0; x < r.x1; ++x) {
                const glm::u8vec4 a = image.at(x, y), b = other.at(x, y);
                n += std::abs(a.x - b.x) + std::abs(a.y - b.y) + std::abs(a.z - b.z) > 24;
            }
        std::printf("%lld\n", n);
        return 0;
    }
    return usage();
}
