#include "net/server.hpp"

#include "core/config.hpp"
#include "lab/run_guard.hpp"
#include "net/enet_support.hpp"
#include "net/net_run.hpp"
#include "net/sync.hpp"

#include <chrono>
#include <cmath>
#include <map>
#include <spdlog/spdlog.h>

namespace snowcap::net {

namespace fs = std::filesystem;

namespace {

// ---- clients ------------------------------------------------------------------------------------

// A client's first refusals are lines; past kMaxRefusals it is dropped (a liar does not hold
// the session's end back).
constexpr long long kRefusalsSaid = 3;
constexpr long long kMaxRefusals = 10;

struct Client {
    std::uint32_t id = 0;
    ENetPeer* peer = nullptr;
    bool ready = false; // said Hello: has its snapshot and gets every step
    std::uint32_t joinedAt = 0;
    std::optional<std::uint32_t> reached;
    Clock::time_point lastHeard = Clock::now();
    Clock::time_point rateWindow = Clock::now();
    int messagesInWindow = 0;
    long long bytesIn = 0, bytesOut = 0, dropped = 0, refused = 0, rateDropped = 0;
    long long playerInputs = 0;       // accepted: the player moved by this client
    double longestSilenceS = 0.0;     // the longest wait between two of its messages once joined
    std::vector<TileRequest> resends; // hybrid: asked for, sent with the next step
    bool saidDropped = false;         // the first malformed packet is a line; the rest counted
};

class Server {
public:
    Server(Lab& lab, const Settings& settings, Welcome welcome, ENetHost* host)
        : lab_(lab), net_(settings.net), authority_(lab, settings.net),
          welcome_(std::move(welcome)), host_(host) {}

    void service(Clock::time_point until);
    void step();
    void sendEnd();
    int joinedInAll() const { return joinedInAll_; }
    int readyClients() const {
        int n = 0;
        for (const auto& [peer, client] : clients_)
            n += client.ready ? 1 : 0;
        return n;
    }
    bool allReached(std::uint32_t step) const {
        for (const auto& [peer, client] : clients_)
            if (client.ready && (!client.reached || *client.reached < step))
                return false;
        return true;
    }
    std::uint32_t steps() const { return step_; }
    nlohmann::json report(double seconds) const;
    void disconnectAll();

private:
    void connect(ENetPeer* peer);
    void receive(Client& client, const ENetPacket& packet);
    void refuse(Client& client, const std::string& why);
    void dropSilent();
    std::size_t send(Client& client, const Message& message) {
        const std::size_t bytes = sendMessage(client.peer, message);
        client.bytesOut += static_cast<long long>(bytes);
        return bytes;
    }

    Lab& lab_;
    NetSettings net_;
    Authority authority_;
    Welcome welcome_;
    ENetHost* host_;
    std::map<ENetPeer*, Client> clients_;
    std::vector<Client> gone_; // for the report
    std::uint32_t nextId_ = 1;
    int joinedInAll_ = 0;
    std::uint32_t step_ = 0;
    std::optional<std::uint32_t> playerOwner_;
    std::optional<glm::vec2> playerInput_; // for the next step
    double snapshotMsTotal_ = 0.0;
    int snapshots_ = 0;
    long long snapshotBytes_ = 0;
};

void Server::connect(ENetPeer* peer) {
    if (static_cast<int>(clients_.size()) >= net_.maxClients) {
        const std::string why =
            "the session has its " + std::to_string(net_.maxClients) + " clients (net.max_clients)";
        spdlog::warn("serve: {} refused: {}", addressText(peer->address), why);
        sendMessage(peer, {step_, Refused{why}});
        enet_peer_disconnect_later(peer, 0);
        return;
    }
    Client client;
    client.id = nextId_++;
    client.peer = peer;
    Welcome welcome = welcome_;
    welcome.clientId = client.id;
    send(client, {step_, welcome});
    spdlog::info("serve: client {} connected from {}", client.id, addressText(peer->address));
    clients_.emplace(peer, std::move(client));
}

void Server::refuse(Client& client, const std::string& why) {
    ++client.refused;
    if (client.refused <= kRefusalsSaid)
        spdlog::warn("serve: client {}: {}; refused{}", client.id, why,
                     client.refused == kRefusalsSaid ? " (later refusals are counted)" : "");
    send(client, {step_, Refused{why}});
}

void Server::receive(Client& client, const ENetPacket& packet) {
    if (client.ready)
        client.longestSilenceS = std::max(client.longestSilenceS, secondsSince(client.lastHeard));
    client.lastHeard = Clock::now();
    client.bytesIn += static_cast<long long>(packet.dataLength);
    if (secondsSince(client.rateWindow) >= 1.0) {
        client.rateWindow = Clock::now();
        client.messagesInWindow = 0;
    }
    if (++client.messagesInWindow > net_.maxClientRateHz) {
        if (client.rateDropped++ == 0)
            spdlog::warn("serve: client {}: more than {} messages a second "
                         "(net.max_client_rate_hz); the excess is dropped",
                         client.id, net_.maxClientRateHz);
        return;
    }
    auto decoded = decode({packet.data, packet.dataLength}, kMaxClientPayloadBytes);
    if (auto* why = std::get_if<std::string>(&decoded)) {
        ++client.dropped;
        if (!client.saidDropped)
            spdlog::warn("serve: client {}: a packet dropped ({}); later ones are counted",
                         client.id, *why);
        client.saidDropped = true;
        return;
    }
    const Message& message = std::get<Message>(decoded);
    if (!fromClient(typeOf(message.body))) {
        ++client.dropped;
        spdlog::warn("serve: client {}: sent a server's message; dropped", client.id);
        return;
    }
    if (const auto* hello = std::get_if<Hello>(&message.body)) {
        if (client.ready)
            return;
        // The snapshot at the step the session stands at, then the live stream.
        const auto start = Clock::now();
        std::size_t bytes = 0;
        for (const Message& part : authority_.snapshot(step_))
            bytes += send(client, part);
        snapshotMsTotal_ += secondsSince(start) * 1000.0;
        ++snapshots_;
        snapshotBytes_ += static_cast<long long>(bytes);
        client.ready = true;
        client.joinedAt = step_;
        ++joinedInAll_;
        spdlog::info("serve: client {} joined at step {} ({} snapshot bytes)", client.id, step_,
                     bytes);
        (void)hello;
        return;
    }
    // Every later message carries a stamp, held to the client's window: an acknowledgement or a
    // tile request may be as old as the client is slow (never older than its join, never past
    // the session's step); player input only within stamp_window_steps of the step.
    const bool reached = std::holds_alternative<Reached>(message.body);
    const bool late = reached || std::holds_alternative<TileRequest>(message.body);
    const long long now = static_cast<long long>(step_);
    const long long lo =
        late ? client.joinedAt : std::max<long long>(client.joinedAt, now - net_.stampWindowSteps);
    const long long hi = late ? now : now + net_.stampWindowSteps;
    if (message.step < lo || message.step > hi) {
        refuse(client, "a message stamped " + std::to_string(message.step) +
                           ", outside its window [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "]");
        return;
    }
    if (reached) {
        client.reached = std::max(client.reached.value_or(0), message.step);
        return;
    }
    if (const auto* input = std::get_if<PlayerInput>(&message.body)) {
        const float length = std::hypot(input->x, input->y);
        if (length > 1.0f + 1e-6f) {
            refuse(client, fmt::format("player input of length {:.3g} (a teleport: the limit is "
                                       "1, the player's own speed)",
                                       length));
            return;
        }
        if (!lab_.hasPlayer()) {
            refuse(client, "player input, and the scenario has no player");
            return;
        }
        if (!playerOwner_)
            playerOwner_ = client.id;
        if (*playerOwner_ != client.id) {
            refuse(client, "moves the player of client " + std::to_string(*playerOwner_));
            return;
        }
        playerInput_ = glm::vec2(input->x, input->y);
        ++client.playerInputs;
        return;
    }
    if (const auto* request = std::get_if<TileRequest>(&message.body)) {
        if (net_.mode != NetMode::Hybrid) {
            refuse(client, "asks for tiles, and net.mode is not \"hybrid\"");
            return;
        }
        if (request->sim >= lab_.field().simCount()) {
            refuse(client, "asks for tiles of sim " + std::to_string(request->sim) +
                               ", which the session lacks");
            return;
        }
        client.resends.push_back(*request);
    }
}

void Server::dropSilent() {
    for (auto it = clients_.begin(); it != clients_.end();) {
        Client& client = it->second;
        const double silentS = secondsSince(client.lastHeard);
        const bool silent = client.ready && silentS > net_.timeoutS;
        if (silent || client.refused > kMaxRefusals) {
            if (silent)
                spdlog::warn("serve: client {} silent for {:.1f} s (net.timeout_s {}); dropped",
                             client.id, silentS, net_.timeoutS);
            else
                spdlog::warn("serve: client {} dropped after {} refused messages", client.id,
                             client.refused);
            enet_peer_disconnect_now(client.peer, 0);
            gone_.push_back(std::move(client));
            it = clients_.erase(it);
        } else {
            ++it;
        }
    }
}

void Server::service(Clock::time_point until) {
    // Every event that has come is handled, then it waits for more until `until`; a flood of
    // events (at most kEventsPerService) cannot hold the clock back.
    constexpr int kEventsPerService = 10000;
    ENetEvent event;
    for (int handled = 0; handled < kEventsPerService;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        const enet_uint32 waitMs = static_cast<enet_uint32>(std::max<long long>(left.count(), 0));
        if (enet_host_service(host_, &event, waitMs) <= 0) {
            if (Clock::now() >= until)
                break;
            continue;
        }
        ++handled;
        switch (event.type) {
        case ENET_EVENT_TYPE_CONNECT:
            connect(event.peer);
            break;
        case ENET_EVENT_TYPE_RECEIVE: {
            auto it = clients_.find(event.peer);
            if (it != clients_.end())
                receive(it->second, *event.packet);
            enet_packet_destroy(event.packet);
            break;
        }
        case ENET_EVENT_TYPE_DISCONNECT: {
            auto it = clients_.find(event.peer);
            if (it != clients_.end()) {
                spdlog::info("serve: client {} left at step {}", it->second.id, step_);
                gone_.push_back(std::move(it->second));
                clients_.erase(it);
            }
            break;
        }
        case ENET_EVENT_TYPE_NONE:
            break;
        }
    }
    dropSilent();
}

void Server::step() {
    const double dt = lab_.fixedDtS();
    if (playerInput_) {
        lab_.drivePlayer(*playerInput_, dt);
        playerInput_.reset();
    }
    ++step_;
    lab_.stepTo(step_ * dt, dt);
    const std::vector<Message> messages = authority_.stepMessages(step_);
    std::vector<std::uint8_t> shared;
    for (auto& [peer, client] : clients_) {
        if (!client.ready)
            continue;
        for (const Message& message : messages)
            send(client, message);
        for (const TileRequest& request : client.resends)
            if (auto resend = authority_.resend(step_, request.sim, request.tiles))
                send(client, *resend);
        client.resends.clear();
        send(client, authority_.stepEnd(step_));
    }
    enet_host_flush(host_);
}

void Server::sendEnd() {
    for (auto& [peer, client] : clients_)
        if (client.ready)
            send(client, {step_, End{}});
    enet_host_flush(host_);
}

void Server::disconnectAll() {
    for (auto& [peer, client] : clients_)
        enet_peer_disconnect_later(peer, 0);
    ENetEvent event;
    const auto until = Clock::now() + std::chrono::milliseconds(200);
    while (Clock::now() < until && enet_host_service(host_, &event, 10) >= 0)
        if (event.type == ENET_EVENT_TYPE_RECEIVE)
            enet_packet_destroy(event.packet);
}

nlohmann::json Server::report(double seconds) const {
    nlohmann::json clients = nlohmann::json::array();
    long long bytesIn = 0, bytesOut = 0, dropped = 0, refused = 0;
    auto add = [&](const Client& client) {
        bytesIn += client.bytesIn;
        bytesOut += client.bytesOut;
        dropped += client.dropped + client.rateDropped;
        refused += client.refused;
        clients.push_back({{"id", client.id},
                           {"joined_at_step", client.joinedAt},
                           {"reached_step", client.reached.value_or(0)},
                           {"bytes_in", client.bytesIn},
                           {"bytes_out", client.bytesOut},
                           {"bytes_out_per_s", seconds > 0 ? client.bytesOut / seconds : 0.0},
                           {"dropped", client.dropped},
                           {"rate_dropped", client.rateDropped},
                           {"refused", client.refused},
                           {"player_inputs", client.playerInputs},
                           {"longest_silence_s", client.longestSilenceS}});
    };
    for (const auto& [peer, client] : clients_)
        add(client);
    for (const Client& client : gone_)
        add(client);
    return {{"side", "server"},
            {"mode", toString(net_.mode)},
            {"steps", step_},
            {"simulated_s", step_ * lab_.fixedDtS()},
            {"bytes_in", bytesIn},
            {"bytes_out", bytesOut},
            {"wire_bytes_in", host_->totalReceivedData},
            {"wire_bytes_out", host_->totalSentData},
            {"packets_lost", 0},
            {"tiles_resent", 0},
            {"divergent_tiles", 0},
            {"join_ms", snapshots_ > 0 ? snapshotMsTotal_ / snapshots_ : 0.0},
            {"snapshot_bytes", snapshotBytes_},
            {"dropped_messages", dropped},
            {"refused_messages", refused},
            {"stray_datagrams", strayDatagrams()},
            {"clients", clients}};
}

} // namespace

int runServe(const CommonOptions& common, const ServeOptions& options) {
    auto loaded = loadScenarioSettings(options.scenario, common.overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    Settings settings = std::get<Settings>(loaded);
    if (options.frames > 0)
        settings.run.frames = options.frames;
    else if (settings.run.durationS > 0.0)
        settings.run.frames =
            static_cast<int>(std::ceil(settings.run.durationS * settings.run.fps));
    if (auto refusal = replicationRefusal(settings)) {
        spdlog::error("{}", *refusal);
        return 2;
    }
    std::vector<std::string> overrides = common.overrides;
    if (settings.snow.idleSkip) {
        // A joiner's buffers are written, not stepped, so its idle bookkeeping cannot know
        // them: every side steps every step.
        spdlog::info("serve: snow.idle_skip off for the session (a joiner steps every step)");
        settings.snow.idleSkip = false;
        overrides.push_back("snow.idle_skip=false");
    }
    if (options.port < 0 || options.port > 65535) {
        spdlog::error("serve: --port {}: not in 0..65535", options.port);
        return 2;
    }
    auto guarded = RunGuard::createAndTake(options.outDir);
    if (auto* error = std::get_if<std::string>(&guarded)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const RunGuard& guard = std::get<RunGuard>(guarded);
    RunGuard::catchInterrupts();

    auto started = startRun(settings, options.scenario, overrides, common.debugGl);
    if (auto* error = std::get_if<std::string>(&started)) {
        spdlog::error("{}", *error);
        return 2;
    }
    NetRun& run = std::get<NetRun>(started);
    Lab& lab = *run.lab;

    if (!initializeEnet()) {
        spdlog::error("serve: ENet cannot start");
        return 2;
    }
    // One slot more than the cap: the client past it is told why before it is let go.
    HostPtr host = listenHost(options.port, settings.net.maxClients + 1);
    if (!host) {
        spdlog::error("serve: --port {}: cannot listen there (in use?)", options.port);
        return 2;
    }
    spdlog::info("serve: listening on port {} ({}, {} steps at {} fps, mode {})",
                 host->address.port, options.scenario, settings.run.frames, settings.run.fps,
                 toString(settings.net.mode));

    Welcome welcome{.mode = settings.net.mode,
                    .frames = static_cast<std::uint32_t>(settings.run.frames),
                    .tileTexels = static_cast<std::uint32_t>(settings.net.tileTexels),
                    .checksumEvery = static_cast<std::uint32_t>(settings.net.checksumEvery),
                    .settingsHash = settingsHash(settings),
                    .scenario = options.scenario,
                    .overrides = overrides};
    Server server(lab, settings, std::move(welcome), host.get());
    guard.begin();

    // The clients it waits for, before the clock starts.
    const auto waitStart = Clock::now();
    while (server.joinedInAll() < options.waitClients) {
        if (const int signal = RunGuard::interruptedBy())
            return 128 + signal;
        server.service(Clock::now() + std::chrono::milliseconds(20));
        if (secondsSince(waitStart) > std::max(60.0, settings.net.timeoutS)) {
            spdlog::error("serve: {} of {} clients (--wait-clients) after {:.0f} s; stopping",
                          server.readyClients(), options.waitClients, secondsSince(waitStart));
            return 1;
        }
    }
    RunRecorder recorder(lab.settings(), lab.field());
    const double dt = lab.fixedDtS();
    const auto start = Clock::now();
    const std::uint32_t frames = static_cast<std::uint32_t>(settings.run.frames);
    while (frames == 0 || server.steps() < frames) {
        if (const int signal = RunGuard::interruptedBy()) {
            spdlog::error("{}", RunGuard::interruptedNote("serve", options.outDir, signal));
            return 128 + signal;
        }
        // Real time: step k runs at start + k dt (late steps run at once, never skipped).
        server.service(
            start + std::chrono::microseconds(static_cast<long long>(server.steps() * dt * 1e6)));
        server.step();
        recorder.recordProbes(lab.field());
    }
    const double seconds = secondsSince(start);
    server.sendEnd();
    const auto endStart = Clock::now();
    while (!server.allReached(frames) || server.joinedInAll() < options.expectClients) {
        if (secondsSince(endStart) > settings.net.timeoutS) {
            spdlog::warn("serve: {} of {} clients joined (--expect-clients), not every one "
                         "reached step {} within {} s (net.timeout_s); ending without them",
                         server.joinedInAll(), options.expectClients, frames,
                         settings.net.timeoutS);
            break;
        }
        server.service(Clock::now() + std::chrono::milliseconds(10));
    }
    const nlohmann::json report = server.report(frames * dt);
    server.disconnectAll();

    return finishRun(
        guard, "serve", run, recorder, seconds, report, lab.instances(),
        fmt::format("serve: {} steps in {:.2f} s; {} bytes to clients, {} datagrams from no peer "
                    "and {} malformed messages dropped",
                    server.steps(), seconds, report["bytes_out"].get<long long>(),
                    report["stray_datagrams"].get<long long>(),
                    report["dropped_messages"].get<long long>()));
}

} // namespace snowcap::net
