// The `net` cases of `snowcap bench`: the in-process session of net/net_cases.hpp (the server's
// Authority, one client's Replica, the encoded messages between them) on the crowd scenes and
// the late-join scenes that `snowcap net-bench` measures. The bytes depend only on the scene;
// the times on the machine. A case whose client did not end identical to the server says so in
// its note.
#include "bench/bench_net.hpp"

#include "net/net_cases.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace snowcap::bench {

namespace {

Case measuredCase(std::string variant, std::string size, double ms, int samples) {
    Case c;
    c.pass = "net";
    c.variant = std::move(variant);
    c.size = size;
    c.floor = std::move(size);
    c.method = "serialized_wall";
    c.samples = samples;
    c.medianMs = c.minMs = c.maxMs = ms;
    return c;
}

} // namespace

std::optional<std::string> netCases(Context& context, const std::vector<int>& crowds,
                                    const std::vector<int>& sizes, int steps) {
    Harness& harness = context.harness;
    if (!harness.wants("net"))
        return std::nullopt;
    const std::string renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    for (int count : crowds) {
        std::filesystem::path file;
        auto settings =
            net::sceneSettings(net::crowdScene(count, steps), "bench_crowd" + std::to_string(count),
                               context.overrides, file);
        if (auto* error = std::get_if<std::string>(&settings))
            return "bench net: " + *error;
        for (const net::ModeCase& mode : net::kModes) {
            const std::string variant = fmt::format("{}_{}", mode.name, count);
            if (!harness.wants("net", variant))
                continue;
            auto measured = net::measureMode(std::get<Settings>(settings), mode.mode, mode.compress,
                                             file.string(), renderer);
            if (auto* error = std::get_if<std::string>(&measured)) {
                std::filesystem::remove(file);
                return fmt::format("bench net {}: {}", variant, *error);
            }
            const net::ModeFigures& figures = std::get<net::ModeFigures>(measured);
            Case c = measuredCase(variant, "256", figures.wallMs / figures.steps, figures.steps);
            c.elements = figures.texels;
            c.note = fmt::format("{:.1f} kB/s per client{}", figures.bytesPerS / 1000.0,
                                 figures.identical ? "" : "; the client did NOT end identical");
            c.extra = {{"bytes_per_s", figures.bytesPerS},
                       {"bytes_per_step", double(figures.bytes) / figures.steps},
                       {"snapshot_bytes", figures.snapshotBytes},
                       {"deformers", figures.deformers},
                       {"tiles_resent", figures.tilesResent},
                       {"identical", figures.identical}};
            harness.add(std::move(c));
        }
        std::filesystem::remove(file);
    }
    if (!harness.wants("net", "late_join"))
        return std::nullopt;
    for (int size : sizes) {
        std::filesystem::path file;
        auto settings = net::sceneSettings(
            net::joinScene(size), "bench_join" + std::to_string(size), context.overrides, file);
        if (auto* error = std::get_if<std::string>(&settings))
            return "bench net: " + *error;
        auto measured = net::measureJoin(std::get<Settings>(settings), file.string(), renderer);
        std::filesystem::remove(file);
        if (auto* error = std::get_if<std::string>(&measured))
            return fmt::format("bench net late_join {}: {}", size, *error);
        const net::JoinFigures& figures = std::get<net::JoinFigures>(measured);
        Case c =
            measuredCase("late_join", std::to_string(size), figures.makeMs + figures.applyMs, 1);
        c.elements = static_cast<long long>(size) * size * figures.sims;
        c.note = fmt::format("snapshot {:.1f} of {:.0f} KiB, made {:.1f} ms, applied {:.1f} ms{}",
                             figures.snapshotBytes / 1024.0, figures.bufferBytes / 1024.0,
                             figures.makeMs, figures.applyMs,
                             figures.identical ? "" : "; the client did NOT end identical");
        c.extra = {{"snapshot_bytes", figures.snapshotBytes},
                   {"buffer_bytes", figures.bufferBytes},
                   {"make_ms", figures.makeMs},
                   {"apply_ms", figures.applyMs},
                   {"identical", figures.identical}};
        harness.add(std::move(c));
    }
    return std::nullopt;
}

} // namespace snowcap::bench
