#pragma once
// The two ends of replication, without the transport: the Authority turns the server's lab after
// each step into messages (net/wire.hpp); a Replica applies them to a client's lab. The network
// server and client (net/server.hpp, net/client.hpp), the input recorder and `snowcap replay`
// are these two plus a way to move the messages.
//
// A step's messages, in order: [state: Tiles(Changes) per sim that changed] [inputs, hybrid:
// StepInputs, and every checksum_every steps Checksums per sim] [hybrid: Tiles(Resend) for one
// client] StepEnd (each sim's clock). A joiner first gets Tiles(Snapshot) of every tile of every
// sim and a StepEnd at the step it joins on; the live stream follows.

#include "lab/lab.hpp"
#include "net/tiles.hpp"
#include "net/wire.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap::net {

// Whether a session can replicate these settings; one line naming the key when not. Decay
// sims with one window each, fixed or following (the window's centre travels in StepEnd): a
// world store, the windows of several observers or a snowpack's own state is more than the
// buffer this replicates.
std::optional<std::string> replicationRefusal(const Settings& settings);

// A hash of every key the server and its clients must share (all but the link's net keys).
std::uint64_t settingsHash(const Settings& settings);

InstancePose poseOf(const DeformerInstance& instance);

class Authority {
public:
    Authority(Lab& lab, const NetSettings& net);

    // After the lab has stepped to `step`: what every client gets for it, up to its StepEnd.
    std::vector<Message> stepMessages(std::uint32_t step);
    // hybrid: the lab's current tiles `tiles` of `sim` for one client (before the StepEnd).
    std::optional<Message> resend(std::uint32_t step, int sim,
                                  const std::vector<std::uint32_t>& tiles);
    Message stepEnd(std::uint32_t step) const;
    // A joiner's snapshot at `step` (the lab as it stands), ending with its StepEnd.
    std::vector<Message> snapshot(std::uint32_t step);
    const NetSettings& settings() const { return net_; }

private:
    std::vector<Message> changedTiles(std::uint32_t step);

    Lab& lab_;
    NetSettings net_;
    std::vector<BufferWords> baseline_; // state: each sim's buffer as last sent
};

// What a client counts (stats.json's `net` block).
struct ReplicaCounts {
    long long tilesApplied = 0;
    long long tilesResent = 0;    // hybrid: tiles that came back as state
    long long divergentTiles = 0; // checksums that did not match this client's tiles
    long long checkedTiles = 0;
    long long clockMismatches = 0;  // inputs: a sim clock that differed from the server's
    long long windowMismatches = 0; // inputs: a window that stood elsewhere than the server's
};

class Replica {
public:
    Replica(Lab& lab, NetSettings net);

    // Applies one message; the reason when it cannot be applied (a session gone wrong: the
    // client stops with that line). A StepEnd completes a step (or the snapshot).
    std::optional<std::string> apply(const Message& message);
    // The last step applied; none before the snapshot.
    std::optional<std::uint32_t> appliedStep() const { return applied_; }
    std::uint32_t joinedAtStep() const { return joinedAt_; }
    const ReplicaCounts& counts() const { return counts_; }
    // Where the deformers are at the last step applied, to draw: the server's poses in inputs
    // and hybrid; the scenario's own at that time in state (which sends no poses).
    std::span<const DeformerInstance> lastDeformers();
    // hybrid: what to ask the server for after the last step (divergent tiles), taken once.
    std::vector<Message> takeRequests();
    // A completed step's hook (the client records its probes there).
    std::function<void()> onStep;

private:
    std::optional<std::string> completeStep(std::uint32_t step, const StepEnd& end);
    std::optional<std::string> runInputs(std::uint32_t step);

    Lab& lab_;
    NetSettings net_;
    std::vector<BufferWords> mirror_;            // state: the server's buffers
    std::vector<std::vector<int>> pendingTiles_; // tiles of each sim to upload at the StepEnd
    std::optional<StepInputs> inputs_;           // inputs of the step under way
    std::vector<Checksums> checksums_;
    std::vector<Tiles> resends_;
    std::vector<Message> requests_;
    std::vector<std::vector<glm::mat4>> joints_; // the poses' joint palettes during a step
    std::vector<DeformerInstance> lastPosed_;    // the last step's instances (inputs, hybrid)
    std::optional<std::uint32_t> applied_;
    std::uint32_t joinedAt_ = 0;
    ReplicaCounts counts_;
};

} // namespace snowcap::net
