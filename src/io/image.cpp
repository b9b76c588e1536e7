#include "io/image.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

// stb_easy_font is all static functions; the ones we do not call would warn as unused.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

namespace snowcap {

// ---- ImageRgba8 / ImageFloat ------------------------------------------------------------

namespace {

std::size_t pixelOffset(int width, int x, int y) {
    return (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x) * 4;
}

// Calls fn(x, y) for each pixel of the rectangle that lies inside a width x height image.
template <typename Fn>
void forEachClipped(int width, int height, int x, int y, int w, int h, Fn fn) {
    for (int py = std::max(y, 0); py < std::min(y + h, height); ++py) {
        for (int px = std::max(x, 0); px < std::min(x + w, width); ++px) {
            fn(px, py);
        }
    }
}

} // namespace

ImageRgba8::ImageRgba8(int w, int h, glm::u8vec4 fill)
    : width(std::max(w, 0)), height(std::max(h, 0)) {
    pixels.resize(static_cast<std::size_t>(width) * height * 4);
    for (std::size_t i = 0; i < pixels.size(); i += 4) {
        std::memcpy(&pixels[i], &fill[0], 4);
    }
}

glm::u8vec4 ImageRgba8::at(int x, int y) const {
    const std::uint8_t* p = &pixels[pixelOffset(width, x, y)];
    return {p[0], p[1], p[2], p[3]};
}

void ImageRgba8::set(int x, int y, glm::u8vec4 colour) {
    std::memcpy(&pixels[pixelOffset(width, x, y)], &colour[0], 4);
}

void ImageRgba8::blend(int x, int y, glm::u8vec4 colour) {
    if (!contains(x, y)) {
        return;
    }
    // Straight (not premultiplied) alpha, so drawing onto transparent images keeps colours.
    std::uint8_t* p = &pixels[pixelOffset(width, x, y)];
    const float alpha = colour.w / 255.0f;
    const float below = p[3] / 255.0f * (1.0f - alpha);
    const float total = alpha + below;
    if (total <= 0.0f) {
        return;
    }
    for (int c = 0; c < 3; ++c) {
        p[c] = static_cast<std::uint8_t>(std::lround((colour[c] * alpha + p[c] * below) / total));
    }
    p[3] = static_cast<std::uint8_t>(std::lround(total * 255.0f));
}

void ImageRgba8::fillRect(int x, int y, int w, int h, glm::u8vec4 colour) {
    forEachClipped(width, height, x, y, w, h, [&](int px, int py) { set(px, py, colour); });
}

void ImageRgba8::blendRect(int x, int y, int w, int h, glm::u8vec4 colour) {
    forEachClipped(width, height, x, y, w, h, [&](int px, int py) { blend(px, py, colour); });
}

void ImageRgba8::blit(const ImageRgba8& src, int x, int y) {
    const int x0 = std::max(x, 0), x1 = std::min(x + src.width, width);
    for (int py = std::max(y, 0); x0 < x1 && py < std::min(y + src.height, height); ++py) {
        std::memcpy(&pixels[pixelOffset(width, x0, py)],
                    &src.pixels[pixelOffset(src.width, x0 - x, py - y)],
                    static_cast<std::size_t>(x1 - x0) * 4);
    }
}

ImageFloat::ImageFloat(int w, int h, float fill)
    : width(std::max(w, 0)), height(std::max(h, 0)),
      values(static_cast<std::size_t>(width) * height, fill) {}

// ---- colour maps ------------------------------------------------------------------------

namespace {

struct ColourAnchor {
    float t;
    std::uint8_t r, g, b;
};

// matplotlib's inferno sampled at entries 0, 16, 32, ... 255 of its 256-entry table; linear
// interpolation between these stays within 7/255 of the full table.
constexpr ColourAnchor kInferno[] = {
    {0 / 255.f, 0, 0, 4},         {16 / 255.f, 11, 7, 36},      {32 / 255.f, 33, 12, 74},
    {48 / 255.f, 61, 9, 101},     {64 / 255.f, 87, 16, 110},    {80 / 255.f, 113, 25, 110},
    {96 / 255.f, 138, 34, 106},   {112 / 255.f, 163, 44, 97},   {128 / 255.f, 188, 55, 84},
    {143 / 255.f, 208, 69, 69},   {159 / 255.f, 227, 89, 51},   {175 / 255.f, 241, 113, 31},
    {191 / 255.f, 249, 140, 10},  {207 / 255.f, 252, 170, 15},  {223 / 255.f, 249, 201, 50},
    {239 / 255.f, 242, 232, 101}, {255 / 255.f, 252, 255, 164},
};

constexpr ColourAnchor kGrey[] = {{0.0f, 0, 0, 0}, {1.0f, 255, 255, 255}};

// ColorBrewer RdBu (11 classes) reversed so negative is blue, with its #f7f7f7 centre made pure
// white: a zero difference must read as blank paper.
constexpr ColourAnchor kDiverging[] = {
    {0.0f, 5, 48, 97},     {0.1f, 33, 102, 172},  {0.2f, 67, 147, 195},  {0.3f, 146, 197, 222},
    {0.4f, 209, 229, 240}, {0.5f, 255, 255, 255}, {0.6f, 253, 219, 199}, {0.7f, 244, 165, 130},
    {0.8f, 214, 96, 77},   {0.9f, 178, 24, 43},   {1.0f, 103, 0, 31},
};

template <std::size_t N> glm::u8vec4 interpolate(const ColourAnchor (&anchors)[N], float t) {
    std::size_t i = 1;
    while (i < N - 1 && anchors[i].t < t) {
        ++i;
    }
    const ColourAnchor& a = anchors[i - 1];
    const ColourAnchor& b = anchors[i];
    const float f = std::clamp((t - a.t) / (b.t - a.t), 0.0f, 1.0f);
    const auto lerp = [f](std::uint8_t from, std::uint8_t to) {
        return static_cast<std::uint8_t>(std::lround(from + (to - from) * f));
    };
    return {lerp(a.r, b.r), lerp(a.g, b.g), lerp(a.b, b.b), 255};
}

} // namespace

glm::u8vec4 colourMap(ColourMap map, float t) {
    if (std::isnan(t)) {
        return {255, 0, 255, 255};
    }
    t = std::clamp(t, 0.0f, 1.0f);
    switch (map) {
    case ColourMap::Inferno:
        return interpolate(kInferno, t);
    case ColourMap::Grey:
        return interpolate(kGrey, t);
    case ColourMap::Diverging:
        return interpolate(kDiverging, t);
    }
    return {255, 0, 255, 255};
}

ValueRange finiteRange(const ImageFloat& image) {
    float lo = std::numeric_limits<float>::infinity();
    float hi = -lo;
    for (float v : image.values) {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    return lo <= hi ? ValueRange{lo, hi} : ValueRange{};
}

ImageRgba8 colourMapped(const ImageFloat& image, ColourMap map, float lo, float hi) {
    ImageRgba8 out(image.width, image.height);
    const float span = hi - lo;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            const float v = image.at(x, y);
            float t = span != 0.0f ? (v - lo) / span : (v > lo ? 1.0f : v < lo ? 0.0f : 0.5f);
            if (std::isnan(v)) {
                t = v;
            }
            out.set(x, image.height - 1 - y, colourMap(map, t));
        }
    }
    return out;
}

// ---- text -------------------------------------------------------------------------------

namespace {

// The inked pixels of `text` at scale 1, as a coverage mask: quads of stb_easy_font overlap,
// so translucent text must be blended once per pixel, not once per quad.
struct TextMask {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> inked;
};

TextMask rasteriseText(std::string_view text) {
    // stb_easy_font indexes its tables with (c - 32) and reads one entry past it: only
    // printable ASCII and '\n' are safe.
    std::string printable(text);
    for (char& c : printable) {
        if (c == '\t') {
            c = ' ';
        } else if (c != '\n' && (c < 32 || c > 126)) {
            c = '?';
        }
    }
    std::vector<char> vertices(printable.size() * 1024 + 64);
    const int quads = stb_easy_font_print(0.0f, 0.0f, printable.data(), nullptr, vertices.data(),
                                          static_cast<int>(vertices.size()));
    struct Quad {
        int x0, y0, x1, y1;
    };
    std::vector<Quad> rects;
    TextMask mask;
    for (int q = 0; q < quads; ++q) {
        float corner[2][2]; // vertex 0 and vertex 2 of the quad: top-left, bottom-right
        std::memcpy(corner[0], &vertices[q * 64], 8);
        std::memcpy(corner[1], &vertices[q * 64 + 32], 8);
        const Quad r{static_cast<int>(std::lround(corner[0][0])),
                     static_cast<int>(std::lround(corner[0][1])),
                     static_cast<int>(std::lround(corner[1][0])),
                     static_cast<int>(std::lround(corner[1][1]))};
        mask.width = std::max(mask.width, r.x1);
        mask.height = std::max(mask.height, r.y1);
        rects.push_back(r);
    }
    mask.inked.assign(static_cast<std::size_t>(mask.width) * mask.height, 0);
    for (const Quad& r : rects) {
        for (int y = std::max(r.y0, 0); y < r.y1; ++y) {
            for (int x = std::max(r.x0, 0); x < r.x1; ++x) {
                mask.inked[static_cast<std::size_t>(y) * mask.width + x] = 1;
            }
        }
    }
    return mask;
}

} // namespace

void drawText(ImageRgba8& image, int x, int y, std::string_view text, glm::u8vec4 colour,
              int scale) {
    scale = std::max(scale, 1);
    const TextMask mask = rasteriseText(text);
    for (int my = 0; my < mask.height; ++my) {
        for (int mx = 0; mx < mask.width; ++mx) {
            if (mask.inked[static_cast<std::size_t>(my) * mask.width + mx] != 0) {
                image.blendRect(x + mx * scale, y + my * scale, scale, scale, colour);
            }
        }
    }
}

int textWidth(std::string_view text, int scale) {
    return rasteriseText(text).width * std::max(scale, 1);
}

int textHeight(std::string_view text, int scale) {
    if (text.empty()) {
        return 0;
    }
    // Every line reserves descender room, so labels of one size line up whatever their letters.
    const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    return ((lines - 1) * kTextLineHeight + 9) * std::max(scale, 1);
}

void drawLabel(ImageRgba8& image, int x, int y, std::string_view text, glm::u8vec4 colour,
               int scale) {
    scale = std::max(scale, 1);
    const int pad = 2 * scale;
    image.blendRect(x, y, textWidth(text, scale) + 2 * pad, textHeight(text, scale) + pad,
                    {0, 0, 0, 170});
    drawText(image, x + pad, y + pad, text, colour, scale);
}

// ---- composition and comparison ---------------------------------------------------------

ImageRgba8 sideBySide(const std::vector<const ImageRgba8*>& panels, int gap,
                      glm::u8vec4 gapColour) {
    int width = 0;
    int height = 0;
    int count = 0;
    for (const ImageRgba8* panel : panels) {
        if (panel != nullptr) {
            width += panel->width + (count++ > 0 ? gap : 0);
            height = std::max(height, panel->height);
        }
    }
    ImageRgba8 out(width, height, gapColour);
    int x = 0;
    for (const ImageRgba8* panel : panels) {
        if (panel != nullptr) {
            out.blit(*panel, x, 0);
            x += panel->width + gap;
        }
    }
    return out;
}

ImageDiff compareImages(const ImageRgba8& expected, const ImageRgba8& actual, int tolerance) {
    ImageDiff diff;
    if (expected.width != actual.width || expected.height != actual.height ||
        expected.pixels.size() != actual.pixels.size()) {
        diff.maxDelta = 255;
        diff.meanDelta = 255.0;
        diff.fractionOver = 1.0;
        diff.diffImage = ImageRgba8(std::max(expected.width, actual.width),
                                    std::max(expected.height, actual.height), {255, 0, 255, 255});
        return diff;
    }
    diff.diffImage = ImageRgba8(expected.width, expected.height);
    long long over = 0;
    double sum = 0.0;
    for (int y = 0; y < expected.height; ++y) {
        for (int x = 0; x < expected.width; ++x) {
            const glm::u8vec4 e = expected.at(x, y);
            const glm::u8vec4 a = actual.at(x, y);
            int delta = 0;
            for (int c = 0; c < 4; ++c) {
                const int d = std::abs(int(e[c]) - int(a[c]));
                delta = std::max(delta, d);
                sum += d;
            }
            diff.maxDelta = std::max(diff.maxDelta, delta);
            // Context: the expected image, dimmed so the highlighted pixels stand out.
            const auto grey = static_cast<std::uint8_t>((e.x * 54 + e.y * 183 + e.z * 19) / 768);
            glm::u8vec4 shown{grey, grey, grey, 255};
            if (delta > tolerance) {
                ++over;
                shown = {static_cast<std::uint8_t>(160 + std::min(95, delta * 8)), 0, 0, 255};
            } else if (delta > 0) {
                const auto amplified = static_cast<std::uint8_t>(96 + std::min(159, delta * 32));
                shown = {amplified, amplified, 0, 255};
            }
            diff.diffImage.set(x, y, shown);
        }
    }
    const double pixels = static_cast<double>(expected.width) * expected.height;
    if (pixels > 0) {
        diff.fractionOver = static_cast<double>(over) / pixels;
        diff.meanDelta = sum / (pixels * 4);
    }
    return diff;
}

ImageRgba8 imageFromBottomUpRows(const std::uint8_t* rows, int width, int height) {
    ImageRgba8 image(width, height);
    const std::size_t rowBytes = static_cast<std::size_t>(width) * 4;
    for (int y = 0; y < height; ++y)
        std::copy_n(rows + static_cast<std::size_t>(height - 1 - y) * rowBytes, rowBytes,
                    image.pixels.data() + static_cast<std::size_t>(y) * rowBytes);
    return image;
}

} // namespace snowcap
