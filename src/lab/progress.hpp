#pragma once
// One progress reporter for the long commands (render, the soak, sweep, bench). On a terminal
// it redraws one bar in place: steps, simulated time, elapsed, time left. Anywhere else (a
// pipe, a file, CI) it writes a plain line every few seconds, so a log shows the run moving
// long before the end. Off, it writes nothing at all (--no-progress).
//
// It owns no clock and no stream of its own: both are given, so tests drive it with a fake
// clock and a string stream, and the commands with the steady clock and stderr.

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace snowcap {

enum class ProgressMode {
    Off,   // nothing, ever
    Bar,   // a terminal: one line redrawn in place (\r), at most 4 times a second
    Lines, // not a terminal: a whole line every `lineEveryS` seconds
};

// Bar where stderr is a terminal, else Lines; Off when `enabled` is false (--no-progress).
ProgressMode progressModeForStderr(bool enabled);

// Seconds since an arbitrary start; the steady clock unless a test gives its own.
using ProgressClock = std::function<double()>;
ProgressClock steadyProgressClock();

struct ProgressOptions {
    ProgressMode mode = ProgressMode::Lines;
    std::string label = "run";     // what is running: "render", "soak", "sweep", "bench"
    std::string unit = "step";     // what `done` counts ("step", "group")
    long long total = 0;           // <= 0: unknown (no percentage and no time left)
    double simulatedTotalS = -1.0; // < 0: the work has no simulated time
    double lineEveryS = 5.0;       // Lines mode: the period between lines
    double firstAfterS = 1.0;      // nothing is drawn before this (short runs stay quiet)
};

class ProgressReporter {
public:
    ProgressReporter(ProgressOptions options, std::ostream& out,
                     ProgressClock clock = steadyProgressClock());
    ~ProgressReporter(); // finish()
    ProgressReporter(const ProgressReporter&) = delete;
    ProgressReporter& operator=(const ProgressReporter&) = delete;

    // `done` units finished, the simulated time reached (< 0: none), and an optional note
    // (the bench's current group). Cheap when nothing is due: callers call it every step.
    void update(long long done, double simulatedS = -1.0, std::string_view note = {});
    // Ends the bar's line (a terminal's prompt must not land on it); Lines and Off write
    // nothing. Called once; later calls do nothing.
    void finish();

    // The text of one report, without the \r or the newline (exposed for tests).
    std::string describe(long long done, double simulatedS, std::string_view note,
                         double elapsedS) const;

private:
    ProgressOptions options_;
    std::ostream& out_;
    ProgressClock clock_;
    double startS_ = 0.0;
    double lastDrawS_ = -1e300;
    bool drawn_ = false;
    bool finished_ = false;
    std::size_t lastWidth_ = 0;
};

} // namespace snowcap
