#pragma once
// `snowcap net-bench` (docs/network.md, "Measured"): what each replication mode costs one
// client, and what a late join costs, measured in process: the server's Authority makes every
// message it would send, a Replica applies them, and the bytes are the encoded packets (ENet's
// own headers, about 10-40 bytes a packet, are not counted). No socket, so the figures do not
// depend on the machine's network, only on the scene.
//
// The scenes and the in-process pair are net/net_cases.hpp's, shared with `snowcap bench`.
// Crowds: N spheres walking in a grid across a 256^2 buffer (two sims), N = 1, 10, 100, 1000;
// bytes per second of simulated time, per mode. Following windows: follow_compare at 256^2, per
// mode. Late join: one snapshot (two sims) at each
// buffer side, its bytes and the time to make it and to apply it.

#include "lab/session.hpp"

#include <filesystem>
#include <vector>

namespace snowcap::net {

struct NetBenchOptions {
    std::vector<int> crowds = {1, 10, 100, 1000};
    std::vector<int> sizes = {256, 512, 1024, 2048}; // late join: buffer sides
    int frames = 120;
    std::filesystem::path json; // also write the results here
};

int runNetBench(const CommonOptions& common, const NetBenchOptions& options);

} // namespace snowcap::net
