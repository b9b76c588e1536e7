#include "net/net_run.hpp"

#include "gpu/half_store_probe.hpp"
#include "io/image.hpp"
#include "lab/run_outputs.hpp"
#include "render/view_params.hpp"

#include <charconv>
#include <spdlog/spdlog.h>

namespace snowcap::net {

std::variant<NetRun, std::string> startRun(const Settings& settings, const std::string& scenario,
                                           const std::vector<std::string>& overrides,
                                           bool debugGl) {
    NetRun run;
    auto context = HeadlessContext::create(debugGl);
    if (auto* error = std::get_if<ContextError>(&context))
        return error->message;
    run.context = std::move(std::get<0>(context));
    run.gl = run.context->info();
    auto created = Lab::create(settings, scenario, overrides, run.gl.renderer);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    run.lab = std::move(std::get<0>(created));
    run.lab->setTiming(false);
    return run;
}

int finishRun(const RunGuard& guard, const std::string& command, NetRun& run,
              const RunRecorder& recorder, double wallSeconds, const nlohmann::json& netBlock,
              std::span<const DeformerInstance> deformers, const std::string& summary) {
    Lab& lab = *run.lab;
    if (auto error = writeRunOutputs(guard.dir(), lab.settings(), run.gl, lab.field(), recorder,
                                     lab.renderer(), deformers, surfaceOutputNamed("lit"),
                                     wallSeconds, nullptr, lab.physicsReport(), netBlock)) {
        spdlog::error("{}", *error);
        return 1;
    }
    if (auto error = guard.publish(command)) {
        spdlog::error("{}", *error);
        return 1;
    }
    spdlog::info("{}", summary);
    return 0;
}

std::variant<std::pair<std::string, std::uint16_t>, std::string>
parseHostPort(const std::string& text) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        return "--connect " + text + ": not HOST:PORT";
    unsigned port = 0;
    const char* first = text.data() + colon + 1;
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(first, last, port);
    if (ec != std::errc() || end != last || port == 0 || port > 65535)
        return "--connect " + text + ": the port is not a number in 1..65535";
    return std::pair{text.substr(0, colon), static_cast<std::uint16_t>(port)};
}

} // namespace snowcap::net
