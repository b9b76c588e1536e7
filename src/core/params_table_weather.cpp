// The parameter table, part 3: the sky ([weather]) and its timeline ([[weather.key]]). One row
// per key, as in params_table.cpp; a timeline entry takes at_s and any of the same keys, read
// with the same ranges (docs/weather.md).
#include "core/params.hpp"
#include "core/suggest.hpp"

namespace snowcap::params {

using enum Widget;

namespace {

using W = WeatherSettings;

// The keys a timeline entry may give, in the order of WeatherSettings::Key::values.
constexpr std::array<double W::*, 7> kKeyMembers{&W::snowfallCmH, &W::snowfallDensityKgM3,
                                                 &W::windMS,      &W::windTowardDeg,
                                                 &W::airTempC,    &W::sunWM2,
                                                 &W::timeScale};

// [[weather.key]] = [{at_s = 0, snowfall_cm_h = 2, ...}, ...]: each entry at_s (at least 0, not
// decreasing) and at least one of the [weather] keys, each within its row's range.
Custom<W> weatherKeys();

} // namespace

const Section<W>& weatherParams() {
    static const Section<W> section{
        "weather",
        "The sky over every snowpack sim of the scenario (docs/weather.md): snow falls on every "
        "texel no contact covers, wind above its threshold drifts loose dry snow downwind, air "
        "above 0 C and the sun melt it into water that drains. Constant, or on a timeline: "
        "[[weather.key]] entries, each at_s (seconds of the run) and any of these keys, linear "
        "between the entries that give a key ([weather]'s value stands at t = 0), held after "
        "the last. The decay sims do not see it.",
        {
            {"snowfall_cm_h", &W::snowfallCmH, 0.0, between(0.0, 1000.0), "cm/h", Drag,
             "Fresh snow depth per simulated hour on every texel no contact covers; heavy "
             "snowfall is 2..5 cm/h (0: none)."},
            {"snowfall_density_kg_m3", &W::snowfallDensityKgM3, 100.0, between(30.0, 400.0),
             "kg/m3", Drag,
             "Density of the fresh snow; it mixes with the column's by mass (new snow 50..200 "
             "by temperature, HS2SWE fits 114)."},
            {"wind_m_s", &W::windMS, 0.0, between(0.0, 60.0), "m/s", Slider,
             "Wind speed at 10 m; above the snow's threshold (about 4 m/s for fresh snow) it "
             "drifts loose dry snow downwind (0: calm). [wind]'s gusts modulate it."},
            {"wind_toward_deg", &W::windTowardDeg, 0.0, between(-360.0, 360.0), "deg", Slider,
             "Where the wind blows towards: 0 = +X, 90 = +Y."},
            {"air_temp_c", &W::airTempC, -5.0, between(-60.0, 40.0), "C", Slider,
             "Air temperature: above 0 C the snow melts (degree-day term); below, nothing "
             "melts."},
            {"sun", &W::sunWM2, 0.0, between(0.0, 1400.0), "W/m2", Drag,
             "Beam sunlight from look.sun_direction, W/m2 on a surface facing it (clear sky at "
             "noon is about 800..1000; 0: off). It melts slopes facing it more, only above 0 C."},
            {"time_scale", &W::timeScale, 1.0, aboveUpTo(0.0, 1.0e6), "", LogSlider,
             "Simulated seconds of weather per second of the run (3600: an hour a second); the "
             "timeline's at_s stays in seconds of the run."},
            {"wind_curvature_m", &W::windCurvatureM, 4.0, aboveUpTo(0.0, 1.0e5), "m", Drag,
             "Over [terrain]: MicroMet's length scale for the terrain's curvature in the wind's "
             "weighting, about half the wavelength of its features (a ridge to its valley)."},
            {"sun_hour", &W::sunHour, -1.0, between(-1.0, 24.0), "h", Slider,
             "Solar time of day that places the sun, with latitude_deg and day_of_year "
             "(Spencer's declination; 12: noon, when north of the tropics the sun is due south); "
             "negative: the sun stands at look.sun_direction. Below the horizon it melts "
             "nothing. It places the sun the snow melts by; the lit view's light stays "
             "look.sun_direction."},
            {"latitude_deg", &W::latitudeDeg, 46.0, between(-90.0, 90.0), "deg", Slider,
             "Latitude for sun_hour (positive north)."},
            {"day_of_year", &W::dayOfYear, 80.0, between(1.0, 366.0), "", Slider,
             "Day of the year for sun_hour: 1 is 1 January, 80 the March equinox, 172 the June "
             "solstice."},
            {"key", weatherKeys(), emptyList(), anyNumber(), "", None,
             "[[weather.key]] entries: at_s and any of the keys above, in order of at_s."},
        }};
    return section;
}

namespace {

Custom<W> weatherKeys() {
    return {"[[weather.key]] tables: at_s and any [weather] key",
            [](config_read::Walker& walker, const toml::node& node, const std::string& key,
               W& weather) {
                using namespace config_read;
                const toml::array* entries = node.as_array();
                if (!entries)
                    return walker.expected(node, key, "an array of tables ([[weather.key]])");
                if (walker.overCap(node, key, entries->size(), "keys", walker.limits().maxPathKeys,
                                   "import.max_path_keys"))
                    return false;
                // The rows of the keys an entry may give (the section's own, but for "key").
                const auto& rows = weatherParams().params;
                std::vector<W::Key> keys;
                keys.reserve(entries->size());
                for (std::size_t i = 0; i < entries->size(); ++i) {
                    const std::string at = key + "[" + std::to_string(i) + "]";
                    const toml::node& item = *entries->get(i);
                    const toml::table* entry = item.as_table();
                    if (!entry)
                        return walker.expected(item, at, "a table");
                    W::Key read;
                    bool timed = false, valued = false;
                    for (auto&& field : *entry) {
                        const toml::key& name = field.first;
                        const std::string where = at + "." + clipForMessage(name.str());
                        if (name.str() == "at_s") {
                            if (!number(between(0.0, 1.0e9))(walker, field.second, where, read.atS))
                                return false;
                            if (!keys.empty() && read.atS < keys.back().atS)
                                return walker.failKey(field.second, where,
                                                      "keys out of order: at_s " + show(read.atS) +
                                                          " after " + show(keys.back().atS));
                            timed = true;
                            continue;
                        }
                        std::size_t index = kKeyMembers.size();
                        for (std::size_t k = 0; k < kKeyMembers.size(); ++k)
                            if (rows[k].key == name.str())
                                index = k;
                        if (index == kKeyMembers.size()) {
                            std::vector<std::string_view> names{"at_s"};
                            for (std::size_t k = 0; k < kKeyMembers.size(); ++k)
                                names.push_back(rows[k].key);
                            return walker.fail(name.source(), "unknown key '" + where + "'" +
                                                                  didYouMean(name.str(), names));
                        }
                        double value = 0.0;
                        if (!number(rows[index].range)(walker, field.second, where, value))
                            return false;
                        read.values[index] = value;
                        valued = true;
                    }
                    if (!timed)
                        return walker.failKey(item, at, "missing required key 'at_s'");
                    if (!valued)
                        return walker.failKey(item, at, "gives no [weather] key besides at_s");
                    keys.push_back(read);
                }
                weather.keys = std::move(keys);
                return true;
            },
            [](const W& weather) {
                const auto& rows = weatherParams().params;
                toml::array out;
                for (const W::Key& k : weather.keys) {
                    toml::table entry{{"at_s", k.atS}};
                    for (std::size_t i = 0; i < k.values.size(); ++i)
                        if (k.values[i])
                            entry.insert(rows[i].key, *k.values[i]);
                    out.push_back(std::move(entry));
                }
                return out;
            }};
}

} // namespace

} // namespace snowcap::params
