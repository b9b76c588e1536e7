#include "io/legend.hpp"

#include "io/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace snowcap {

namespace {

constexpr glm::u8vec4 kStrip{28, 28, 32, 255};
constexpr glm::u8vec4 kText{235, 235, 235, 255};

// A tick value as few digits as its step needs: 0, 0.25, 100.
std::string tickText(double value, double step) {
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 6);
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, std::abs(value) < 1e-12 ? 0.0 : value);
    return text;
}

} // namespace

ImageRgba8 colourKeyStrip(const ColourKey& key, int width, int scale) {
    const int pad = 6 * scale;
    const int line = kTextLineHeight * scale;
    const int barHeight = 10 * scale;
    const int height = pad + line + barHeight + 3 * scale + line + pad;
    ImageRgba8 strip(width, height, kStrip);
    // A caption wider than the strip drops to the smaller text rather than being cut.
    int captionScale = scale;
    while (captionScale > 1 && textWidth(key.caption, captionScale) > width - 2 * pad)
        --captionScale;
    drawText(strip, pad, pad, key.caption, kText, captionScale);
    // The swatch for what the map does not show sits right of the bar, with its label.
    const int otherWidth =
        key.otherLabel.empty() ? 0 : barHeight + 2 * scale + textWidth(key.otherLabel, scale) + pad;
    const int barX = pad, barY = pad + line;
    const int barWidth = std::max(8, width - 2 * pad - otherWidth - (otherWidth ? pad : 0));
    for (int x = 0; x < barWidth; ++x) {
        const glm::u8vec4 colour = colourMap(key.map, (x + 0.5f) / barWidth);
        strip.fillRect(barX + x, barY, 1, barHeight, colour);
    }
    if (otherWidth) {
        const int at = barX + barWidth + pad;
        strip.fillRect(at, barY, barHeight, barHeight, key.otherColour);
        drawText(strip, at + barHeight + 2 * scale, barY + (barHeight - kTextCapHeight * scale) / 2,
                 key.otherLabel, kText, scale);
    }
    // Ticks: about one per 40 px at scale 1, never overlapping.
    const double lo = key.lo, hi = key.hi;
    if (!(hi > lo))
        return strip;
    const int maxTicks = std::max(2, barWidth / (40 * scale));
    const std::vector<double> ticks = linearTicks(lo, hi, maxTicks);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : hi - lo;
    int lastEnd = -1 << 20;
    for (double t : ticks) {
        const int x = barX + static_cast<int>(std::lround((t - lo) / (hi - lo) * (barWidth - 1)));
        strip.fillRect(x, barY + barHeight, std::max(1, scale), 3 * scale, kText);
        const std::string text = tickText(t, step);
        const int w = textWidth(text, scale);
        // Kept inside the strip with its padding: side by side strips must not run together.
        const int left = std::clamp(x - w / 2, pad / 2, std::max(pad / 2, width - pad / 2 - w));
        if (left <= lastEnd + 4 * scale)
            continue;
        drawText(strip, left, barY + barHeight + 4 * scale, text, kText, scale);
        lastEnd = left + w;
    }
    return strip;
}

ImageRgba8 withColourKey(const ImageRgba8& picture, const ColourKey& key, int scale) {
    const ImageRgba8 strip = colourKeyStrip(key, picture.width, scale);
    ImageRgba8 out(picture.width, picture.height + strip.height, kStrip);
    out.blit(picture, 0, 0);
    out.blit(strip, 0, picture.height);
    return out;
}

double lengthBarCm(double pixelsPerCm, int widthPx) {
    if (!(pixelsPerCm > 0.0) || widthPx <= 0)
        return 0.0;
    const double target = widthPx / 5.0 / pixelsPerCm; // cm
    const double decade = std::pow(10.0, std::floor(std::log10(target)));
    double best = decade;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (std::abs(std::log(m * decade / target)) < std::abs(std::log(best / target)))
            best = m * decade;
    return best;
}

void drawLengthBar(ImageRgba8& picture, double pixelsPerCm, int scale) {
    const double lengthCm = lengthBarCm(pixelsPerCm, picture.width);
    if (!(lengthCm > 0.0))
        return;
    const int length = static_cast<int>(std::lround(lengthCm * pixelsPerCm));
    char text[32];
    if (lengthCm >= 100.0)
        std::snprintf(text, sizeof text, "%g m", lengthCm / 100.0);
    else
        std::snprintf(text, sizeof text, "%g cm", lengthCm);
    const int pad = 8 * scale;
    const int barHeight = 3 * scale;
    const int y = picture.height - pad - barHeight;
    const int textY = y - 4 * scale - kTextCapHeight * scale;
    // A dark box behind bar and text, so it reads on bright and dark buffers alike.
    picture.blendRect(pad - 4 * scale, textY - 4 * scale,
                      std::max(length, textWidth(text, scale)) + 8 * scale,
                      y + barHeight + 4 * scale - (textY - 4 * scale), {0, 0, 0, 150});
    picture.fillRect(pad, y, length, barHeight, {255, 255, 255, 255});
    picture.fillRect(pad, y - 2 * scale, std::max(1, scale), barHeight + 2 * scale,
                     {255, 255, 255, 255});
    picture.fillRect(pad + length - std::max(1, scale), y - 2 * scale, std::max(1, scale),
                     barHeight + 2 * scale, {255, 255, 255, 255});
    drawText(picture, pad, textY, text, {255, 255, 255, 255}, scale);
}

} // namespace snowcap
