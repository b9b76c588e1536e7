#include "lab/progress.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <unistd.h>

namespace snowcap {

ProgressMode progressModeForStderr(bool enabled) {
    if (!enabled)
        return ProgressMode::Off;
    return isatty(STDERR_FILENO) ? ProgressMode::Bar : ProgressMode::Lines;
}

ProgressClock steadyProgressClock() {
    return [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    };
}

ProgressReporter::ProgressReporter(ProgressOptions options, std::ostream& out, ProgressClock clock)
    : options_(std::move(options)), out_(out), clock_(std::move(clock)) {
    startS_ = clock_();
}

ProgressReporter::~ProgressReporter() {
    finish();
}

namespace {

// "42 s", "3 min 05 s", "1 h 02 min": long runs read at a glance.
std::string duration(double seconds) {
    seconds = std::max(seconds, 0.0);
    if (seconds < 60.0)
        return fmt::format("{:.0f} s", seconds);
    const long long whole = static_cast<long long>(seconds + 0.5);
    if (whole < 3600)
        return fmt::format("{} min {:02d} s", whole / 60, static_cast<int>(whole % 60));
    return fmt::format("{} h {:02d} min", whole / 3600, static_cast<int>(whole % 3600 / 60));
}

} // namespace

std::string ProgressReporter::describe(long long done, double simulatedS, std::string_view note,
                                       double elapsedS) const {
    const bool known = options_.total > 0;
    std::string text;
    if (known)
        text += fmt::format("{:3.0f}%  {} {}/{}",
                            100.0 * std::clamp(double(done) / options_.total, 0.0, 1.0),
                            options_.unit, done, options_.total);
    else
        text += fmt::format("{} {}", options_.unit, done);
    if (simulatedS >= 0.0) {
        if (options_.simulatedTotalS >= 0.0)
            text += fmt::format("  t {:.1f}/{:.1f} s", simulatedS, options_.simulatedTotalS);
        else
            text += fmt::format("  t {:.1f} s", simulatedS);
    }
    text += "  elapsed " + duration(elapsedS);
    // Time left from the mean rate so far; unknown until something is done.
    if (known && done > 0 && done < options_.total)
        text += "  ~" + duration(elapsedS / done * (options_.total - done)) + " left";
    if (!note.empty())
        text += fmt::format("  ({})", note);
    return text;
}

void ProgressReporter::update(long long done, double simulatedS, std::string_view note) {
    if (options_.mode == ProgressMode::Off || finished_)
        return;
    const double now = clock_();
    const double elapsed = now - startS_;
    if (elapsed < options_.firstAfterS)
        return;
    const double period = options_.mode == ProgressMode::Bar ? 0.25 : options_.lineEveryS;
    // Lines: the first line once firstAfterS has passed, then one every period.
    if (drawn_ && now - lastDrawS_ < period)
        return;
    lastDrawS_ = now;
    const std::string text = describe(done, simulatedS, note, elapsed);
    if (options_.mode == ProgressMode::Lines) {
        out_ << options_.label << ": " << text << '\n' << std::flush;
    } else {
        std::string bar;
        if (options_.total > 0) {
            constexpr int kWidth = 24;
            const int filled =
                static_cast<int>(kWidth * std::clamp(double(done) / options_.total, 0.0, 1.0));
            bar = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] ";
        }
        std::string line = options_.label + " " + bar + text;
        // Blank what a longer previous line left behind.
        const std::size_t width = line.size();
        if (width < lastWidth_)
            line += std::string(lastWidth_ - width, ' ');
        lastWidth_ = width;
        out_ << '\r' << line << std::flush;
    }
    drawn_ = true;
}

void ProgressReporter::finish() {
    if (finished_)
        return;
    finished_ = true;
    if (options_.mode == ProgressMode::Bar && drawn_)
        out_ << '\n' << std::flush;
}

} // namespace snowcap
