// The parameter table, part 5: what lies under the snow ([ground], docs/ground.md). One row per
// key, as in params_table.cpp.
#include "core/params.hpp"

namespace snowcap::params {

using enum Widget;
using config_read::kGroundKinds;

const Section<GroundSettings>& groundParams() {
    using G = GroundSettings;
    static const Section<G> section{
        "ground",
        "What lies under the snow in every sim's surface (docs/ground.md): the layer that shows "
        "where a print reaches it in a decay sim, and where a snowpack's depth goes to 0. "
        "\"colour\" is look.ground_colour as it always was; the other kinds set the layer's "
        "colour, roughness and how much water darkens it (a lab's palette, not measured).",
        {
            {"kind", choice(&G::kind, kGroundKinds), "colour", anyNumber(), "", Combo,
             "\"colour\": look.ground_colour and look.ground_or, as they always were; "
             "\"grass\", \"mud\" (water in the column darkens it most) or \"rock\"."},
        }};
    return section;
}

} // namespace snowcap::params
