// The simulated link (net/link_sim.hpp): every datagram sent through it is delivered, lost or
// delivered twice, and its counts add up to what was sent; with no loss every byte arrives.
#include "net/link_sim.hpp"

#include <arpa/inet.h>
#include <chrono>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace snowcap::net {
namespace {

struct Socket {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    ~Socket() { close(fd); }
    std::uint16_t bindLoopback() {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
        socklen_t length = sizeof address;
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
        return ntohs(address.sin_port);
    }
    void sendTo(std::uint16_t port, const std::vector<std::uint8_t>& bytes) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(port);
        sendto(fd, bytes.data(), bytes.size(), 0, reinterpret_cast<sockaddr*>(&address),
               sizeof address);
    }
    // Datagrams until none has come for `quietMs`.
    std::vector<std::vector<std::uint8_t>> drain(int quietMs) {
        std::vector<std::vector<std::uint8_t>> got;
        std::vector<std::uint8_t> buffer(2048);
        pollfd pfd{fd, POLLIN, 0};
        while (poll(&pfd, 1, quietMs) > 0) {
            const ssize_t n = recv(fd, buffer.data(), buffer.size(), 0);
            if (n > 0)
                got.emplace_back(buffer.begin(), buffer.begin() + n);
        }
        return got;
    }
};

std::unique_ptr<LinkSim> startLink(const LinkConditions& conditions, std::uint16_t port) {
    auto made = LinkSim::start(conditions, "127.0.0.1", port);
    EXPECT_TRUE(std::holds_alternative<std::unique_ptr<LinkSim>>(made));
    return std::holds_alternative<std::unique_ptr<LinkSim>>(made) ? std::move(std::get<0>(made))
                                                                  : nullptr;
}

TEST(LinkSimTest, APerfectLinkDeliversEveryDatagramInOrder) {
    Socket server;
    const std::uint16_t serverPort = server.bindLoopback();
    auto link = startLink({}, serverPort);
    ASSERT_TRUE(link);
    Socket client;
    std::vector<std::vector<std::uint8_t>> got;
    std::thread reader([&] { got = server.drain(500); });
    for (std::uint8_t i = 0; i < 100; ++i) {
        client.sendTo(link->localPort(), {i, 1, 2, 3});
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    reader.join();
    ASSERT_EQ(got.size(), 100u);
    for (std::uint8_t i = 0; i < 100; ++i)
        EXPECT_EQ(got[i], (std::vector<std::uint8_t>{i, 1, 2, 3}));
    EXPECT_EQ(link->counts().lost, 0);
}

TEST(LinkSimTest, LossAndDuplicatesAddUp) {
    Socket server;
    const std::uint16_t serverPort = server.bindLoopback();
    auto link = startLink(
        {.loss = 0.25, .latencyMs = 5, .jitterMs = 5, .duplicate = 0.1, .seed = 3}, serverPort);
    ASSERT_TRUE(link);
    Socket client;
    const int sent = 400;
    // Read while sending: a small datagram takes about 768 bytes of the default receive buffer,
    // which would overflow at about 270 unread.
    std::vector<std::vector<std::uint8_t>> got;
    std::thread reader([&] { got = server.drain(500); });
    for (int i = 0; i < sent; ++i) {
        client.sendTo(link->localPort(), {static_cast<std::uint8_t>(i), 9});
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    reader.join();
    const LinkCounts counts = link->counts();
    EXPECT_EQ(static_cast<long long>(got.size()), counts.forwarded);
    EXPECT_EQ(counts.forwarded - counts.duplicated + counts.lost, sent);
    // 25 % of 400 lost: 100 expected, binomial sd about 8.7.
    EXPECT_GT(counts.lost, 60);
    EXPECT_LT(counts.lost, 140);
    EXPECT_GT(counts.duplicated, 0);
}

} // namespace
} // namespace snowcap::net
