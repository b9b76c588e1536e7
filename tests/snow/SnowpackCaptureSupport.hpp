#pragma once
// What the snowpack and weather tests press with: a capture depth image (size² texels, 1 = the
// far plane, nothing there) with boxes stamped into it, each a flat bottom some height above
// the ground, as the capture would see it (SnowpackConstants' camera height and far plane).

#include "core/snowpack_laws.hpp"

#include <cstddef>
#include <vector>

namespace snowcap::test {

// An untouched capture: every texel at the far plane.
inline std::vector<float> emptyCapture(int size) {
    return std::vector<float>(static_cast<std::size_t>(size) * size, 1.0f);
}

// Stamps a box over texels [x0, x1) x [y0, y1) whose bottom is `bottomCm` above the ground
// (negative: below it, into the ground).
inline void stampBox(std::vector<float>& depth, int size, int x0, int y0, int x1, int y1,
                     float bottomCm, const SnowpackConstants& c) {
    const float window = (bottomCm - c.cameraAboveGroundCm) / c.captureFarCm;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            depth[static_cast<std::size_t>(y) * size + x] = window;
}

// A capture with one box, or none when `pressed` is false.
inline std::vector<float> boxCapture(int size, bool pressed, int x0, int y0, int x1, int y1,
                                     float bottomCm, const SnowpackConstants& c) {
    std::vector<float> depth = emptyCapture(size);
    if (pressed)
        stampBox(depth, size, x0, y0, x1, y1, bottomCm, c);
    return depth;
}

} // namespace snowcap::test
