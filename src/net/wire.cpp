#include "net/wire.hpp"

#include "snow/world_file.hpp" // crc32

#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <type_traits>

namespace snowcap::net {

namespace {

class Writer {
public:
    std::vector<std::uint8_t> bytes;
    void u8(std::uint8_t v) { bytes.push_back(v); }
    void u16(std::uint16_t v) { raw(&v, 2); }
    void u32(std::uint32_t v) { raw(&v, 4); }
    void u64(std::uint64_t v) { raw(&v, 8); }
    void f32(float v) { raw(&v, 4); }
    void f64(double v) { raw(&v, 8); }
    void text(const std::string& s) {
        u32(static_cast<std::uint32_t>(s.size()));
        raw(s.data(), s.size());
    }
    void raw(const void* data, std::size_t n) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        bytes.insert(bytes.end(), p, p + n); // little-endian hosts only (static_assert below)
    }
};
static_assert(std::endian::native == std::endian::little, "the wire is little endian");

// Reads within the payload; the first overrun or bad value sets `error` and every later read
// returns zeros, so a decoder checks once at the end (and before each allocation).
class Reader {
public:
    explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    std::string error;
    bool ok() const { return error.empty(); }
    std::size_t left() const { return bytes_.size() - at_; }
    void fail(std::string why) {
        if (error.empty())
            error = std::move(why);
    }

    std::uint8_t u8() { return get<std::uint8_t>(); }
    std::uint16_t u16() { return get<std::uint16_t>(); }
    std::uint32_t u32() { return get<std::uint32_t>(); }
    std::uint64_t u64() { return get<std::uint64_t>(); }
    float f32() {
        const float v = get<float>();
        if (!std::isfinite(v))
            fail("a number is not finite");
        return std::isfinite(v) ? v : 0.0f;
    }
    double f64() {
        const double v = get<double>();
        if (!std::isfinite(v))
            fail("a number is not finite");
        return std::isfinite(v) ? v : 0.0;
    }
    // A count of items of at least `itemBytes` each, at most `cap`, that the bytes left can hold.
    std::size_t count(std::size_t cap, std::size_t itemBytes, const char* what) {
        const std::uint32_t n = u32();
        if (!ok())
            return 0;
        if (n > cap) {
            fail(std::string(what) + " over its cap");
            return 0;
        }
        if (itemBytes > 0 && n > left() / itemBytes) {
            fail(std::string(what) + " past the packet's end");
            return 0;
        }
        return n;
    }
    std::string text() {
        const std::size_t n = count(kMaxTextBytes, 1, "a text");
        std::string s;
        if (ok()) {
            s.assign(reinterpret_cast<const char*>(bytes_.data() + at_), n);
            at_ += n;
        }
        return s;
    }
    std::vector<std::uint8_t> blob(std::size_t n) {
        std::vector<std::uint8_t> out;
        if (ok() && n <= left()) {
            out.assign(bytes_.begin() + static_cast<std::ptrdiff_t>(at_),
                       bytes_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
            at_ += n;
        } else {
            fail("a blob past the packet's end");
        }
        return out;
    }

private:
    template <class T> T get() {
        T v{};
        if (!ok() || left() < sizeof(T)) {
            fail("the payload ends early");
            return T{};
        }
        std::memcpy(&v, bytes_.data() + at_, sizeof(T));
        at_ += sizeof(T);
        return v;
    }
    std::span<const std::uint8_t> bytes_;
    std::size_t at_ = 0;
};

// ---- payloads ---------------------------------------------------------------------------------

void put(Writer& w, const Welcome& m) {
    w.u32(m.clientId);
    w.u8(static_cast<std::uint8_t>(m.mode));
    w.u32(m.frames);
    w.u32(m.tileTexels);
    w.u32(m.checksumEvery);
    w.u64(m.settingsHash);
    w.text(m.scenario);
    w.u32(static_cast<std::uint32_t>(m.overrides.size()));
    for (const std::string& line : m.overrides)
        w.text(line);
}
void get(Reader& r, Welcome& m) {
    m.clientId = r.u32();
    const std::uint8_t mode = r.u8();
    if (mode > static_cast<std::uint8_t>(NetMode::Hybrid))
        r.fail("an unknown mode");
    m.mode = static_cast<NetMode>(mode);
    m.frames = r.u32();
    m.tileTexels = r.u32();
    if (r.ok() && (m.tileTexels < 8 || m.tileTexels > 1024))
        r.fail("a tile size outside 8..1024");
    m.checksumEvery = r.u32();
    m.settingsHash = r.u64();
    m.scenario = r.text();
    const std::size_t n = r.count(kMaxOverrides, 4, "the overrides");
    for (std::size_t i = 0; i < n && r.ok(); ++i)
        m.overrides.push_back(r.text());
}

void put(Writer& w, const Tiles& m) {
    w.u8(m.sim);
    w.u8(static_cast<std::uint8_t>(m.kind));
    w.u8(m.compression);
    w.u32(static_cast<std::uint32_t>(m.tiles.size()));
    for (const Tile& tile : m.tiles) {
        w.u32(tile.index);
        w.u32(static_cast<std::uint32_t>(tile.packed.size()));
        w.raw(tile.packed.data(), tile.packed.size());
    }
}
void get(Reader& r, Tiles& m) {
    m.sim = r.u8();
    if (r.ok() && m.sim >= kMaxSims)
        r.fail("a sim past sim.h");
    const std::uint8_t kind = r.u8();
    if (kind > static_cast<std::uint8_t>(TilesKind::Resend))
        r.fail("an unknown tile set kind");
    m.kind = static_cast<TilesKind>(kind);
    m.compression = r.u8();
    if (m.compression > 2)
        r.fail("an unknown compression");
    const std::size_t n = r.count(kMaxTilesPerMessage, 9, "the tiles");
    m.tiles.reserve(n);
    for (std::size_t i = 0; i < n && r.ok(); ++i) {
        Tile tile;
        tile.index = r.u32();
        const std::size_t bytes = r.count(kMaxPayloadBytes, 1, "a tile's bytes");
        if (r.ok() && bytes == 0)
            r.fail("an empty tile");
        tile.packed = r.blob(bytes);
        m.tiles.push_back(std::move(tile));
    }
}

void put(Writer& w, const StepInputs& m) {
    w.u32(static_cast<std::uint32_t>(m.instances.size()));
    for (const InstancePose& pose : m.instances) {
        w.u8(pose.visible ? 1 : 0);
        w.u8(pose.contact);
        for (float v : pose.model)
            w.f32(v);
        for (float v : pose.bounds)
            w.f32(v);
        for (float v : pose.sway)
            w.f32(v);
        w.u32(static_cast<std::uint32_t>(pose.joints.size()));
        for (const auto& joint : pose.joints)
            for (float v : joint)
                w.f32(v);
    }
}
void get(Reader& r, StepInputs& m) {
    constexpr std::size_t kPoseBytes = 2 + 4 * (16 + 6 + 4) + 4;
    const std::size_t n = r.count(kMaxInstances, kPoseBytes, "the instances");
    m.instances.reserve(n);
    for (std::size_t i = 0; i < n && r.ok(); ++i) {
        InstancePose pose;
        const std::uint8_t visible = r.u8();
        if (visible > 1)
            r.fail("a visibility flag that is not 0 or 1");
        pose.visible = visible == 1;
        pose.contact = r.u8();
        if (pose.contact > 7)
            r.fail("an unknown contact type");
        for (float& v : pose.model)
            v = r.f32();
        for (float& v : pose.bounds)
            v = r.f32();
        for (float& v : pose.sway)
            v = r.f32();
        const std::size_t joints = r.count(kMaxJoints, 64, "a pose's joints");
        pose.joints.resize(joints);
        for (auto& joint : pose.joints)
            for (float& v : joint)
                v = r.f32();
        m.instances.push_back(std::move(pose));
    }
}

void put(Writer& w, const Checksums& m) {
    w.u8(m.sim);
    w.u32(static_cast<std::uint32_t>(m.crcs.size()));
    for (std::uint32_t crc : m.crcs)
        w.u32(crc);
}
void get(Reader& r, Checksums& m) {
    m.sim = r.u8();
    if (r.ok() && m.sim >= kMaxSims)
        r.fail("a sim past sim.h");
    const std::size_t n = r.count(kMaxTilesPerMessage, 4, "the checksums");
    m.crcs.resize(n);
    for (std::uint32_t& crc : m.crcs)
        crc = r.u32();
}

void put(Writer& w, const StepEnd& m) {
    w.u32(static_cast<std::uint32_t>(m.clocks.size()));
    for (const SimClock::State& clock : m.clocks) {
        w.f64(clock.timeS);
        w.f64(clock.decayPending);
        w.f64(clock.agePendingS);
        w.f64(clock.refillPending);
    }
    w.u32(static_cast<std::uint32_t>(m.centres.size()));
    for (const std::array<double, 2>& centre : m.centres) {
        w.f64(centre[0]);
        w.f64(centre[1]);
    }
}
void get(Reader& r, StepEnd& m) {
    const std::size_t n = r.count(kMaxSims, 32, "the clocks");
    m.clocks.resize(n);
    for (SimClock::State& clock : m.clocks) {
        clock.timeS = r.f64();
        clock.decayPending = r.f64();
        clock.agePendingS = r.f64();
        clock.refillPending = r.f64();
    }
    const std::size_t windows = r.count(kMaxSims, 16, "the window centres");
    m.centres.resize(windows);
    for (std::array<double, 2>& centre : m.centres) {
        centre[0] = r.f64();
        centre[1] = r.f64();
    }
}

void put(Writer& w, const Refused& m) {
    w.text(m.reason);
}
void get(Reader& r, Refused& m) {
    m.reason = r.text();
}
void put(Writer&, const End&) {}
void get(Reader&, End&) {}
void put(Writer& w, const Hello& m) {
    w.u8(m.version);
}
void get(Reader& r, Hello& m) {
    m.version = r.u8();
}
void put(Writer&, const Reached&) {}
void get(Reader&, Reached&) {}
void put(Writer& w, const PlayerInput& m) {
    w.f32(m.x);
    w.f32(m.y);
}
void get(Reader& r, PlayerInput& m) {
    m.x = r.f32();
    m.y = r.f32();
}
void put(Writer& w, const TileRequest& m) {
    w.u8(m.sim);
    w.u32(static_cast<std::uint32_t>(m.tiles.size()));
    for (std::uint32_t tile : m.tiles)
        w.u32(tile);
}
void get(Reader& r, TileRequest& m) {
    m.sim = r.u8();
    if (r.ok() && m.sim >= kMaxSims)
        r.fail("a sim past sim.h");
    const std::size_t n = r.count(kMaxTileRequest, 4, "the requested tiles");
    m.tiles.resize(n);
    for (std::uint32_t& tile : m.tiles)
        tile = r.u32();
}

// The body of a type, default-constructed, for `get` to fill.
std::optional<Body> emptyBody(std::uint8_t type) {
    switch (static_cast<MessageType>(type)) {
    case MessageType::Welcome:
        return Welcome{};
    case MessageType::Tiles:
        return Tiles{};
    case MessageType::StepInputs:
        return StepInputs{};
    case MessageType::Checksums:
        return Checksums{};
    case MessageType::StepEnd:
        return StepEnd{};
    case MessageType::Refused:
        return Refused{};
    case MessageType::End:
        return End{};
    case MessageType::Hello:
        return Hello{};
    case MessageType::Reached:
        return Reached{};
    case MessageType::PlayerInput:
        return PlayerInput{};
    case MessageType::TileRequest:
        return TileRequest{};
    }
    return std::nullopt;
}

} // namespace

MessageType typeOf(const Body& body) {
    constexpr MessageType kTypes[] = {
        MessageType::Welcome,     MessageType::Tiles,      MessageType::StepInputs,
        MessageType::Checksums,   MessageType::StepEnd,    MessageType::Refused,
        MessageType::End,         MessageType::Hello,      MessageType::Reached,
        MessageType::PlayerInput, MessageType::TileRequest};
    static_assert(std::size(kTypes) == std::variant_size_v<Body>);
    return kTypes[body.index()];
}

bool fromClient(MessageType type) {
    return static_cast<std::uint8_t>(type) >= static_cast<std::uint8_t>(MessageType::Hello);
}

std::vector<std::uint8_t> sealedPacket(std::uint8_t type, std::uint32_t step,
                                       std::span<const std::uint8_t> payload) {
    Writer w;
    w.bytes.reserve(kHeaderBytes + payload.size());
    w.u16(kMagic);
    w.u8(kVersion);
    w.u8(type);
    w.u32(step);
    w.u32(static_cast<std::uint32_t>(payload.size()));
    w.u32(crc32(payload.data(), payload.size()));
    w.raw(payload.data(), payload.size());
    return std::move(w.bytes);
}

std::vector<std::uint8_t> encode(const Message& message) {
    Writer payload;
    std::visit([&](const auto& body) { put(payload, body); }, message.body);
    return sealedPacket(static_cast<std::uint8_t>(typeOf(message.body)), message.step,
                        payload.bytes);
}

std::variant<Message, std::string> decode(std::span<const std::uint8_t> packet,
                                          std::size_t maxPayload) {
    if (packet.size() < kHeaderBytes)
        return std::string("shorter than the header");
    Reader head(packet.first(kHeaderBytes));
    const std::uint16_t magic = head.u16();
    const std::uint8_t version = head.u8();
    const std::uint8_t type = head.u8();
    Message message;
    message.step = head.u32();
    const std::uint32_t length = head.u32();
    const std::uint32_t crc = head.u32();
    if (magic != kMagic)
        return std::string("not a snowcap packet");
    if (version != kVersion)
        return "protocol version " + std::to_string(version) + ", this build speaks " +
               std::to_string(kVersion);
    if (length > maxPayload)
        return "a payload of " + std::to_string(length) + " bytes, over the cap of " +
               std::to_string(maxPayload);
    if (length != packet.size() - kHeaderBytes)
        return std::string("the header's length is not the packet's");
    const std::span<const std::uint8_t> payload = packet.subspan(kHeaderBytes);
    if (crc32(payload.data(), payload.size()) != crc)
        return std::string("the payload's checksum does not match");
    std::optional<Body> body = emptyBody(type);
    if (!body)
        return "an unknown message type " + std::to_string(type);
    Reader r(payload);
    std::visit([&](auto& b) { get(r, b); }, *body);
    if (!r.ok())
        return r.error;
    if (r.left() != 0)
        return std::string("bytes past the message's end");
    message.body = std::move(*body);
    return message;
}

} // namespace snowcap::net
