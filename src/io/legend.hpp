#pragma once
// Keys that make a colour-mapped picture read by itself: a colour bar with its value range,
// ticks and unit under a picture, and a length bar on a map. The buffers, the capture depth and
// the difference views of `render` use them (lab/run_pictures.hpp). No GL.

#include "io/image.hpp"

#include <string>

namespace snowcap {

struct ColourKey {
    ColourMap map = ColourMap::Inferno;
    float lo = 0.0f, hi = 1.0f; // the values at the bar's two ends
    std::string caption;        // what and in which unit: "snow depth, cm"
    // A swatch after the bar for values the map does not show (e.g. "no contact"); empty: none.
    std::string otherLabel;
    glm::u8vec4 otherColour{60, 60, 60, 255};
};

// A strip `width` wide: the caption, the bar from lo (left) to hi (right) and 1-2-5 ticks
// labelled with their values, on a dark background. `scale` is the text scale.
ImageRgba8 colourKeyStrip(const ColourKey& key, int width, int scale);

// `picture` with `key`'s strip below it, as wide as the picture.
ImageRgba8 withColourKey(const ImageRgba8& picture, const ColourKey& key, int scale);

// A length bar in the picture's bottom-left corner: the round length (1-2-5 cm or m) nearest a
// fifth of the picture's width at `pixelsPerCm`, with its length written above it.
void drawLengthBar(ImageRgba8& picture, double pixelsPerCm, int scale);

// The length drawLengthBar picks, in cm, for a picture `widthPx` wide (exposed for tests).
double lengthBarCm(double pixelsPerCm, int widthPx);

} // namespace snowcap
