#include "net/enet_support.hpp"

#include <cstdlib>

namespace snowcap::net {

bool initializeEnet() {
    static const bool ok = [] {
        if (enet_initialize() != 0)
            return false;
        std::atexit(enet_deinitialize);
        return true;
    }();
    return ok;
}

std::size_t sendBytes(ENetPeer* peer, const std::vector<std::uint8_t>& bytes) {
    ENetPacket* packet = enet_packet_create(bytes.data(), bytes.size(), ENET_PACKET_FLAG_RELIABLE);
    if (!packet)
        return 0;
    if (enet_peer_send(peer, 0, packet) != 0) {
        enet_packet_destroy(packet);
        return 0;
    }
    return bytes.size();
}

std::size_t sendMessage(ENetPeer* peer, const Message& message) {
    return sendBytes(peer, encode(message));
}

std::string addressText(const ENetAddress& address) {
    char host[64] = "?";
    enet_address_get_host_ip(&address, host, sizeof host);
    return std::string(host) + ":" + std::to_string(address.port);
}

} // namespace snowcap::net
