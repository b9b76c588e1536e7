#pragma once
// What the snowpack-on-terrain tests share (slump, sun by aspect, wind over a ridge): texels of
// 10 cm, the capture camera 1 m below the ground, and a square region centred on the origin.
#include "core/snow_math.hpp"

namespace snowcap::test {

constexpr double kSlopeTexelCm = 10.0;
constexpr double kSlopeCaptureZ = -100.0;
constexpr double kSlopeFar = 2000.0;

inline Region slopeRegion(int texels) {
    Region r;
    r.resolution = texels;
    r.widthCm = texels * kSlopeTexelCm;
    return r;
}

} // namespace snowcap::test
