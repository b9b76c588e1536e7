#pragma once
// A client's side of a session, without a frame loop of its own: `render --connect` drives it
// to the end headless, `view --connect` a little every frame of the window. open() connects
// (through the simulated link when the client's own --set asks for one, net/link_sim.hpp) and
// takes the Welcome: the server's scenario and overrides, loaded here and checked against the
// server's settings hash. Once the caller has built its lab from settings(), join() says Hello;
// advance() then applies the snapshot and the stream (net/sync.hpp's Replica) as they come and
// answers each step with the local player's input and Reached.

#include "lab/lab.hpp"
#include "net/link_sim.hpp"
#include "net/sync.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <glm/vec2.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace snowcap::net {

// Why a client stops, and the exit code that says so (2: the command or its input, 1: the
// session).
struct ClientFailure {
    int exitCode = 1;
    std::string line;
};

// Whether --set `assignment` is one a client may make for itself: its link's keys
// (net.loss .. net.seed, net.timeout_s); everything else is the server's.
bool isClientKey(const std::string& assignment);

class ClientSession {
public:
    // Connects to `hostPort` ("HOST:PORT") and takes the Welcome. `ownOverrides` are the
    // client's --set (refused unless isClientKey); `command` names the command in its lines.
    static std::variant<std::unique_ptr<ClientSession>, ClientFailure>
    open(const std::string& hostPort, const std::vector<std::string>& ownOverrides,
         const std::string& command);
    ~ClientSession();
    ClientSession(const ClientSession&) = delete;
    ClientSession& operator=(const ClientSession&) = delete;

    // The session's scenario with the server's overrides and this client's link, as loaded here
    // (run.frames is the session's last step).
    const Settings& settings() const { return settings_; }
    const std::string& scenario() const;
    const std::vector<std::string>& overrides() const { return overrides_; }
    std::uint32_t clientId() const;
    std::uint32_t sessionLastStep() const;
    NetMode mode() const;

    // Says Hello for `lab` (built from settings()): the snapshot and the stream follow.
    void join(Lab& lab);
    // Handles what has come from the server, waiting up to `waitMs` for something, and applies
    // the steps up to `stopAt` (none past it). Each step applied is answered with Reached, the
    // newest one also with `playerInput` (when not zero). The reason when the session cannot go on
    // (the server went silent for net.timeout_s, closed, or sent what does not apply).
    std::optional<std::string> advance(int waitMs, std::uint32_t stopAt,
                                       glm::vec2 playerInput = glm::vec2(0.0f));
    std::optional<std::uint32_t> appliedStep() const;
    // Whether the server said the session is over (its End), and at which step.
    std::optional<std::uint32_t> endedAt() const { return endedAt_; }
    // The last reason the server refused one of this client's messages ("" when none).
    const std::string& lastRefusal() const { return lastRefusal_; }
    // Where the deformers are at the last step applied (the server's poses in inputs and hybrid).
    std::span<const DeformerInstance> deformers();
    // A hook run after each step applied (the client records its probes there).
    void onStep(std::function<void()> hook);

    // Test hooks: every step, also send a player input of this length along +X (over 1: a
    // client that lies), and stamp messages this many steps from the step applied.
    double lieInputLength = 0.0;
    long long stampOffset = 0;

    // stats.json's `net` block of this side (docs/network.md, section 6).
    nlohmann::json report() const;
    // A short summary of the figures: "N bytes in, M out, ...".
    std::string summary() const;
    // Disconnects (waiting up to half a second for the server to agree).
    void close();

private:
    struct Connection;
    ClientSession() = default;
    std::optional<std::string> receive(int waitMs);
    void answer(std::uint32_t step);

    std::unique_ptr<LinkSim> linkSim_;
    std::unique_ptr<Connection> connection_;
    LinkConditions conditions_;
    std::string hostPort_, command_;
    Welcome welcome_;
    Settings settings_;
    std::vector<std::string> overrides_;
    std::unique_ptr<Replica> replica_;
    std::optional<std::uint32_t> endedAt_;
    std::string lastRefusal_;
    std::chrono::steady_clock::time_point helloAt_;
    double joinMs_ = 0.0;
    double longestSilenceS_ = 0.0;
    bool joined_ = false;
};

} // namespace snowcap::net
