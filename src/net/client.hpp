#pragma once
// `snowcap render --connect HOST:PORT`: a headless client. It takes the scenario from the server
// (its Welcome), builds its own lab, joins with a snapshot and applies the live stream
// (net/sync.hpp's Replica) up to the server's step N (--frames, else the session's end), then
// writes render's outputs as they are at step N, stats.json with a `net` block. With net.loss,
// net.latency_ms, net.jitter_ms or net.duplicate in its own --set, it talks through a simulated
// bad link (net/link_sim.hpp).

#include "lab/session.hpp"

#include <filesystem>
#include <string>

namespace snowcap::net {

struct ConnectOptions {
    std::string hostPort;
    int frames = 0; // 0: the session's last step
    std::filesystem::path outDir = "out";
    // Test hooks: send one player input of this length each step (a client that lies, when
    // over 1), or stamp its messages this many steps ahead.
    double playerInputLength = 0.0;
    long long stampOffset = 0;
};

int runConnect(const CommonOptions& common, const ConnectOptions& options);

} // namespace snowcap::net
