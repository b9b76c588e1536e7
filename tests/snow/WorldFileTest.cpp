// World files without a GPU: encode/decode round trip, and every bad-file class refused with a
// reason (truncated anywhere, a flipped payload or header byte, a foreign file, another version,
// bytes after the end, a tile count that lies), with the file on disk left as it was.
#include "TestSupport.hpp"
#include "snow/world_file.hpp"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <limits>
#include <sys/stat.h>

namespace snowcap {
namespace {

constexpr std::size_t kFileHeader = 20; // magic, version, sim count, their checksum
constexpr std::size_t kFirstTile = kFileHeader + 84;
constexpr std::size_t kTileBytes = 12 + 16 * 16 * 2;

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
    EXPECT_NE(reasonOf(bytes).find("(1, 4) checksum"), std::string::npos) << reasonOf(bytes);
    bytes = good;
    bytes[kFileHeader + 4 * 4 + 3] ^= 0x01; // inside sim 0's header (the resolution)
    EXPECT_NE(reasonOf(bytes).find("header checksum"), std::string::npos) << reasonOf(bytes);
    bytes = good;
    bytes[0] = 'P';
    EXPECT_NE(reasonOf(bytes).find("not a snowcap world file"), std::string::npos);
    EXPECT_NE(reasonOf({'P', 'f', '\n', '1'}).find("not a snowcap world file"), std::string::npos);
    bytes = good;
    bytes[8] = 3; // version 3
    EXPECT_NE(reasonOf(bytes).find("version 3"), std::string::npos) << reasonOf(bytes);
    bytes[8] = 1; // version 1: its tile coordinates were under no checksum
    EXPECT_NE(reasonOf(bytes).find("version 1, this snowcap reads version 2 only (version 1 "
                                   "kept the tile coordinates under no checksum"),
              std::string::npos)
        << reasonOf(bytes);
    bytes = good;
    bytes[12] ^= 0x01; // the sim count: the file header has its own checksum
    EXPECT_NE(reasonOf(bytes).find("the file header's checksum"), std::string::npos)
        << reasonOf(bytes);
    bytes = good;
    bytes.push_back(0);
    EXPECT_NE(reasonOf(bytes).find("1 bytes after the last tile"), std::string::npos);
    // A tile count the file cannot hold (header checksum recomputed, so only the count lies).
    WorldFile lying = sample();
    lying.sims[0].tiles.resize(1);
    bytes = encodeWorldFile(lying);
    const std::size_t countAt = kFileHeader + 5 * 4 + 7 * 8;
    bytes[countAt] = 0xff;
    bytes[countAt + 1] = 0xff;
    const std::uint32_t crc = crc32(bytes.data() + kFileHeader, countAt + 4 - kFileHeader);
    std::memcpy(bytes.data() + countAt + 4, &crc, 4);
    EXPECT_NE(reasonOf(bytes).find("claims 65535 tiles"), std::string::npos) << reasonOf(bytes);
}

// The header's checksum recomputed over a changed field (what a careful forger would do).
std::vector<std::uint8_t> withSimHeader(const std::vector<std::uint8_t>& good, std::size_t at,
                                        double value) {
    std::vector<std::uint8_t> bytes = good;
    std::memcpy(bytes.data() + kFileHeader + at, &value, 8);
    const std::uint32_t crc = crc32(bytes.data() + kFileHeader, 80);
    std::memcpy(bytes.data() + kFileHeader + 80, &crc, 4);
    return bytes;
}

TEST(WorldFile, TileCoordinatesAreUnderTheTilesChecksum) {
    const std::vector<std::uint8_t> good = encodeWorldFile(sample());
    std::vector<std::uint8_t> bytes = good;
    bytes[kFirstTile] ^= 0x01; // tile 0's x
    EXPECT_NE(reasonOf(bytes).find("tile 0 (-2, 0) checksum does not match"), std::string::npos)
        << reasonOf(bytes);
    bytes = good; // tiles 0 and 1 swap coordinates, each keeping its payload and checksum
    std::swap_ranges(bytes.begin() + kFirstTile, bytes.begin() + kFirstTile + 8,
                     bytes.begin() + kFirstTile + kTileBytes);
    EXPECT_NE(reasonOf(bytes).find("checksum does not match"), std::string::npos)
        << reasonOf(bytes);
    // Checksums right, coordinates out of the world, or a tile twice: refused by the bounds.
    WorldFile far = sample();
    far.sims[0].tiles[1].first = {2147483647, -2147483647 - 1};
    EXPECT_NE(reasonOf(encodeWorldFile(far))
                  .find("tile (2147483647, -2147483648) is outside the "
                        "world"),
              std::string::npos)
        << reasonOf(encodeWorldFile(far));
    WorldFile twice = sample();
    twice.sims[0].tiles[2].first = twice.sims[0].tiles[0].first;
    EXPECT_NE(reasonOf(encodeWorldFile(twice)).find("tile (-1, 0) is in the file twice"),
              std::string::npos)
        << reasonOf(encodeWorldFile(twice));
}

TEST(WorldFile, TheWholeClockStateIsChecked) {
    const std::vector<std::uint8_t> good = encodeWorldFile(sample());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    struct Case {
        std::size_t at; // offset in the sim header
        double value;
        const char* reason;
    };
    const std::size_t time = 20 + 3 * 8;
    for (const Case& c : {Case{time + 8, nan, "decay remainder nan is outside [0, 0.0078125]"},
                          Case{time + 8, -0.5, "decay remainder -0.5 is outside"},
                          Case{time + 8, 0.5, "decay remainder 0.5 is outside"},
                          Case{time, nan, "clock time nan s is outside"},
                          Case{time, 1e300, "clock time 1e+300 s is outside"},
                          Case{time, -1e300, "clock time -1e+300 s is outside"},
                          Case{time + 16, inf, "age remainder inf s is outside"},
                          Case{time + 24, -1.0, "refill remainder -1 is outside"},
                          Case{20, nan, "texel size nan cm is outside"},
                          Case{28, -inf, "grid origin (-inf, -8) cm is outside the world"}}) {
        const std::string reason = reasonOf(withSimHeader(good, c.at, c.value));
        EXPECT_NE(reason.find(c.reason), std::string::npos) << c.reason << " / " << reason;
    }
    EXPECT_EQ(reasonOf(withSimHeader(good, time, 1e6)), ""); // 11 days: a run can get there
}

TEST(WorldFile, SpecialFilesAndFilesPastTheCapAreRefusedBeforeReading) {
    const auto dir = test::scratchDir();
    const auto one = [](const std::filesystem::path& path, std::uint64_t cap = 0) {
        auto read = readWorldFile(path, cap);
        return std::holds_alternative<std::string>(read) ? std::get<std::string>(read) : "";
    };
    EXPECT_EQ(one(dir), dir.string() + ": not a regular file (a directory)");
    EXPECT_EQ(one("/dev/zero"), "/dev/zero: not a regular file (a character device)");
    const auto fifo = dir / "fifo.world";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(one(fifo), fifo.string() + ": not a regular file (a FIFO)"); // and did not block
    const auto path = dir / "good.world";
    const std::vector<std::uint8_t> bytes = encodeWorldFile(sample());
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<long>(bytes.size()));
    EXPECT_EQ(one(path), "");
    EXPECT_NE(one(path, 1000)
                  .find("file too large (0.00 MiB, limit import.max_world_mib = "
                        "0.00 MiB)"),
              std::string::npos)
        << one(path, 1000);
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
