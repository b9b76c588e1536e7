#pragma once
// A bad link inside the client's process (net.loss, net.latency_ms, net.jitter_ms,
// net.duplicate): a UDP relay on 127.0.0.1 that the client's ENet host talks to instead of the
// server. Each datagram, either way, is lost with probability `loss`, else held for latency +
// a uniform draw in [0, jitter] and sent, and sent a second time with probability `duplicate`.
// Jitter reorders datagrams, as a real link may. No privileges, no traffic control: a test runs
// it anywhere. Its random sequence is `seed`'s.

#include "core/settings.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <variant>

namespace snowcap::net {

struct LinkConditions {
    double loss = 0.0, latencyMs = 0.0, jitterMs = 0.0, duplicate = 0.0;
    std::uint32_t seed = 1;
    static LinkConditions of(const NetSettings& net) {
        return {net.loss, net.latencyMs, net.jitterMs, net.duplicate,
                static_cast<std::uint32_t>(net.seed)};
    }
    bool perfect() const {
        return loss == 0.0 && latencyMs == 0.0 && jitterMs == 0.0 && duplicate == 0.0;
    }
};

struct LinkCounts {
    long long forwarded = 0, lost = 0, duplicated = 0;
};

class LinkSim {
public:
    // Binds 127.0.0.1 on a free port and relays to host:port; the reason on failure.
    static std::variant<std::unique_ptr<LinkSim>, std::string>
    start(const LinkConditions& conditions, const std::string& host, std::uint16_t port);
    ~LinkSim(); // stops the relay (what it still holds is lost, as on a link that goes down)
    LinkSim(const LinkSim&) = delete;
    LinkSim& operator=(const LinkSim&) = delete;

    std::uint16_t localPort() const { return localPort_; }
    LinkCounts counts() const { return {forwarded_.load(), lost_.load(), duplicated_.load()}; }

private:
    LinkSim() = default;
    void run();

    LinkConditions conditions_;
    int clientSide_ = -1, serverSide_ = -1;
    std::uint16_t localPort_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<long long> forwarded_{0}, lost_{0}, duplicated_{0};
    std::thread thread_;
};

} // namespace snowcap::net
