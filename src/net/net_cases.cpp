#include "net/net_cases.hpp"

#include "core/config.hpp"
#include "net/tiles.hpp"

#include <chrono>
#include <fmt/format.h>
#include <fstream>

namespace snowcap::net {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

std::variant<std::unique_ptr<LoopbackPair>, std::string>
LoopbackPair::create(const Settings& settings, const std::string& scenario,
                     const std::string& glRenderer) {
    std::unique_ptr<LoopbackPair> pair(new LoopbackPair());
    for (std::unique_ptr<Lab>* side : {&pair->server_, &pair->client_}) {
        auto created = Lab::create(settings, scenario, {}, glRenderer);
        if (auto* error = std::get_if<std::string>(&created))
            return *error;
        *side = std::move(std::get<0>(created));
        (*side)->setTiming(false);
    }
    pair->authority_ = std::make_unique<Authority>(*pair->server_, settings.net);
    pair->replica_ = std::make_unique<Replica>(*pair->client_, settings.net);
    return pair;
}

std::optional<std::string> LoopbackPair::deliver(const Message& message) {
    const std::vector<std::uint8_t> packet = encode(message);
    bytes += static_cast<long long>(packet.size());
    ++packets;
    auto decoded = decode(packet);
    if (auto* why = std::get_if<std::string>(&decoded))
        return *why;
    return replica_->apply(std::get<Message>(decoded));
}

std::optional<std::string> LoopbackPair::join() {
    for (const Message& message : authority_->snapshot(step_))
        if (auto error = deliver(message))
            return error;
    return std::nullopt;
}

void LoopbackPair::stepAlone() {
    const double dt = server_->fixedDtS();
    ++step_;
    server_->stepTo(step_ * dt, dt);
    authority_->stepMessages(step_); // as a server does for the clients it has
}

std::optional<std::string> LoopbackPair::step() {
    const double dt = server_->fixedDtS();
    ++step_;
    server_->stepTo(step_ * dt, dt);
    for (const Message& message : authority_->stepMessages(step_))
        if (auto error = deliver(message))
            return error;
    for (const TileRequest& request : requests_)
        if (auto resend = authority_->resend(step_, request.sim, request.tiles))
            if (auto error = deliver(*resend))
                return error;
    requests_.clear();
    if (auto error = deliver(authority_->stepEnd(step_)))
        return error;
    for (const Message& request : replica_->takeRequests())
        requests_.push_back(std::get<TileRequest>(request.body));
    return std::nullopt;
}

bool LoopbackPair::identical() {
    for (int s = 0; s < server_->field().simCount(); ++s)
        if (readSimBuffer(server_->field().sim(s)).words !=
            readSimBuffer(client_->field().sim(s)).words)
            return false;
    return true;
}

std::variant<Settings, std::string> sceneSettings(const std::string& text, const std::string& name,
                                                  const std::vector<std::string>& overrides,
                                                  fs::path& file) {
    file = fs::temp_directory_path() / ("snowcap_net_" + name + ".toml");
    std::ofstream(file) << text;
    auto loaded = loadScenarioSettings(file.string(), overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    return std::get<Settings>(loaded);
}

std::string crowdScene(int count, int frames) {
    return fmt::format(R"([run]
fps = 60
frames = {}

[snow]
resolution = 256
ortho_width_cm = 1024

[[crowd]]
name = "walkers"
shape = "sphere"
size_cm = [12, 12, 12]
count = {}
formation = "grid"
spacing_cm = 28
path_kind = "polyline"
waypoints_cm = [[-300, -300, 2], [300, 300, 2]]
speed_cm_s = 150
)",
                       frames, count);
}

std::string joinScene(int size) {
    return fmt::format(R"([run]
fps = 60
frames = 30

[snow]
resolution = {}
ortho_width_cm = 1024

[[deformer]]
name = "walker"
shape = "sphere"
size_cm = [30, 30, 30]
path_kind = "polyline"
waypoints_cm = [[-400, 0, 10], [400, 0, 10]]
speed_cm_s = 600
)",
                       size);
}

std::variant<ModeFigures, std::string> measureMode(const Settings& base, NetMode mode,
                                                   WorldCompression compress,
                                                   const std::string& scenario,
                                                   const std::string& glRenderer) {
    Settings settings = base;
    settings.net.mode = mode;
    settings.net.compress = compress;
    auto created = LoopbackPair::create(settings, scenario, glRenderer);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    LoopbackPair& pair = *std::get<0>(created);
    if (auto error = pair.join())
        return *error;
    ModeFigures figures;
    figures.snapshotBytes = pair.bytes;
    pair.bytes = pair.packets = 0;
    const auto start = Clock::now();
    for (int step = 1; step <= settings.run.frames; ++step)
        if (auto error = pair.step())
            return *error;
    figures.wallMs = msSince(start);
    figures.deformers = pair.server().instances().size();
    for (int s = 0; s < pair.server().field().simCount(); ++s) {
        const Region& region = pair.server().field().sim(s).region();
        figures.texels += static_cast<long long>(region.resolution) * region.resolution;
    }
    figures.steps = settings.run.frames;
    figures.bytes = pair.bytes;
    figures.packets = pair.packets;
    figures.bytesPerS = pair.bytes / (settings.run.frames * pair.server().fixedDtS());
    figures.divergentTiles = pair.replica().counts().divergentTiles;
    figures.tilesResent = pair.replica().counts().tilesResent;
    figures.identical = pair.identical();
    return figures;
}

std::variant<JoinFigures, std::string>
measureJoin(const Settings& settings, const std::string& scenario, const std::string& glRenderer) {
    auto created = LoopbackPair::create(settings, scenario, glRenderer);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    LoopbackPair& pair = *std::get<0>(created);
    Lab& server = pair.server();
    const double dt = server.fixedDtS();
    for (int step = 1; step <= settings.run.frames; ++step)
        server.stepTo(step * dt, dt);
    JoinFigures figures;
    auto start = Clock::now();
    std::vector<std::vector<std::uint8_t>> packets;
    for (const Message& message :
         pair.authority().snapshot(static_cast<std::uint32_t>(settings.run.frames))) {
        packets.push_back(encode(message));
        figures.snapshotBytes += static_cast<long long>(packets.back().size());
    }
    figures.makeMs = msSince(start);
    start = Clock::now();
    for (const auto& packet : packets)
        if (auto error = pair.replica().apply(std::get<Message>(decode(packet))))
            return *error;
    glFinish(); // the uploads done, not queued
    figures.applyMs = msSince(start);
    figures.identical = pair.identical();
    figures.resolution = settings.snow.resolution;
    figures.sims = server.field().simCount();
    figures.bufferBytes = 2ll * settings.snow.resolution * settings.snow.resolution * figures.sims;
    return figures;
}

} // namespace snowcap::net
