#pragma once
// ENet, once per process and one host per owner (the server's, a client's), and the one way
// a message is sent: encoded, reliable, on channel 0. Only net/ sees ENet.

#include "net/wire.hpp"

#include <chrono>
#include <enet/enet.h>
#include <memory>
#include <string>

namespace snowcap::net {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// enet_initialize once (enet_deinitialize at exit); false if ENet cannot start.
bool initializeEnet();

struct HostDeleter {
    void operator()(ENetHost* host) const {
        if (host)
            enet_host_destroy(host);
    }
};
using HostPtr = std::unique_ptr<ENetHost, HostDeleter>;

// Sends `message` reliably; returns the bytes handed to ENet (0 if it refused the packet).
std::size_t sendMessage(ENetPeer* peer, const Message& message);
std::size_t sendBytes(ENetPeer* peer, const std::vector<std::uint8_t>& bytes);

std::string addressText(const ENetAddress& address);

// The server's host on `port` (0: any free one) with `peers` slots, one channel, checksummed.
// A datagram from no connected peer that is not ENet's own connect is dropped before ENet
// reads it and counted in strayDatagrams() (one server per process). Null if it cannot listen.
HostPtr listenHost(int port, std::size_t peers);
long long strayDatagrams();

} // namespace snowcap::net
