#pragma once
// What the physics GL tests share: a lab made from settings in the binary's one context,
// running it at its fixed frame rate, and the determinism check's two halves (every sim's
// persistent buffer read back; two runs' buffers compared byte for byte).

#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "lab/run_stats.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

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

// Every sim's persistent buffer (R), sim 0 first.
inline std::vector<ImageFloat> readAllPersistent(const SnowField& field) {
    std::vector<ImageFloat> sims;
    for (int s = 0; s < field.simCount(); ++s)
        sims.push_back(readPersistent(field.sim(s)));
    return sims;
}

// Fails the test unless two runs' buffers (readAllPersistent's) are the same byte for byte
// (memcmp), naming each sim that differs.
inline void expectSameBytes(const std::vector<ImageFloat>& a, const std::vector<ImageFloat>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t s = 0; s < a.size(); ++s) {
        const std::vector<float>& x = a[s].values;
        const std::vector<float>& y = b[s].values;
        ASSERT_EQ(x.size(), y.size()) << "sim " << s;
        EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)), 0) << "sim " << s;
    }
}

} // namespace snowcap::test
