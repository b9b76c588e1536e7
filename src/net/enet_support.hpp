#pragma once
// ENet, once per process and one host per owner (the server's, a client's), and the one way
// a message is sent: encoded, reliable, on channel 0. Only net/ sees ENet.

#include "net/wire.hpp"

#include <enet/enet.h>
#include <memory>
#include <string>

namespace snowcap::net {

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

} // namespace snowcap::net
