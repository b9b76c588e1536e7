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
        QueryPair& pair = queries.ring[slot];
        if (!pair.pending)
            continue;
        GLint available = GL_FALSE;
        glGetQueryObjectiv(pair.end.id(), GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available)
            continue; // still in flight: skip this sample rather than stall
        GLuint64 start = 0, stop = 0;
        glGetQueryObjectui64v(pair.begin.id(), GL_QUERY_RESULT, &start);
        glGetQueryObjectui64v(pair.end.id(), GL_QUERY_RESULT, &stop);
        latestMs_[pass] = static_cast<double>(stop - start) * 1e-6;
        pair.pending = false;
    }
}

void PassTimer::begin(std::string_view pass) {
    auto it = passes_.find(pass);
    if (it == passes_.end())
        it = passes_.emplace(std::string(pass), PassQueries{}).first;
    PassQueries& queries = it->second;
    if (method_ == TimingMethod::Serialized) {
        glFinish();
        queries.serialStart = std::chrono::steady_clock::now();
        return;
    }
    QueryPair& pair = queries.ring[frame_ % kFrames];
    if (!pair.begin.id()) {
        pair.begin = Query(GL_TIMESTAMP);
        pair.end = Query(GL_TIMESTAMP);
    }
    glQueryCounter(pair.begin.id(), GL_TIMESTAMP);
}

void PassTimer::end(std::string_view pass) {
    auto it = passes_.find(pass);
    if (it == passes_.end())
        return;
    PassQueries& queries = it->second;
    if (method_ == TimingMethod::Serialized) {
        glFinish();
        const auto elapsed = std::chrono::steady_clock::now() - queries.serialStart;
        latestMs_[std::string(pass)] = std::chrono::duration<double, std::milli>(elapsed).count();
        return;
    }
    QueryPair& pair = queries.ring[frame_ % kFrames];
    glQueryCounter(pair.end.id(), GL_TIMESTAMP);
    pair.pending = true;
}

} // namespace snowcap::gpu
