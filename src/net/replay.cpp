#include "net/replay.hpp"

#include "core/config.hpp"
#include "core/untrusted_file.hpp"
#include "io/image.hpp"
#include "lab/run_guard.hpp"
#include "net/net_run.hpp"

#include <chrono>
#include <cstring>
#include <spdlog/spdlog.h>

namespace snowcap::net {

namespace fs = std::filesystem;

namespace {

// resize + memcpy rather than insert: GCC 12's -Wstringop-overflow misreads an insert into an
// empty vector of bytes.
void append(std::vector<std::uint8_t>& bytes, const void* data, std::size_t size) {
    const std::size_t at = bytes.size();
    bytes.resize(at + size);
    std::memcpy(bytes.data() + at, data, size);
}

NetSettings recordSettings(const Settings& settings) {
    NetSettings net = settings.net;
    net.mode = NetMode::Inputs; // a record is the inputs; its checksums let a replay check itself
    return net;
}

} // namespace

InputRecorder::InputRecorder(Lab& lab, const std::string& scenario,
                             const std::vector<std::string>& overrides, int frames)
    : authority_(lab, recordSettings(lab.settings())) {
    append(bytes_, kRecordMagic, sizeof kRecordMagic);
    const std::uint32_t version = kRecordVersion;
    append(bytes_, &version, sizeof version);
    Settings settings = lab.settings();
    settings.run.frames = frames;
    add({0, Welcome{.mode = NetMode::Inputs,
                    .frames = static_cast<std::uint32_t>(frames),
                    .tileTexels = static_cast<std::uint32_t>(settings.net.tileTexels),
                    .checksumEvery = static_cast<std::uint32_t>(settings.net.checksumEvery),
                    .settingsHash = settingsHash(settings),
                    .scenario = scenario,
                    .overrides = overrides}});
    for (const Message& message : authority_.snapshot(0))
        add(message);
}

void InputRecorder::add(const Message& message) {
    const std::vector<std::uint8_t> packet = encode(message);
    const auto length = static_cast<std::uint32_t>(packet.size());
    append(bytes_, &length, sizeof length);
    append(bytes_, packet.data(), packet.size());
}

void InputRecorder::afterStep(std::uint32_t step) {
    for (const Message& message : authority_.stepMessages(step))
        add(message);
    add(authority_.stepEnd(step));
}

std::optional<std::string> InputRecorder::write(const fs::path& path, std::uint32_t lastStep) {
    add({lastStep, End{}});
    return writeFileAtomically(path, bytes_);
}

int runReplay(const CommonOptions& common, const ReplayOptions& options) {
    const fs::path& file = options.file;
    std::string text;
    // A record is untrusted input like a world file, and held to the same cap.
    const Settings defaults;
    if (auto error = readUntrustedText(
            file, text, static_cast<std::uint64_t>(defaults.import.maxWorldMiB * 1048576.0))) {
        spdlog::error("{}", *error);
        return 2;
    }
    const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(text.data()),
                                              text.size());
    if (bytes.size() < 12 || std::memcmp(bytes.data(), kRecordMagic, 8) != 0) {
        spdlog::error("{}: not a snowcap input record", file.string());
        return 2;
    }
    std::uint32_t version = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    if (version != kRecordVersion) {
        spdlog::error("{}: record version {}, this build reads {}", file.string(), version,
                      kRecordVersion);
        return 2;
    }
    // Every packet decoded and checked before anything runs: a bad file runs nothing.
    std::vector<Message> messages;
    for (std::size_t at = 12; at < bytes.size();) {
        std::uint32_t length = 0;
        if (bytes.size() - at < 4) {
            spdlog::error("{}: byte {}: a packet length cut short", file.string(), at);
            return 2;
        }
        std::memcpy(&length, bytes.data() + at, 4);
        at += 4;
        if (length > bytes.size() - at) {
            spdlog::error("{}: byte {}: a packet of {} bytes past the file's end", file.string(),
                          at, length);
            return 2;
        }
        auto decoded = decode(bytes.subspan(at, length));
        if (auto* why = std::get_if<std::string>(&decoded)) {
            spdlog::error("{}: byte {}: {}", file.string(), at, *why);
            return 2;
        }
        messages.push_back(std::move(std::get<Message>(decoded)));
        at += length;
    }
    const Welcome* welcome =
        messages.empty() ? nullptr : std::get_if<Welcome>(&messages.front().body);
    if (!welcome || !std::holds_alternative<End>(messages.back().body)) {
        spdlog::error("{}: a record starts with its welcome and ends with its end", file.string());
        return 2;
    }
    auto loaded = loadScenarioSettings(welcome->scenario, welcome->overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("{}: the recorded scenario: {}", file.string(), error->message);
        return 2;
    }
    Settings settings = std::get<Settings>(loaded);
    settings.run.frames = static_cast<int>(welcome->frames);
    if (settingsHash(settings) != welcome->settingsHash) {
        spdlog::error("{}: scenario '{}' loads differently here than where it was recorded",
                      file.string(), welcome->scenario);
        return 2;
    }
    auto guarded = RunGuard::createAndTake(options.outDir);
    if (auto* error = std::get_if<std::string>(&guarded)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const RunGuard& guard = std::get<RunGuard>(guarded);
    auto started = startRun(settings, welcome->scenario, welcome->overrides, common.debugGl);
    if (auto* error = std::get_if<std::string>(&started)) {
        spdlog::error("{}", *error);
        return 2;
    }
    NetRun& run = std::get<NetRun>(started);
    Lab& lab = *run.lab;
    NetSettings net = settings.net;
    net.mode = NetMode::Inputs;
    net.tileTexels = static_cast<int>(welcome->tileTexels);
    Replica replica(lab, net);
    RunRecorder recorder(lab.settings(), lab.field());
    replica.onStep = [&] {
        if (replica.appliedStep().value_or(0) > 0)
            recorder.recordProbes(lab.field());
    };
    guard.begin();
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 1; i + 1 < messages.size(); ++i)
        if (auto error = replica.apply(messages[i])) {
            spdlog::error("{}: message {}: {}", file.string(), i, *error);
            return 1;
        }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const ReplicaCounts& counts = replica.counts();
    const nlohmann::json report = {{"side", "replay"},
                                   {"mode", "inputs"},
                                   {"steps", replica.appliedStep().value_or(0)},
                                   {"bytes_in", bytes.size()},
                                   {"bytes_out", 0},
                                   {"packets_lost", 0},
                                   {"tiles_resent", 0},
                                   {"divergent_tiles", counts.divergentTiles},
                                   {"checked_tiles", counts.checkedTiles},
                                   {"clock_mismatches", counts.clockMismatches},
                                   {"window_mismatches", counts.windowMismatches},
                                   {"join_ms", 0.0}};
    if (const int code = finishRun(
            guard, "replay", run, recorder, seconds, report, replica.lastDeformers(),
            fmt::format("replay: {} steps of {} in {:.2f} s; {} of {} checked tiles diverged",
                        replica.appliedStep().value_or(0), file.string(), seconds,
                        counts.divergentTiles, counts.checkedTiles)))
        return code;
    return counts.divergentTiles == 0 && counts.windowMismatches == 0 ? 0 : 1;
}

} // namespace snowcap::net
