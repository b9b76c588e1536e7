#pragma once
// A viewer whose lab someone else steps: `view --connect` hands the viewer a session's client
// through this (app/view_connect.cpp), so the viewer never sees the network. The viewer builds
// its lab from settings(), calls join() once, then advance() every frame instead of stepping
// the lab itself, with the local player's input (WASD); it draws the deformers where
// deformers() puts them.

#include "lab/lab.hpp"

#include <cstdint>
#include <glm/vec2.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap {

class RemoteSteps {
public:
    virtual ~RemoteSteps() = default;
    // The scenario to build the lab from, with the overrides that made these settings.
    virtual const Settings& settings() const = 0;
    virtual const std::string& scenario() const = 0;
    virtual const std::vector<std::string>& overrides() const = 0;
    virtual void join(Lab& lab) = 0;
    // Applies the steps that have come, up to `stopAt`, without waiting long; the player's
    // input goes with each. One line when the session cannot go on (the viewer keeps its last
    // picture and says so).
    virtual std::optional<std::string> advance(glm::vec2 playerInput, std::uint32_t stopAt) = 0;
    virtual std::optional<std::uint32_t> appliedStep() const = 0;
    virtual std::uint32_t lastStep() const = 0; // the session's last step (0: none)
    virtual std::span<const DeformerInstance> deformers() = 0;
    // One line for the status bar: who this client is and where the session stands.
    virtual std::string status() const = 0;
};

} // namespace snowcap
