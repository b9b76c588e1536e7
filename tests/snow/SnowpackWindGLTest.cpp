// A following snowpack under [weather] with wind (docs/snowpack.md section 6.3): inside the
// window drift runs as on a fixed region; outside it (the undisturbed column, the store's
// columns) every column receives what it sends (weatherAwayColumn), so its mass stays. Both
// budgets close while a walker leaves the window and comes back. Against a fixed 256² region
// holding the whole walk, the field the window brings in is the big region's: under an even
// wind its mass bit for bit and its depth within the CPU's settling against the shader's; the
// trail that was away did not drift there (the difference, measured); under gusts the field
// ripples, which the undisturbed column does not (measured).
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "SnowpackWalkSupport.hpp"
#include "core/weather_laws.hpp"
#include "lab/snowpack_stats.hpp"
#include "snow/snowpack_sim.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace snowcap {
namespace {

using test::makeField;
using namespace test::walk;

// Snow in a wind above the drift threshold, the air below 0 C (dry snow drifts), at weather
// time scale 60 (two simulated seconds a tick): 0.13 kg/m2 a tick through a texel's faces.
void applyWind(Settings& s, double gustAmount) {
    s.weather.snowfallCmH = 20.0;
    s.weather.airTempC = -5.0;
    s.weather.windMS = 8.0;
    s.weather.windTowardDeg = 20.0;
    s.weather.timeScale = 60.0;
    s.wind.gustAmount = gustAmount;
}

Settings windowSettings(double gustAmount) {
    Settings s;
    applyWind(s, gustAmount);
    s.snow.resolution = kWindow;
    s.snow.orthoWidthCm = kWindow * kTexelCm;
    s.sims[0].model = SimModel::Decay; // not compared
    snowpackLaws(s.sims[1], s.weather);
    s.sims[1].region = RegionMode::FollowSnapped;
    s.sims[1].persistence = Persistence::World;
    return s;
}

Settings oracleSettings(double gustAmount) {
    Settings s;
    applyWind(s, gustAmount);
    s.snow.resolution = kOracle;
    s.snow.orthoWidthCm = kOracle * kTexelCm; // the same texel grid
    s.sims[0].model = SimModel::Decay;
    snowpackLaws(s.sims[1], s.weather);
    return s;
}

// The observer (hovering: no contact) 3 m out and back over `n` steps.
glm::dvec2 observerAt(int i, int n) {
    return glm::dvec2(300.0, 110.0) * std::sin(std::numbers::pi * double(i) / n);
}

class SnowpackWindBudget : public ::testing::TestWithParam<double> {};

TEST_P(SnowpackWindBudget, BothBudgetsCloseAsAWalkerLeavesTheWindowAndComesBack) {
    // The window follows a hovering observer 3 m out and back; a walker presses 20 cm into the
    // snow, back and forth along 2 m through the start. It leaves the window as the window goes
    // out (its trail into the store, drifting no more) and is in it again as the window comes
    // back. 300 steps at 60 fps.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = makeField(windowSettings(GetParam()), shaders);
    ASSERT_TRUE(field);
    const SnowpackSim& snowpack = *field->snowpack(1);
    test::Sphere observer, walker;
    const int steps = 300;
    double worstWindow = 0.0, worstWorld = 0.0, mostInStore = 0.0;
    bool walkerLeft = false;
    for (int i = 1; i <= steps; ++i) {
        const glm::dvec2 o = observerAt(i, steps);
        const double w = 100.0 * std::sin(2.0 * std::numbers::pi * double(i) / 150.0);
        const DeformerInstance both[] = {observer.at({o.x, o.y, 500.0}),
                                         walker.at({w, 0.0, -20.0})};
        field->step(both, 1.0 / 60.0);
        const glm::dvec2 centre = snowpack.region().centreCm;
        walkerLeft = walkerLeft || std::abs(w - centre.x) > 0.5 * kWindow * kTexelCm + 30.0 ||
                     std::abs(centre.y) > 0.5 * kWindow * kTexelCm + 30.0;
        if (i % 30 == 0) {
            const std::vector<SnowpackFigure> figures = snowpackFigures(snowpack);
            worstWindow = std::max(worstWindow, std::abs(figure(figures, "mass_error")));
            worstWorld = std::max(worstWorld, std::abs(figure(figures, "mass_world_error")));
            mostInStore = std::max(mostInStore, figure(figures, "mass_in_store_kg"));
        }
    }
    const std::vector<SnowpackFigure> figures = snowpackFigures(snowpack);
    RecordProperty("worst_mass_error", std::to_string(worstWindow));
    RecordProperty("worst_mass_world_error", std::to_string(worstWorld));
    std::printf("[ wind budget ] gusts %.1f: worst mass_error %.3g, mass_world_error %.3g; in %.3f "
                "kg, out %.3f (drift at the downwind border), store in %.3f, most in store %.3f "
                "kg (%lld texels now)\n",
                GetParam(), worstWindow, worstWorld, figure(figures, "mass_in_kg"),
                figure(figures, "mass_out_kg"), figure(figures, "mass_store_in_kg"), mostInStore,
                snowpack.world()->store().stats().texelsHeld);
    EXPECT_TRUE(walkerLeft) << "the walker never left the window";
    EXPECT_LT(worstWindow, 1e-5);
    EXPECT_LT(worstWorld, 1e-5);
    EXPECT_GT(mostInStore, 1.0) << "the trail never went into the store";
    EXPECT_GT(snowpack.world()->store().stats().pagedIn, 0) << "nor came back";
    // Dry snow drains nothing: what went out is the drift through the downwind border.
    EXPECT_GT(figure(figures, "mass_out_kg"), 0.1) << "no drift";
    EXPECT_GT(figure(figures, "mass_store_in_kg"), 0.1) << "no snow fell on the store";
}

INSTANTIATE_TEST_SUITE_P(Winds, SnowpackWindBudget, ::testing::Values(0.0, 0.6),
                         [](const auto& info) {
                             return std::string(info.param > 0.0 ? "gusty" : "even");
                         });

// How the window's texels differ from the oracle's under them, in bands of distance to the
// window's border, and near and away from the trail.
struct Differences {
    int texels = 0;
    int massDiffers = 0;
    double worstMass = 0.0; // kg/m2, snow and water
    float worstDepth = 0.0f;
    void add(const SnowColumn& g, const SnowColumn& e) {
        ++texels;
        massDiffers += g.massKgM2 != e.massKgM2 || g.waterKgM2 != e.waterKgM2;
        worstMass = std::max(worstMass, std::abs(double(g.massKgM2) + double(g.waterKgM2) -
                                                 double(e.massKgM2) - double(e.waterKgM2)));
        worstDepth = std::max(worstDepth, std::abs(g.depthCm - e.depthCm));
    }
    void print(const char* what) const {
        std::printf("[ wind return ]   %-28s %5d texels: %4d of another mass (worst %.4g kg/m2), "
                    "worst depth %.4g cm\n",
                    what, texels, massDiffers, worstMass, worstDepth);
    }
};

struct Compared {
    Differences border, inner, deep; // window texels 0-3, 4-15, 16+ from its border
    Differences nearTrail, field;    // within 12 texels of the trail, or farther
};

Compared compare(const SnowpackSim& kept, const SnowpackSim& big) {
    const std::vector<SnowColumn> got = kept.readBack(), all = big.readBack();
    const glm::ivec2 corner = kept.world()->windowCorner(kept.region().centreCm);
    const int oracleCorner = -kOracle / 2;
    Compared c;
    for (int y = 0; y < kWindow; ++y)
        for (int x = 0; x < kWindow; ++x) {
            const glm::ivec2 w = corner + glm::ivec2(x, y); // world texel
            const SnowColumn& g = got[y * kWindow + x];
            const SnowColumn& e = all[(w.y - oracleCorner) * kOracle + (w.x - oracleCorner)];
            const int edge = std::min(std::min(x, y), std::min(kWindow - 1 - x, kWindow - 1 - y));
            (edge < 4 ? c.border : edge < 16 ? c.inner : c.deep).add(g, e);
            const int dx = std::max(std::max(kTrailX - w.x, w.x - (kTrailX + kTrailW - 1)), 0);
            const int dy = std::max(std::max(kTrailY - w.y, w.y - (kTrailY + kTrailH - 1)), 0);
            (std::max(dx, dy) <= 12 ? c.nearTrail : c.field).add(g, e);
        }
    return c;
}

// The most drift can change a column's mass in `ticks` ticks of the sky: per tick a texel gains
// at most what its upwind neighbours send it through its two upwind faces, and loses at most
// what it sends, each at most the flux of the loosest snow (100 kg/m3, what falls) at the
// strongest gust and the terrain factor's most (1.5: windward slope and crest).
double driftBound(const Settings& s, long long ticks) {
    WeatherClock clock(s.weather, s.sims[1].snowpack, s.wind, s.look.sunDirection);
    const std::vector<WeatherTick> all = clock.advance(1.0); // the sky is steady: one tick's
    const WeatherTick& tick = all.front();
    const SnowColumn loosest{60.0f, columnMass(60.0f, 100.0f), 0.0f, 0.0f};
    const DriftOut most = driftOut(loosest, false, tick.windMS * (1.0f + tick.gustAmount), 1.0f,
                                   0.25f, tick, float(kTexelCm));
    return double(ticks) * double(most.x + most.y) * double(kWeatherQuantum);
}

class SnowpackWindReturn : public ::testing::TestWithParam<double> {};

TEST_P(SnowpackWindReturn, TheFieldIsTheFixedRegionsAndTheTrailDriftedLessAway) {
    // SnowpackWorldReturn's walk (the gentle trail, the hovering observer 3 m out and back in
    // 3 s at 30 fps) under the wind, against a fixed 256² region on the same grid.
    const double gusts = GetParam();
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto window = makeField(windowSettings(gusts), shaders);
    auto oracle = makeField(oracleSettings(gusts), shaders);
    ASSERT_TRUE(window && oracle);
    const SnowpackSim& kept = *window->snowpack(1);
    const SnowpackSim& big = *oracle->snowpack(1);
    uploadTrail(kept, -kWindow / 2, false);
    uploadTrail(big, -kOracle / 2, false);
    test::Sphere sphere;
    const int steps = 90;
    Compared away;
    long long ticksAway = 0; // weather ticks (one a step at 30 fps) with some of it stored
    for (int i = 1; i <= steps + 2; ++i) {
        const glm::dvec2 p = observerAt(std::min(i, steps), steps);
        DeformerInstance hover = sphere.at({p.x, p.y, 500.0});
        window->step({&hover, 1}, 1.0 / 30.0);
        oracle->step({&hover, 1}, 1.0 / 30.0);
        kept.world()->finish();
        ticksAway += kept.world()->store().stats().texelsHeld > 0;
        if (i == steps / 2)
            away = compare(kept, big); // the window at its farthest, the trail out of it
    }
    ASSERT_EQ(kept.region().centreCm, glm::dvec2(0.0));
    const Compared back = compare(kept, big);
    const double bound = driftBound(windowSettings(gusts), ticksAway);
    std::printf("[ wind return ] gusts %.1f; at 3 m out (the trail away):\n", gusts);
    away.border.print("window border (0-3 texels)");
    away.inner.print("inside (4-15)");
    away.deep.print("deep inside (16+)");
    std::printf("[ wind return ] back at the start:\n");
    back.nearTrail.print("within 12 texels of the trail");
    back.field.print("farther");
    back.border.print("window border (0-3 texels)");
    std::printf("[ wind return ] undisturbed %.4f cm, %.4f kg/m2; %lld ticks with the store "
                "holding texels (%lld held at the end, outside the window), drift bound %.3f "
                "kg/m2\n",
                kept.undisturbed().depthCm, kept.undisturbed().massKgM2, ticksAway,
                kept.world()->store().stats().texelsHeld, bound);
    EXPECT_EQ(away.deep.texels + away.inner.texels + away.border.texels, kWindow * kWindow);
    EXPECT_GT(kept.undisturbed().massKgM2, columnMass(30.0f, 120.0f) + 0.5f) << "no snowfall";
    if (gusts == 0.0) {
        // The field the window brought in and drifted is the big region's: its mass bit for
        // bit, its depth within the CPU's settling and drift against the shader's.
        EXPECT_EQ(away.border.massDiffers + away.inner.massDiffers + away.deep.massDiffers, 0);
        EXPECT_LE(std::max({away.border.worstDepth, away.inner.worstDepth, away.deep.worstDepth}),
                  1e-4f);
        EXPECT_EQ(back.field.massDiffers, 0);
        EXPECT_LE(back.field.worstDepth, 1e-4f);
        // The trail did not drift while away: its upwind wall did not fill its floor. What the
        // big region laid and took there is the difference, within the trail's neighbourhood.
        EXPECT_GT(back.nearTrail.massDiffers, 0)
            << "the trail should have drifted in the big region";
        EXPECT_LE(back.nearTrail.worstMass, bound);
    } else {
        // Gusts ripple the big region's field; the undisturbed column has no place to ripple
        // (WeatherAwayColumn.UnderGustsTheFieldRipplesAboutIt: 0.13 kg/m2 on the CPU), deep in
        // the window as at its border.
        EXPECT_GT(away.deep.massDiffers, away.deep.texels / 2);
        EXPECT_LE(std::max({away.border.worstMass, away.inner.worstMass, away.deep.worstMass}),
                  0.25);
        EXPECT_LE(back.nearTrail.worstMass, bound + 0.25);
    }
}

INSTANTIATE_TEST_SUITE_P(Winds, SnowpackWindReturn, ::testing::Values(0.0, 0.6),
                         [](const auto& info) {
                             return std::string(info.param > 0.0 ? "gusty" : "even");
                         });

} // namespace
} // namespace snowcap
