#pragma once
// Record and replay (docs/network.md, "Record and replay"): `render --record-inputs FILE` writes
// the run's input stream, the messages an `inputs` server would send (net/sync.hpp), and
// `snowcap replay FILE --out DIR` steps a fresh lab through them and writes render's outputs,
// byte for byte those of the recorded run on the same machine. A bug report is a file.
//
// The file: "SNOWCAPI" u32 version (1), then packets (net/wire.hpp), each behind its u32 length:
// a Welcome (the scenario, its overrides, the settings' hash), the snapshot at step 0, per step
// its StepInputs and StepEnd, and an End.

#include "lab/lab.hpp"
#include "lab/session.hpp"
#include "net/sync.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace snowcap::net {

inline constexpr char kRecordMagic[8] = {'S', 'N', 'O', 'W', 'C', 'A', 'P', 'I'};
inline constexpr std::uint32_t kRecordVersion = 1;

class InputRecorder {
public:
    // Starts the record of a run of `lab` (before its first step).
    InputRecorder(Lab& lab, const std::string& scenario, const std::vector<std::string>& overrides,
                  int frames);
    void afterStep(std::uint32_t step); // after the lab stepped to `step`
    // The file, atomically; one line on failure.
    std::optional<std::string> write(const std::filesystem::path& path, std::uint32_t lastStep);

private:
    void add(const Message& message);
    Authority authority_;
    std::vector<std::uint8_t> bytes_;
};

struct ReplayOptions {
    std::filesystem::path file;
    std::filesystem::path outDir = "out/replay";
};

int runReplay(const CommonOptions& common, const ReplayOptions& options);

} // namespace snowcap::net
