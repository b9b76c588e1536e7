// OpenEXR files (io/exr.hpp): half bits survive a round trip unchanged, channels keep their
// names and order, rows keep their orientation, and bad files are one line naming them.
#include "io/exr.hpp"

#include "TestSupport.hpp"

#include <fstream>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

// Every class of half: zero and -0, subnormals, normals near 1 and the half-safe floor, the
// largest finite, infinities and NaNs with payloads; the texel index in the rest, so a flipped
// or shifted row cannot pass.
ExrImage halfImage(int width, int height, std::vector<std::string> channels) {
    ExrImage image;
    image.width = width;
    image.height = height;
    image.channels = std::move(channels);
    image.halves.resize(image.samples());
    const std::uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x3bff,
                                      0x0c00, 0x7bff, 0x7c00, 0xfc00, 0x7e01, 0x7c01};
    for (std::size_t i = 0; i < image.halves.size(); ++i)
        image.halves[i] = i < std::size(specials) ? specials[i] : static_cast<std::uint16_t>(i * 7);
    image.comments = "test";
    return image;
}

TEST(Exr, HalfRoundTripIsBitExact) {
    const auto dir = test::scratchDir();
    for (const auto& channels :
         {std::vector<std::string>{"R"}, std::vector<std::string>{"R", "G", "B", "A"}}) {
        const ExrImage written = halfImage(37, 23, channels); // odd sides: no row padding
        const auto path = dir / ("half_" + std::to_string(channels.size()) + ".exr");
        ASSERT_EQ(writeExr(path, written), std::nullopt);
        auto read = readExr(path);
        ASSERT_TRUE(std::holds_alternative<ExrImage>(read)) << std::get<std::string>(read);
        const ExrImage& back = std::get<ExrImage>(read);
        EXPECT_EQ(back.width, 37);
        EXPECT_EQ(back.height, 23);
        EXPECT_EQ(back.pixel, ExrPixel::Half);
        EXPECT_EQ(back.channels, channels); // R, G, B, A, not the file's alphabetical order
        EXPECT_EQ(back.comments, "test");
        ASSERT_EQ(back.halves.size(), written.halves.size());
        for (std::size_t i = 0; i < written.halves.size(); ++i)
            ASSERT_EQ(back.halves[i], written.halves[i]) << "sample " << i;
    }
}

TEST(Exr, FloatRoundTripAndTopRowFirstInTheFile) {
    ExrImage image;
    image.width = 4;
    image.height = 3;
    image.channels = {"R"};
    image.pixel = ExrPixel::Float;
    for (int i = 0; i < 12; ++i)
        image.floats.push_back(static_cast<float>(i) * 1.25f + 1e-7f);
    const auto path = test::scratchDir() / "depth.exr";
    ASSERT_EQ(writeExr(path, image), std::nullopt);
    auto read = readExr(path);
    ASSERT_TRUE(std::holds_alternative<ExrImage>(read)) << std::get<std::string>(read);
    EXPECT_EQ(std::get<ExrImage>(read).floats, image.floats);
}

TEST(Exr, BadFilesAreOneLineNamingThem) {
    const auto dir = test::scratchDir();
    auto error = [](const std::filesystem::path& path) {
        auto read = readExr(path);
        return std::holds_alternative<std::string>(read) ? std::get<std::string>(read) : "";
    };
    EXPECT_NE(error(dir / "missing.exr").find("missing.exr: cannot open file"), std::string::npos);
    { std::ofstream(dir / "text.exr") << "not an exr"; }
    EXPECT_NE(error(dir / "text.exr").find("text.exr: not a readable EXR file"), std::string::npos);
    // A real file cut in half.
    const auto whole = dir / "whole.exr";
    ASSERT_EQ(writeExr(whole, halfImage(64, 64, {"R"})), std::nullopt);
    const auto size = std::filesystem::file_size(whole);
    std::filesystem::copy_file(whole, dir / "cut.exr");
    std::filesystem::resize_file(dir / "cut.exr", size / 2);
    EXPECT_NE(error(dir / "cut.exr").find("cut.exr: not a readable EXR file"), std::string::npos);
    // Writing: the samples must match the size.
    ExrImage wrong = halfImage(8, 8, {"R"});
    wrong.halves.pop_back();
    const auto message = writeExr(dir / "wrong.exr", wrong);
    ASSERT_TRUE(message);
    EXPECT_NE(message->find("wrong.exr"), std::string::npos);
}

} // namespace
} // namespace snowcap
