#pragma once
// A networked session's keys, [net]; a section of Settings (core/settings.hpp), one member a key of
// the parameter table.

#include "core/settings_options.hpp"

namespace snowcap {

// A networked session ([net], docs/network.md): `snowcap serve` and `--connect` clients.
struct NetSettings {
    NetSettings();               // the parameter table's defaults (params_table_net.cpp)
    NetMode mode{};              // net.mode: what the server sends (inputs, state or both)
    int tileTexels{};            // net.tile_texels: side of a tile of state and of a checksum
    int checksumEvery{};         // net.checksum_every: inputs / hybrid checksum period, in steps
    WorldCompression compress{}; // net.compress: how state tiles are packed
    int maxClients{};            // net.max_clients: connections the server takes at once
    int stampWindowSteps{};      // net.stamp_window_steps: how far a client's stamps may stray
    int maxClientRateHz{};       // net.max_client_rate_hz: messages a client may send per second
    double timeoutS{};           // net.timeout_s: a silent peer is dropped after this
    double loss{};               // net.loss: the client's simulated link drops this fraction
    double latencyMs{};          // net.latency_ms: ... and delays each packet by this
    double jitterMs{};           // net.jitter_ms: ... plus up to this much more
    double duplicate{};          // net.duplicate: ... and delivers this fraction twice
    int seed{};                  // net.seed: the simulated link's random sequence
};

} // namespace snowcap
