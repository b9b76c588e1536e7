#include "io/image.hpp"

#include "TestSupport.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>

namespace snowcap {
namespace {

bool sameColour(glm::u8vec4 a, glm::u8vec4 b) {
    return a == b;
}

double luminance(glm::u8vec4 c) {
    return 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z;
}

// CIE L* of an sRGB colour: the lightness inferno is designed to raise monotonically (plain
// luma of 8-bit values wobbles by rounding where one channel falls while another rises).
double lightness(glm::u8vec4 c) {
    const auto linear = [](int v) {
        const double s = v / 255.0;
        return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    const double y = 0.2126 * linear(c.x) + 0.7152 * linear(c.y) + 0.0722 * linear(c.z);
    return y > 0.008856 ? 116.0 * std::cbrt(y) - 16.0 : 903.3 * y;
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string littleEndianFloats(std::initializer_list<float> values) {
    std::string bytes;
    for (float v : values) {
        const auto bits = std::bit_cast<std::uint32_t>(v);
        for (int i = 0; i < 4; ++i) {
            bytes.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
        }
    }
    return bytes;
}

TEST(ImageRgba8, FillsSetsAndReadsPixels) {
    ImageRgba8 image(3, 2, {1, 2, 3, 4});
    EXPECT_EQ(image.pixels.size(), 3u * 2u * 4u);
    EXPECT_TRUE(sameColour(image.at(2, 1), {1, 2, 3, 4}));
    image.set(2, 1, {9, 8, 7, 6});
    EXPECT_TRUE(sameColour(image.at(2, 1), {9, 8, 7, 6}));
    // Row 0 is the top row: (2, 1) is the last pixel in memory.
    EXPECT_EQ(image.pixels[(1 * 3 + 2) * 4], 9);
}

TEST(ImageRgba8, RectanglesAndBlitsAreClipped) {
    ImageRgba8 image(4, 4, {0, 0, 0, 255});
    image.fillRect(-2, -2, 4, 4, {255, 0, 0, 255}); // covers (0..1, 0..1) only
    EXPECT_TRUE(sameColour(image.at(1, 1), {255, 0, 0, 255}));
    EXPECT_TRUE(sameColour(image.at(2, 2), {0, 0, 0, 255}));

    ImageRgba8 stamp(3, 3, {0, 255, 0, 255});
    image.blit(stamp, 2, 2); // only its top-left 2x2 lands
    EXPECT_TRUE(sameColour(image.at(3, 3), {0, 255, 0, 255}));
    EXPECT_TRUE(sameColour(image.at(1, 3), {0, 0, 0, 255}));

    image.blendRect(0, 3, 1, 1, {255, 255, 255, 128}); // half white over black
    EXPECT_NEAR(image.at(0, 3).x, 128, 1);
}

TEST(ImagePng, RoundTripIsExact) {
    ImageRgba8 image(7, 5);
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            image.set(x, y,
                      {std::uint8_t(x * 30), std::uint8_t(y * 50), std::uint8_t(x ^ y),
                       std::uint8_t(255 - x * y)});
        }
    }
    const auto dir = test::scratchDir();
    const auto path = dir / "round_trip.png";
    ASSERT_EQ(writePng(path, image), std::nullopt);

    auto loaded = readPng(path);
    ASSERT_TRUE(std::holds_alternative<ImageRgba8>(loaded)) << std::get<std::string>(loaded);
    const auto& back = std::get<ImageRgba8>(loaded);
    EXPECT_EQ(back.width, 7);
    EXPECT_EQ(back.height, 5);
    EXPECT_EQ(back.pixels, image.pixels);
    // The temporary file was renamed into place, not left behind.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST(ImagePng, ErrorsNameThePath) {
    const auto dir = test::scratchDir();
    const auto missingDir = dir / "no_such_dir" / "out.png";
    const auto error = writePng(missingDir, ImageRgba8(2, 2));
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find(missingDir.string()), std::string::npos) << *error;

    const auto loaded = readPng(dir / "missing.png");
    ASSERT_TRUE(std::holds_alternative<std::string>(loaded));
    EXPECT_NE(std::get<std::string>(loaded).find("missing.png"), std::string::npos);

    writeBytes(dir / "garbage.png", "definitely not a PNG");
    EXPECT_TRUE(std::holds_alternative<std::string>(readPng(dir / "garbage.png")));
    EXPECT_TRUE(writePng(dir / "empty.png", ImageRgba8()).has_value());
}

TEST(ImagePfm, RoundTripIsBitExactAndKeepsRowOrder) {
    ImageFloat image(5, 3);
    const float specials[] = {-0.0f,
                              -1234.5f,
                              std::numeric_limits<float>::denorm_min(),
                              -std::numeric_limits<float>::min(),
                              1e-30f,
                              std::numeric_limits<float>::max(),
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(),
                              0.1f};
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            image.at(x, y) = specials[(x + y * image.width) % 9];
        }
    }
    image.at(4, 2) = 42.25f; // top-right corner, a value seen nowhere else
    const auto path = test::scratchDir() / "buffer.pfm";
    ASSERT_EQ(writePfm(path, image), std::nullopt);

    auto loaded = readPfm(path);
    ASSERT_TRUE(std::holds_alternative<ImageFloat>(loaded)) << std::get<std::string>(loaded);
    const auto& back = std::get<ImageFloat>(loaded);
    ASSERT_EQ(back.width, 5);
    ASSERT_EQ(back.height, 3);
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            EXPECT_EQ(std::bit_cast<std::uint32_t>(back.at(x, y)),
                      std::bit_cast<std::uint32_t>(image.at(x, y)))
                << "at (" << x << ", " << y << ")";
        }
    }
    // On disk: little-endian header, bottom row first, so the file ends with the top row.
    std::ifstream file(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), {});
    EXPECT_EQ(bytes.rfind("Pf\n5 3\n-1.0\n", 0), 0u);
    EXPECT_EQ(bytes.substr(bytes.size() - 4), littleEndianFloats({42.25f}));
}

TEST(ImagePfm, ReadsBigEndianFiles) {
    const auto path = test::scratchDir() / "big.pfm";
    std::string data = "Pf\n2 1\n1.0\n";
    for (float v : {1.5f, -2.0f}) {
        const auto bits = std::bit_cast<std::uint32_t>(v);
        for (int i = 3; i >= 0; --i) {
            data.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
        }
    }
    writeBytes(path, data);
    auto loaded = readPfm(path);
    ASSERT_TRUE(std::holds_alternative<ImageFloat>(loaded)) << std::get<std::string>(loaded);
    EXPECT_EQ(std::get<ImageFloat>(loaded).values, (std::vector<float>{1.5f, -2.0f}));
}

struct MalformedPfm {
    const char* name;
    std::string bytes;
    const char* reason; // a word the error must contain
};

class ImagePfmMalformed : public testing::TestWithParam<MalformedPfm> {};

TEST_P(ImagePfmMalformed, IsRejectedWithAMessage) {
    const auto path = test::scratchDir() / "bad.pfm";
    writeBytes(path, GetParam().bytes);
    const auto loaded = readPfm(path);
    ASSERT_TRUE(std::holds_alternative<std::string>(loaded));
    const auto& message = std::get<std::string>(loaded);
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().reason), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
}

INSTANTIATE_TEST_SUITE_P(
    ImagePfm, ImagePfmMalformed,
    testing::Values(
        MalformedPfm{"NotPfm", "P6\n2 2\n255\n", "Pf"},
        MalformedPfm{"ColourPfm", "PF\n1 1\n-1.0\n" + littleEndianFloats({1, 2, 3}), "3 channels"},
        MalformedPfm{"BadWidth", "Pf\nabc 1\n-1.0\n" + littleEndianFloats({1}), "size"},
        MalformedPfm{"ZeroHeight", "Pf\n1 0\n-1.0\n", "size"},
        MalformedPfm{"ZeroScale", "Pf\n1 1\n0\n" + littleEndianFloats({1}), "scale"},
        MalformedPfm{"HeaderOnly", "Pf\n1 1", "header"},
        MalformedPfm{"Truncated", "Pf\n2 2\n-1.0\n" + littleEndianFloats({1, 2, 3}), "truncated"},
        MalformedPfm{"Trailing", "Pf\n1 1\n-1.0\n" + littleEndianFloats({1, 2}), "trailing"},
        MalformedPfm{"Empty", "", "Pf"}),
    [](const testing::TestParamInfo<MalformedPfm>& info) { return info.param.name; });

TEST(ImagePfm, MissingFileIsAnError) {
    EXPECT_TRUE(std::holds_alternative<std::string>(readPfm(test::scratchDir() / "none.pfm")));
}

TEST(ImageColourMap, InfernoRunsFromBlackToPaleYellowWithRisingLightness) {
    EXPECT_TRUE(sameColour(colourMap(ColourMap::Inferno, 0.0f), {0, 0, 4, 255}));
    EXPECT_TRUE(sameColour(colourMap(ColourMap::Inferno, 1.0f), {252, 255, 164, 255}));
    EXPECT_TRUE(sameColour(colourMap(ColourMap::Inferno, -3.0f), {0, 0, 4, 255}));
    EXPECT_TRUE(sameColour(colourMap(ColourMap::Inferno, 7.0f), {252, 255, 164, 255}));
    double previous = -1.0;
    for (int i = 0; i <= 256; ++i) {
        const double l = lightness(colourMap(ColourMap::Inferno, i / 256.0f));
        EXPECT_GE(l, previous) << "t = " << i / 256.0;
        previous = l;
    }
}

TEST(ImageColourMap, NanIsMagentaInEveryMap) {
    for (ColourMap map : {ColourMap::Inferno, ColourMap::Grey, ColourMap::Diverging}) {
        EXPECT_TRUE(sameColour(colourMap(map, std::nanf("")), {255, 0, 255, 255}));
    }
}

TEST(ImageColourMap, DivergingIsWhiteInTheMiddleBlueBelowRedAbove) {
    EXPECT_TRUE(sameColour(colourMap(ColourMap::Diverging, 0.5f), {255, 255, 255, 255}));
    const glm::u8vec4 low = colourMap(ColourMap::Diverging, 0.0f);
    const glm::u8vec4 high = colourMap(ColourMap::Diverging, 1.0f);
    EXPECT_GT(low.z, low.x);
    EXPECT_GT(high.x, high.z);
    EXPECT_TRUE(sameColour(colourMap(ColourMap::Grey, 0.5f), {128, 128, 128, 255}));
}

TEST(ImageColourMap, ColourMappedFlipsToTopFirstRows) {
    ImageFloat buffer(2, 2);
    buffer.at(0, 0) = 0.0f; // bottom row
    buffer.at(1, 0) = 0.0f;
    buffer.at(0, 1) = 10.0f; // top row
    buffer.at(1, 1) = std::nanf("");
    const ImageRgba8 image = colourMapped(buffer, ColourMap::Grey, 0.0f, 10.0f);
    EXPECT_TRUE(sameColour(image.at(0, 0), {255, 255, 255, 255}));
    EXPECT_TRUE(sameColour(image.at(1, 0), {255, 0, 255, 255}));
    EXPECT_TRUE(sameColour(image.at(0, 1), {0, 0, 0, 255}));

    const ValueRange range = finiteRange(buffer);
    EXPECT_EQ(range.lo, 0.0f);
    EXPECT_EQ(range.hi, 10.0f);
    // A flat buffer maps to the middle colour: white in Diverging, "no difference".
    const ImageRgba8 flat = colourMapped(ImageFloat(2, 2), ColourMap::Diverging, 0.0f, 0.0f);
    EXPECT_TRUE(sameColour(flat.at(1, 1), {255, 255, 255, 255}));
}

TEST(ImageText, InkStaysInsideTheMeasuredBox) {
    const glm::u8vec4 background{0, 0, 0, 255};
    ImageRgba8 image(300, 80, background);
    const std::string text = "Snow depth: 42 cm (gy)";
    const int x = 7, y = 11, scale = 2;
    drawText(image, x, y, text, {255, 255, 255, 255}, scale);
    const int w = textWidth(text, scale), h = textHeight(text, scale);
    ASSERT_LT(x + w, image.width);
    int inside = 0, outside = 0;
    int inkRight = 0, inkBottom = 0;
    for (int py = 0; py < image.height; ++py) {
        for (int px = 0; px < image.width; ++px) {
            if (sameColour(image.at(px, py), background)) {
                continue;
            }
            const bool in = px >= x && px < x + w && py >= y && py < y + h;
            (in ? inside : outside) += 1;
            inkRight = std::max(inkRight, px);
            inkBottom = std::max(inkBottom, py);
        }
    }
    EXPECT_GT(inside, 100);
    EXPECT_EQ(outside, 0);
    EXPECT_EQ(inkRight, x + w - 1) << "textWidth is the inked width";
    EXPECT_EQ(inkBottom, y + h - 1) << "descenders reach the bottom of textHeight";
}

TEST(ImageText, ScaleMultipliesSizeAndOddCharactersAreSafe) {
    EXPECT_EQ(textWidth("abc", 3), 3 * textWidth("abc", 1));
    EXPECT_EQ(textHeight("abc", 3), 3 * kTextCapHeight + 3 * 2);
    EXPECT_EQ(textHeight("a\nb", 1), kTextLineHeight + textHeight("a", 1));
    EXPECT_EQ(textWidth("", 1), 0);
    ImageRgba8 image(64, 32);
    drawText(image, 0, 0, "\x7f\x01\xc3\xa9~\t", {255, 255, 255, 255}); // no out-of-range reads
    drawText(image, -50, -50, "far outside", {255, 255, 255, 255});
}

TEST(ImageText, LabelDarkensItsBoxAndKeepsTextBright) {
    ImageRgba8 image(120, 40, {255, 255, 255, 255});
    drawLabel(image, 5, 5, "lit", {255, 255, 0, 255}, 2);
    EXPECT_LT(image.at(6, 6).x, 128); // box corner: dark over white
    EXPECT_TRUE(sameColour(image.at(100, 30), {255, 255, 255, 255}));
    int yellow = 0;
    for (int py = 0; py < image.height; ++py) {
        for (int px = 0; px < image.width; ++px) {
            yellow += sameColour(image.at(px, py), {255, 255, 0, 255});
        }
    }
    EXPECT_GT(yellow, 20);
}

TEST(ImageCompose, SideBySidePlacesPanelsLeftToRight) {
    const ImageRgba8 red(3, 2, {255, 0, 0, 255}), blue(2, 4, {0, 0, 255, 255});
    const ImageRgba8 out = sideBySide({&red, nullptr, &blue}, 1, {9, 9, 9, 255});
    EXPECT_EQ(out.width, 3 + 1 + 2);
    EXPECT_EQ(out.height, 4);
    EXPECT_TRUE(sameColour(out.at(2, 1), {255, 0, 0, 255}));
    EXPECT_TRUE(sameColour(out.at(3, 0), {9, 9, 9, 255}));
    EXPECT_TRUE(sameColour(out.at(0, 3), {9, 9, 9, 255})); // below the shorter panel
    EXPECT_TRUE(sameColour(out.at(5, 3), {0, 0, 255, 255}));
}

TEST(ImageCompare, CountsPixelsOverTolerance) {
    ImageRgba8 expected(10, 10, {100, 100, 100, 255});
    ImageRgba8 actual = expected;
    actual.set(1, 1, {110, 100, 100, 255});
    actual.set(2, 2, {100, 90, 100, 255});
    actual.set(3, 3, {100, 100, 100, 245});
    actual.set(4, 4, {102, 100, 100, 255}); // within tolerance
    const ImageDiff diff = compareImages(expected, actual, 5);
    EXPECT_EQ(diff.maxDelta, 10);
    EXPECT_DOUBLE_EQ(diff.fractionOver, 0.03);
    EXPECT_NEAR(diff.meanDelta, 32.0 / 400.0, 1e-12);
    ASSERT_EQ(diff.diffImage.width, 10);
    EXPECT_GT(diff.diffImage.at(1, 1).x, 200); // over tolerance: bright red
    EXPECT_EQ(diff.diffImage.at(1, 1).y, 0);
    EXPECT_GT(diff.diffImage.at(4, 4).y, 100);           // within tolerance: yellow
    EXPECT_LT(luminance(diff.diffImage.at(0, 0)), 60.0); // unchanged: dimmed context

    const ImageDiff same = compareImages(expected, expected, 0);
    EXPECT_EQ(same.maxDelta, 0);
    EXPECT_EQ(same.fractionOver, 0.0);
}

TEST(ImageCompare, SizeMismatchIsATotalDifference) {
    const ImageDiff diff = compareImages(ImageRgba8(4, 4), ImageRgba8(4, 5), 255);
    EXPECT_EQ(diff.maxDelta, 255);
    EXPECT_EQ(diff.fractionOver, 1.0);
    EXPECT_EQ(diff.diffImage.height, 5);
}

} // namespace
} // namespace snowcap
