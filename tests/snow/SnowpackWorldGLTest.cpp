// A following snowpack with sim.X.persistence = "world" (docs/snowpack.md section 6.2): a 64²
// window walks away from a trail and back, and holds what a fixed 256² region at the same
// texel size (big enough never to lose it) holds: the mass and water bit for bit and the depth
// within the shader's settling against the CPU's, for a trail within the angle of repose; for a
// steep trench, the slump the big region ran while the window was away is the difference
// (measured, bounded). The same walk with "window" loses the trail. A walk that presses out and
// back closes both budgets: the window's and the window's plus its store's.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "SnowpackWalkSupport.hpp"
#include "core/weather_laws.hpp"
#include "lab/snowpack_stats.hpp"
#include "snow/snowpack_sim.hpp"
#include "snow/world_file.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>

namespace snowcap {
namespace {

using test::makeField;
using namespace test::walk;

// The sky over both fields: none, snowfall and degree-day melt (the air from -5 C to +3 C and
// back within the walk, three simulated hours at weather time scale 3600), or that with the sun
// as well. The walks under wind are SnowpackWindGLTest's.
enum class Sky { None, SnowAndMelt, Sun };

void applySky(Settings& s, Sky sky) {
    if (sky == Sky::None)
        return;
    s.weather.snowfallCmH = 2.0;
    s.weather.airTempC = -5.0;
    s.weather.timeScale = 3600.0;
    s.weather.sunWM2 = sky == Sky::Sun ? 400.0 : 0.0;
    for (const auto& [at, temperature] :
         {std::pair{0.8, 3.0}, std::pair{2.2, 3.0}, std::pair{2.6, -5.0}}) {
        s.weather.keys.push_back({});
        s.weather.keys.back().atS = at;
        s.weather.keys.back().values[4] = temperature; // air_temp_c
    }
    s.look.sunDirection = glm::normalize(glm::vec3(0.6f, 0.2f, 0.75f));
}

Settings windowSettings(Sky sky = Sky::None) {
    Settings s;
    applySky(s, sky);
    s.snow.resolution = kWindow;
    s.snow.orthoWidthCm = kWindow * kTexelCm;
    for (int i = 0; i < 2; ++i) {
        snowpackLaws(s.sims[i], s.weather);
        s.sims[i].region = RegionMode::FollowSnapped;
    }
    s.sims[0].persistence = Persistence::Window; // the control: forgets
    s.sims[1].persistence = Persistence::World;
    return s;
}

Settings oracleSettings(Sky sky = Sky::None) {
    Settings s;
    applySky(s, sky);
    s.snow.resolution = kOracle;
    s.snow.orthoWidthCm = kOracle * kTexelCm; // the same texel grid
    snowpackLaws(s.sims[1], s.weather);
    s.sims[0].model = SimModel::Decay; // not compared
    return s;
}

struct WalkCase {
    double fps;
    bool jumps;
    bool steep;
    Sky sky = Sky::None;
};

// Where the followed (hovering: no contact) deformer is at step i of n: 3 m out and back, or
// jumps of several tiles.
glm::dvec2 pathAt(const WalkCase& c, int i, int n) {
    const double t = double(i) / n;
    if (!c.jumps)
        return glm::dvec2(300.0, 110.0) * std::sin(std::numbers::pi * t);
    if (t < 0.3)
        return {280.0, -136.0};
    if (t < 0.7)
        return {-300.0, 64.0};
    return {0.0, 0.0};
}

// The most the sun can melt otherwise on one column over the run: per weather tick,
// sunMeltPerCos x |sun . (flat - n)| for the steepest side of the trail (a 3 cm step over a
// 4 cm texel, central differences: slope 3/8 each way at worst) plus a quantum of rounding.
double worstSunBound(const SnowpackSim& sim, const Settings& settings) {
    WeatherClock clock(settings.weather, settings.sims[1].snowpack, settings.wind,
                       settings.look.sunDirection);
    const glm::vec3 flat{0.0f, 0.0f, 1.0f};
    double bound = 0.0;
    const double texel = sim.region().texelCm();
    const float s = static_cast<float>(3.0 / (2.0 * texel));
    for (const WeatherTick& tick : clock.advance(3.1)) {
        float worst = 0.0f;
        for (const glm::vec3 n :
             {glm::normalize(glm::vec3(s, s, 1.0f)), glm::normalize(glm::vec3(-s, -s, 1.0f)),
              glm::normalize(glm::vec3(s, -s, 1.0f)), glm::normalize(glm::vec3(-s, s, 1.0f))})
            worst = std::max(worst, std::abs(glm::dot(tick.sunDirection, flat - n)));
        bound += double(tick.sunMeltPerCos) * worst + double(kWeatherQuantum);
    }
    return bound;
}

class SnowpackWorldReturn : public ::testing::TestWithParam<WalkCase> {};

TEST_P(SnowpackWorldReturn, TheTrailComesBackAsAFixedRegionHoldsIt) {
    const WalkCase c = GetParam();
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto window = makeField(windowSettings(c.sky), shaders);
    auto oracle = makeField(oracleSettings(c.sky), shaders);
    ASSERT_TRUE(window && oracle);
    const SnowpackSim& kept = *window->snowpack(1);
    const SnowpackSim& control = *window->snowpack(0);
    const SnowpackSim& big = *oracle->snowpack(1);
    ASSERT_NE(kept.world(), nullptr);
    ASSERT_EQ(control.world(), nullptr);
    const int windowCorner = -kWindow / 2, oracleCorner = -kOracle / 2;
    uploadTrail(kept, windowCorner, c.steep);
    uploadTrail(control, windowCorner, c.steep);
    uploadTrail(big, oracleCorner, c.steep);

    test::Sphere sphere;
    const int steps = static_cast<int>(std::lround(3.0 * c.fps));
    long long mostHeld = 0;
    for (int i = 1; i <= steps + 2; ++i) {
        const glm::dvec2 p = pathAt(c, std::min(i, steps), steps);
        DeformerInstance hover = sphere.at({p.x, p.y, 500.0});
        window->step({&hover, 1}, 1.0 / c.fps);
        oracle->step({&hover, 1}, 1.0 / c.fps);
        kept.world()->finish();
        mostHeld = std::max(mostHeld, kept.world()->store().stats().texelsHeld);
    }
    ASSERT_EQ(kept.region().centreCm, glm::dvec2(0.0));
    EXPECT_GE(mostHeld, kTrailW * kTrailH / 4) << "the trail never left the window";
    EXPECT_GT(kept.world()->store().stats().pagedIn, 0);
    EXPECT_EQ(kept.world()->store().stats().texelsHeld, 0) << "all of it is back";
    EXPECT_GT(kept.world()->log().ticks(), 8);
    if (c.sky == Sky::None)
        EXPECT_LT(kept.undisturbed().depthCm, 29.5f) << "too little settling to see";
    else { // snowfall and melt both showed: more mass than at the start, and meltwater
        EXPECT_GT(kept.undisturbed().massKgM2, columnMass(30.0f, 120.0f) + 1.0f);
        EXPECT_GT(kept.undisturbed().waterKgM2, 0.0f);
    }

    // The oracle's texels under the window, now back at the start.
    const std::vector<SnowColumn> all = big.readBack();
    const std::vector<SnowColumn> got = kept.readBack();
    const int off = windowCorner - oracleCorner;
    float worstDepth = 0.0f;
    double worstMass = 0.0;
    int massDiffers = 0;
    double massGot = 0.0, massExpected = 0.0;
    for (int y = 0; y < kWindow; ++y)
        for (int x = 0; x < kWindow; ++x) {
            const SnowColumn& e = all[(y + off) * kOracle + x + off];
            const SnowColumn& g = got[y * kWindow + x];
            worstDepth = std::max(worstDepth, std::abs(g.depthCm - e.depthCm));
            massDiffers += g.massKgM2 != e.massKgM2 || g.waterKgM2 != e.waterKgM2;
            worstMass = std::max(worstMass, std::abs(double(g.massKgM2) + double(g.waterKgM2) -
                                                     double(e.massKgM2) - double(e.waterKgM2)));
            massGot += double(g.massKgM2) + double(g.waterKgM2);
            massExpected += double(e.massKgM2) + double(e.waterKgM2);
        }
    RecordProperty("worst_depth_cm", std::to_string(worstDepth));
    RecordProperty("texels_mass_differs", massDiffers);
    std::printf("[ return ] worst depth %.3g cm, %d texels of another mass (worst %.4g kg/m2), "
                "mass %.9g vs %.9g kg/m2 x texels; undisturbed %.4f cm, %.3f kg/m2 after %lld "
                "events\n",
                worstDepth, massDiffers, worstMass, massGot, massExpected,
                kept.undisturbed().depthCm, kept.undisturbed().massKgM2,
                kept.world()->log().ticks());
    // The undisturbed column entering from the world and the oracle's untouched texels: the
    // shader's settling against the CPU's (section 6.1's 1e-5 cm over two hours).
    if (c.sky == Sky::Sun) {
        // The sun melts a stored column as a flat one: on the trench's 27-degree sides the
        // big region's sun met them at another angle. The difference is that melt, bounded
        // by sunMeltPerCos x |sun . (flat - n)| a tick, plus a quantum of rounding.
        EXPECT_GT(massDiffers, 0) << "the sides should have melted otherwise";
        EXPECT_LE(worstMass, worstSunBound(big, windowSettings(c.sky)));
        EXPECT_LE(worstDepth, 1.0f);
    } else if (!c.steep) {
        // Within the angle of repose nothing slumps: only settling and, under the sky,
        // snowfall, degree-day melt and drainage ran while away, each per column.
        EXPECT_EQ(massDiffers, 0);
        EXPECT_LE(worstDepth, 1e-4f);
    } else {
        // The big region went on slumping the walls after the window left them: the
        // difference is that slump (mass moved between texels, none lost), at most the wall.
        EXPECT_GT(massDiffers, 0) << "the wall should have slumped while away";
        EXPECT_LE(worstDepth, 22.0f);
        EXPECT_NEAR(massGot, massExpected, 1e-6 * massExpected);
    }
    // The trench is back: its floor far below the undisturbed column.
    const SnowColumn floor = got[(0 - windowCorner) * kWindow + (0 - windowCorner)];
    EXPECT_LT(floor.depthCm, kept.undisturbed().depthCm - 5.0f);
    // "window" walked off the whole trail: gone, the undisturbed column everywhere.
    for (const SnowColumn& column : control.readBack())
        ASSERT_EQ(column.massKgM2, control.undisturbed().massKgM2);
}

INSTANTIATE_TEST_SUITE_P(Walks, SnowpackWorldReturn,
                         ::testing::Values(WalkCase{30, false, false}, WalkCase{144, false, false},
                                           WalkCase{60, true, false}, WalkCase{60, false, true},
                                           WalkCase{30, false, false, Sky::SnowAndMelt},
                                           WalkCase{144, true, false, Sky::SnowAndMelt},
                                           WalkCase{60, false, false, Sky::Sun}),
                         [](const auto& info) {
                             const WalkCase& c = info.param;
                             return std::to_string(int(c.fps)) + "fps" +
                                    (c.jumps ? "_jumps" : "_walk") + (c.steep ? "_steep" : "") +
                                    (c.sky == Sky::SnowAndMelt ? "_snow_melt"
                                     : c.sky == Sky::Sun       ? "_sun"
                                                               : "");
                         });

class SnowpackWorldBudget : public ::testing::TestWithParam<Sky> {};

TEST_P(SnowpackWorldBudget, BothBudgetsCloseOverAWalkOutAndBack) {
    // A sphere presses 20 cm into the snow while it walks 3 m out and back at 60 fps: its
    // trail goes into the store behind it and comes back as it returns over it; under the sky
    // snow falls on it and melts there, and its water drains.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = windowSettings(GetParam());
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    const SnowpackSim& snowpack = *field->snowpack(1);
    test::Sphere sphere;
    const int steps = 240;
    double worstWindow = 0.0, worstWorld = 0.0, mostInStore = 0.0;
    for (int i = 1; i <= steps; ++i) {
        const double t = double(i) / steps;
        const glm::dvec2 p = glm::dvec2(300.0, 60.0) * std::sin(std::numbers::pi * t);
        DeformerInstance pressed = sphere.at({p.x, p.y, -20.0});
        field->step({&pressed, 1}, 1.0 / 60.0);
        if (i % 40 == 0 || i == steps) {
            const std::vector<SnowpackFigure> figures = snowpackFigures(snowpack);
            worstWindow = std::max(worstWindow, std::abs(figure(figures, "mass_error")));
            worstWorld = std::max(worstWorld, std::abs(figure(figures, "mass_world_error")));
            mostInStore = std::max(mostInStore, figure(figures, "mass_in_store_kg"));
        }
    }
    RecordProperty("worst_mass_error", std::to_string(worstWindow));
    RecordProperty("worst_mass_world_error", std::to_string(worstWorld));
    std::printf("[ budget ] worst mass_error %.3g, mass_world_error %.3g, most in store %.3f "
                "kg\n",
                worstWindow, worstWorld, mostInStore);
    if (GetParam() != Sky::None)
        std::printf("[ budget ] sky: in %.3f kg, out %.3f kg; on the store %.3f kg in, %.3f out\n",
                    figure(snowpackFigures(snowpack), "mass_in_kg"),
                    figure(snowpackFigures(snowpack), "mass_out_kg"),
                    figure(snowpackFigures(snowpack), "mass_store_in_kg"),
                    figure(snowpackFigures(snowpack), "mass_store_out_kg"));
    EXPECT_LT(worstWindow, 1e-5);
    EXPECT_LT(worstWorld, 1e-5);
    EXPECT_GT(mostInStore, 1.0) << "the trail never went into the store";
    EXPECT_GT(snowpack.world()->store().stats().pagedIn, 0) << "nor came back";
    // The carried terms split: what came from the store is carried in but not undisturbed.
    const std::vector<SnowpackFigure> figures = snowpackFigures(snowpack);
    EXPECT_GT(figure(figures, "mass_carried_in_kg"),
              figure(figures, "mass_from_undisturbed_kg") + 1.0);
    if (GetParam() != Sky::None) {
        EXPECT_GT(figure(figures, "mass_store_in_kg"), 0.1) << "no snow fell on the store";
        EXPECT_GT(figure(figures, "mass_in_kg"), 1.0);
        EXPECT_GT(figure(figures, "mass_out_kg"), 0.0);
    }
}

INSTANTIATE_TEST_SUITE_P(Skies, SnowpackWorldBudget,
                         ::testing::Values(Sky::None, Sky::SnowAndMelt, Sky::Sun),
                         [](const auto& info) {
                             return std::string(info.param == Sky::None          ? "clear"
                                                : info.param == Sky::SnowAndMelt ? "snow_melt"
                                                                                 : "sun");
                         });

TEST(SnowpackWorldGL, WorldFilesAreRefusedWithOneLine) {
    const Settings settings = windowSettings();
    const auto refusal = worldFileRefusal(settings);
    ASSERT_TRUE(refusal);
    EXPECT_NE(refusal->find("sim.b.persistence = \"world\""), std::string::npos) << *refusal;
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    auto snapshot = snapshotWorld(*field);
    ASSERT_TRUE(std::holds_alternative<std::string>(snapshot));
    EXPECT_EQ(std::get<std::string>(snapshot), *refusal);
    Settings window = settings;
    window.sims[1].persistence = Persistence::Window;
    EXPECT_FALSE(worldFileRefusal(window));
}

} // namespace
} // namespace snowcap
