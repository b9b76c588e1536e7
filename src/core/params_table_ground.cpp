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
        "colour, roughness and how much water darkens it (a lab's palette, not measured), and "
        "\"texture\" takes the colour from a PNG file repeated across the ground.",
        {
            {"kind", choice(&G::kind, kGroundKinds), "colour", anyNumber(), "", Combo,
             "\"colour\": look.ground_colour and look.ground_or, as they always were; "
             "\"grass\", \"mud\" (water in the column darkens it most), \"rock\", or "
             "\"texture\" (the albedo from ground.texture)."},
            {"texture", &G::texture, "", anyNumber(), "", None,
             "With kind = \"texture\": a PNG (beside the file that names it, else in the "
             "repository, or absolute; "
             "at most 8192 pixels a side), its colour the ground's albedo (sRGB), seen from above "
             "with its top towards +Y. Read once when the settings name it; ignored by the "
             "other kinds."},
            {"texture_tile_cm", &G::textureTileCm, 100.0, between(1.0, 10000.0), "cm", LogSlider,
             "With kind = \"texture\": the side of the square of ground one repeat of the "
             "texture covers (it repeats from the world origin)."},
            {"mud_print_max_cm", &G::mudPrintMaxCm, 5.0, between(0.0, 50.0), "cm", Slider,
             "With kind = \"mud\": the deepest print a contact presses into the mud below a "
             "snowpack sim where it reaches below the ground (the snow's base); the print stays "
             "and holds water, 10 kg/m2 a cm (a lab's bound, not measured; 0: the mud takes no "
             "print). The other kinds take none."},
        }};
    return section;
}

} // namespace snowcap::params
