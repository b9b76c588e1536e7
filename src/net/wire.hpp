#pragma once
// The wire format of a networked session (docs/network.md, "Wire format"): every message is one
// ENet packet, little endian, behind one fixed header
//
//   u16 magic 0x4E53 ("SN")  u8 version  u8 type  u32 step  u32 payload bytes  u32 CRC-32(payload)
//
// and a payload whose layout the type fixes. Decoding believes nothing: the header must match
// the packet's length, the payload its checksum and its type's cap, every count must fit the
// bytes left before anything is allocated for it, and every float must be finite. A packet that
// fails any of these is dropped whole (decode returns the reason) and the session goes on.
//
// No GL here: the server and the client turn these into sim state elsewhere (net/tiles.hpp,
// net/server.hpp, net/client.hpp).

#include "core/sim_clock.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace snowcap::net {

inline constexpr std::uint16_t kMagic = 0x4E53;
inline constexpr std::uint8_t kVersion = 2; // 2: StepEnd carries each sim's window centre
inline constexpr std::size_t kHeaderBytes = 16;

// What may cross the wire at most. The biggest message is a late joiner's snapshot part or a
// 1,000-deformer input step; both are split or capped well below this.
inline constexpr std::size_t kMaxPayloadBytes = 8u << 20;
// What a client may send (its messages are small; anything bigger is a lie).
inline constexpr std::size_t kMaxClientPayloadBytes = 4096;
inline constexpr std::size_t kMaxTextBytes = 1024;  // a name, an override, a refusal
inline constexpr std::size_t kMaxOverrides = 256;   // --set lines of the scenario
inline constexpr std::size_t kMaxSims = 8;          // sim.a .. sim.h
inline constexpr std::size_t kMaxInstances = 20000; // deformers + crowd members + plants
inline constexpr std::size_t kMaxJoints = 256;      // joint matrices of one skinned pose
inline constexpr std::size_t kMaxTilesPerMessage = 65536;
inline constexpr std::size_t kMaxTileRequest = 256; // tiles one client message may ask for

enum class MessageType : std::uint8_t {
    // server -> client
    Welcome = 1,    // the session: the client's id, the mode, the scenario to load
    Tiles = 2,      // tiles of one sim's buffer (a snapshot part, a step's changes, a resend)
    StepInputs = 3, // what moves the snow in one step: every instance's pose
    Checksums = 4,  // one sim's per-tile checksums at a step
    StepEnd = 5,    // everything of a step has been sent; with each sim's clock
    Refused = 6,    // why the server will not take this client (or this message), one line
    End = 7,        // the session ends at this step
    // client -> server
    Hello = 16,       // a client's first message: its protocol version
    Reached = 17,     // the client has applied every step up to `step`
    PlayerInput = 18, // the player's input for a step (world XY direction, length <= 1)
    TileRequest = 19, // hybrid: tiles found divergent at `step`, to be resent as state
};

// What a tile set is: a late joiner's snapshot, a state step's changed tiles, a hybrid resend.
enum class TilesKind : std::uint8_t { Snapshot = 0, Changes = 1, Resend = 2 };

struct Welcome {
    std::uint32_t clientId = 0;
    NetMode mode = NetMode::State;   // net.mode
    std::uint32_t frames = 0;        // the session ends after this step (0: no end given)
    std::uint32_t tileTexels = 32;   // tile side
    std::uint32_t checksumEvery = 0; // inputs / hybrid: checksums every K steps
    std::uint64_t settingsHash = 0;  // of the server's loaded settings (paramsToml)
    std::string scenario;
    std::vector<std::string> overrides;
};

struct Tile {
    std::uint32_t index = 0;          // tile number in the sim's grid, row by row from y = 0
    std::vector<std::uint8_t> packed; // the tile codec's packing of its 16-bit words
};

struct Tiles {
    std::uint8_t sim = 0;
    TilesKind kind = TilesKind::Changes;
    std::uint8_t compression = 0; // WorldCompression's value (off, lz4, zstd)
    std::vector<Tile> tiles;
};

// One instance's pose as the capture and the renderer read it (snow/deformer_batch.hpp's
// DeformerInstance without its mesh: the client has the same list of meshes, in order).
struct InstancePose {
    bool visible = true; // false: no mesh this step (a hidden deformer)
    std::uint8_t contact = 0;
    std::array<float, 16> model{};
    std::array<float, 6> bounds{}; // world bounds min xyz, max xyz
    std::array<float, 4> sway{};
    std::vector<std::array<float, 16>> joints;
};

struct StepInputs {
    std::vector<InstancePose> instances;
};

struct Checksums {
    std::uint8_t sim = 0;
    std::vector<std::uint32_t> crcs; // one per tile, in tile order
};

struct StepEnd {
    std::vector<SimClock::State> clocks; // each sim's clock after the step
    // Where each sim's window stands after the step (its region's centre, cm), or none when
    // every region is fixed: a following window moves with its observer, and a client's texels
    // are only the server's where its window stands where the server's does.
    std::vector<std::array<double, 2>> centres;
};

struct Refused {
    std::string reason;
};

struct End {};

struct Hello {
    std::uint8_t version = kVersion;
};

struct Reached {};

struct PlayerInput {
    float x = 0.0f, y = 0.0f;
};

struct TileRequest {
    std::uint8_t sim = 0;
    std::vector<std::uint32_t> tiles;
};

using Body = std::variant<Welcome, Tiles, StepInputs, Checksums, StepEnd, Refused, End, Hello,
                          Reached, PlayerInput, TileRequest>;

struct Message {
    std::uint32_t step = 0; // the sim step the message belongs to (its stamp)
    Body body;
};

MessageType typeOf(const Body& body);
bool fromClient(MessageType type); // Hello .. TileRequest

// The packet's bytes: header, then payload.
std::vector<std::uint8_t> encode(const Message& message);
// A header (this version, `type`, `step`, the payload's length and checksum) before `payload`,
// whatever the payload holds: what encode does, open to tests that feed the decoder garbage.
std::vector<std::uint8_t> sealedPacket(std::uint8_t type, std::uint32_t step,
                                       std::span<const std::uint8_t> payload);

// The message in `packet`, or why it is dropped (one short line, no packet bytes in it).
// `maxPayload` is the cap of whoever receives (a server passes kMaxClientPayloadBytes).
std::variant<Message, std::string> decode(std::span<const std::uint8_t> packet,
                                          std::size_t maxPayload = kMaxPayloadBytes);

} // namespace snowcap::net
