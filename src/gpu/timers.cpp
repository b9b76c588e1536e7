#include "gpu/timers.hpp"

namespace snowcap::gpu {

const char* toString(TimingMethod method) {
    return method == TimingMethod::TimerQuery ? "gl_timestamp_query" : "serialized_glfinish";
}

TimingMethod trustworthyTimingMethod(const std::string& renderer) {
    // llvmpipe runs draws asynchronously on its own threads and its timer queries measure
    // only the submission; measured here at 0-3 % of the real cost.
    if (renderer.find("llvmpipe") != std::string::npos ||
        renderer.find("softpipe") != std::string::npos)
        return TimingMethod::Serialized;
    return TimingMethod::TimerQuery;
}

void PassTimer::setMethod(TimingMethod method) {
    if (method == method_)
        return;
    method_ = method;
    passes_.clear();
    latestMs_.clear();
}

void PassTimer::beginFrame() {
    ++frame_;
    if (method_ != TimingMethod::TimerQuery)
        return;
    const int slot = frame_ % kFrames; // the oldest slot, about to be reused
    for (auto& [pass, queries] : passes_) {
        FrameQueries& frame = queries.ring[slot];
        bool pending = false, available = true;
        for (const QueryPair& pair : frame.pairs) {
            if (!pair.pending)
                continue;
            pending = true;
            GLint done = GL_FALSE;
            glGetQueryObjectiv(pair.end.id(), GL_QUERY_RESULT_AVAILABLE, &done);
            available = available && done;
        }
        frame.used = 0;
        if (!pending || !available) {
            // Still in flight: skip this sample rather than stall.
            for (QueryPair& pair : frame.pairs)
                pair.pending = false;
            continue;
        }
        double ms = 0.0;
        for (QueryPair& pair : frame.pairs) {
            if (!pair.pending)
                continue;
            GLuint64 start = 0, stop = 0;
            glGetQueryObjectui64v(pair.begin.id(), GL_QUERY_RESULT, &start);
            glGetQueryObjectui64v(pair.end.id(), GL_QUERY_RESULT, &stop);
            ms += static_cast<double>(stop - start) * 1e-6;
            pair.pending = false;
        }
        latestMs_[pass] = ms;
    }
}

void PassTimer::begin(std::string_view pass) {
    auto it = passes_.find(pass);
    if (it == passes_.end())
        it = passes_.emplace(std::string(pass), PassQueries{}).first;
    PassQueries& queries = it->second;
    if (method_ == TimingMethod::Serialized) {
        glFinish();
        queries.serialStart = clock_();
        return;
    }
    FrameQueries& frame = queries.ring[frame_ % kFrames];
    if (frame.used == static_cast<int>(frame.pairs.size()))
        frame.pairs.push_back({Query(GL_TIMESTAMP), Query(GL_TIMESTAMP)});
    glQueryCounter(frame.pairs[frame.used++].begin.id(), GL_TIMESTAMP);
}

void PassTimer::end(std::string_view pass) {
    auto it = passes_.find(pass);
    if (it == passes_.end())
        return;
    PassQueries& queries = it->second;
    if (method_ == TimingMethod::Serialized) {
        glFinish();
        const auto elapsed = clock_() - queries.serialStart;
        const double ms = std::chrono::duration<double, std::milli>(elapsed).count();
        double& latest = latestMs_[std::string(pass)];
        latest = queries.serialFrame == frame_ ? latest + ms : ms; // instances in a frame add up
        queries.serialFrame = frame_;
        return;
    }
    FrameQueries& frame = queries.ring[frame_ % kFrames];
    if (frame.used == 0)
        return; // ended without a begin this frame
    QueryPair& pair = frame.pairs[frame.used - 1];
    glQueryCounter(pair.end.id(), GL_TIMESTAMP);
    pair.pending = true;
}

} // namespace snowcap::gpu
