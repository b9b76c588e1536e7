#include "net/client.hpp"

#include "core/config.hpp"
#include "lab/run_guard.hpp"
#include "net/enet_support.hpp"
#include "net/link_sim.hpp"
#include "net/net_run.hpp"
#include "net/sync.hpp"

#include <chrono>
#include <deque>
#include <spdlog/spdlog.h>

namespace snowcap::net {

namespace fs = std::filesystem;

namespace {

// The keys a client sets for itself: its link. Everything else is the server's.
bool isLinkKey(const std::string& assignment) {
    for (const char* key : {"net.loss=", "net.latency_ms=", "net.jitter_ms=", "net.duplicate=",
                            "net.seed=", "net.timeout_s="})
        if (assignment.rfind(key, 0) == 0)
            return true;
    return false;
}

class Connection {
public:
    Connection(ENetHost* host, ENetPeer* peer, double timeoutS)
        : host_(host), peer_(peer), timeoutS_(timeoutS) {}

    // The next message from the server, waiting up to the timeout; the reason when there is
    // none (silence, a disconnect).
    std::variant<Message, std::string> next() {
        while (inbox_.empty()) {
            ENetEvent event;
            const int got = enet_host_service(host_, &event, 5);
            if (got < 0)
                return std::string("ENet failed to service the connection");
            if (got == 0) {
                if (secondsSince(lastHeard_) > timeoutS_)
                    return fmt::format("the server went silent for {:.1f} s (net.timeout_s)",
                                       secondsSince(lastHeard_));
                continue;
            }
            if (event.type == ENET_EVENT_TYPE_DISCONNECT)
                return std::string("the server closed the connection");
            if (event.type != ENET_EVENT_TYPE_RECEIVE)
                continue;
            lastHeard_ = Clock::now();
            bytesIn += static_cast<long long>(event.packet->dataLength);
            auto decoded = decode({event.packet->data, event.packet->dataLength});
            enet_packet_destroy(event.packet);
            if (auto* why = std::get_if<std::string>(&decoded)) {
                ++dropped;
                spdlog::warn("render --connect: a packet from the server dropped ({})", *why);
                continue;
            }
            inbox_.push_back(std::move(std::get<Message>(decoded)));
        }
        Message message = std::move(inbox_.front());
        inbox_.pop_front();
        return message;
    }
    void send(const Message& message) {
        bytesOut += static_cast<long long>(sendMessage(peer_, message));
    }
    void flush() { enet_host_flush(host_); }

    long long bytesIn = 0, bytesOut = 0, dropped = 0;

private:
    ENetHost* host_;
    ENetPeer* peer_;
    double timeoutS_;
    Clock::time_point lastHeard_ = Clock::now();
    std::deque<Message> inbox_;
};

} // namespace

int runConnect(const CommonOptions& common, const ConnectOptions& options) {
    auto target = parseHostPort(options.hostPort);
    if (auto* error = std::get_if<std::string>(&target)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const auto [serverHost, serverPort] = std::get<0>(target);
    std::vector<std::string> linkOverrides;
    for (const std::string& assignment : common.overrides) {
        if (!isLinkKey(assignment)) {
            spdlog::error("render --connect: --set {}: a client takes its settings from the "
                          "server; only net.loss, net.latency_ms, net.jitter_ms, net.duplicate, "
                          "net.seed and net.timeout_s are its own",
                          assignment);
            return 2;
        }
        linkOverrides.push_back(assignment);
    }
    // The link's keys, checked as any --set is (against the defaults).
    auto own = loadScenarioSettings("decay_compare", linkOverrides);
    if (auto* error = std::get_if<ConfigError>(&own)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    const NetSettings link = std::get<Settings>(own).net;
    auto guarded = RunGuard::createAndTake(options.outDir);
    if (auto* error = std::get_if<std::string>(&guarded)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const RunGuard& guard = std::get<RunGuard>(guarded);
    RunGuard::catchInterrupts();

    if (!initializeEnet()) {
        spdlog::error("render --connect: ENet cannot start");
        return 2;
    }
    // A bad link, when asked for: ENet talks to the relay, the relay to the server.
    std::unique_ptr<LinkSim> linkSim;
    std::string connectHost = serverHost;
    std::uint16_t connectPort = serverPort;
    const LinkConditions conditions = LinkConditions::of(link);
    if (!conditions.perfect()) {
        auto made = LinkSim::start(conditions, serverHost, serverPort);
        if (auto* error = std::get_if<std::string>(&made)) {
            spdlog::error("{}", *error);
            return 2;
        }
        linkSim = std::move(std::get<0>(made));
        connectHost = "127.0.0.1";
        connectPort = linkSim->localPort();
    }
    HostPtr host(enet_host_create(nullptr, 1, 1, 0, 0));
    if (!host) {
        spdlog::error("render --connect: cannot open a UDP socket");
        return 2;
    }
    host->checksum = enet_crc32;
    ENetAddress address{};
    if (enet_address_set_host(&address, connectHost.c_str()) != 0) {
        spdlog::error("--connect {}: cannot resolve {}", options.hostPort, serverHost);
        return 2;
    }
    address.port = connectPort;
    ENetPeer* peer = enet_host_connect(host.get(), &address, 1, 0);
    ENetEvent event;
    const auto connectStart = Clock::now();
    bool connected = false;
    while (!connected && secondsSince(connectStart) < link.timeoutS) {
        if (enet_host_service(host.get(), &event, 50) > 0 && event.type == ENET_EVENT_TYPE_CONNECT)
            connected = true;
    }
    if (!connected) {
        spdlog::error("--connect {}: no server answered within {} s (net.timeout_s)",
                      options.hostPort, link.timeoutS);
        return 1;
    }
    Connection connection(host.get(), peer, link.timeoutS);

    // The session: the server's scenario and overrides, this client's link.
    auto first = connection.next();
    if (auto* error = std::get_if<std::string>(&first)) {
        spdlog::error("render --connect: {}", *error);
        return 1;
    }
    const Message& hello = std::get<Message>(first);
    if (const auto* refused = std::get_if<Refused>(&hello.body)) {
        spdlog::error("render --connect: the server refused: {}", refused->reason);
        return 1;
    }
    const auto* welcome = std::get_if<Welcome>(&hello.body);
    if (!welcome) {
        spdlog::error("render --connect: the server's first message is not a welcome");
        return 1;
    }
    std::vector<std::string> overrides = welcome->overrides;
    overrides.insert(overrides.end(), linkOverrides.begin(), linkOverrides.end());
    auto loaded = loadScenarioSettings(welcome->scenario, overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("render --connect: the server's scenario: {}", error->message);
        return 2;
    }
    Settings settings = std::get<Settings>(loaded);
    settings.run.frames = static_cast<int>(welcome->frames);
    if (settingsHash(settings) != welcome->settingsHash) {
        spdlog::error("render --connect: scenario '{}' loads differently here than on the "
                      "server (another version of its files?)",
                      welcome->scenario);
        return 2;
    }
    const std::uint32_t last =
        options.frames > 0 ? static_cast<std::uint32_t>(options.frames) : welcome->frames;
    if (last == 0) {
        spdlog::error("render --connect: the session has no last step; give --frames N");
        return 2;
    }
    auto started = startRun(settings, welcome->scenario, overrides, common.debugGl);
    if (auto* error = std::get_if<std::string>(&started)) {
        spdlog::error("{}", *error);
        return 2;
    }
    NetRun& run = std::get<NetRun>(started);
    Lab& lab = *run.lab;
    NetSettings net = settings.net;
    net.mode = welcome->mode;
    net.tileTexels = static_cast<int>(welcome->tileTexels);
    Replica replica(lab, net);
    RunRecorder recorder(lab.settings(), lab.field());
    replica.onStep = [&] {
        recorder.recordProbes(lab.field());
    };
    guard.begin();
    spdlog::info("render --connect: client {} of {} ({}, mode {}), to step {}", welcome->clientId,
                 options.hostPort, welcome->scenario, toString(welcome->mode), last);

    const auto helloAt = Clock::now();
    connection.send({0, Hello{}});
    connection.flush();
    double joinMs = 0.0;
    const auto start = Clock::now();
    while (!replica.appliedStep() || *replica.appliedStep() < last) {
        if (const int signal = RunGuard::interruptedBy()) {
            spdlog::error("{}", RunGuard::interruptedNote("render", options.outDir, signal));
            return 128 + signal;
        }
        auto next = connection.next();
        if (auto* error = std::get_if<std::string>(&next)) {
            spdlog::error("render --connect: {} (at step {})", *error,
                          replica.appliedStep().value_or(0));
            return 1;
        }
        const Message& message = std::get<Message>(next);
        if (const auto* refused = std::get_if<Refused>(&message.body)) {
            spdlog::warn("render --connect: the server refused a message: {}", refused->reason);
            continue;
        }
        if (std::holds_alternative<End>(message.body)) {
            if (message.step < last) {
                spdlog::error("render --connect: the session ended at step {}, before {}",
                              message.step, last);
                return 1;
            }
            continue;
        }
        const bool joining = !replica.appliedStep().has_value();
        if (auto error = replica.apply(message)) {
            spdlog::error("render --connect: {}", *error);
            return 1;
        }
        if (!std::holds_alternative<StepEnd>(message.body))
            continue;
        const std::uint32_t step = *replica.appliedStep();
        if (joining) {
            joinMs = secondsSince(helloAt) * 1000.0;
            spdlog::info("render --connect: joined at step {} in {:.1f} ms", step, joinMs);
        }
        const auto stamp =
            static_cast<std::uint32_t>(static_cast<long long>(step) + options.stampOffset);
        for (Message& request : replica.takeRequests()) {
            request.step = stamp;
            connection.send(request);
        }
        if (options.playerInputLength > 0.0)
            connection.send(
                {stamp, PlayerInput{static_cast<float>(options.playerInputLength), 0.0f}});
        connection.send({stamp, Reached{}});
        connection.flush();
    }
    const double seconds = secondsSince(start);
    const ReplicaCounts& counts = replica.counts();
    const LinkCounts linkCounts = linkSim ? linkSim->counts() : LinkCounts{};
    const nlohmann::json report = {{"side", "client"},
                                   {"mode", toString(welcome->mode)},
                                   {"client_id", welcome->clientId},
                                   {"joined_at_step", replica.joinedAtStep()},
                                   {"steps", *replica.appliedStep()},
                                   {"bytes_in", connection.bytesIn},
                                   {"bytes_out", connection.bytesOut},
                                   {"wire_bytes_in", host->totalReceivedData},
                                   {"wire_bytes_out", host->totalSentData},
                                   {"packets_lost", linkCounts.lost},
                                   {"packets_duplicated", linkCounts.duplicated},
                                   {"tiles_applied", counts.tilesApplied},
                                   {"tiles_resent", counts.tilesResent},
                                   {"divergent_tiles", counts.divergentTiles},
                                   {"checked_tiles", counts.checkedTiles},
                                   {"clock_mismatches", counts.clockMismatches},
                                   {"dropped_messages", connection.dropped},
                                   {"join_ms", joinMs},
                                   {"link",
                                    {{"loss", conditions.loss},
                                     {"latency_ms", conditions.latencyMs},
                                     {"jitter_ms", conditions.jitterMs},
                                     {"duplicate", conditions.duplicate}}}};
    enet_peer_disconnect(peer, 0);
    const auto byeStart = Clock::now();
    while (secondsSince(byeStart) < 0.5 && enet_host_service(host.get(), &event, 10) >= 0) {
        if (event.type == ENET_EVENT_TYPE_RECEIVE)
            enet_packet_destroy(event.packet);
        if (event.type == ENET_EVENT_TYPE_DISCONNECT)
            break;
    }
    if (auto error = finishRun(options.outDir, run, recorder, seconds, report,
                               replica.lastDeformers(), nullptr)) {
        spdlog::error("{}", *error);
        return 1;
    }
    if (auto error = guard.publish("render")) {
        spdlog::error("{}", *error);
        return 1;
    }
    spdlog::info("render --connect: steps {} .. {} applied in {:.2f} s; {} bytes in, {} out, "
                 "{} packets lost on the link, {} divergent tiles, {} resent",
                 replica.joinedAtStep(), *replica.appliedStep(), seconds, connection.bytesIn,
                 connection.bytesOut, linkCounts.lost, counts.divergentTiles, counts.tilesResent);
    return 0;
}

} // namespace snowcap::net
