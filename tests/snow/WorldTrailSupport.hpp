#pragma once
// The trail the world-store GL tests walk into: world texels [-20, 20)², a dome of distinct half
// values (a slight tilt keeps every texel apart), straddling the tile corner at world texel (0, 0).
#include "core/snow_math.hpp"
#include "gpu/objects.hpp"

#include <cmath>
#include <vector>

namespace snowcap::test {

constexpr int kTrailLo = -20, kTrailSide = 40;

// Which way the trail's values tilt.
enum class TrailTilt { AlongX, AlongY };

inline std::vector<float> worldTrail(TrailTilt tilt = TrailTilt::AlongX) {
    std::vector<float> v(kTrailSide * kTrailSide, 0.0f);
    for (int y = 0; y < kTrailSide; ++y)
        for (int x = 0; x < kTrailSide; ++x) {
            const double r = std::hypot(x + kTrailLo + 0.5, y + kTrailLo + 0.5);
            const int along = tilt == TrailTilt::AlongX ? x : y;
            if (r < 18.0)
                v[y * kTrailSide + x] =
                    roundToHalf(static_cast<float>(0.95 - r / 30.0 + 0.0007 * along),
                                HalfRounding::NearestEven);
        }
    return v;
}

// Writes the trail into `texture`, whose texel 0 is world texel `worldTexelOfTexel0` on both axes.
inline void uploadWorldTrail(const gpu::Texture2D& texture, int worldTexelOfTexel0) {
    const std::vector<float> v = worldTrail();
    const int at = kTrailLo - worldTexelOfTexel0;
    glTextureSubImage2D(texture.id(), 0, at, at, kTrailSide, kTrailSide, GL_RED, GL_FLOAT,
                        v.data());
}

} // namespace snowcap::test
