#pragma once
// Where a click on the snow puts the probe: at 5-8 fps a click easily lands beside a track, and
// a probe off the print reads 0 for the whole run. The click snaps to the nearest texel of a print
// within a radius (a mask above a floor, or a snowpack column pressed below its initial depth);
// with no print there it stays where it was clicked, and the viewer says so.

#include "snow/snow_sim.hpp"

#include <glm/vec2.hpp>
#include <optional>
#include <span>

namespace snowcap {

// A square window of one sim's values (the persistent buffer's R), `size` x `size` texels, row
// after row, whose texel (0, 0) is `origin` in the buffer.
struct ValueWindow {
    std::span<const float> values;
    int size = 0;
    glm::ivec2 origin{0};
};

// What counts as a print: a value at or above `floor` (a mask), or at or below it (a snowpack's
// depth, `lowerIsPrint`).
struct PrintTest {
    float floor = 0.05f;
    bool lowerIsPrint = false;
};

// The buffer texel of a print nearest `centre` (a buffer texel) within `radiusTexels` (a disc),
// ties to the first in row order; none when no texel of the window within the disc is a print.
std::optional<glm::ivec2> nearestPrintTexel(const ValueWindow& window, glm::ivec2 centre,
                                            int radiusTexels, PrintTest test);

struct ProbeSnap {
    glm::dvec2 worldCm{0.0}; // the texel centre snapped to
    double movedCm = 0.0;    // how far from the click
    float value = 0.0f;      // what the print reads there
};

// Reads the window of `sim` around `clickCm` (one glGetTextureSubImage) and snaps to the nearest
// print within `radiusCm`; none outside the region or with no print within reach. A decay sim's
// print is a mask of 0.05 or more; a snowpack's, a column 0.5 cm or more below its initial depth.
std::optional<ProbeSnap> snapToPrint(const SnowSim& sim, glm::dvec2 clickCm, double radiusCm);

} // namespace snowcap
