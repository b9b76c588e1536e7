#include "net/enet_support.hpp"

#include <cstdlib>

namespace snowcap::net {

namespace {

long long gStrayDatagrams = 0; // one server per process

bool fromKnownPeer(const ENetHost* host) {
    for (std::size_t i = 0; i < host->peerCount; ++i) {
        const ENetPeer& peer = host->peers[i];
        if (peer.state != ENET_PEER_STATE_DISCONNECTED &&
            peer.address.host == host->receivedAddress.host &&
            peer.address.port == host->receivedAddress.port)
            return true;
    }
    return false;
}

// ENet's own first datagram from a new peer: the header's peer id is the "none yet" id and its
// first command a connect (enet/protocol.h's layout: u16 peer id and flags, u16 sent time when
// flagged, the u32 checksum this host asks for, then the command header).
bool isConnectAttempt(const ENetHost* host) {
    const std::size_t size = host->receivedDataLength;
    const enet_uint8* data = host->receivedData;
    if (size < 2)
        return false;
    const enet_uint16 field = static_cast<enet_uint16>(data[0] << 8 | data[1]);
    if ((field & ENET_PROTOCOL_MAXIMUM_PEER_ID) != ENET_PROTOCOL_MAXIMUM_PEER_ID)
        return false;
    std::size_t at = (field & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME) ? 4 : 2;
    if (host->checksum)
        at += 4;
    return size > at && (data[at] & ENET_PROTOCOL_COMMAND_MASK) == ENET_PROTOCOL_COMMAND_CONNECT;
}

int ENET_CALLBACK interceptStray(ENetHost* host, ENetEvent*) {
    if (fromKnownPeer(host) || isConnectAttempt(host))
        return 0; // ENet's to read (and check: its checksum drops a damaged one)
    ++gStrayDatagrams;
    return 1;
}

} // namespace

HostPtr listenHost(int port, std::size_t peers) {
    ENetAddress address{};
    address.host = ENET_HOST_ANY;
    address.port = static_cast<enet_uint16>(port);
    HostPtr host(enet_host_create(&address, peers, 1, 0, 0));
    if (host) {
        host->checksum = enet_crc32;
        host->intercept = interceptStray;
    }
    return host;
}

long long strayDatagrams() {
    return gStrayDatagrams;
}

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
