// The [[deformer]] keys for paths, placement, overrides, clips and the player: what they read
// into, and the one-line error for each rule between keys.
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "scene/deformer.hpp"

#include <glm/geometric.hpp>
#include <gtest/gtest.h>
#include <string>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

struct DeformerConfig : ::testing::Test {
    void SetUp() override { file_ = test::scratchDir() / "scene.toml"; }

    std::variant<Settings, ConfigError> load(const std::string& toml) {
        test::writeText(file_, toml);
        return loadSettings({file_}, {});
    }
    DeformerSettings loadOne(const std::string& toml) {
        auto loaded = load("[[deformer]]\nname = 'd'\n" + toml);
        if (auto* error = std::get_if<ConfigError>(&loaded)) {
            ADD_FAILURE() << error->message;
            return {};
        }
        const Settings& settings = std::get<Settings>(loaded);
        EXPECT_EQ(settings.deformers.size(), 1u);
        return settings.deformers.empty() ? DeformerSettings{} : settings.deformers[0];
    }
    std::string errorOf(const std::string& toml) {
        auto loaded = load("[[deformer]]\nname = 'd'\n" + toml);
        if (auto* error = std::get_if<ConfigError>(&loaded))
            return error->message;
        return "(loaded without error)";
    }
    std::string at(int line, int column) const {
        return file_.string() + ":" + std::to_string(line) + ":" + std::to_string(column);
    }

    fs::path file_;
};

using D = DeformerSettings;

TEST_F(DeformerConfig, DefaultsAreKeysOnTheGround) {
    const D d = loadOne("path = [[0, 1, 2, 3]]\n");
    EXPECT_EQ(d.pathKind, D::PathKind::Keys);
    EXPECT_EQ(d.pathMode, D::PathMode::Auto);
    EXPECT_EQ(d.placement, D::Placement::Ground);
    EXPECT_EQ(d.rootMotion, D::RootMotion::Path);
    EXPECT_FALSE(d.player);
    EXPECT_EQ(d.scale, 1.0);
    EXPECT_EQ(d.offsetCm, glm::vec3(0.0f));
    EXPECT_EQ(d.clipIndex, -1);
}

TEST_F(DeformerConfig, PolylineAndCircleKeys) {
    const D line = loadOne("path_kind = 'polyline'\nwaypoints_cm = [[0, 0, 0], [100, 0, 5], "
                           "[100, 100, 0]]\nspeed_cm_s = 60\npath_mode = 'ping_pong'\n"
                           "path_start_s = 1.5\nplacement = 'absolute'\n");
    EXPECT_EQ(line.pathKind, D::PathKind::Polyline);
    ASSERT_EQ(line.waypointsCm.size(), 3u);
    EXPECT_EQ(line.waypointsCm[1], glm::vec3(100, 0, 5));
    EXPECT_EQ(line.speedCmS, 60.0);
    EXPECT_EQ(line.pathMode, D::PathMode::PingPong);
    EXPECT_EQ(line.pathStartS, 1.5);
    EXPECT_EQ(line.placement, D::Placement::Absolute);

    const D circle = loadOne("path_kind = 'circle'\ncircle_centre_cm = [10, -20, 0]\n"
                             "circle_radius_cm = 150\ncircle_start_deg = 90\n"
                             "circle_direction = 'cw'\npath_mode = 'once'\n");
    EXPECT_EQ(circle.pathKind, D::PathKind::Circle);
    EXPECT_EQ(circle.circleCentreCm, glm::vec3(10, -20, 0));
    EXPECT_EQ(circle.circleRadiusCm, 150.0);
    EXPECT_EQ(circle.circleStartDeg, 90.0);
    EXPECT_EQ(circle.circleDirection, D::CircleDirection::Cw);
    EXPECT_EQ(circle.pathMode, D::PathMode::Once);
}

TEST_F(DeformerConfig, OverridesClipAndPlayerKeys) {
    const D d = loadOne("mesh = 'assets/meshes/biped.glb'\npath = [[0, 0, 0, 0]]\nscale = 0.5\n"
                        "offset_cm = [1, 2, -3]\nclip_index = 0\nroot_motion = 'in_place'\n"
                        "player = true\nspeed_cm_s = 90\n");
    EXPECT_EQ(d.scale, 0.5);
    EXPECT_EQ(d.offsetCm, glm::vec3(1, 2, -3));
    EXPECT_EQ(d.clipIndex, 0);
    EXPECT_EQ(d.rootMotion, D::RootMotion::InPlace);
    EXPECT_TRUE(d.player);
    EXPECT_EQ(d.speedCmS, 90.0);
}

TEST_F(DeformerConfig, EachPathKindNeedsItsKey) {
    EXPECT_EQ(errorOf(""), at(1, 1) + ": key 'deformer[0]': missing required key 'path'");
    EXPECT_EQ(errorOf("path_kind = 'polyline'\n"),
              at(1, 1) + ": key 'deformer[0]': missing required key 'waypoints_cm' "
                         "(path_kind = 'polyline')");
    EXPECT_EQ(errorOf("path_kind = 'circle'\n"),
              at(1, 1) + ": key 'deformer[0]': missing required key 'circle_radius_cm' "
                         "(path_kind = 'circle')");
    EXPECT_EQ(errorOf("path_kind = 'spiral'\n"),
              at(3, 13) + ": key 'deformer[0].path_kind': must be 'keys', 'polyline' or "
                          "'circle', got 'spiral'");
}

TEST_F(DeformerConfig, KeysOfAnotherPathKindAreRefused) {
    EXPECT_EQ(errorOf("path_kind = 'circle'\ncircle_radius_cm = 5\npath = [[0, 0, 0, 0]]\n"),
              at(5, 8) + ": key 'deformer[0].path': is for path_kind = 'keys', this "
                         "deformer's is 'circle'");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\ncircle_radius_cm = 5\n"),
              at(4, 20) + ": key 'deformer[0].circle_radius_cm': is for path_kind = 'circle', "
                          "this deformer's is 'keys'");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\nwaypoints_cm = [[0, 0, 0], [1, 0, 0]]\n"),
              at(4, 16) + ": key 'deformer[0].waypoints_cm': is for path_kind = 'polyline', "
                          "this deformer's is 'keys'");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\nspeed_cm_s = 5\n"),
              at(4, 14) + ": key 'deformer[0].speed_cm_s': is not used by path_kind = 'keys' "
                          "(the keys' times set the pace)");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\npath_start_s = 5\n"),
              at(4, 16) + ": key 'deformer[0].path_start_s': is not used by path_kind = 'keys' "
                          "(the keys' times say when it moves)");
}

TEST_F(DeformerConfig, BadValues) {
    const std::string poly = "path_kind = 'polyline'\n";
    EXPECT_EQ(errorOf(poly + "waypoints_cm = [[0, 0, 0]]\n"),
              at(4, 16) + ": key 'deformer[0].waypoints_cm': needs at least two [x, y, z] "
                          "points, got 1");
    EXPECT_EQ(errorOf(poly + "waypoints_cm = [[1, 2, 3], [1, 2, 3]]\n"),
              at(4, 16) + ": key 'deformer[0].waypoints_cm': all points are the same: the path "
                          "has no length");
    EXPECT_EQ(errorOf(poly + "waypoints_cm = [[0, 0, 0], [1, 0]]\n"),
              at(4, 28) + ": key 'deformer[0].waypoints_cm[1]': expected [x, y, z], got 2 "
                          "values");
    EXPECT_EQ(errorOf(poly + "waypoints_cm = [[0, 0, 0], [1, 0, 0]]\nspeed_cm_s = 0\n"),
              at(5, 14) + ": key 'deformer[0].speed_cm_s': must be in (0, 10000], got 0");
    EXPECT_EQ(errorOf("path_kind = 'circle'\ncircle_radius_cm = -5\n"),
              at(4, 20) + ": key 'deformer[0].circle_radius_cm': must be in (0, 50000], got -5");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\npath_mode = 'bounce'\n"),
              at(4, 13) + ": key 'deformer[0].path_mode': must be 'once', 'loop' or "
                          "'ping_pong', got 'bounce'");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\nplacement = 'floating'\n"),
              at(4, 13) + ": key 'deformer[0].placement': must be 'ground', 'absolute' or "
                          "'draped', got 'floating'");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\nscale = 0\n"),
              at(4, 9) + ": key 'deformer[0].scale': must be in (0, 1000], got 0");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\noffset_cm = [0, 0]\n"),
              at(4, 13) + ": key 'deformer[0].offset_cm': expected [x, y, z], got 2 values");
}

TEST_F(DeformerConfig, ClipRules) {
    const std::string biped = "mesh = 'b.glb'\npath = [[0, 0, 0, 0]]\n";
    EXPECT_EQ(errorOf(biped + "clip = 'walk'\nclip_index = 0\n"),
              at(6, 14) + ": key 'deformer[0].clip_index': give either clip (a name) or "
                          "clip_index, not both");
    EXPECT_EQ(errorOf(biped + "clip_index = -1\n"),
              at(5, 14) + ": key 'deformer[0].clip_index': must be between 0 and 65535, got -1");
    EXPECT_EQ(errorOf("path = [[0, 0, 0, 0]]\nclip = 'walk'\n"),
              at(4, 8) + ": key 'deformer[0].clip': needs a skinned mesh file (key 'mesh')");
    EXPECT_EQ(errorOf(biped + "root_motion = 'clip'\n"),
              at(5, 15) + ": key 'deformer[0].root_motion': must be 'path' or 'in_place', got "
                          "'clip'");
}

// The default scenario's walker: a loop at the walk's pace, feet sinking part way into the snow
// so a lifted foot clears it (separate prints, not a trench).
TEST(DeformerScenario, DecayCompareWalkerLoopsAtItsPace) {
    auto loaded = loadSettings({test::sourceDir() / "config/default.toml",
                                resolveScenario("decay_compare", test::sourceDir())},
                               {});
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    const Settings& settings = std::get<Settings>(loaded);
    ASSERT_EQ(settings.deformers.size(), 3u);
    const D& walker = settings.deformers[2];
    EXPECT_EQ(walker.pathKind, D::PathKind::Circle);
    EXPECT_EQ(walker.pathMode, D::PathMode::Loop);
    EXPECT_EQ(walker.speedCmS, 60.0 * walker.clipSpeed); // the biped's stance slides 36 cm / 0.6 s
    EXPECT_EQ(walker.contact, ContactType::Foot);
    auto made = loadDeformer(walker, test::sourceDir(), groundZCm(settings.snow));
    ASSERT_TRUE(std::holds_alternative<Deformer>(made)) << std::get<std::string>(made);
    const Deformer& deformer = std::get<Deformer>(made);
    const double lap = deformer.path.passDurationS();
    EXPECT_LT(lap, settings.run.frames / settings.run.fps + 1.0); // about one lap in the run
    for (double t : {1.0, 4.0}) {
        const glm::vec3 now = deformer.positionAt(t), later = deformer.positionAt(t + 2.0 * lap);
        EXPECT_NEAR(glm::distance(now, later), 0.0, 1e-2) << "t = " << t;
    }
    // Planted feet 10 cm into the snow; the walk lifts a foot 12 cm, clear of the surface.
    const double sole = deformer.positionAt(0.0).z;
    EXPECT_NEAR(sole, settings.snow.surfaceZCm - 10.0, 1e-4);
    EXPECT_LT(settings.snow.surfaceZCm - sole, 12.0);
}

TEST_F(DeformerConfig, OnlyOnePlayer) {
    auto loaded = load("[[deformer]]\nname = 'a'\npath = [[0, 0, 0, 0]]\nplayer = true\n"
                       "[[deformer]]\nname = 'b'\npath = [[0, 0, 0, 0]]\nplayer = true\n");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(loaded));
    EXPECT_EQ(std::get<ConfigError>(loaded).message,
              at(8, 10) + ": key 'deformer[1].player': only one deformer can be the player; "
                          "deformer[0] already is");
}

} // namespace
} // namespace snowcap
