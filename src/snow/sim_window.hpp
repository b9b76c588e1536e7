#pragma once
// One window of a sim (docs/world.md, section 6): a square of the sim's texel grid that is
// captured, accumulated, idled and moved on its own. Every sim has at least one; window 0 is
// what the frame draws, and a follow_snapped r16f sim has one per observer (snow.follow). The
// field keeps every window of every sim alike: one of these each, window 0 included.

#include "core/snow_math.hpp"
#include "snow/snow_sim.hpp"
#include "snow/world_store.hpp"

#include <span>
#include <string>

namespace snowcap {

class WorldPager; // snow/world_pager.hpp

struct SimWindow {
    SimWindow(std::string name, int simIndex, glm::dvec2 centreCm)
        : sim(std::move(name), simIndex), centre(centreCm) {}

    // The buffer pair (with its blurred copy, parameters and the clock): the texels.
    SnowSim sim;
    // Where the window is: its buffer's region centre, except between a step's advance and
    // its follow pass, when it is already where the follow pass will take the buffer.
    glm::dvec2 centre{0.0};
    int capture = 0; // the field's capture this window reads
    // An upper bound on every texel of the buffer (R): 1 after contact, decaying with the step
    // factors; exactly 0 once the half-safe zero floor must have cleared everything. Idle skip
    // trusts it.
    double healBound = 0.0;
    // rgba16f: steps still to run after R has healed, until every contact-type tag has lapsed
    // (accumulate.frag's distance transform drops a tag reach + 1 steps after its print).
    int tagStepsLeft = 0;
    long long idleSteps = 0; // steps whose pass idle skip left out
    int observer = -1;       // the deformer this window follows (snow.follow); -1: none
    // The sim's world store, shared by its windows (sim.X.persistence = "world"); the field
    // owns it. Null: the sim keeps no world.
    WorldPager* world = nullptr;
    bool fresh = true; // made or resized by the last configure, not yet filled

    // The world texels the window covers on the sim's grid (`configured`: the sim's region
    // with its configured centre, the grid's origin).
    TexelRect rect(const Region& configured) const;
    // After the window's accumulate pass: the bound (and the tags' steps) after this step.
    void updateHealBound(bool contact);
    // Copies `texels` (world texels) from `source`, another window of the sim, bit for bit
    // (glCopyImageSubData), and takes on its bound.
    void copyFrom(const SimWindow& source, const TexelRect& texels, const Region& configured);
    // Moves the buffer to `next` (paging out what leaves where the sim keeps a world; `others`:
    // the sim's other windows, whose texels are theirs, not the store's).
    void shiftTo(glm::dvec2 next, const gpu::ShaderProgram& shift,
                 std::span<const TexelRect> others);
    // After a move from `from`: restores from the store what entered (not in `others`).
    void pageIn(glm::dvec2 from, std::span<const TexelRect> others);
    // Takes the whole window from the store but for `others` (a loaded world, a new window).
    void restoreFromWorld(std::span<const TexelRect> others);
};

} // namespace snowcap
