#include "snow/world_file.hpp"

#include "core/untrusted_file.hpp"
#include "snow/snow_field.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <set>

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

// Where a decode reads from: bytes in memory (tests, fuzzing) or an open file (readWorldFile),
// so the file is read header first, one tile at a time, and never more than it claims.
struct Source {
    virtual ~Source() = default;
    virtual std::uint64_t remaining() const = 0;
    // False when fewer than `n` bytes are left (or the file cannot be read).
    virtual bool take(void* p, std::size_t n) = 0;
    template <class T> bool get(T& v) { return take(&v, sizeof(T)); }
};

struct MemorySource final : Source {
    const std::vector<std::uint8_t>& bytes;
    std::size_t at = 0;
    explicit MemorySource(const std::vector<std::uint8_t>& b) : bytes(b) {}
    std::uint64_t remaining() const override { return bytes.size() - at; }
    bool take(void* p, std::size_t n) override {
        if (bytes.size() - at < n)
            return false;
        std::memcpy(p, bytes.data() + at, n);
        at += n;
        return true;
    }
};

struct FileSource final : Source {
    UntrustedFile& file;
    std::string ioError; // a read that failed for another reason than the end
    explicit FileSource(UntrustedFile& f) : file(f) {}
    std::uint64_t remaining() const override { return file.remaining(); }
    bool take(void* p, std::size_t n) override {
        if (n > file.remaining())
            return false;
        if (auto error = file.read(p, n)) {
            ioError = *error;
            return false;
        }
        return true;
    }
};

// The fixed part of a sim's header, as it is on disk (and under its checksum).
struct SimHeader {
    std::uint32_t index, format, channels, tile, resolution;
    double texelCm, originX, originY, timeS, decayPending, agePendingS, refillPending;
    std::uint32_t tiles;
};
constexpr std::size_t kSimHeaderBytes = 5 * 4 + 7 * 8 + 4;
constexpr std::size_t kTileHeaderBytes = 12; // x, y, checksum

bool readSimHeader(Source& in, SimHeader& h, std::uint8_t (&raw)[kSimHeaderBytes]) {
    if (!in.take(raw, kSimHeaderBytes))
        return false;
    const std::uint8_t* p = raw;
    const auto next = [&p](auto& v) {
        std::memcpy(&v, p, sizeof v);
        p += sizeof v;
    };
    next(h.index), next(h.format), next(h.channels), next(h.tile), next(h.resolution);
    next(h.texelCm), next(h.originX), next(h.originY), next(h.timeS), next(h.decayPending);
    next(h.agePendingS), next(h.refillPending), next(h.tiles);
    return true;
}

// A tile's checksum covers what says where it goes and what it holds: the sim, the format, the
// coordinates and the payload, so a flipped or swapped coordinate is caught like a flipped texel.
std::uint32_t tileChecksum(std::uint32_t sim, std::uint32_t format, std::int32_t x, std::int32_t y,
                           const void* payload, std::size_t bytes) {
    std::uint8_t head[16];
    std::memcpy(head, &sim, 4);
    std::memcpy(head + 4, &format, 4);
    std::memcpy(head + 8, &x, 4);
    std::memcpy(head + 12, &y, 4);
    return crc32(payload, bytes, crc32(head, sizeof head));
}

// Within [0, quantum] (a remainder the clock can carry; a rounding below 0 is allowed).
bool remainderHolds(double value, double quantum) {
    return std::isfinite(value) && value >= -1e-9 && value <= quantum;
}

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
    w.u32(crc32(w.bytes.data(), w.bytes.size()));
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
            w.u32(tileChecksum(std::uint32_t(sim.simIndex), std::uint32_t(sim.format), key.first,
                               key.second, bits.data(), bits.size() * 2));
            w.raw(bits.data(), bits.size() * 2);
        }
    }
    return w.bytes;
}

namespace {

// Every check of the format, in file order: nothing of a part is trusted before its checksum
// holds, and nothing is allocated for a part before the bytes left can hold it.
std::variant<WorldFile, std::string> decode(Source& r) {
    char magic[8];
    if (!r.take(magic, 8) || std::memcmp(magic, kMagic, 8) != 0)
        return std::string("not a snowcap world file (no SNOWCAPW magic)");
    std::uint32_t version = 0, simCount = 0, headerCrc = 0;
    if (!r.get(version))
        return std::string("truncated in the header");
    if (version != WorldFile::kVersion)
        return fmt::format("world file version {}, this snowcap reads version {} only{}", version,
                           WorldFile::kVersion,
                           version == 1 ? " (version 1 kept the tile coordinates under no "
                                          "checksum; save the world again)"
                                        : "");
    if (!r.get(simCount) || !r.get(headerCrc))
        return std::string("truncated in the header");
    {
        std::uint8_t head[16];
        std::memcpy(head, kMagic, 8);
        std::memcpy(head + 8, &version, 4);
        std::memcpy(head + 12, &simCount, 4);
        if (crc32(head, sizeof head) != headerCrc)
            return std::string("corrupt: the file header's checksum does not match");
    }
    if (simCount == 0 || simCount > std::uint32_t(kMaxSims))
        return fmt::format("corrupt: {} sims", simCount);
    WorldFile file;
    std::uint32_t seenSims = 0; // a bit per sim index: one entry each
    for (std::uint32_t s = 0; s < simCount; ++s) {
        SimHeader h{};
        std::uint8_t raw[kSimHeaderBytes];
        std::uint32_t crc = 0;
        if (!readSimHeader(r, h, raw) || !r.get(crc))
            return fmt::format("truncated in sim {}'s header", s);
        if (crc != crc32(raw, sizeof raw))
            return fmt::format("corrupt: sim {}'s header checksum does not match", s);
        if (h.index >= std::uint32_t(kMaxSims) || h.format != 0 || h.channels != 1 || h.tile == 0 ||
            h.tile > kMaxTileTexels || h.resolution == 0 || h.resolution > kMaxResolution)
            return fmt::format("sim {}: unsupported layout (format {}, {} channels, {}-texel "
                               "tiles, {}² window)",
                               s, h.format, h.channels, h.tile, h.resolution);
        if (seenSims & (1u << h.index))
            return fmt::format("corrupt: sim {} is in the file twice", simName(int(h.index)));
        seenSims |= 1u << h.index;
        const std::string name = fmt::format("sim {}", simName(int(h.index)));
        if (!(h.texelCm >= kMinTexelCm && h.texelCm <= kMaxTexelCm))
            return fmt::format("{}: texel size {} cm is outside [{}, {}]", name, h.texelCm,
                               kMinTexelCm, kMaxTexelCm);
        if (!(std::abs(h.originX) <= kWorldExtentCm && std::abs(h.originY) <= kWorldExtentCm))
            return fmt::format("{}: grid origin ({}, {}) cm is outside the world (±{} cm)", name,
                               h.originX, h.originY, kWorldExtentCm);
        // The clock: a time the run could have reached, remainders the quanta can leave.
        if (!(std::isfinite(h.timeS) && h.timeS >= 0.0 && h.timeS <= kMaxClockS))
            return fmt::format("{}: clock time {} s is outside [0, {}]", name, h.timeS, kMaxClockS);
        if (!remainderHolds(h.decayPending, DecayQuantizer::kQuantum))
            return fmt::format("{}: decay remainder {} is outside [0, {}] (the half-safe "
                               "quantum)",
                               name, h.decayPending, DecayQuantizer::kQuantum);
        if (!remainderHolds(h.agePendingS, AgeClock::kQuantum))
            return fmt::format("{}: age remainder {} s is outside [0, {}]", name, h.agePendingS,
                               AgeClock::kQuantum);
        if (!remainderHolds(h.refillPending, LinearRefill::kQuantum))
            return fmt::format("{}: refill remainder {} is outside [0, {}]", name, h.refillPending,
                               LinearRefill::kQuantum);
        WorldFileSim sim;
        sim.simIndex = static_cast<int>(h.index);
        sim.format = static_cast<int>(h.format);
        sim.channels = static_cast<int>(h.channels);
        sim.tileTexels = static_cast<int>(h.tile);
        sim.resolution = static_cast<int>(h.resolution);
        sim.texelCm = h.texelCm;
        sim.originCm = {h.originX, h.originY};
        sim.clock = {h.timeS, h.decayPending, h.agePendingS, h.refillPending};
        const std::size_t payload = std::size_t(h.tile) * h.tile * h.channels;
        // A tile count the remaining bytes cannot hold is a lie: refuse before allocating.
        if (std::uint64_t(h.tiles) * (kTileHeaderBytes + payload * 2) > r.remaining())
            return fmt::format("truncated: sim {} claims {} tiles", s, h.tiles);
        // Tiles are bounded by the world's extent (and so every texel coordinate fits an int).
        const double tileCm = double(h.tile) * h.texelCm;
        const auto inWorld = [&](std::int32_t t) {
            return std::abs(double(t)) * tileCm <= kWorldExtentCm &&
                   std::abs(double(t)) * h.tile < double(1 << 30);
        };
        sim.tiles.reserve(h.tiles);
        std::set<WorldStore::Key> seen;
        for (std::uint32_t t = 0; t < h.tiles; ++t) {
            std::int32_t x, y;
            std::uint32_t tileCrc;
            std::vector<std::uint16_t> bits(payload);
            if (!r.get(x) || !r.get(y) || !r.get(tileCrc) || !r.take(bits.data(), payload * 2))
                return fmt::format("truncated in sim {}'s tile {}", s, t);
            if (tileChecksum(h.index, h.format, x, y, bits.data(), payload * 2) != tileCrc)
                return fmt::format("corrupt: sim {}'s tile {} ({}, {}) checksum does not match", s,
                                   t, x, y);
            if (!inWorld(x) || !inWorld(y))
                return fmt::format("{}: tile ({}, {}) is outside the world (±{} cm)", name, x, y,
                                   kWorldExtentCm);
            if (!seen.insert({x, y}).second)
                return fmt::format("corrupt: {}'s tile ({}, {}) is in the file twice", name, x, y);
            sim.tiles.push_back({{x, y}, std::move(bits)});
        }
        file.sims.push_back(std::move(sim));
    }
    if (r.remaining() != 0)
        return fmt::format("corrupt: {} bytes after the last tile", r.remaining());
    return file;
}

} // namespace

std::variant<WorldFile, std::string> decodeWorldFile(const std::vector<std::uint8_t>& bytes) {
    MemorySource source(bytes);
    return decode(source);
}

std::optional<std::string> worldFileRefusal(const Settings& settings) {
    for (int i = 0; i < static_cast<int>(settings.sims.size()); ++i) {
        const SimSettings& sim = settings.sims[i];
        if (sim.model == SimModel::Snowpack && sim.persistence == Persistence::World &&
            sim.region == RegionMode::FollowSnapped)
            return fmt::format("sim.{}.persistence = \"world\": a snowpack's world store is not "
                               "saved in or loaded from world files (they carry the masks' half "
                               "floats, not its columns); drop --world-out / --world-in or use "
                               "persistence = \"window\"",
                               simName(i));
    }
    return std::nullopt;
}

std::variant<WorldFile, std::string> snapshotWorld(SnowField& field) {
    if (auto refusal = worldFileRefusal(field.settings()))
        return *refusal;
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
    if (auto refusal = worldFileRefusal(field.settings()))
        return refusal;
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

std::variant<WorldFile, std::string> readWorldFile(const std::filesystem::path& path,
                                                   std::uint64_t maxBytes) {
    // A directory, FIFO or device is refused before it is opened; a file past the cap before
    // a byte is read; then the header before any body (core/untrusted_file.hpp).
    auto opened = UntrustedFile::open(path, maxBytes, "import.max_world_mib");
    if (auto* error = std::get_if<std::string>(&opened))
        return *error;
    FileSource source(std::get<UntrustedFile>(opened));
    auto decoded = decode(source);
    if (!source.ioError.empty())
        return source.ioError;
    if (auto* error = std::get_if<std::string>(&decoded))
        return fmt::format("{}: {}", path.string(), *error);
    return decoded;
}

} // namespace snowcap
