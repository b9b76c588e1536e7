#pragma once
// The hostile-input fixtures beyond meshes (tools/hostile_inputs.cpp writes them,
// tools/make_hostile_inputs.cpp runs them): world files, scenario files, special files, command
// lines and output targets.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace hostile {

struct InputFixture {
    std::string cls;               // the class of the table in docs/reliability.md
    std::string name;              // what it is, in words
    std::vector<std::string> args; // snowcap's arguments
    int exitCode = 2;
    std::string message;             // a part of the one line on stderr ("" = any)
    std::filesystem::path names;     // the line must name this path (empty: no file involved)
    bool anyStderr = false;          // --help and the like: stderr is not judged
    std::size_t maxLineBytes = 0;    // the line's length must stay under this (0: not judged)
    std::filesystem::path stillFifo; // after the run this must still be a FIFO (never replaced)
    // After the run this must still be the same character device (/dev/full, as root).
    std::filesystem::path stillCharDevice;
    // The runner holds this directory's run lock (as another run would) while the fixture runs;
    // the line must name the runner's PID.
    std::filesystem::path holdLock;
    // Environment changes for this run: NAME=VALUE sets, a bare NAME unsets.
    std::vector<std::string> env;
    std::filesystem::path cwd; // the run's working directory (empty: the runner's)
    // Nothing lost: each of these is the same after the run as before it (its kind, a link's
    // target, a regular file's bytes): the last complete run's run.json and outputs, a FIFO
    // or a link where an output was asked for.
    std::vector<std::filesystem::path> untouched;
    std::vector<std::filesystem::path> absent; // none of these may exist after the run
    double seconds = 0.0;                      // this fixture's time bound, when above the suite's
    double memoryMiB = 0.0;                    // and memory bound, when above the suite's
    double signalAfterS = 0.0;                 // > 0: SIGTERM sent this long after the start
};

// Appends a fixture with the fields every fixture sets and returns it, for the caller to set
// the rest before the next one is appended.
inline InputFixture* addFixture(std::vector<InputFixture>& all, std::string cls, std::string name,
                                std::vector<std::string> args, std::string message,
                                std::filesystem::path names = {}) {
    InputFixture f;
    f.cls = std::move(cls);
    f.name = std::move(name);
    f.args = std::move(args);
    f.message = std::move(message);
    f.names = std::move(names);
    all.push_back(std::move(f));
    return &all.back();
}

// The fixtures of runs, sweeps and their outputs: plans, shards and batch files edited on a
// shared disk, merges, output targets (a video, a screenshot, an export), inputs found bad
// after the output directory was taken, a bare view without a display, bad values and
// interrupts. Runs `snowcap` (SNOWCAP) to make a real plan, shard and merge and a complete
// render first, which the fixtures copy and break.
std::vector<InputFixture> writeRunFixtures(const std::filesystem::path& dir,
                                           const std::string& snowcap);

// Heightmaps, DEMs and meshes named by terrain.file that are cut short, lie about their size or
// are no file (tools/hostile_terrain.cpp).
std::vector<InputFixture> writeTerrainFixtures(const std::filesystem::path& dir);

// Writes every fixture's files into `dir` (created) and returns the fixtures in order.
std::vector<InputFixture> writeInputFixtures(const std::filesystem::path& dir);

} // namespace hostile
