#include "net/link_sim.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <cstring>
#include <map>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <random>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace snowcap::net {

namespace {

using Clock = std::chrono::steady_clock;

std::string lastError(const char* what) {
    return std::string(what) + ": " + std::strerror(errno);
}

} // namespace

std::variant<std::unique_ptr<LinkSim>, std::string>
LinkSim::start(const LinkConditions& conditions, const std::string& host, std::uint16_t port) {
    std::unique_ptr<LinkSim> link(new LinkSim());
    link->conditions_ = conditions;
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_DGRAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found)
        return "net: the simulated link cannot resolve " + host;
    sockaddr_in server{};
    std::memcpy(&server, found->ai_addr, sizeof server);
    freeaddrinfo(found);

    link->clientSide_ = socket(AF_INET, SOCK_DGRAM, 0);
    link->serverSide_ = socket(AF_INET, SOCK_DGRAM, 0);
    if (link->clientSide_ < 0 || link->serverSide_ < 0)
        return "net: the simulated link: " + lastError("socket");
    sockaddr_in local{};
    local.sin_family = AF_INET;
    local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    local.sin_port = 0;
    if (bind(link->clientSide_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0)
        return "net: the simulated link: " + lastError("bind");
    socklen_t length = sizeof local;
    getsockname(link->clientSide_, reinterpret_cast<sockaddr*>(&local), &length);
    link->localPort_ = ntohs(local.sin_port);
    if (connect(link->serverSide_, reinterpret_cast<sockaddr*>(&server), sizeof server) != 0)
        return "net: the simulated link: " + lastError("connect");
    link->thread_ = std::thread([raw = link.get()] { raw->run(); });
    return link;
}

LinkSim::~LinkSim() {
    stop_ = true;
    if (thread_.joinable())
        thread_.join();
    if (clientSide_ >= 0)
        close(clientSide_);
    if (serverSide_ >= 0)
        close(serverSide_);
}

void LinkSim::run() {
    struct Held {
        bool toServer = false;
        std::vector<std::uint8_t> bytes;
    };
    std::multimap<Clock::time_point, Held> held; // by the time each leaves
    std::mt19937 random(conditions_.seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    sockaddr_in client{};
    bool clientKnown = false;
    std::vector<std::uint8_t> buffer(65536);

    auto admit = [&](bool toServer, std::size_t bytes) {
        if (unit(random) < conditions_.loss) {
            ++lost_;
            return;
        }
        const int copies = unit(random) < conditions_.duplicate ? 2 : 1;
        duplicated_ += copies - 1;
        for (int c = 0; c < copies; ++c) {
            const double delayMs = conditions_.latencyMs + conditions_.jitterMs * unit(random);
            const auto at =
                Clock::now() + std::chrono::microseconds(static_cast<long long>(delayMs * 1000.0));
            held.emplace(at, Held{toServer, {buffer.begin(), buffer.begin() + bytes}});
        }
    };

    while (!stop_) {
        const auto now = Clock::now();
        while (!held.empty() && held.begin()->first <= now) {
            const Held& item = held.begin()->second;
            if (item.toServer)
                send(serverSide_, item.bytes.data(), item.bytes.size(), 0);
            else if (clientKnown)
                sendto(clientSide_, item.bytes.data(), item.bytes.size(), 0,
                       reinterpret_cast<const sockaddr*>(&client), sizeof client);
            ++forwarded_;
            held.erase(held.begin());
        }
        int waitMs = 5;
        if (!held.empty())
            waitMs = static_cast<int>(std::clamp<long long>(
                std::chrono::duration_cast<std::chrono::milliseconds>(held.begin()->first - now)
                    .count(),
                0, 5));
        pollfd fds[2] = {{clientSide_, POLLIN, 0}, {serverSide_, POLLIN, 0}};
        if (poll(fds, 2, waitMs) <= 0)
            continue;
        if (fds[0].revents & POLLIN) {
            sockaddr_in from{};
            socklen_t length = sizeof from;
            const ssize_t n = recvfrom(clientSide_, buffer.data(), buffer.size(), 0,
                                       reinterpret_cast<sockaddr*>(&from), &length);
            if (n > 0) {
                client = from;
                clientKnown = true;
                admit(true, static_cast<std::size_t>(n));
            }
        }
        if (fds[1].revents & POLLIN) {
            const ssize_t n = recv(serverSide_, buffer.data(), buffer.size(), 0);
            if (n > 0)
                admit(false, static_cast<std::size_t>(n));
        }
    }
}

} // namespace snowcap::net
