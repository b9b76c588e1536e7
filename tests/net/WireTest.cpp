// The wire format (net/wire.hpp): every message survives a round trip bit for bit, and what is
// not a well-formed message (random bytes, a cut or flipped packet, a payload that lies about
// its counts) is dropped with a reason, never a crash.
#include "net/wire.hpp"

#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace snowcap::net {
namespace {

Message roundTrip(const Message& message, std::size_t cap = kMaxPayloadBytes) {
    const std::vector<std::uint8_t> bytes = encode(message);
    auto decoded = decode(bytes, cap);
    EXPECT_TRUE(std::holds_alternative<Message>(decoded))
        << (std::holds_alternative<std::string>(decoded) ? std::get<std::string>(decoded) : "");
    return std::holds_alternative<Message>(decoded) ? std::get<Message>(decoded) : Message{};
}

TEST(WireTest, WelcomeRoundTrips) {
    Welcome welcome{.clientId = 3,
                    .mode = NetMode::Hybrid,
                    .frames = 48,
                    .tileTexels = 16,
                    .checksumEvery = 5,
                    .settingsHash = 0x0123456789abcdefull,
                    .scenario = "press_release",
                    .overrides = {"snow.resolution=64", "net.mode=\"hybrid\""}};
    const Message out = roundTrip({7, welcome});
    EXPECT_EQ(out.step, 7u);
    const auto& got = std::get<Welcome>(out.body);
    EXPECT_EQ(got.clientId, 3u);
    EXPECT_EQ(got.mode, NetMode::Hybrid);
    EXPECT_EQ(got.frames, 48u);
    EXPECT_EQ(got.tileTexels, 16u);
    EXPECT_EQ(got.checksumEvery, 5u);
    EXPECT_EQ(got.settingsHash, welcome.settingsHash);
    EXPECT_EQ(got.scenario, welcome.scenario);
    EXPECT_EQ(got.overrides, welcome.overrides);
}

TEST(WireTest, PosesAndTilesRoundTripBitForBit) {
    InstancePose pose;
    pose.contact = 2;
    for (int i = 0; i < 16; ++i)
        pose.model[i] = 0.1f * float(i) - 1.0f / 3.0f;
    pose.bounds = {-1.5f, -2.5f, -3.5f, 1.5f, 2.5f, 3.5f};
    pose.sway = {0.25f, 0.5f, 0.0f, 1.0f};
    pose.joints.push_back(pose.model);
    InstancePose hidden;
    hidden.visible = false;
    const Message out = roundTrip({9, StepInputs{{pose, hidden}}});
    const auto& got = std::get<StepInputs>(out.body);
    ASSERT_EQ(got.instances.size(), 2u);
    EXPECT_EQ(std::memcmp(got.instances[0].model.data(), pose.model.data(), 64), 0);
    EXPECT_EQ(got.instances[0].bounds, pose.bounds);
    EXPECT_EQ(got.instances[0].sway, pose.sway);
    EXPECT_EQ(got.instances[0].contact, 2);
    ASSERT_EQ(got.instances[0].joints.size(), 1u);
    EXPECT_FALSE(got.instances[1].visible);

    Tiles tiles{.sim = 1, .kind = TilesKind::Resend, .compression = 2};
    tiles.tiles.push_back({42, {1, 2, 3, 4, 5}});
    const Message tilesOut = roundTrip({10, tiles});
    const auto& gotTiles = std::get<Tiles>(tilesOut.body);
    EXPECT_EQ(gotTiles.sim, 1);
    EXPECT_EQ(gotTiles.kind, TilesKind::Resend);
    ASSERT_EQ(gotTiles.tiles.size(), 1u);
    EXPECT_EQ(gotTiles.tiles[0].index, 42u);
    EXPECT_EQ(gotTiles.tiles[0].packed, tiles.tiles[0].packed);

    StepEnd end{{{1.5, 0.25, 0.0625, 1.0 / 2048.0}}, {{-1234.5, 0.1}}};
    const StepEnd gotEnd = std::get<StepEnd>(roundTrip({11, end}).body);
    EXPECT_EQ(gotEnd.clocks, end.clocks);
    EXPECT_EQ(gotEnd.centres, end.centres);
    EXPECT_EQ(std::get<TileRequest>(roundTrip({12, TileRequest{0, {1, 2}}}).body).tiles,
              (std::vector<std::uint32_t>{1, 2}));
}

TEST(WireTest, LiesAreDroppedWithAReason) {
    std::vector<std::uint8_t> bytes = encode({1, PlayerInput{0.5f, 0.5f}});
    // The header's checks, one at a time.
    auto reason = [](std::span<const std::uint8_t> packet, std::size_t cap = kMaxPayloadBytes) {
        auto decoded = decode(packet, cap);
        return std::holds_alternative<std::string>(decoded) ? std::get<std::string>(decoded)
                                                            : std::string("accepted");
    };
    EXPECT_EQ(reason(std::span(bytes).first(10)), "shorter than the header");
    EXPECT_EQ(reason(std::span(bytes).first(bytes.size() - 1)),
              "the header's length is not the packet's");
    std::vector<std::uint8_t> flipped = bytes;
    flipped.back() ^= 0x40;
    EXPECT_EQ(reason(flipped), "the payload's checksum does not match");
    std::vector<std::uint8_t> otherVersion = bytes;
    otherVersion[2] = kVersion + 1;
    EXPECT_NE(reason(otherVersion).find("protocol version"), std::string::npos);
    // A client's cap refuses a server-sized message before its payload is read.
    const std::vector<std::uint8_t> big = encode({1, Refused{std::string(1000, 'x')}});
    EXPECT_NE(reason(big, 256).find("over the cap"), std::string::npos);

    // A payload under a valid checksum that claims more items than it holds.
    Checksums sums{0, {1, 2, 3}};
    std::vector<std::uint8_t> payload = encode({1, sums});
    payload.erase(payload.begin(), payload.begin() + kHeaderBytes);
    payload[1] = 0xff; // the count's low byte: 255 checksums in 12 bytes
    EXPECT_EQ(reason(sealedPacket(std::uint8_t(MessageType::Checksums), 1, payload)),
              "the checksums past the packet's end");

    // A pose with a NaN in it.
    InstancePose pose;
    pose.model[3] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(reason(encode({1, StepInputs{{pose}}})), "a number is not finite");
}

// 10,000 random datagrams (random lengths up to 2 KiB): every one is dropped, none crashes.
// Then 10,000 more that carry a valid header and checksum over a random payload of a random
// type, so each payload decoder meets garbage: none crashes, and what is accepted re-encodes
// to the same bytes (it really was a message of that type).
TEST(WireTest, RandomDatagramsAreAllDropped) {
    std::mt19937 random(20261207u);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<std::size_t> length(0, 2048);
    int dropped = 0;
    for (int i = 0; i < 10000; ++i) {
        std::vector<std::uint8_t> packet(length(random));
        for (auto& b : packet)
            b = static_cast<std::uint8_t>(byte(random));
        dropped += std::holds_alternative<std::string>(decode(packet)) ? 1 : 0;
    }
    EXPECT_EQ(dropped, 10000);

    std::uniform_int_distribution<std::size_t> shortLength(0, 64);
    const std::uint8_t types[] = {1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 99};
    int accepted = 0;
    for (int i = 0; i < 10000; ++i) {
        std::vector<std::uint8_t> payload(shortLength(random));
        for (auto& b : payload)
            b = static_cast<std::uint8_t>(byte(random) & (i % 2 ? 0x03 : 0xff)); // small counts
        std::vector<std::uint8_t> packet =
            sealedPacket(types[i % std::size(types)], static_cast<std::uint32_t>(i), payload);
        auto decoded = decode(packet);
        if (auto* message = std::get_if<Message>(&decoded)) {
            ++accepted;
            EXPECT_EQ(encode(*message), packet);
        }
    }
    EXPECT_LT(accepted, 10000);
}

} // namespace
} // namespace snowcap::net
