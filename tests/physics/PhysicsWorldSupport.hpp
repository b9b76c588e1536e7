#pragma once
// What the CPU physics tests share: a physics world made from settings, or the one line that
// refused it.

#include "physics/physics_world.hpp"

#include <gtest/gtest.h>
#include <memory>
#include <string>

namespace snowcap::test {

// The world, or nullptr after failing the test with its line.
inline std::unique_ptr<PhysicsWorld> made(const Settings& settings) {
    auto created = PhysicsWorld::create(settings);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

// The line that refused the settings, or "" after failing the test: the world was built.
inline std::string failure(const Settings& settings) {
    auto created = PhysicsWorld::create(settings);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    ADD_FAILURE() << "the world was built";
    return {};
}

} // namespace snowcap::test
