// World files without a GPU: encode/decode round trip, and every bad-file class refused with a
// reason (truncated anywhere, a flipped payload or header byte, a foreign file, another version,
// bytes after the end, a tile count that lies), with the file on disk left as it was.
#include "TestSupport.hpp"
#include "snow/world_file.hpp"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>

namespace snowcap {
namespace {

WorldFile sample() {
    WorldFile file;
    WorldFileSim sim;
    sim.simIndex = 1;
    sim.tileTexels = 16;
    sim.resolution = 64;
    sim.texelCm = 4.0;
    sim.originCm = {12.0, -8.0};
    sim.clock = {12.5, 0.003, 0.01, 0.0002};
    for (int t = 0; t < 3; ++t) {
        std::vector<std::uint16_t> bits(16 * 16);
        for (std::size_t i = 0; i < bits.size(); ++i)
            bits[i] = static_cast<std::uint16_t>((i * 37 + t * 101) % 0x3c00);
        sim.tiles.push_back({{t - 1, 2 * t}, bits});
    }
    file.sims.push_back(sim);
    return file;
}

std::string reasonOf(const std::vector<std::uint8_t>& bytes) {
    auto decoded = decodeWorldFile(bytes);
    auto* error = std::get_if<std::string>(&decoded);
    return error ? *error : std::string();
}

TEST(WorldFile, RoundTripsBitForBit) {
    const std::vector<std::uint8_t> bytes = encodeWorldFile(sample());
    auto decoded = decodeWorldFile(bytes);
    ASSERT_TRUE(std::holds_alternative<WorldFile>(decoded)) << reasonOf(bytes);
    const WorldFile& file = std::get<WorldFile>(decoded);
    ASSERT_EQ(file.sims.size(), 1u);
    EXPECT_EQ(file.sims[0].clock, sample().sims[0].clock);
    EXPECT_EQ(file.sims[0].tiles, sample().sims[0].tiles);
    EXPECT_EQ(encodeWorldFile(file), bytes);
}

TEST(WorldFile, EveryTruncationIsRefused) {
    const std::vector<std::uint8_t> bytes = encodeWorldFile(sample());
    for (std::size_t n = 0; n < bytes.size(); n += 7) {
        const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(n));
        EXPECT_FALSE(reasonOf(cut).empty()) << n << " bytes";
    }
    EXPECT_NE(reasonOf({bytes.begin(), bytes.end() - 1}).find("truncated"), std::string::npos);
}

TEST(WorldFile, CorruptForeignAndOtherVersionsAreRefused) {
    const std::vector<std::uint8_t> good = encodeWorldFile(sample());
    std::vector<std::uint8_t> bytes = good;
    bytes[bytes.size() - 3] ^= 0x10; // a payload bit of the last tile
    EXPECT_NE(reasonOf(bytes).find("tile (1, 4) checksum"), std::string::npos) << reasonOf(bytes);
    bytes = good;
    bytes[8 + 8 + 4 * 4 + 3] ^= 0x01; // inside sim 0's header (the resolution)
    EXPECT_NE(reasonOf(bytes).find("header checksum"), std::string::npos) << reasonOf(bytes);
    bytes = good;
    bytes[0] = 'P';
    EXPECT_NE(reasonOf(bytes).find("not a snowcap world file"), std::string::npos);
    EXPECT_NE(reasonOf({'P', 'f', '\n', '1'}).find("not a snowcap world file"), std::string::npos);
    bytes = good;
    bytes[8] = 2; // version 2
    EXPECT_NE(reasonOf(bytes).find("version 2"), std::string::npos) << reasonOf(bytes);
    bytes = good;
    bytes.push_back(0);
    EXPECT_NE(reasonOf(bytes).find("1 bytes after the last tile"), std::string::npos);
    // A tile count the file cannot hold (header checksum recomputed, so only the count lies).
    WorldFile lying = sample();
    lying.sims[0].tiles.resize(1);
    bytes = encodeWorldFile(lying);
    const std::size_t countAt = 8 + 8 + 5 * 4 + 7 * 8;
    bytes[countAt] = 0xff;
    bytes[countAt + 1] = 0xff;
    const std::uint32_t crc = crc32(bytes.data() + 16, countAt + 4 - 16);
    std::memcpy(bytes.data() + countAt + 4, &crc, 4);
    EXPECT_NE(reasonOf(bytes).find("claims 65535 tiles"), std::string::npos) << reasonOf(bytes);
}

TEST(WorldFile, ReadingABadFileNamesItAndLeavesItAsItWas) {
    const auto dir = test::scratchDir();
    const auto path = dir / "bad.world";
    std::vector<std::uint8_t> bytes = encodeWorldFile(sample());
    bytes.resize(bytes.size() / 2);
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<long>(bytes.size()));
    }
    auto read = readWorldFile(path);
    ASSERT_TRUE(std::holds_alternative<std::string>(read));
    const std::string& line = std::get<std::string>(read);
    EXPECT_EQ(line.rfind(path.string() + ": truncated", 0), 0u) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos);
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> after{std::istreambuf_iterator<char>(in),
                                          std::istreambuf_iterator<char>()};
    EXPECT_EQ(after, bytes);
    EXPECT_NE(std::get<std::string>(readWorldFile(dir / "missing.world")).find("cannot open"),
              std::string::npos);
}

} // namespace
} // namespace snowcap
