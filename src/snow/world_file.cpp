#include "snow/world_file.hpp"

#include "snow/snow_field.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>

namespace snowcap {

namespace {

constexpr char kMagic[8] = {'S', 'N', 'O', 'W', 'C', 'A', 'P', 'W'};
// A tile side or window beyond these is not a file snowcap wrote (and would allocate wildly).
constexpr std::uint32_t kMaxTileTexels = 1024, kMaxResolution = 8192;

struct Writer {
    std::vector<std::uint8_t> bytes;
    void raw(const void* p, std::size_t n) {
        const auto* b = static_cast<const std::uint8_t*>(p);
        bytes.insert(bytes.end(), b, b + n);
    }
    void u32(std::uint32_t v) { raw(&v, 4); } // the machines snowcap runs on are little endian
    void i32(std::int32_t v) { raw(&v, 4); }
    void f64(double v) { raw(&v, 8); }
};

struct Reader {
    const std::vector<std::uint8_t>& bytes;
    std::size_t at = 0;
    bool take(void* p, std::size_t n) {
        if (bytes.size() - at < n)
            return false;
        std::memcpy(p, bytes.data() + at, n);
        at += n;
        return true;
    }
    template <class T> bool get(T& v) { return take(&v, sizeof(T)); }
};

static_assert(std::endian::native == std::endian::little, "world files are little endian");

} // namespace

std::uint32_t crc32(const void* data, std::size_t bytes, std::uint32_t crc) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    crc = ~crc;
    const auto* p = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < bytes; ++i)
        crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

std::vector<std::uint8_t> encodeWorldFile(const WorldFile& file) {
    Writer w;
    w.raw(kMagic, 8);
    w.u32(WorldFile::kVersion);
    w.u32(static_cast<std::uint32_t>(file.sims.size()));
    for (const WorldFileSim& sim : file.sims) {
        const std::size_t start = w.bytes.size();
        w.u32(static_cast<std::uint32_t>(sim.simIndex));
        w.u32(static_cast<std::uint32_t>(sim.format));
        w.u32(static_cast<std::uint32_t>(sim.channels));
        w.u32(static_cast<std::uint32_t>(sim.tileTexels));
        w.u32(static_cast<std::uint32_t>(sim.resolution));
        w.f64(sim.texelCm);
        w.f64(sim.originCm.x);
        w.f64(sim.originCm.y);
        w.f64(sim.clock.timeS);
        w.f64(sim.clock.decayPending);
        w.f64(sim.clock.agePendingS);
        w.f64(sim.clock.refillPending);
        w.u32(static_cast<std::uint32_t>(sim.tiles.size()));
        w.u32(crc32(w.bytes.data() + start, w.bytes.size() - start));
        for (const auto& [key, bits] : sim.tiles) {
            w.i32(key.first);
            w.i32(key.second);
            w.u32(crc32(bits.data(), bits.size() * 2));
            w.raw(bits.data(), bits.size() * 2);
        }
    }
    return w.bytes;
}

std::variant<WorldFile, std::string> decodeWorldFile(const std::vector<std::uint8_t>& bytes) {
    Reader r{bytes};
    char magic[8];
    if (!r.take(magic, 8) || std::memcmp(magic, kMagic, 8) != 0)
        return std::string("not a snowcap world file (no SNOWCAPW magic)");
    std::uint32_t version = 0, simCount = 0;
    if (!r.get(version) || !r.get(simCount))
        return std::string("truncated in the header");
    if (version != WorldFile::kVersion)
        return fmt::format("world file version {}, this snowcap reads {}", version,
                           WorldFile::kVersion);
    if (simCount == 0 || simCount > std::uint32_t(kMaxSims))
        return fmt::format("corrupt: {} sims", simCount);
    WorldFile file;
    for (std::uint32_t s = 0; s < simCount; ++s) {
        const std::size_t start = r.at;
        std::uint32_t index, format, channels, tile, resolution, tiles, crc;
        WorldFileSim sim;
        if (!r.get(index) || !r.get(format) || !r.get(channels) || !r.get(tile) ||
            !r.get(resolution) || !r.get(sim.texelCm) || !r.get(sim.originCm.x) ||
            !r.get(sim.originCm.y) || !r.get(sim.clock.timeS) || !r.get(sim.clock.decayPending) ||
            !r.get(sim.clock.agePendingS) || !r.get(sim.clock.refillPending) || !r.get(tiles))
            return fmt::format("truncated in sim {}'s header", s);
        const std::uint32_t computed = crc32(bytes.data() + start, r.at - start);
        if (!r.get(crc))
            return fmt::format("truncated in sim {}'s header", s);
        if (crc != computed)
            return fmt::format("corrupt: sim {}'s header checksum does not match", s);
        if (index >= std::uint32_t(kMaxSims) || format != 0 || channels != 1 || tile == 0 ||
            tile > kMaxTileTexels || resolution == 0 || resolution > kMaxResolution)
            return fmt::format("sim {}: unsupported layout (format {}, {} channels, {}-texel "
                               "tiles, {}² window)",
                               s, format, channels, tile, resolution);
        sim.simIndex = static_cast<int>(index);
        sim.format = static_cast<int>(format);
        sim.channels = static_cast<int>(channels);
        sim.tileTexels = static_cast<int>(tile);
        sim.resolution = static_cast<int>(resolution);
        const std::size_t payload = std::size_t(tile) * tile * channels;
        // A tile count the remaining bytes cannot hold is a lie: refuse before allocating.
        if (std::uint64_t(tiles) * (12 + payload * 2) > bytes.size() - r.at)
            return fmt::format("truncated: sim {} claims {} tiles", s, tiles);
        for (std::uint32_t t = 0; t < tiles; ++t) {
            std::int32_t x, y;
            std::uint32_t tileCrc;
            std::vector<std::uint16_t> bits(payload);
            if (!r.get(x) || !r.get(y) || !r.get(tileCrc) || !r.take(bits.data(), payload * 2))
                return fmt::format("truncated in sim {}'s tile {}", s, t);
            if (crc32(bits.data(), payload * 2) != tileCrc)
                return fmt::format("corrupt: sim {}'s tile ({}, {}) checksum does not match", s, x,
                                   y);
            sim.tiles.push_back({{x, y}, std::move(bits)});
        }
        file.sims.push_back(std::move(sim));
    }
    if (r.at != bytes.size())
        return fmt::format("corrupt: {} bytes after the last tile", bytes.size() - r.at);
    return file;
}

std::variant<WorldFile, std::string> snapshotWorld(SnowField& field) {
    WorldFile file;
    for (int i = 0; i < field.simCount(); ++i) {
        WorldPager* pager = field.world(i);
        if (!pager)
            continue;
        pager->finish();
        const SnowSim& sim = field.sim(i);
        WorldStore copy(pager->store().tileTexels(), 1, std::numeric_limits<std::size_t>::max());
        for (const auto& [key, tile] : pager->store().tiles())
            copy.insert(key, tile);
        // Every window (observers), folded in as of now (the store holds 0 under them;
        // overlapping windows hold the same texels, so the order does not matter).
        const int n = sim.region().resolution;
        for (int w = 0; w < field.windowCount(i); ++w) {
            const SnowSim& window = field.window(i, w);
            const std::vector<float> texels = window.persistent().readFloats();
            std::vector<std::uint16_t> bits(texels.size());
            for (std::size_t t = 0; t < texels.size(); ++t)
                bits[t] = floatToHalfBits(texels[t]);
            copy.write({pager->windowCorner(window.region().centreCm), {n, n}}, bits,
                       pager->log().steps(), pager->log());
        }
        copy.ageAll(pager->log());
        WorldFileSim out;
        out.simIndex = i;
        out.tileTexels = copy.tileTexels();
        out.resolution = n;
        out.texelCm = pager->configured().texelCm();
        out.originCm = pager->configured().centreCm;
        out.clock = sim.clock().state();
        for (const auto& [key, tile] : copy.tiles())
            out.tiles.push_back({key, copy.tileBits(tile)});
        file.sims.push_back(std::move(out));
    }
    if (file.sims.empty())
        return std::string("no sim keeps a world (sim.X.persistence = \"world\" with region = "
                           "\"follow_snapped\")");
    return file;
}

std::optional<std::string> applyWorld(SnowField& field, const WorldFile& file) {
    for (const WorldFileSim& sim : file.sims) {
        const std::string name = fmt::format("sim.{}", simName(sim.simIndex));
        const WorldPager* pager =
            sim.simIndex < field.simCount() ? field.world(sim.simIndex) : nullptr;
        if (!pager)
            return name + " keeps no world here (sim.X.persistence = \"world\", follow_snapped)";
        const Region& here = pager->configured();
        if (sim.texelCm != here.texelCm())
            return fmt::format("{}: saved at {} cm a texel, this run has {} cm", name, sim.texelCm,
                               here.texelCm());
        if (sim.resolution != here.resolution || sim.tileTexels != pager->store().tileTexels())
            return fmt::format("{}: saved with a {}² window ({}-texel tiles), this run has {}²",
                               name, sim.resolution, sim.tileTexels, here.resolution);
        if (sim.originCm != here.centreCm)
            return fmt::format("{}: saved on a grid through ({}, {}) cm, this run's is through "
                               "({}, {})",
                               name, sim.originCm.x, sim.originCm.y, here.centreCm.x,
                               here.centreCm.y);
    }
    for (const WorldFileSim& sim : file.sims) {
        WorldPager& pager = *field.world(sim.simIndex);
        pager.reset(); // an empty log: the tiles are "as of now"
        for (const auto& [key, bits] : sim.tiles)
            pager.store().insert(key, {bits, 0, 0});
        field.sim(sim.simIndex).restoreClock(sim.clock);
    }
    field.restoreWorldWindows();
    return std::nullopt;
}

std::variant<WorldFile, std::string> readWorldFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fmt::format("{}: cannot open", path.string());
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                          std::istreambuf_iterator<char>()};
    auto decoded = decodeWorldFile(bytes);
    if (auto* error = std::get_if<std::string>(&decoded))
        return fmt::format("{}: {}", path.string(), *error);
    return decoded;
}

} // namespace snowcap
