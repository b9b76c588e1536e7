#pragma once
// What the world-store walks press and compare with (SnowpackWorldGLTest, SnowpackWindGLTest):
// a 64² following window and a fixed 256² oracle on the same 4 cm texel grid, the snowpack's
// laws sped up for a 3 s walk, a trail uploaded into a state, and a figure of the budget.
#include "core/snowpack_laws.hpp"
#include "core/weather_laws.hpp"
#include "gpu/objects.hpp"
#include "lab/snowpack_stats.hpp"
#include "snow/snowpack_sim.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace snowcap::test::walk {

constexpr int kWindow = 64, kOracle = 256;
constexpr double kTexelCm = 4.0;

inline void snowpackLaws(SimSettings& sim, const WeatherSettings& weather) {
    sim.model = SimModel::Snowpack;
    // Three simulated hours of settling in 3 s: on the sky's clock where there is one (core/
    // weather_laws.hpp, settleClimate), settle_time_scale the rest of the way.
    sim.snowpack.settleTimeScale = 3600.0 / (weatherGiven(weather) ? weather.timeScale : 1.0);
    sim.snowpack.settleIntervalS = 0.25;
    sim.snowpack.slumpRateHz = 120.0; // a 256² region on llvmpipe: 960 Hz would take minutes
}

// A trail in world texels [-24, 24) x [-12, 12): a trench along x, its Chebyshev distance to
// the segment y = 0, |x| <= 16 setting the depth. Gentle: 22, 24, 26, 28 cm at the initial mass
// (packed), a rim of 31 cm at the initial density, wet at its bottom; every step between
// neighbours at most 3 cm (tan 37 deg over 4 cm: within the angle of repose everywhere).
// Steep: 8 cm (450 kg/m3) within distance 2, then the snow at once: a 22 cm wall.
constexpr int kTrailX = -24, kTrailY = -12, kTrailW = 48, kTrailH = 24;
inline std::vector<SnowColumn> trail(bool steep, const SnowColumn& untouched) {
    std::vector<SnowColumn> v(kTrailW * kTrailH, untouched);
    for (int y = 0; y < kTrailH; ++y)
        for (int x = 0; x < kTrailW; ++x) {
            const int wx = x + kTrailX, wy = y + kTrailY;
            const int dist = std::max(std::max(std::abs(wx) - 16, 0), std::abs(wy));
            SnowColumn& c = v[y * kTrailW + x];
            if (steep) {
                if (dist <= 2)
                    c.depthCm = c.massKgM2 / (0.01f * 450.0f);
                continue;
            }
            if (dist <= 3)
                c.depthCm = 22.0f + 2.0f * dist;
            if (dist == 0)
                c.waterKgM2 = 0.5f + 0.01f * static_cast<float>(wx & 7);
            if (dist == 4)
                c = {31.0f, columnMass(31.0f, 120.0f), 0.0f, 0.0f};
        }
    return v;
}

// Into both halves of the ping-pong pair (they hold the same between steps where nothing moved).
inline void uploadTrail(const SnowpackSim& sim, int worldTexelOfTexel0, bool steep) {
    const std::vector<SnowColumn> v = trail(steep, sim.undisturbed());
    for (const gpu::Texture2D* half : {&sim.state(), &sim.otherHalf()})
        glTextureSubImage2D(half->id(), 0, kTrailX - worldTexelOfTexel0,
                            kTrailY - worldTexelOfTexel0, kTrailW, kTrailH, GL_RGBA, GL_FLOAT,
                            v.data());
}

inline double figure(const std::vector<SnowpackFigure>& figures, const std::string& key) {
    for (const SnowpackFigure& f : figures)
        if (key == f.key)
            return f.value;
    ADD_FAILURE() << "no figure " << key;
    return 0.0;
}

} // namespace snowcap::test::walk
