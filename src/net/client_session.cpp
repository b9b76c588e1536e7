#include "net/client_session.hpp"

#include "core/config.hpp"
#include "net/enet_support.hpp"
#include "net/net_run.hpp"

#include <deque>
#include <spdlog/spdlog.h>

namespace snowcap::net {

bool isClientKey(const std::string& assignment) {
    for (const char* key : {"net.loss=", "net.latency_ms=", "net.jitter_ms=", "net.duplicate=",
                            "net.seed=", "net.timeout_s="})
        if (assignment.rfind(key, 0) == 0)
            return true;
    return false;
}

// The ENet side: the host, the peer, what has come and not yet been applied, the counts.
struct ClientSession::Connection {
    HostPtr host;
    ENetPeer* peer = nullptr;
    double timeoutS = 0.0;
    Clock::time_point lastHeard = Clock::now();
    std::deque<Message> inbox;
    long long bytesIn = 0, bytesOut = 0, dropped = 0;

    void send(const Message& message) {
        bytesOut += static_cast<long long>(sendMessage(peer, message));
    }
};

ClientSession::~ClientSession() = default;

std::variant<std::unique_ptr<ClientSession>, ClientFailure>
ClientSession::open(const std::string& hostPort, const std::vector<std::string>& ownOverrides,
                    const std::string& command) {
    auto target = parseHostPort(hostPort);
    if (auto* error = std::get_if<std::string>(&target))
        return ClientFailure{2, *error};
    const auto [serverHost, serverPort] = std::get<0>(target);
    for (const std::string& assignment : ownOverrides)
        if (!isClientKey(assignment))
            return ClientFailure{
                2, command + ": --set " + assignment +
                       ": a client takes its settings from the server; only net.loss, "
                       "net.latency_ms, net.jitter_ms, net.duplicate, net.seed and "
                       "net.timeout_s are its own"};
    // The link's keys, checked as any --set is (against the defaults).
    auto own = loadScenarioSettings("decay_compare", ownOverrides);
    if (auto* error = std::get_if<ConfigError>(&own))
        return ClientFailure{2, error->message};
    const NetSettings link = std::get<Settings>(own).net;
    if (!initializeEnet())
        return ClientFailure{2, command + ": ENet cannot start"};

    std::unique_ptr<ClientSession> session(new ClientSession());
    session->hostPort_ = hostPort;
    session->command_ = command;
    session->conditions_ = LinkConditions::of(link);
    // A bad link, when asked for: ENet talks to the relay, the relay to the server.
    std::string connectHost = serverHost;
    std::uint16_t connectPort = serverPort;
    if (!session->conditions_.perfect()) {
        auto made = LinkSim::start(session->conditions_, serverHost, serverPort);
        if (auto* error = std::get_if<std::string>(&made))
            return ClientFailure{2, *error};
        session->linkSim_ = std::move(std::get<0>(made));
        connectHost = "127.0.0.1";
        connectPort = session->linkSim_->localPort();
    }
    session->connection_ = std::make_unique<Connection>();
    Connection& connection = *session->connection_;
    connection.timeoutS = link.timeoutS;
    connection.host.reset(enet_host_create(nullptr, 1, 1, 0, 0));
    if (!connection.host)
        return ClientFailure{2, command + ": cannot open a UDP socket"};
    connection.host->checksum = enet_crc32;
    ENetAddress address{};
    if (enet_address_set_host(&address, connectHost.c_str()) != 0)
        return ClientFailure{2, "--connect " + hostPort + ": cannot resolve " + serverHost};
    address.port = connectPort;
    connection.peer = enet_host_connect(connection.host.get(), &address, 1, 0);
    if (!connection.peer)
        return ClientFailure{2, command + ": ENet has no peer slot to connect with"};
    ENetEvent event;
    const auto connectStart = Clock::now();
    bool connected = false;
    while (!connected && secondsSince(connectStart) < link.timeoutS)
        if (enet_host_service(connection.host.get(), &event, 50) > 0 &&
            event.type == ENET_EVENT_TYPE_CONNECT)
            connected = true;
    if (!connected)
        return ClientFailure{1, fmt::format("--connect {}: no server answered within {} s "
                                            "(net.timeout_s)",
                                            hostPort, link.timeoutS)};
    connection.lastHeard = Clock::now();

    // The session: the server's scenario and overrides, this client's link.
    while (connection.inbox.empty())
        if (auto error = session->receive(50))
            return ClientFailure{1, command + ": " + *error};
    const Message first = std::move(connection.inbox.front());
    connection.inbox.pop_front();
    if (const auto* refused = std::get_if<Refused>(&first.body))
        return ClientFailure{1, command + ": the server refused: " + refused->reason};
    const auto* welcome = std::get_if<Welcome>(&first.body);
    if (!welcome)
        return ClientFailure{1, command + ": the server's first message is not a welcome"};
    session->welcome_ = *welcome;
    session->overrides_ = welcome->overrides;
    session->overrides_.insert(session->overrides_.end(), ownOverrides.begin(), ownOverrides.end());
    auto loaded = loadScenarioSettings(welcome->scenario, session->overrides_);
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return ClientFailure{2, command + ": the server's scenario: " + error->message};
    session->settings_ = std::get<Settings>(loaded);
    session->settings_.run.frames = static_cast<int>(welcome->frames);
    if (settingsHash(session->settings_) != welcome->settingsHash)
        return ClientFailure{2, command + ": scenario '" + welcome->scenario +
                                    "' loads differently here than on the server (another "
                                    "version of its files?)"};
    return session;
}

const std::string& ClientSession::scenario() const {
    return welcome_.scenario;
}
std::uint32_t ClientSession::clientId() const {
    return welcome_.clientId;
}
std::uint32_t ClientSession::sessionLastStep() const {
    return welcome_.frames;
}
NetMode ClientSession::mode() const {
    return welcome_.mode;
}

void ClientSession::join(Lab& lab) {
    NetSettings net = settings_.net;
    net.mode = welcome_.mode;
    net.tileTexels = static_cast<int>(welcome_.tileTexels);
    replica_ = std::make_unique<Replica>(lab, net);
    helloAt_ = Clock::now();
    // The server says nothing between its Welcome and this Hello: the time this client took
    // to build its lab is its own, not the server's silence.
    connection_->lastHeard = helloAt_;
    connection_->send({0, Hello{}});
    enet_host_flush(connection_->host.get());
}

void ClientSession::onStep(std::function<void()> hook) {
    replica_->onStep = std::move(hook);
}

std::optional<std::uint32_t> ClientSession::appliedStep() const {
    return replica_ ? replica_->appliedStep() : std::nullopt;
}

std::span<const DeformerInstance> ClientSession::deformers() {
    return replica_->lastDeformers();
}

std::optional<std::string> ClientSession::receive(int waitMs) {
    Connection& connection = *connection_;
    ENetEvent event;
    // The first wait may block up to waitMs; what else has come is then taken without waiting.
    for (int wait = waitMs;; wait = 0) {
        const int got = enet_host_service(connection.host.get(), &event, wait);
        if (got < 0)
            return std::string("ENet failed to service the connection");
        if (got == 0)
            break;
        if (event.type == ENET_EVENT_TYPE_DISCONNECT)
            return std::string("the server closed the connection");
        if (event.type != ENET_EVENT_TYPE_RECEIVE)
            continue;
        longestSilenceS_ = std::max(longestSilenceS_, secondsSince(connection.lastHeard));
        connection.lastHeard = Clock::now();
        connection.bytesIn += static_cast<long long>(event.packet->dataLength);
        auto decoded = decode({event.packet->data, event.packet->dataLength});
        enet_packet_destroy(event.packet);
        if (auto* why = std::get_if<std::string>(&decoded)) {
            ++connection.dropped;
            spdlog::warn("{}: a packet from the server dropped ({})", command_, *why);
            continue;
        }
        connection.inbox.push_back(std::move(std::get<Message>(decoded)));
    }
    if (connection.inbox.empty() && secondsSince(connection.lastHeard) > connection.timeoutS)
        return fmt::format("the server went silent for {:.1f} s (net.timeout_s)",
                           secondsSince(connection.lastHeard));
    return std::nullopt;
}

void ClientSession::answer(std::uint32_t step) {
    Connection& connection = *connection_;
    const auto stamp = static_cast<std::uint32_t>(static_cast<long long>(step) + stampOffset);
    for (Message& request : replica_->takeRequests()) {
        request.step = stamp;
        connection.send(request);
    }
    if (lieInputLength > 0.0)
        connection.send({stamp, PlayerInput{static_cast<float>(lieInputLength), 0.0f}});
    connection.send({stamp, Reached{}});
}

std::optional<std::string> ClientSession::advance(int waitMs, std::uint32_t stopAt,
                                                  glm::vec2 playerInput) {
    Connection& connection = *connection_;
    const auto reachedStop = [&] {
        return replica_->appliedStep() && *replica_->appliedStep() >= stopAt;
    };
    if (connection.inbox.empty() && !reachedStop())
        if (auto error = receive(waitMs))
            return error;
    std::optional<std::uint32_t> answered;
    while (!connection.inbox.empty() && !reachedStop()) {
        const Message message = std::move(connection.inbox.front());
        connection.inbox.pop_front();
        if (const auto* refused = std::get_if<Refused>(&message.body)) {
            spdlog::warn("{}: the server refused a message: {}", command_, refused->reason);
            lastRefusal_ = refused->reason;
            continue;
        }
        if (std::holds_alternative<End>(message.body)) {
            endedAt_ = message.step;
            continue;
        }
        const bool joining = !replica_->appliedStep().has_value();
        if (auto error = replica_->apply(message))
            return error;
        if (!std::holds_alternative<StepEnd>(message.body))
            continue;
        const std::uint32_t step = *replica_->appliedStep();
        if (joining) {
            joinMs_ = secondsSince(helloAt_) * 1000.0;
            spdlog::info("{}: joined at step {} in {:.1f} ms", command_, step, joinMs_);
        }
        answer(step);
        answered = step;
    }
    // The player's input once, stamped with the newest step: a client that applies a backlog
    // of steps at once (a slow frame) stays inside the server's stamp window.
    if (answered) {
        if (playerInput != glm::vec2(0.0f))
            connection.send({static_cast<std::uint32_t>(*answered + stampOffset),
                             PlayerInput{playerInput.x, playerInput.y}});
        enet_host_flush(connection.host.get());
    }
    return std::nullopt;
}

nlohmann::json ClientSession::report() const {
    const ReplicaCounts counts = replica_ ? replica_->counts() : ReplicaCounts{};
    const LinkCounts link = linkSim_ ? linkSim_->counts() : LinkCounts{};
    const Connection& connection = *connection_;
    return {{"side", "client"},
            {"mode", toString(welcome_.mode)},
            {"client_id", welcome_.clientId},
            {"joined_at_step", replica_ ? replica_->joinedAtStep() : 0},
            {"steps", appliedStep().value_or(0)},
            {"bytes_in", connection.bytesIn},
            {"bytes_out", connection.bytesOut},
            {"wire_bytes_in", connection.host->totalReceivedData},
            {"wire_bytes_out", connection.host->totalSentData},
            {"packets_lost", link.lost},
            {"packets_duplicated", link.duplicated},
            {"tiles_applied", counts.tilesApplied},
            {"tiles_resent", counts.tilesResent},
            {"divergent_tiles", counts.divergentTiles},
            {"checked_tiles", counts.checkedTiles},
            {"clock_mismatches", counts.clockMismatches},
            {"window_mismatches", counts.windowMismatches},
            {"dropped_messages", connection.dropped},
            {"join_ms", joinMs_},
            {"longest_silence_s", longestSilenceS_},
            {"link",
             {{"loss", conditions_.loss},
              {"latency_ms", conditions_.latencyMs},
              {"jitter_ms", conditions_.jitterMs},
              {"duplicate", conditions_.duplicate}}}};
}

std::string ClientSession::summary() const {
    const ReplicaCounts counts = replica_ ? replica_->counts() : ReplicaCounts{};
    return fmt::format("{} bytes in, {} out, {} packets lost on the link, {} divergent tiles, "
                       "{} resent",
                       connection_->bytesIn, connection_->bytesOut,
                       linkSim_ ? linkSim_->counts().lost : 0, counts.divergentTiles,
                       counts.tilesResent);
}

void ClientSession::close() {
    if (!connection_ || !connection_->peer)
        return;
    enet_peer_disconnect(connection_->peer, 0);
    ENetEvent event;
    const auto byeStart = Clock::now();
    while (secondsSince(byeStart) < 0.5 &&
           enet_host_service(connection_->host.get(), &event, 10) >= 0) {
        if (event.type == ENET_EVENT_TYPE_RECEIVE)
            enet_packet_destroy(event.packet);
        if (event.type == ENET_EVENT_TYPE_DISCONNECT)
            break;
    }
    connection_->peer = nullptr;
}

} // namespace snowcap::net
