#pragma once
// The hostile-input fixtures beyond meshes (tools/hostile_inputs.cpp writes them,
// tools/make_hostile_inputs.cpp runs them): world files, scenario files, special files, command
// lines and output targets.

#include <filesystem>
#include <string>
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
};

// Writes every fixture's files into `dir` (created) and returns the fixtures in order.
std::vector<InputFixture> writeInputFixtures(const std::filesystem::path& dir);

} // namespace hostile
