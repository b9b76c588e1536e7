// Config loading: the shipped files, layering, overrides, enum spellings and the in-memory entry
// point. The error messages, one per kind of mistake, are pinned in ConfigErrorsTest.cpp.

#include "core/config.hpp"

#include "TestSupport.hpp"

#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

fs::path defaultToml() {
    return test::sourceDir() / "config" / "default.toml";
}

// Loads and fails the test (returning defaults) when loading fails.
Settings loadOk(const std::vector<fs::path>& files,
                const std::vector<std::string>& overrides = {}) {
    auto result = loadSettings(files, overrides);
    if (const auto* error = std::get_if<ConfigError>(&result)) {
        ADD_FAILURE() << "unexpected config error: " << error->message;
        return Settings{};
    }
    return std::get<Settings>(result);
}

std::string loadError(const std::vector<fs::path>& files,
                      const std::vector<std::string>& overrides = {}) {
    auto result = loadSettings(files, overrides);
    if (const auto* error = std::get_if<ConfigError>(&result))
        return error->message;
    return "(loaded without error)";
}

void expectKey(const DeformerSettings::Key& key, double t, float x, float y, float z) {
    EXPECT_DOUBLE_EQ(key.timeS, t);
    EXPECT_FLOAT_EQ(key.positionCm.x, x);
    EXPECT_FLOAT_EQ(key.positionCm.y, y);
    EXPECT_FLOAT_EQ(key.positionCm.z, z);
}

// ---- the shipped files -------------------------------------------------------------------

TEST(ConfigDefaults, DefaultTomlHoldsTheSeedFigures) {
    const Settings s = loadOk({defaultToml()});
    EXPECT_EQ(s.run.fps, 60.0);
    EXPECT_EQ(s.run.frames, 600);
    EXPECT_EQ(s.snow.resolution, 2048);
    EXPECT_EQ(s.snow.orthoWidthCm, 2048.0);
    EXPECT_EQ(s.snow.surfaceZCm, 0.0);
    EXPECT_EQ(s.snow.captureZCm, -100.0);
    EXPECT_EQ(s.snow.depthCm, 30.0);
    EXPECT_EQ(s.snow.regionCentreCm, (std::array<double, 2>{0.0, 0.0}));
    EXPECT_EQ(s.capture.offsetCm, 150.0);
    EXPECT_EQ(s.capture.distanceCm, 250.0);
    EXPECT_EQ(s.capture.farCm, 2000.0);
    EXPECT_EQ(s.sims[0].decay, 0.95);  // the A/B comparison: A recovers fast...
    EXPECT_EQ(s.sims[1].decay, 0.999); // ...B slowly
    for (const SimSettings& sim : s.sims) {
        EXPECT_EQ(sim.decayTiming, DecayTiming::DeltaTime);
        EXPECT_EQ(sim.accumulate, AccumulateMode::Add);
        EXPECT_TRUE(sim.halfSafe);
    }
    EXPECT_TRUE(s.deformers.empty());
    EXPECT_TRUE(s.probes.empty());
}

TEST(ConfigDefaults, NoLayersGiveStructDefaults) {
    const Settings s = loadOk({});
    EXPECT_EQ(s.snow.resolution, Settings{}.snow.resolution);
    EXPECT_EQ(s.sims[0].decay, 0.95); // each sim its own default (the parameter table)
    EXPECT_EQ(s.sims[1].decay, 0.999);
}

TEST(ConfigScenario, PressRelease) {
    const Settings s = loadOk({defaultToml(), resolveScenario("press_release", test::sourceDir())});
    EXPECT_EQ(s.run.fps, 60.0);
    EXPECT_EQ(s.run.frames, 2400);
    EXPECT_EQ(s.snow.resolution, 64);
    EXPECT_EQ(s.snow.orthoWidthCm, 256.0);
    EXPECT_EQ(s.snow.captureZCm, -100.0); // untouched keys keep default.toml's values
    EXPECT_EQ(s.capture.distanceCm, 250.0);
    for (const SimSettings& sim : s.sims) {
        EXPECT_EQ(sim.decay, 0.999);
        EXPECT_EQ(sim.decayTiming, DecayTiming::DeltaTime);
        EXPECT_EQ(sim.accumulate, AccumulateMode::Add);
    }
    ASSERT_EQ(s.deformers.size(), 1u);
    const DeformerSettings& sphere = s.deformers[0];
    EXPECT_EQ(sphere.shape, DeformerShape::Sphere);
    EXPECT_FLOAT_EQ(sphere.sizeCm.x, 30.0f);
    ASSERT_EQ(sphere.path.size(), 4u);
    expectKey(sphere.path[0], 0.0, 0, 0, 100);
    expectKey(sphere.path[1], 0.0, 0, 0, -20);
    expectKey(sphere.path[2], 1.0, 0, 0, -20);
    expectKey(sphere.path[3], 1.0, 0, 0, 500);
    ASSERT_EQ(s.probes.size(), 1u);
    EXPECT_EQ(s.probes[0].name, "centre");
    EXPECT_EQ(s.probes[0].worldCm, (std::array<double, 2>{0.0, 0.0}));
}

TEST(ConfigScenario, DecayCompare) {
    const Settings s = loadOk({defaultToml(), resolveScenario("decay_compare", test::sourceDir())});
    EXPECT_EQ(s.run.fps, 60.0);
    EXPECT_EQ(s.run.frames, 900);
    EXPECT_EQ(s.snow.resolution, 512);
    EXPECT_EQ(s.snow.orthoWidthCm, 1024.0);
    EXPECT_EQ(s.sims[0].decay, 0.95);
    EXPECT_EQ(s.sims[1].decay, 0.999);
    ASSERT_EQ(s.deformers.size(), 3u);
    const DeformerSettings& boot = s.deformers[0];
    EXPECT_EQ(boot.shape, DeformerShape::Box);
    EXPECT_EQ(boot.sizeCm, glm::vec3(15, 8, 20));
    ASSERT_EQ(boot.path.size(), 3u);
    expectKey(boot.path[0], 0.0, -450, -100, -5);
    expectKey(boot.path[1], 6.0, 450, -100, -5);
    expectKey(boot.path[2], 6.5, 450, -100, 200);
    const DeformerSettings& ball = s.deformers[1];
    EXPECT_EQ(ball.shape, DeformerShape::Sphere);
    EXPECT_FLOAT_EQ(ball.sizeCm.x, 25.0f);
    ASSERT_EQ(ball.path.size(), 5u);
    expectKey(ball.path[0], 0.0, 450, 150, 200);
    expectKey(ball.path[2], 2.0, 450, 150, -5);
    expectKey(ball.path[3], 8.0, -450, 150, -5);
    ASSERT_EQ(s.probes.size(), 4u);
    EXPECT_EQ(s.probes[0].worldCm, (std::array<double, 2>{-300.0, -100.0}));
    EXPECT_EQ(s.probes[1].worldCm, (std::array<double, 2>{0.0, -100.0}));
    EXPECT_EQ(s.probes[2].worldCm, (std::array<double, 2>{300.0, 150.0}));
    const DeformerSettings& walker = s.deformers[2];
    EXPECT_EQ(walker.mesh, "assets/meshes/biped.glb");
    EXPECT_EQ(walker.clip, "walk");
    EXPECT_TRUE(walker.facePath);
}

TEST(ConfigScenario, ResolveScenarioTakesNamesOrPaths) {
    const fs::path root = "/repo";
    EXPECT_EQ(resolveScenario("press_release", root), "/repo/config/scenarios/press_release.toml");
    EXPECT_EQ(resolveScenario("mine.toml", root), "mine.toml");
    EXPECT_EQ(resolveScenario("some/dir/x", root), "some/dir/x");
}

// ---- layering ------------------------------------------------------------------------------

TEST(ConfigLayers, TablesMergeKeyByKeyAndListsReplace) {
    const fs::path dir = test::scratchDir();
    test::writeText(dir / "base.toml", "[run]\nfps = 30\nframes = 5\n"
                                       "[[probe]]\nname = 'p1'\nat_cm = [1, 1]\n"
                                       "[[probe]]\nname = 'p2'\nat_cm = [2, 2]\n");
    test::writeText(dir / "top.toml",
                    "[run]\nframes = 7\n[[probe]]\nname = 'p3'\nat_cm = [3, 3]\n");
    const Settings s = loadOk({dir / "base.toml", dir / "top.toml"});
    EXPECT_EQ(s.run.fps, 30.0);
    EXPECT_EQ(s.run.frames, 7);
    ASSERT_EQ(s.probes.size(), 1u);
    EXPECT_EQ(s.probes[0].name, "p3");
}

TEST(ConfigLayers, ErrorNamesTheLayerThatSuppliedTheValue) {
    const fs::path dir = test::scratchDir();
    test::writeText(dir / "top.toml", "# tweak\n[sim.b]\ndecay = 2\n");
    EXPECT_EQ(loadError({defaultToml(), dir / "top.toml"}),
              (dir / "top.toml").string() + ":3:9: key 'sim.b.decay': must be in (0, 1], got 2");
}

// ---- overrides -----------------------------------------------------------------------------

TEST(ConfigOverride, EveryKey) {
    const Settings s =
        loadOk({defaultToml()}, {
                                    "run.fps=30",
                                    "run.frames=12",
                                    "snow.resolution=256",
                                    "snow.ortho_width_cm=512.5",
                                    "snow.surface_z_cm=-3",
                                    "snow.capture_z_cm=-50",
                                    "snow.depth_cm=12",
                                    "snow.region_centre_cm=[10, -20.5]",
                                    "capture.offset_cm=100",
                                    "capture.distance_cm=300",
                                    "capture.far_cm=900",
                                    "capture.proxy=off",
                                    "capture.proxy_error_cm=0.25",
                                    "sim.a.decay=0.5",
                                    "sim.a.decay_timing=per_frame",
                                    "sim.a.accumulate=max",
                                    "sim.a.contact_timing=per_frame",
                                    "sim.a.half_safe=false",
                                    "sim.b.decay=1",
                                    "sim.b.decay_timing=\"per_frame\"",
                                    "sim.b.accumulate='max'",
                                    "sim.b.contact_timing=\"per_frame\"",
                                    "sim.b.half_safe=false",
                                    "deformer=[{name='d', shape='capsule', size_cm=[5, 40, 5], "
                                    "path=[[0, 1, 2, 3], [2.5, 4, 5, 6]]}]",
                                    "probe=[{name='p', at_cm=[7, 8]}]",
                                });
    EXPECT_EQ(s.run.fps, 30.0);
    EXPECT_EQ(s.run.frames, 12);
    EXPECT_EQ(s.snow.resolution, 256);
    EXPECT_EQ(s.snow.orthoWidthCm, 512.5);
    EXPECT_EQ(s.snow.surfaceZCm, -3.0);
    EXPECT_EQ(s.snow.captureZCm, -50.0);
    EXPECT_EQ(s.snow.depthCm, 12.0);
    EXPECT_EQ(s.snow.regionCentreCm, (std::array<double, 2>{10.0, -20.5}));
    EXPECT_EQ(s.capture.offsetCm, 100.0);
    EXPECT_EQ(s.capture.distanceCm, 300.0);
    EXPECT_EQ(s.capture.farCm, 900.0);
    EXPECT_EQ(s.capture.proxy, CaptureProxyMode::Off);
    EXPECT_EQ(s.capture.proxyErrorCm, 0.25);
    EXPECT_EQ(s.sims[0].decay, 0.5);
    EXPECT_EQ(s.sims[1].decay, 1.0);
    for (const SimSettings& sim : s.sims) {
        EXPECT_EQ(sim.decayTiming, DecayTiming::PerFrame);
        EXPECT_EQ(sim.accumulate, AccumulateMode::Max);
        EXPECT_EQ(sim.contactTiming, ContactTiming::PerFrame);
        EXPECT_FALSE(sim.halfSafe);
    }
    ASSERT_EQ(s.deformers.size(), 1u);
    EXPECT_EQ(s.deformers[0].name, "d");
    EXPECT_EQ(s.deformers[0].shape, DeformerShape::Capsule);
    EXPECT_EQ(s.deformers[0].sizeCm, glm::vec3(5, 40, 5));
    ASSERT_EQ(s.deformers[0].path.size(), 2u);
    expectKey(s.deformers[0].path[1], 2.5, 4, 5, 6);
    ASSERT_EQ(s.probes.size(), 1u);
    EXPECT_EQ(s.probes[0].name, "p");
    EXPECT_EQ(s.probes[0].worldCm, (std::array<double, 2>{7.0, 8.0}));
}

TEST(ConfigOverride, LaterOverrideWinsAndSpacesAreTrimmed) {
    const Settings s = loadOk({defaultToml()}, {"run.fps=30", " run.fps = 45 "});
    EXPECT_EQ(s.run.fps, 45.0);
}

TEST(ConfigOverride, OverridesApplyOverScenarioFiles) {
    const Settings s = loadOk({defaultToml(), resolveScenario("press_release", test::sourceDir())},
                              {"snow.resolution=128"});
    EXPECT_EQ(s.snow.resolution, 128);
    EXPECT_EQ(s.deformers.size(), 1u);
}

// ---- enum spellings --------------------------------------------------------------------------

TEST(ConfigEnums, SpellingsRoundTrip) {
    for (const auto timing : {DecayTiming::PerFrame, DecayTiming::DeltaTime})
        EXPECT_EQ(parseDecayTiming(toString(timing)), timing);
    for (const auto mode : {AccumulateMode::Add, AccumulateMode::Max})
        EXPECT_EQ(parseAccumulateMode(toString(mode)), mode);
    for (const auto shape : {DeformerShape::Sphere, DeformerShape::Box, DeformerShape::Capsule})
        EXPECT_EQ(parseDeformerShape(toString(shape)), shape);
    EXPECT_EQ(toString(DecayTiming::PerFrame), "per_frame");
    EXPECT_EQ(toString(DecayTiming::DeltaTime), "delta_time");
    EXPECT_EQ(toString(AccumulateMode::Max), "max");
    EXPECT_EQ(toString(ContactTiming::PerFrame), "per_frame");
    EXPECT_EQ(toString(ContactTiming::DeltaTime), "delta_time");
    EXPECT_EQ(toString(DeformerShape::Capsule), "capsule");
    EXPECT_EQ(parseDecayTiming("Per_Frame"), std::nullopt);
    EXPECT_EQ(parseAccumulateMode(""), std::nullopt);
    EXPECT_EQ(parseDeformerShape("cone"), std::nullopt);
}

// The in-memory entry point (the fuzz target's) reads and reports exactly like a file.
TEST(ConfigFromText, SameSchemaAndMessagesAsFiles) {
    auto loaded = loadSettingsFromText("[snow]\nresolution = 128\n[soak]\nseed = 7\n", "mem.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded));
    EXPECT_EQ(std::get<Settings>(loaded).snow.resolution, 128);
    EXPECT_EQ(std::get<Settings>(loaded).soak.seed, 7);
    EXPECT_EQ(std::get<ConfigError>(loadSettingsFromText("[snow]\nresolution = 100\n", "mem.toml"))
                  .message,
              "mem.toml:2:14: key 'snow.resolution': must be a power of two between 64 and 8192, "
              "got 100");
    // toml++ syntax errors become the same one-line ConfigError, never an exception.
    const std::string syntax =
        std::get<ConfigError>(loadSettingsFromText("[run\nfps = 1\n", "mem.toml")).message;
    EXPECT_TRUE(syntax.starts_with("mem.toml:1:")) << syntax;
    EXPECT_EQ(syntax.find('\n'), std::string::npos) << syntax;
}

// snow.follow takes one name or a list (observers); "" and [] are the default observer.
TEST(ConfigFromText, FollowTakesANameOrAListOfObservers) {
    const auto follow = [](const std::string& text) {
        auto loaded = loadSettingsFromText("[snow]\n" + text + "\n", "mem.toml");
        EXPECT_TRUE(std::holds_alternative<Settings>(loaded)) << text;
        return std::holds_alternative<Settings>(loaded) ? std::get<Settings>(loaded).snow.follow
                                                        : std::vector<std::string>{"?"};
    };
    using Names = std::vector<std::string>;
    EXPECT_EQ(follow("follow = \"boot\""), Names{"boot"});
    EXPECT_EQ(follow("follow = \"\""), Names{});
    EXPECT_EQ(follow("follow = []"), Names{});
    EXPECT_EQ(follow("follow = [\"player_1\", \"player_2\"]"), (Names{"player_1", "player_2"}));
    EXPECT_EQ(follow("follow = ['a', 'b', 'c', 'd']").size(), 4u);
}

// The shipped soak scenario turns the soak on at 256² and loads cleanly.
TEST(ConfigScenario, Soak) {
    const Settings s = loadOk({defaultToml(), resolveScenario("soak", test::sourceDir())});
    EXPECT_TRUE(s.soak.enabled);
    EXPECT_EQ(s.snow.resolution, 256);
    EXPECT_EQ(s.run.frames, 100000);
    EXPECT_FALSE(loadOk({defaultToml()}).soak.enabled);
}

} // namespace
} // namespace snowcap
