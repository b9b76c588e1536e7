// The keys of the run's pictures (io/legend.hpp): the colour bar runs the map from lo to hi with
// labelled ticks, and the length bar picks a round length near a fifth of the width.
#include "io/legend.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

// How many pixels of the image differ from its background colour.
int inked(const ImageRgba8& image, int x0, int y0, int w, int h, glm::u8vec4 background) {
    int count = 0;
    for (int y = y0; y < y0 + h; ++y)
        for (int x = x0; x < x0 + w; ++x)
            count += image.at(x, y) != background;
    return count;
}

TEST(Legend, TheBarRunsTheMapFromLoToHiWithTicks) {
    ColourKey key;
    key.lo = 0.0f;
    key.hi = 30.0f;
    key.caption = "snow depth, cm";
    const ImageRgba8 strip = colourKeyStrip(key, 400, 1);
    ASSERT_EQ(strip.width, 400);
    // The bar starts under the caption line: its first and last columns are the map's ends.
    const int barY = 6 + kTextLineHeight + 2;
    const glm::u8vec4 left = strip.at(6, barY), right = strip.at(400 - 7, barY);
    EXPECT_EQ(left, colourMap(ColourMap::Inferno, 0.5f / 388.0f));
    EXPECT_EQ(right, colourMap(ColourMap::Inferno, 387.5f / 388.0f));
    // The caption and the tick labels are drawn (light text on the dark strip).
    const glm::u8vec4 dark = strip.at(1, 1);
    EXPECT_GT(inked(strip, 0, 0, 400, 6 + kTextLineHeight, dark), 40);
    EXPECT_GT(inked(strip, 0, barY + 12, 400, strip.height - barY - 12, dark), 40);
    // With a swatch for values the map does not show, the bar gets shorter.
    key.otherLabel = "none";
    const ImageRgba8 withOther = colourKeyStrip(key, 400, 1);
    EXPECT_NE(withOther.at(400 - 7, barY), right);
}

TEST(Legend, AKeyGoesUnderThePicture) {
    const ImageRgba8 picture(200, 100, {10, 200, 10, 255});
    ColourKey key;
    key.caption = "value";
    const ImageRgba8 out = withColourKey(picture, key, 1);
    EXPECT_EQ(out.width, 200);
    EXPECT_EQ(out.height, 100 + colourKeyStrip(key, 200, 1).height);
    EXPECT_EQ(out.at(100, 50), picture.at(100, 50));
}

TEST(Legend, TheLengthBarIsARoundLength) {
    // 512 px over 512 cm: a fifth is 102 cm, so 1 m.
    EXPECT_DOUBLE_EQ(lengthBarCm(1.0, 512), 100.0);
    // 1024 px over 2048 cm (0.5 px/cm): a fifth is 410 cm, so 5 m.
    EXPECT_DOUBLE_EQ(lengthBarCm(0.5, 1024), 500.0);
    // 512 px over 64 cm (8 px/cm): 12.8 cm, so 10 cm.
    EXPECT_DOUBLE_EQ(lengthBarCm(8.0, 512), 10.0);
    EXPECT_EQ(lengthBarCm(0.0, 512), 0.0);
    ImageRgba8 picture(512, 512, {0, 0, 0, 255});
    drawLengthBar(picture, 1.0, 1);
    // The bar itself: white, 100 px long, near the bottom-left corner.
    int white = 0;
    for (int x = 0; x < 512; ++x)
        white += picture.at(x, 512 - 8 - 1) == glm::u8vec4{255, 255, 255, 255};
    EXPECT_EQ(white, 100);
}

} // namespace
} // namespace snowcap
