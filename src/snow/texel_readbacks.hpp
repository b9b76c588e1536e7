#pragma once
// The transport of the world stores (snow/world_pager.*, snow/snowpack_world.*): rectangles of a
// texture read back asynchronously, a pixel buffer object and a fence each, mapped a frame or
// more later, so a window's move never waits on the GPU. Readbacks complete in the order they
// were queued (a later one may hold the same world texels, newer). Finished pixel buffers are
// reused. The stores decide what a readback's bytes mean; this only moves them.

#include "gpu/objects.hpp"
#include "snow/world_store.hpp"

#include <cstddef>
#include <deque>
#include <functional>
#include <span>
#include <vector>

namespace snowcap {

// Timings of the paging work on the CPU side (what a frame pays), summed over the run.
struct WorldPagingCost {
    double pageOutS = 0.0;  // queueing readbacks
    double pageInS = 0.0;   // draining what an entering rect needs, aging, uploading
    double completeS = 0.0; // mapping finished readbacks and writing them into the store
    long long readbacks = 0;
    long long readbacksWaited = 0; // a page-in had to wait for one still in flight
};

// How a texture's texels are read back: glGetTextureSubImage's format and type, and the bytes
// one texel takes.
struct TexelLayout {
    GLenum format = GL_RED;
    GLenum type = GL_HALF_FLOAT;
    std::size_t texelBytes = 2;
};

class TexelReadbacks {
public:
    // Receives a finished readback: the world rectangle, its stamp, its texels row by row.
    using Sink = std::function<void(const TexelRect& rect, long long stamp,
                                    std::span<const std::byte> texels)>;
    // Readbacks in flight before the oldest is waited for (bounds the pixel buffers' memory).
    static constexpr std::size_t kMaxInFlight = 8;

    TexelReadbacks() = default;
    TexelReadbacks(const TexelReadbacks&) = delete;
    TexelReadbacks& operator=(const TexelReadbacks&) = delete;
    ~TexelReadbacks(); // releases the fences in flight

    // Queues the readback of the texture's texels at `local` (its own texel coordinates) that
    // are world `rect`, as of `stamp`; then, past kMaxInFlight, waits for the oldest.
    void queue(GLuint texture, glm::ivec2 local, const TexelRect& rect, long long stamp,
               const TexelLayout& layout, const Sink& sink);
    // Completes, in order, the readbacks whose fence has signalled.
    void completeReady(const Sink& sink);
    // Completes every readback up to the last one that overlaps `rects` (waiting for them):
    // what a page-in of `rects` must see first.
    void completeOverlapping(std::span<const TexelRect> rects, const Sink& sink);
    // Waits for every readback in flight.
    void finish(const Sink& sink);
    // Forgets what is in flight (a reset: the store is cleared too).
    void clear();
    bool empty() const { return inFlight_.empty(); }
    // The oldest stamp still in flight, or `now`.
    long long oldestStamp(long long now) const;
    WorldPagingCost& cost() { return cost_; }
    const WorldPagingCost& cost() const { return cost_; }

private:
    struct Readback {
        gpu::UniqueName<gpu::ObjectKind::Buffer> pbo;
        std::size_t capacity = 0;
        std::size_t bytes = 0;
        GLsync fence = nullptr;
        TexelRect rect;
        long long stamp = 0;
    };
    void complete(Readback& readback, bool wait, const Sink& sink);
    void completeFront(bool wait, const Sink& sink);

    std::deque<Readback> inFlight_;
    std::vector<Readback> spare_; // finished pixel buffers, reused
    WorldPagingCost cost_;
};

} // namespace snowcap
