#include "snow/sim_window.hpp"

#include "snow/world_pager.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace snowcap {

TexelRect SimWindow::rect(const Region& configured) const {
    return {windowCorner(configured, sim.region().centreCm), glm::ivec2(configured.resolution)};
}

void SimWindow::updateHealBound(bool contact) {
    const SimSettings& settings = sim.settings();
    if (settings.format == BufferFormat::RGBA16F) {
        // The tags' distances grow by at least a texel a step once nothing is pressed, and a
        // tag lapses past `reach` (accumulate.frag): reach + 2 steps after R is all zero, G, B
        // and A hold the untouched (0, max age, 0, 0) everywhere, a fixed point.
        const SnowParamsBlock& p = sim.params();
        const int reach = static_cast<int>(std::ceil(p.rtBlurDistance * p.resolution)) + 2;
        if (contact || healBound > 0.0)
            tagStepsLeft = reach + 2;
        else if (tagStepsLeft > 0)
            --tagStepsLeft;
    }
    if (contact) {
        healBound = 1.0; // every accumulate mode saturates at 1
        return;
    }
    if (healBound == 0.0)
        return; // 0 x k + no contact = 0, exactly
    // What the step just applied, from the sim's clock: linear refill subtracted refillStep
    // (exactly, by design), the multiply refill scaled by stepFactor (1 with linear refill).
    const SimStep& step = sim.lastStep();
    double next = healBound * step.stepFactor;
    if (settings.refill == RefillMode::Linear)
        next = healBound - step.refillStep;
    if (next < healBound)
        next *= 1.0 + 1.0 / 1024.0; // the store's rounding: at most half an ulp up (2^-11)
    if (!settings.halfSafe) {
        // Without the zero floor round-to-nearest can stall a value above 0 forever: the
        // field is never known to be healed.
        healBound = std::max(std::min(next, healBound), std::numeric_limits<double>::min());
        return;
    }
    healBound = next < kZeroFloor ? 0.0 : std::min(next, healBound);
}

void SimWindow::copyFrom(const SimWindow& source, const TexelRect& texels,
                         const Region& configured) {
    if (texels.empty() || !source.sim.allocated() || !sim.allocated())
        return;
    const glm::ivec2 src = texels.origin - source.rect(configured).origin;
    const glm::ivec2 dst = texels.origin - rect(configured).origin;
    glCopyImageSubData(source.sim.persistent().id(), GL_TEXTURE_2D, 0, src.x, src.y, 0,
                       sim.persistent().id(), GL_TEXTURE_2D, 0, dst.x, dst.y, 0, texels.size.x,
                       texels.size.y, 1);
    healBound = std::max(healBound, source.healBound);
}

void SimWindow::shiftTo(glm::dvec2 next, const gpu::ShaderProgram& shift,
                        std::span<const TexelRect> others) {
    if (world)
        world->pageOut(sim, next, healBound == 0.0, others);
    sim.shiftRegion(next, shift);
    centre = next;
}

void SimWindow::pageIn(glm::dvec2 from, std::span<const TexelRect> others) {
    // A restored trail must be stepped (idle skip) until it has healed again.
    if (world)
        healBound = std::max(healBound, double(world->pageIn(sim, from, others)));
}

void SimWindow::restoreFromWorld(std::span<const TexelRect> others) {
    if (world)
        healBound = std::max(healBound, double(world->restoreWindow(sim, others)));
}

} // namespace snowcap
