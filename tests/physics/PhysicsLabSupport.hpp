#pragma once
// What the physics GL tests share: a lab made from settings in the binary's one context, and
// running it at its fixed frame rate.

#include "GLTestSupport.hpp"
#include "lab/lab.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <string>

namespace snowcap::test {

// The lab, or nullptr after failing the test with its line.
inline std::unique_ptr<Lab> makeLab(const Settings& settings, const std::string& scenario) {
    auto created = Lab::create(settings, scenario, {}, glInfo().renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

// `seconds` of frames at the lab's fixed step.
inline void run(Lab& lab, double seconds) {
    const double dt = lab.fixedDtS();
    const int frames = int(std::lround(seconds / dt));
    for (int i = 0; i < frames; ++i)
        lab.stepTo((i + 1) * dt, dt);
}

} // namespace snowcap::test
