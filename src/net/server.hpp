#pragma once
// `snowcap serve`: the authoritative session. It loads the scenario, waits for --wait-clients
// clients (0: none), then steps the scenario's fixed step in real time and sends each step to
// every client (net/sync.hpp), a joiner its snapshot first. With --frames N it stops after step
// N once every connected client has reached it, and --expect-clients have joined in all (or
// net.timeout_s later, with a line), and writes
// render's outputs, stats.json with a `net` block.
//
// It trusts nothing a client sends (docs/network.md, "What the server refuses"): every packet
// is decoded under the client cap (net/wire.hpp), player input stamped outside [step -
// stamp_window_steps, step + stamp_window_steps] and any stamp before the client joined or
// past the session's step on an acknowledgement are refused, the player moves only by an input of
// length <= 1 (anything longer is a teleport, refused) and only for the client that owns it (the
// first), a client past max_client_rate_hz is dropped packet by packet, a client past max_clients
// is refused, a client silent for timeout_s is dropped, and a datagram from no peer is counted and
// dropped before ENet reads it. Each refusal is one line naming the client and the reason.

#include "lab/session.hpp"

#include <filesystem>
#include <string>

namespace snowcap::net {

struct ServeOptions {
    std::string scenario = "decay_compare";
    int port = 7777;       // 0: any free port (the line "serve: listening on port P" names it)
    int frames = 0;        // 0: the scenario's run.frames
    int waitClients = 0;   // the clock starts once this many clients have joined
    int expectClients = 0; // the session ends once this many have joined and reached the end
    std::filesystem::path outDir = "out/serve";
};

int runServe(const CommonOptions& common, const ServeOptions& options);

} // namespace snowcap::net
