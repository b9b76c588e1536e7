#pragma once
// One run's hold on its output directory (render --out, sweep --out):
//
// - a lock: DIR/.snowcap-run.lock, flock(2)ed for the whole run and holding the run's PID, so a
//   second run into the same directory at once is refused in one line naming the directory and
//   the other run's PID (the lock dies with its process: nothing stale is left to clean);
// - a manifest: DIR/run.json is removed when the run starts writing (begin(): after every
//   input was checked, so a refused run leaves the last complete set as it was) and written
//   last, after every output, listing the files this run wrote with their sizes. A reader that
//   finds run.json knows the set is complete and from one run; without it the directory is mid-run,
//   interrupted or failed;
// - interruption: SIGINT and SIGTERM set a flag the run polls between steps; it then stops,
//   writes no manifest and leaves one line (interruptedNote). SIGXFSZ is ignored (main), so a
//   file-size limit fails the write with EFBIG and the writer removes its temp file.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

class RunGuard {
public:
    RunGuard(RunGuard&& other) noexcept;
    RunGuard& operator=(RunGuard&&) = delete;
    RunGuard(const RunGuard&) = delete;
    ~RunGuard();

    // The directory must exist. Fails with one line when another run holds it.
    static std::variant<RunGuard, std::string> take(const std::filesystem::path& dir);
    // take(), after creating the directory (and its parents) when it is missing.
    static std::variant<RunGuard, std::string> createAndTake(const std::filesystem::path& dir);

    // The run is about to write its first output: the last run's run.json goes (its set is
    // no longer whole from here on). Call it after every input has been checked.
    void begin() const;

    // run.json: `command` and the regular files of the directory this run wrote (modified since
    // take()), each with its size. Written atomically, last. `files` (when given) gets the
    // files it lists and run.json itself, for the command's closing line.
    std::optional<std::string> publish(const std::string& command,
                                       std::vector<std::filesystem::path>* files = nullptr) const;

    const std::filesystem::path& dir() const { return dir_; }

    // SIGINT / SIGTERM set a flag instead of killing the process (from then on for this one).
    static void catchInterrupts();
    // Forked workers go back to the default actions, so the parent can stop them with SIGTERM.
    static void defaultInterrupts();
    // The signal that asked the run to stop, or 0.
    static int interruptedBy();
    // "render: interrupted (SIGINT); DIR holds no complete set of outputs (no run.json)".
    static std::string interruptedNote(const std::string& command, const std::filesystem::path& dir,
                                       int signal);

private:
    RunGuard(std::filesystem::path dir, int fd);
    std::filesystem::path dir_;
    int fd_ = -1;
    std::filesystem::file_time_type startedAt_;
};

} // namespace snowcap
