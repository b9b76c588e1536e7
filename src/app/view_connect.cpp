// `snowcap view --connect HOST:PORT`: the viewer as a client of `snowcap serve`. The session's
// client (net/client_session.hpp) takes the scenario from the server, and the viewer
// (viewer/viewer_remote.hpp) builds its lab from it, applies the server's steps every frame
// instead of stepping on its own, and sends WASD as the player's input (the server moves the
// player; the first client to drive it owns it).
#include "app/commands.hpp"
#include "net/client_session.hpp"
#include "platform/window.hpp"
#include "viewer/viewer.hpp"
#include "viewer/viewer_remote.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

class ViewClient final : public RemoteSteps {
public:
    ViewClient(net::ClientSession& session, std::string hostPort)
        : session_(session), hostPort_(std::move(hostPort)) {}

    const Settings& settings() const override { return session_.settings(); }
    const std::string& scenario() const override { return session_.scenario(); }
    const std::vector<std::string>& overrides() const override { return session_.overrides(); }
    void join(Lab& lab) override { session_.join(lab); }
    std::optional<std::string> advance(glm::vec2 playerInput, std::uint32_t stopAt) override {
        // A frame waits at most 2 ms for the server: the window stays responsive.
        if (auto error = session_.advance(2, stopAt, playerInput))
            return error;
        if (session_.endedAt() && session_.appliedStep() &&
            *session_.appliedStep() >= *session_.endedAt() && !saidEnd_) {
            saidEnd_ = true;
            spdlog::info("view --connect: the session ended at step {}", *session_.endedAt());
        }
        return std::nullopt;
    }
    std::optional<std::uint32_t> appliedStep() const override { return session_.appliedStep(); }
    std::uint32_t lastStep() const override { return session_.sessionLastStep(); }
    std::span<const DeformerInstance> deformers() override { return session_.deformers(); }
    std::string status() const override {
        std::string line = fmt::format("client {} of {} ({}, mode {}): ", session_.clientId(),
                                       hostPort_, session_.scenario(), toString(session_.mode()));
        if (!session_.appliedStep())
            return line + "joining";
        line += fmt::format("step {}", *session_.appliedStep());
        if (session_.endedAt())
            line += fmt::format(", the session ended at {}", *session_.endedAt());
        if (!session_.lastRefusal().empty())
            line += "; refused: " + session_.lastRefusal();
        return line;
    }

private:
    net::ClientSession& session_;
    std::string hostPort_;
    bool saidEnd_ = false;
};

} // namespace

int runViewConnect(const CommonOptions& common, const ViewOptions& options) {
    // The server's scenario is the scenario; a world file would make this client's buffers
    // differ from the server's.
    if (!options.worldIn.empty()) {
        spdlog::error("view --connect: --world-in: a client's snow is the server's");
        return 2;
    }
    if (!displayAvailable()) {
        spdlog::error("view --connect: no display (DISPLAY / WAYLAND_DISPLAY unset); use "
                      "`snowcap render --connect {}` for a headless client",
                      options.connect);
        return 2;
    }
    auto opened = net::ClientSession::open(options.connect, common.overrides, "view --connect");
    if (auto* failure = std::get_if<net::ClientFailure>(&opened)) {
        spdlog::error("{}", failure->line);
        return failure->exitCode;
    }
    net::ClientSession& session = *std::get<0>(opened);
    ViewClient client(session, options.connect);
    spdlog::info("view --connect: client {} of {} ({}, mode {})", session.clientId(),
                 options.connect, session.scenario(), toString(session.mode()));
    const int status = runViewer(common, options, &client);
    spdlog::info("view --connect: steps {} .. {}; {}", session.report()["joined_at_step"].dump(),
                 session.appliedStep().value_or(0), session.summary());
    session.close();
    return status;
}

} // namespace snowcap
