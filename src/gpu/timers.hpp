#pragma once
// Per-pass GPU timing. Two methods, and every number says which one produced it:
//  - TimerQuery: a ring of GL_TIMESTAMP query pairs per pass, read kFrames later, never
//    blocking (the viewer's choice on real GPUs);
//  - Serialized: glFinish + steady clock around each pass (the benchmark's choice on llvmpipe,
//    where GL_TIME_ELAPSED reports only 0-3 % of the real time of a draw).

#include "gpu/objects.hpp"

#include <array>
#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap::gpu {

enum class TimingMethod { TimerQuery, Serialized };
const char* toString(TimingMethod method);

// Which method gives honest numbers on this renderer.
TimingMethod trustworthyTimingMethod(const std::string& renderer);

class PassTimer {
public:
    static constexpr int kFrames = 4; // how far behind timer-query results are read

    // Where the serialized method reads the time (a test's fake clock steps it by hand).
    using Clock = std::chrono::steady_clock::time_point (*)();

    PassTimer() = default;
    explicit PassTimer(TimingMethod method, Clock clock = &std::chrono::steady_clock::now)
        : method_(method), clock_(clock) {}

    TimingMethod method() const { return method_; }
    void setMethod(TimingMethod method);

    // Call once per frame before the first pass: collects finished query results.
    void beginFrame();
    void begin(std::string_view pass);
    void end(std::string_view pass);

    // Latest finished time of each pass in milliseconds (TimerQuery: a few frames old). A pass
    // that runs several times in a frame (view.surface once per view) reports the sum.
    const std::map<std::string, double, std::less<>>& latestMs() const { return latestMs_; }

    // The one way a pass is timed (the frame's loop, gpu/pass_record.hpp, opens one per
    // timer scope of a pass): begin on construction, end on destruction. A null timer or an
    // empty name times nothing, so an untimed frame runs the same code. Movable, so the loop
    // can keep its open scopes on a stack and close them innermost first.
    class Scope {
    public:
        Scope(PassTimer* timer, std::string_view pass)
            : timer_(pass.empty() ? nullptr : timer), pass_(pass) {
            if (timer_)
                timer_->begin(pass_);
        }
        Scope(PassTimer& timer, std::string_view pass) : Scope(&timer, pass) {}
        ~Scope() {
            if (timer_)
                timer_->end(pass_);
        }
        Scope(Scope&& other) noexcept : timer_(other.timer_), pass_(std::move(other.pass_)) {
            other.timer_ = nullptr;
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
        Scope& operator=(Scope&&) = delete;

    private:
        PassTimer* timer_;
        std::string pass_;
    };
    Scope scope(std::string_view pass) { return Scope(*this, pass); }

private:
    struct QueryPair {
        Query begin, end;
        bool pending = false;
    };
    // One frame's instances of a pass.
    struct FrameQueries {
        std::vector<QueryPair> pairs;
        int used = 0;
    };
    struct PassQueries {
        std::array<FrameQueries, kFrames> ring;
        std::chrono::steady_clock::time_point serialStart;
        int serialFrame = -1; // the frame of the last serialized result
    };

    TimingMethod method_ = TimingMethod::Serialized;

    Clock clock_ = &std::chrono::steady_clock::now;
    int frame_ = 0;
    std::map<std::string, PassQueries, std::less<>> passes_;
    std::map<std::string, double, std::less<>> latestMs_;
};

} // namespace snowcap::gpu
