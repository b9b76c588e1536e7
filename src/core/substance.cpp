#include "core/substance.hpp"

#include "core/params.hpp"

#include <array>
#include <variant>

namespace snowcap {

namespace {

// Dry sand: does not melt, does not settle, barely compacts (loose to packed), slumps at its
// angle of repose, drifts above its own threshold.
constexpr std::array<PresetValue, 8> kSand{{
    {"density_kg_m3", 1600.0},        // dry sand 1520..1680 (Bulk Density of Sand)
    {"max_density_kg_m3", 1680.0},    // packed: the top of that range
    {"repose_fresh_deg", 34.0},       // dry sand piles at 30..34 (Angle of Repose, lexicon)
    {"repose_dense_deg", 34.0},       // the same: the angle does not follow a sand's density here
    {"settle_time_scale", 0.0},       // Anderson's settling is a law of snow: off
    {"melt_temperature_factor", 0.0}, // sand does not melt
    {"melt_radiation_factor", 0.0},
    {"drift_threshold_m_s", 0.2}, // Bagnold: about 0.2 m/s for 0.2 mm grains
}};

// Wet mud: holds prints (stands near vertical, slumps slowly), does not drift, does not melt,
// keeps its water (drains slowly).
constexpr std::array<PresetValue, 10> kMud{{
    {"density_kg_m3", 1760.0},     // wet clay 1760 (What is the wet density of soil?)
    {"max_density_kg_m3", 1800.0}, // lab choice: saturated mud barely compacts, it is pushed
    {"repose_fresh_deg", 89.0},    // lab choice: cohesive mud stands in vertical walls
    {"repose_dense_deg", 89.0},
    {"slump_rate_hz", 10.0},    // lab choice: what does flow, flows slowly
    {"settle_time_scale", 0.0}, // not snow: no Anderson settling
    {"melt_temperature_factor", 0.0},
    {"melt_radiation_factor", 0.0},
    {"drain_per_h", 0.05},         // lab choice: mud keeps its water (a twentieth an hour)
    {"drift_threshold_m_s", 10.0}, // lab choice: cohesive wet mud does not saltate
}};

} // namespace

std::span<const PresetValue> substancePreset(Substance substance) {
    switch (substance) {
    case Substance::Sand:
        return kSand;
    case Substance::Mud:
        return kMud;
    case Substance::Snow:
        break;
    }
    return {};
}

void applySubstance(SnowpackSettings& snowpack, Substance substance) {
    snowpack.substance = substance;
    const auto& rows = params::snowpackParams().params;
    for (const PresetValue& preset : substancePreset(substance))
        for (const auto& row : rows)
            if (row.key == preset.key)
                if (const auto* member = std::get_if<double SnowpackSettings::*>(&row.member))
                    snowpack.*(*member) = preset.value;
}

} // namespace snowcap
