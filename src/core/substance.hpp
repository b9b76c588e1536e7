#pragma once
// Substances (docs/ground.md): sim.X.snowpack.substance = "snow" | "mud" | "sand" is a preset
// of the snowpack's own keys. "snow" presets nothing (the keys as the table and the files give
// them, bit for bit as before substances existed). "sand" and "mud" set the keys below; each
// value's source is cited by title in docs/sources.md, or it is called a lab choice there.
//
// How the preset meets the keys: the preset stands where the table's default stood. A key
// given in a scenario file or a --set wins over it; config/default.toml's values are the
// table's (snow's) defaults and do not count as given (config.cpp, the snowpack reader).

#include "core/settings.hpp"

#include <span>
#include <string_view>

namespace snowcap {

struct PresetValue {
    std::string_view key; // a sim.X.snowpack key (a number)
    double value;
};

// The keys a substance sets; empty for snow.
std::span<const PresetValue> substancePreset(Substance substance);

// Sets the preset's keys of `snowpack` (and its substance); snow leaves it as it is.
void applySubstance(SnowpackSettings& snowpack, Substance substance);

} // namespace snowcap
