// The progress reporter on a fake clock and a string stream: plain lines at their period (the
// CI mode), nothing before firstAfterS, nothing at all when off, and the bar's in-place redraw.
#include "lab/progress.hpp"

#include <gtest/gtest.h>
#include <sstream>

namespace snowcap {
namespace {

struct FakeClock {
    double now = 100.0; // an arbitrary start: the reporter must measure from its own
    ProgressClock clock() {
        return [this] {
            return now;
        };
    }
};

int countLines(const std::string& text) {
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Progress, PlainLinesComeAtTheirPeriod) {
    FakeClock time;
    std::ostringstream out;
    ProgressReporter progress({.mode = ProgressMode::Lines,
                               .label = "render",
                               .total = 900,
                               .simulatedTotalS = 15.0,
                               .lineEveryS = 5.0},
                              out, time.clock());
    // 10 s of steps at 90 steps a second, updated every step.
    for (int step = 1; step <= 900; ++step) {
        time.now = 100.0 + step / 90.0;
        progress.update(step, step / 60.0);
    }
    progress.finish();
    // Lines at 1 s (the first, after firstAfterS), then at 6 s: two within the 10 s.
    const std::string text = out.str();
    EXPECT_EQ(countLines(text), 2) << text;
    EXPECT_EQ(text.find('\r'), std::string::npos); // a log file gets no carriage returns
    EXPECT_NE(text.find("render:  10%  step 90/900  t 1.5/15.0 s  elapsed 1 s  ~9 s left\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("step 540/900"), std::string::npos) << text;
}

TEST(Progress, QuietBeforeTheFirstSecond) {
    FakeClock time;
    std::ostringstream out;
    ProgressReporter progress({.mode = ProgressMode::Lines, .total = 10}, out, time.clock());
    for (int step = 1; step <= 10; ++step) {
        time.now += 0.05;
        progress.update(step);
    }
    progress.finish();
    EXPECT_EQ(out.str(), ""); // a half-second run leaves no trace
}

TEST(Progress, OffWritesNothing) {
    FakeClock time;
    std::ostringstream out;
    {
        ProgressReporter progress({.mode = ProgressMode::Off, .total = 100}, out, time.clock());
        for (int step = 1; step <= 100; ++step) {
            time.now += 1.0;
            progress.update(step, step * 0.1, "note");
        }
    } // the destructor finishes
    EXPECT_EQ(out.str(), "");
    EXPECT_EQ(progressModeForStderr(false), ProgressMode::Off);
}

TEST(Progress, BarRedrawsInPlaceAndEndsItsLine) {
    FakeClock time;
    std::ostringstream out;
    ProgressReporter progress({.mode = ProgressMode::Bar, .label = "sweep", .total = 4}, out,
                              time.clock());
    for (int step = 1; step <= 4; ++step) {
        time.now += 2.0;
        progress.update(step);
    }
    progress.finish();
    progress.finish(); // once only
    const std::string text = out.str();
    EXPECT_EQ(countLines(text), 1) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 4) << text;
    EXPECT_NE(text.find("sweep [########################] 100%  step 4/4"), std::string::npos)
        << text;
}

TEST(Progress, UnknownTotalShowsNoPercentageOrTimeLeft) {
    ProgressReporter progress({.mode = ProgressMode::Lines, .unit = "group"}, std::cerr);
    const std::string text = progress.describe(3, -1.0, "frames", 75.0);
    EXPECT_EQ(text, "group 3  elapsed 1 min 15 s  (frames)");
}

} // namespace
} // namespace snowcap
