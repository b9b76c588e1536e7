#pragma once
// What `serve`, `render --connect` and `replay` share: a headless context and a lab on settings
// already loaded, and the usual outputs (lab/run_outputs.hpp) with stats.json's `net` block.

#include "lab/lab.hpp"
#include "lab/run_guard.hpp"
#include "lab/run_stats.hpp"
#include "lab/session.hpp"
#include "platform/gl_context.hpp"

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap::net {

struct NetRun {
    std::unique_ptr<HeadlessContext> context;
    GlInfo gl;
    std::unique_ptr<Lab> lab;
};

// The context, then the lab (timing off); one line on failure.
std::variant<NetRun, std::string> startRun(const Settings& settings, const std::string& scenario,
                                           const std::vector<std::string>& overrides, bool debugGl);

// The end of every side (serve, render --connect, replay): render's outputs in the guard's
// directory, stats.json with `netBlock` as its `net` (written once), final.png with `deformers`
// drawn where they are at the last step; the directory published as `command`'s, then
// `summary` logged. 0, or 1 with the reason logged.
int finishRun(const RunGuard& guard, const std::string& command, NetRun& run,
              const RunRecorder& recorder, double wallSeconds, const nlohmann::json& netBlock,
              std::span<const DeformerInstance> deformers, const std::string& summary);

// "HOST:PORT" split; the reason when it is not one.
std::variant<std::pair<std::string, std::uint16_t>, std::string>
parseHostPort(const std::string& text);

} // namespace snowcap::net
