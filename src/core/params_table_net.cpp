// The parameter table, [net]: a networked session (docs/network.md). One row per key:
// {key, member, default, range, unit, widget, doc}. The server's keys travel to its clients with
// the scenario; the link's keys (loss .. seed) are each client's own.
#include "core/config_read.hpp"
#include "core/config_scene.hpp"
#include "core/params.hpp"
#include "core/params_table_rows.hpp"

namespace snowcap::params {

using enum Widget;
using config_read::kNetModes;
using config_read::kWorldCompressions;

const Section<NetSettings>& netParams() {
    using N = NetSettings;
    static const Section<N> section{
        "net",
        "A networked session (docs/network.md): `snowcap serve` steps the scenario and "
        "`render --connect` clients share its snow over ENet (UDP). The "
        "server's keys (mode .. timeout_s) are the session's; the link's (loss .. seed) "
        "simulate a bad link inside a client, so a test needs no privileges.",
        {
            {"mode", choice(&N::mode, kNetModes), "state", anyNumber(), "", Combo,
             "What the server sends each step: \"state\" the tiles of each sim's buffer that "
             "changed (exact anywhere), \"inputs\" every deformer's pose (each client steps its "
             "own sims; per-tile checksums every checksum_every steps find divergence), "
             "\"hybrid\" inputs with each divergent tile resent as state."},
            {"tile_texels", &N::tileTexels, 32, integerBetween(8, 1024), "texels", None,
             "Side of a tile: the unit of state sent, of a late joiner's snapshot and of a "
             "checksum."},
            {"checksum_every", &N::checksumEvery, 10, integerBetween(1, 100000), "steps", None,
             "inputs and hybrid: the server sends each sim's per-tile checksums every this many "
             "steps."},
            {"compress", choice(&N::compress, kWorldCompressions), "zstd", anyNumber(), "", Combo,
             "How state tiles and snapshots are packed (the world store's tile codec): \"off\", "
             "\"lz4\" or \"zstd\"."},
            {"max_clients", &N::maxClients, 8, integerBetween(1, 64), "", None,
             "Clients the server takes at once; one more is refused with a line."},
            {"stamp_window_steps", &N::stampWindowSteps, 120, integerBetween(1, 100000), "steps",
             None,
             "Player input stamped more than this many steps before or after the server's "
             "step is refused with a line (any message stamped before the client joined, and "
             "an acknowledgement or tile request stamped past the server's step, are too)."},
            {"max_client_rate_hz", &N::maxClientRateHz, 1000, integerBetween(1, 1000000), "1/s",
             None,
             "Messages one client may send per second (averaged over a second); more are "
             "dropped and counted."},
            {"timeout_s", &N::timeoutS, 30.0, between(0.1, 3600.0), "s", None,
             "A client the server has not heard from for this long is dropped; a client that "
             "hears nothing from the server for this long gives up; a server whose clients do "
             "not reach its last step within this long ends without them, with a line. 30 s is "
             "ENet's own ceiling for an unacknowledged packet (ENET_PEER_TIMEOUT_MAXIMUM): a "
             "peer quieter than that is gone at the transport too; a shorter wait drops slow "
             "peers that are not gone (a loaded machine, a lossy link backing off its resends)."},
            {"loss", &N::loss, 0.0, between(0.0, 0.9), "", None,
             "The client's simulated link: this fraction of the packets it receives and sends "
             "is lost (ENet's reliable channel resends them)."},
            {"latency_ms", &N::latencyMs, 0.0, between(0.0, 10000.0), "ms", None,
             "... and each packet arrives this much later."},
            {"jitter_ms", &N::jitterMs, 0.0, between(0.0, 10000.0), "ms", None,
             "... plus a uniform random delay up to this much."},
            {"duplicate", &N::duplicate, 0.0, between(0.0, 0.9), "", None,
             "... and this fraction of the packets, each way, arrives twice."},
            {"seed", &N::seed, 1, integerBetween(0, 2147483647), "", None,
             "The simulated link's random sequence."},
        }};
    return section;
}

} // namespace snowcap::params
