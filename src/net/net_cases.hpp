#pragma once
// A server and one client in one process, with no socket: the server's lab and its Authority,
// the client's lab and its Replica, and every message between them encoded and decoded as it
// would cross the wire (net/sync.hpp). `snowcap net-bench`, `snowcap bench`'s net group and the
// tests measure and check replication through it; the scenes they measure are here too.
//
// Crowds: N spheres (12 cm) in a grid walking diagonally across two 256^2 sims of 10.24 m at
// 1.5 m/s. Late join: one press across a buffer of the given side, then still.

#include "lab/lab.hpp"
#include "net/sync.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap::net {

// The modes the benches measure, each with the tile compression it sends.
struct ModeCase {
    const char* name;
    NetMode mode;
    WorldCompression compress;
};
inline constexpr ModeCase kModes[] = {{"inputs", NetMode::Inputs, WorldCompression::Zstd},
                                      {"state", NetMode::State, WorldCompression::Zstd},
                                      {"state_lz4", NetMode::State, WorldCompression::Lz4},
                                      {"hybrid", NetMode::Hybrid, WorldCompression::Zstd}};

class LoopbackPair {
public:
    // Both labs from `settings` (timing off); one line on failure.
    static std::variant<std::unique_ptr<LoopbackPair>, std::string>
    create(const Settings& settings, const std::string& scenario, const std::string& glRenderer);

    Lab& server() { return *server_; }
    Lab& client() { return *client_; }
    Authority& authority() { return *authority_; }
    Replica& replica() { return *replica_; }

    // The client joins: the snapshot at the server's step, delivered.
    std::optional<std::string> join();
    // The server steps once; that step's messages (with the tiles the client asked to be resent
    // after the step before) are delivered, and the client's requests taken for the next.
    std::optional<std::string> step();
    // The server steps once before the client has joined: its messages reach nobody.
    void stepAlone();
    std::uint32_t steps() const { return step_; }
    // Whether every sim's buffer is the same bits on both sides.
    bool identical();

    long long bytes = 0, packets = 0; // encoded, as delivered (reset them to count a stretch)

private:
    LoopbackPair() = default;
    std::optional<std::string> deliver(const Message& message);

    std::unique_ptr<Lab> server_, client_;
    std::unique_ptr<Authority> authority_;
    std::unique_ptr<Replica> replica_;
    std::vector<TileRequest> requests_;
    std::uint32_t step_ = 0;
};

// The settings of a scene given as TOML text, loaded through a scenario file (`file`, in the
// temporary directory, for Lab::create to name); one line on failure.
std::variant<Settings, std::string> sceneSettings(const std::string& text, const std::string& name,
                                                  const std::vector<std::string>& overrides,
                                                  std::filesystem::path& file);
std::string crowdScene(int count, int frames);
std::string joinScene(int size);

// One mode's stream to one client over a crowd's run.
struct ModeFigures {
    std::size_t deformers = 0;
    long long texels = 0; // of every sim's buffer
    int steps = 0;
    long long bytes = 0, packets = 0, snapshotBytes = 0;
    double bytesPerS = 0.0; // per second of simulated time
    long long divergentTiles = 0, tilesResent = 0;
    bool identical = false;
    double wallMs = 0.0; // the whole run: the server's steps, the messages, the client's steps
};
std::variant<ModeFigures, std::string> measureMode(const Settings& settings, NetMode mode,
                                                   WorldCompression compress,
                                                   const std::string& scenario,
                                                   const std::string& glRenderer);

// One late join: the snapshot of the server's buffers after its run, made and applied.
struct JoinFigures {
    int resolution = 0, sims = 0;
    long long bufferBytes = 0, snapshotBytes = 0;
    double makeMs = 0.0, applyMs = 0.0;
    bool identical = false;
};
std::variant<JoinFigures, std::string>
measureJoin(const Settings& settings, const std::string& scenario, const std::string& glRenderer);

} // namespace snowcap::net
