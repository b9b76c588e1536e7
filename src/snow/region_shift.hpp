#pragma once
// Following regions (sim.X.region = follow_naive | follow_snapped, Snow Deformation and Snow that
// remembers where you walked): where the region goes each step, and the buffer shift that keeps the
// trail at its world position. The GL side is SnowSim::shiftRegion (implemented in
// region_shift.cpp) with shaders/snow/shift.frag; shiftBufferCpu is its reference.

#include "core/settings.hpp"
#include "core/snow_math.hpp"
#include "gpu/shader_library.hpp"

#include <vector>

namespace snowcap {

gpu::ProgramDesc regionShiftProgram(bool bilinear);

// The centre a region of `mode` takes this step, given the deformer it follows (targetCm),
// where it is now and where it was configured (the snapping grid's origin). Fixed: `current`.
glm::dvec2 followCentre(RegionMode mode, glm::dvec2 targetCm, glm::dvec2 currentCm,
                        glm::dvec2 originCm, double texelCm);

// One channel of a square buffer, row 0 = bottom, shifted like shift.frag: whole offsets copy,
// fractional ones resample bilinearly (rounded to half, nearest-even); outside reads 0.
std::vector<float> shiftBufferCpu(const std::vector<float>& buffer, int resolution,
                                  glm::dvec2 offsetTexels, bool bilinear);

} // namespace snowcap
