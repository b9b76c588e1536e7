#include "net/client.hpp"

#include "lab/run_guard.hpp"
#include "net/client_session.hpp"
#include "net/enet_support.hpp"
#include "net/net_run.hpp"

#include <spdlog/spdlog.h>

namespace snowcap::net {

int runConnect(const CommonOptions& common, const ConnectOptions& options) {
    auto opened = ClientSession::open(options.hostPort, common.overrides, "render --connect");
    if (auto* failure = std::get_if<ClientFailure>(&opened)) {
        spdlog::error("{}", failure->line);
        return failure->exitCode;
    }
    ClientSession& session = *std::get<0>(opened);
    session.lieInputLength = options.playerInputLength;
    session.stampOffset = options.stampOffset;
    const std::uint32_t last =
        options.frames > 0 ? static_cast<std::uint32_t>(options.frames) : session.sessionLastStep();
    if (last == 0) {
        spdlog::error("render --connect: the session has no last step; give --frames N");
        return 2;
    }
    auto guarded = RunGuard::createAndTake(options.outDir);
    if (auto* error = std::get_if<std::string>(&guarded)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const RunGuard& guard = std::get<RunGuard>(guarded);
    RunGuard::catchInterrupts();
    auto started =
        startRun(session.settings(), session.scenario(), session.overrides(), common.debugGl);
    if (auto* error = std::get_if<std::string>(&started)) {
        spdlog::error("{}", *error);
        return 2;
    }
    NetRun& run = std::get<NetRun>(started);
    Lab& lab = *run.lab;
    RunRecorder recorder(lab.settings(), lab.field());
    session.join(lab);
    session.onStep([&] { recorder.recordProbes(lab.field()); });
    guard.begin();
    spdlog::info("render --connect: client {} of {} ({}, mode {}), to step {}", session.clientId(),
                 options.hostPort, session.scenario(), toString(session.mode()), last);

    const auto start = Clock::now();
    while (!session.appliedStep() || *session.appliedStep() < last) {
        if (const int signal = RunGuard::interruptedBy()) {
            spdlog::error("{}", RunGuard::interruptedNote("render", options.outDir, signal));
            return 128 + signal;
        }
        if (auto error = session.advance(5, last)) {
            spdlog::error("render --connect: {} (at step {})", *error,
                          session.appliedStep().value_or(0));
            return 1;
        }
        if (session.endedAt() && *session.endedAt() < last) {
            spdlog::error("render --connect: the session ended at step {}, before {}",
                          *session.endedAt(), last);
            return 1;
        }
    }
    const double seconds = secondsSince(start);
    const nlohmann::json report = session.report();
    session.close();
    return finishRun(guard, "render", run, recorder, seconds, report, session.deformers(),
                     fmt::format("render --connect: steps {} .. {} applied in {:.2f} s; {}",
                                 report["joined_at_step"].get<std::uint32_t>(), last, seconds,
                                 session.summary()));
}

} // namespace snowcap::net
