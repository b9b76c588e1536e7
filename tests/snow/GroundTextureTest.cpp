// [ground] kind = "texture": the file is read as hostile (snow/ground_texture.hpp). Every way
// it can fail to be a ground is one line naming the key, the file and the reason; a good file
// reads as its pixels. No GL: the read and its checks come before any upload.
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "core/ground.hpp"
#include "snow/ground_texture.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <variant>
#include <vector>
#include <zlib.h>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> bytesOf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A real 8 x 8 PNG (stb's writer), two colours in a checker.
fs::path smallPng(const fs::path& dir) {
    ImageRgba8 image(8, 8);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            image.set(x, y,
                      (x + y) % 2 ? glm::u8vec4{200, 40, 30, 255} : glm::u8vec4{20, 60, 180, 255});
    const fs::path path = dir / "good.png";
    EXPECT_FALSE(writePng(path, image));
    return path;
}

// The IHDR's width and height (big endian at bytes 16 and 20) replaced; stb skips the CRC.
std::vector<std::uint8_t> withHeaderSize(std::vector<std::uint8_t> png, std::uint32_t width,
                                         std::uint32_t height) {
    for (int i = 0; i < 4; ++i) {
        png[16 + i] = std::uint8_t(width >> (24 - 8 * i));
        png[20 + i] = std::uint8_t(height >> (24 - 8 * i));
    }
    return png;
}

// An RGBA8 PNG made by hand: its IHDR says width x height (Adam7 when `interlaced`) and its one
// IDAT holds `raw` (filter bytes and samples, of whatever length) deflated.
std::vector<std::uint8_t> handMadePng(std::uint32_t width, std::uint32_t height, bool interlaced,
                                      const std::vector<std::uint8_t>& raw) {
    std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const auto be32 = [](std::vector<std::uint8_t>& to, std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            to.push_back(std::uint8_t(v >> (24 - 8 * i)));
    };
    const auto chunk = [&](const char* type, const std::vector<std::uint8_t>& body) {
        std::vector<std::uint8_t> typed(type, type + 4);
        typed.insert(typed.end(), body.begin(), body.end());
        be32(png, std::uint32_t(body.size()));
        png.insert(png.end(), typed.begin(), typed.end());
        be32(png, std::uint32_t(crc32(0, typed.data(), uInt(typed.size()))));
    };
    std::vector<std::uint8_t> header;
    be32(header, width);
    be32(header, height);
    header.insert(header.end(), {8, 6, 0, 0, std::uint8_t(interlaced ? 1 : 0)});
    chunk("IHDR", header);
    uLongf size = compressBound(uLong(raw.size()));
    std::vector<std::uint8_t> deflated(size);
    EXPECT_EQ(compress2(deflated.data(), &size, raw.data(), uLong(raw.size()), 6), Z_OK);
    deflated.resize(size);
    chunk("IDAT", deflated);
    chunk("IEND", {});
    return png;
}

GroundSettings textureGround(const fs::path& file) {
    GroundSettings ground;
    ground.kind = GroundKind::Texture;
    ground.texture = file.string();
    return ground;
}

// The refusal of `file`: one line, the key, the file, and `reason` in it.
void expectRefused(const GroundSettings& ground, const std::string& file,
                   const std::string& reason) {
    auto read = GroundTexture::read(ground, test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<std::string>(read)) << file << " was accepted";
    const std::string& line = std::get<std::string>(read);
    std::printf("%s\n", line.c_str());
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    EXPECT_EQ(line.rfind("key 'ground.texture': ", 0), 0u) << line;
    EXPECT_NE(line.find(file), std::string::npos) << line;
    EXPECT_NE(line.find(reason), std::string::npos) << line;
}

TEST(GroundTexture, AGoodPngReadsAsItsPixels) {
    const fs::path dir = test::scratchDir();
    auto read = GroundTexture::read(textureGround(smallPng(dir)), test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<ImageRgba8>(read)) << std::get<std::string>(read);
    const ImageRgba8& image = std::get<ImageRgba8>(read);
    EXPECT_EQ(image.width, 8);
    EXPECT_EQ(image.height, 8);
    EXPECT_EQ(image.at(1, 0), (glm::u8vec4{200, 40, 30, 255}));
    EXPECT_EQ(image.at(0, 0), (glm::u8vec4{20, 60, 180, 255}));
    // A relative name is under the root, as a deformer's mesh is; the bundled texture reads.
    GroundSettings bundled = textureGround("assets/ground/pebbles.png");
    EXPECT_EQ(groundTexturePath(bundled, "/r"), fs::path("/r/assets/ground/pebbles.png"));
    EXPECT_TRUE(
        std::holds_alternative<ImageRgba8>(GroundTexture::read(bundled, test::sourceDir())));
    // Every other kind names no file.
    bundled.kind = GroundKind::Mud;
    EXPECT_TRUE(groundTexturePath(bundled, "/r").empty());
}

// An interlaced PNG of the exact size reads: the Adam7 passes' bytes, counted before stb
// decodes them, are what stb then needs (13 x 7 leaves some passes' rows short or empty).
TEST(GroundTexture, AnInterlacedPngOfTheRightSizeReads) {
    const fs::path dir = test::scratchDir();
    std::vector<std::uint8_t> raw;
    static constexpr int kPass[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                        {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
    for (const auto& [x0, y0, dx, dy] : kPass) {
        const int w = (13 - x0 + dx - 1) / dx, h = (7 - y0 + dy - 1) / dy;
        for (int y = 0; w > 0 && y < h; ++y) {
            raw.push_back(0); // filter: none
            for (int x = 0; x < w; ++x)
                raw.insert(raw.end(),
                           {std::uint8_t(x0 + x * dx), std::uint8_t(y0 + y * dy), 9, 255});
        }
    }
    const fs::path file = dir / "interlaced.png";
    writeBytes(file, handMadePng(13, 7, true, raw));
    auto read = GroundTexture::read(textureGround(file), test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<ImageRgba8>(read)) << std::get<std::string>(read);
    const ImageRgba8& image = std::get<ImageRgba8>(read);
    ASSERT_EQ(image.width, 13);
    ASSERT_EQ(image.height, 7);
    for (int y = 0; y < 7; ++y)
        for (int x = 0; x < 13; ++x)
            EXPECT_EQ(image.at(x, y), (glm::u8vec4{x, y, 9, 255})) << x << ", " << y;
}

TEST(GroundTexture, EveryBadFileIsOneLineNamingTheKeyTheFileAndTheReason) {
    const fs::path dir = test::scratchDir();
    const fs::path good = smallPng(dir);
    const std::vector<std::uint8_t> png = bytesOf(good);
    ASSERT_GT(png.size(), 40u);

    expectRefused(textureGround(""), "", "kind = \"texture\" needs a PNG file here");
    const fs::path missing = dir / "missing.png";
    expectRefused(textureGround(missing), missing.string(), "cannot open file");
    const fs::path folder = dir / "folder.png";
    fs::create_directories(folder);
    expectRefused(textureGround(folder), folder.string(), "not a regular file (a directory)");
    // A mesh named .png, and a file too short to hold a signature.
    const fs::path text = dir / "mesh.png";
    test::writeText(text, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    expectRefused(textureGround(text), text.string(), "not a PNG (it does not begin with the PNG");
    const fs::path empty = dir / "empty.png";
    test::writeText(empty, "");
    expectRefused(textureGround(empty), empty.string(), "not a PNG");
    // The signature and then no header.
    const fs::path headless = dir / "headless.png";
    writeBytes(headless, std::vector<std::uint8_t>(png.begin(), png.begin() + 8));
    expectRefused(textureGround(headless), headless.string(), "no IHDR header");
    // Absurd sizes: refused from the header, before a pixel is allocated.
    const fs::path wide = dir / "wide.png";
    writeBytes(wide, withHeaderSize(png, 40000, 8));
    expectRefused(textureGround(wide), wide.string(), "40000 x 8 pixels, at most 8192 a side");
    const fs::path huge = dir / "huge.png";
    writeBytes(huge, withHeaderSize(png, 0x7fffffff, 0x7fffffff));
    expectRefused(textureGround(huge), huge.string(), "at most 8192 a side");
    const fs::path zero = dir / "zero.png";
    writeBytes(zero, withHeaderSize(png, 0, 8));
    expectRefused(textureGround(zero), zero.string(), "its header claims 0 x 8 pixels");
    // A file that lies about its size: the header says 64 x 64, the data holds 8 x 8.
    const fs::path liar = dir / "liar.png";
    writeBytes(liar, withHeaderSize(png, 64, 64));
    expectRefused(textureGround(liar), liar.string(),
                  "its pixel data is shorter than its 64 x 64 pixels need");
    // Cut short in its pixel data: found by inflating it, before stb allocates anything.
    const fs::path cut = dir / "cut.png";
    writeBytes(cut, std::vector<std::uint8_t>(png.begin(), png.begin() + png.size() / 2 + 8));
    expectRefused(textureGround(cut), cut.string(),
                  "its pixel data is shorter than its 8 x 8 pixels need (it inflates to ");
    // Its pixel data inflating to more than its pixels need (stb would grow its buffer for it).
    const fs::path padded = dir / "padded.png";
    writeBytes(padded, handMadePng(8, 8, false, std::vector<std::uint8_t>(2 * 8 * (8 * 4 + 1))));
    expectRefused(textureGround(padded), padded.string(),
                  "its pixel data inflates to more than its 8 x 8 pixels need (264 bytes)");
    // Interlaced (Adam7: seven passes of other sizes) and short: counted as well.
    const fs::path interlacedCut = dir / "interlaced_cut.png";
    writeBytes(interlacedCut, handMadePng(13, 7, true, std::vector<std::uint8_t>(100)));
    expectRefused(textureGround(interlacedCut), interlacedCut.string(),
                  "its pixel data is shorter than its 13 x 7 pixels need (it inflates to 100 of");
    // A block of the reserved type 3 right at the start of the stream.
    std::vector<std::uint8_t> broken = handMadePng(8, 8, false, std::vector<std::uint8_t>(264));
    broken[8 + 25 + 8 + 2] = 0x07; // after the signature, IHDR, the IDAT's head, zlib's header
    const fs::path blockType = dir / "block_type.png";
    writeBytes(blockType, broken);
    expectRefused(textureGround(blockType), blockType.string(),
                  "its pixel data is no zlib stream: invalid block type");
    // Far smaller than its header's pixels could be packed into: refused before inflating.
    const fs::path tiny = dir / "tiny.png";
    writeBytes(
        tiny, withHeaderSize(std::vector<std::uint8_t>(png.begin(), png.begin() + 64), 8192, 8192));
    expectRefused(textureGround(tiny), tiny.string(),
                  "its 64 bytes cannot hold the 8192 x 8192 pixels its header claims");
    // Larger than any ground texture could be (a sparse file: nothing is written or read).
    const fs::path vast = dir / "vast.png";
    writeBytes(vast, png);
    fs::resize_file(vast, kMaxGroundTextureBytes + (std::uint64_t(1) << 20));
    expectRefused(textureGround(vast), vast.string(), "file too large");
}

TEST(GroundTexture, TheKeysReadAndABadTileIsOneLine) {
    auto read =
        loadSettingsFromText("[ground]\nkind = 'texture'\ntexture = 'assets/ground/pebbles.png'\n"
                             "texture_tile_cm = 50\n",
                             "x.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(read)) << std::get<ConfigError>(read).message;
    const GroundSettings& ground = std::get<Settings>(read).ground;
    EXPECT_EQ(ground.kind, GroundKind::Texture);
    EXPECT_EQ(ground.texture, "assets/ground/pebbles.png");
    EXPECT_EQ(ground.textureTileCm, 50.0);
    EXPECT_EQ(Settings().ground.textureTileCm, 100.0);
    read = loadSettingsFromText("[ground]\ntexture_tile_cm = 0\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(read));
    EXPECT_EQ(std::get<ConfigError>(read).message,
              "x.toml:2:19: key 'ground.texture_tile_cm': must be in [1, 10000], got 0");
}

} // namespace
} // namespace snowcap
