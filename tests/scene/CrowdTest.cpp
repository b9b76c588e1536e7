// [[crowd]]: the table's keys and their one-line errors, and the members it makes (names,
// formation about the path's start in the path's own frame, seeded phases and speeds that
// keep feet from sliding, the same crowd from the same seed).
#include "scene/crowd.hpp"

#include "TestSupport.hpp"
#include "core/config.hpp"

#include <algorithm>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>
#include <set>
#include <string>

namespace snowcap {
namespace {

struct CrowdConfig : ::testing::Test {
    void SetUp() override { file_ = test::scratchDir() / "crowd.toml"; }

    std::variant<Settings, ConfigError> load(const std::string& toml) {
        test::writeText(file_, toml);
        return loadSettings({file_}, {});
    }
    // A crowd of `count` bipeds walking +X, plus `extra` keys.
    static std::string crowd(const std::string& extra) {
        return "[[crowd]]\nname = 'march'\nmesh = 'assets/meshes/biped.glb'\nclip = 'walk'\n"
               "path_kind = 'polyline'\nwaypoints_cm = [[0, 0, 20], [500, 0, 20]]\n"
               "speed_cm_s = 60\n" +
               extra;
    }
    std::string errorOf(const std::string& toml) {
        auto loaded = load(toml);
        if (auto* error = std::get_if<ConfigError>(&loaded))
            return error->message;
        return "(loaded without error)";
    }
    std::string at(int line, int column) const {
        return file_.string() + ":" + std::to_string(line) + ":" + std::to_string(column);
    }
    std::filesystem::path file_;
};

TEST_F(CrowdConfig, ReadsItsOwnKeysAndEveryDeformerKeyForItsMembers) {
    auto loaded = load(crowd("count = 12\nformation = 'grid'\nspacing_cm = 70\nseed = 9\n"
                             "contact = 'foot'\nface_path = true\nclip_speed = 1.5\n"));
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    const Settings& settings = std::get<Settings>(loaded);
    ASSERT_EQ(settings.crowds.size(), 1u);
    const CrowdSettings& c = settings.crowds[0];
    EXPECT_EQ(c.count, 12);
    EXPECT_EQ(c.formation, CrowdSettings::Formation::Grid);
    EXPECT_EQ(c.spacingCm, 70.0);
    EXPECT_EQ(c.seed, 9);
    EXPECT_EQ(c.member.name, "march");
    EXPECT_EQ(c.member.mesh, "assets/meshes/biped.glb");
    EXPECT_EQ(c.member.contact, ContactType::Foot);
    EXPECT_TRUE(c.member.facePath);
    EXPECT_EQ(c.member.clipSpeed, 1.5);
    EXPECT_EQ(c.member.pathKind, DeformerSettings::PathKind::Polyline);
    EXPECT_TRUE(settings.deformers.empty()); // members are made when the scene is built
}

TEST_F(CrowdConfig, BadValuesGetOneLineNamingTheKey) {
    EXPECT_EQ(errorOf(crowd("count = 0\n")),
              at(8, 9) + ": key 'crowd[0].count': must be between 1 and 10000, got 0");
    EXPECT_EQ(errorOf(crowd("formation = 'wedge'\n")),
              at(8, 13) + ": key 'crowd[0].formation': must be 'column', 'grid' or 'scatter', "
                          "got 'wedge'");
    EXPECT_EQ(errorOf(crowd("spacing_cm = -5\n")),
              at(8, 14) + ": key 'crowd[0].spacing_cm': must be in (0, 10000], got -5");
    EXPECT_EQ(errorOf(crowd("phase_spread = 2\n")),
              at(8, 16) + ": key 'crowd[0].phase_spread': must be in [0, 1], got 2");
    EXPECT_EQ(errorOf(crowd("spacing = 5\n")), at(8, 1) + ": unknown key 'crowd[0].spacing'");
    // The deformer's own rules hold for a crowd too.
    EXPECT_EQ(errorOf(crowd("path = [[0, 0, 0, 0]]\n")),
              at(8, 8) + ": key 'crowd[0].path': is for path_kind = 'keys', this deformer's is "
                         "'polyline'");
    EXPECT_EQ(errorOf(crowd("player = true\n")),
              at(8, 10) + ": key 'crowd[0].player': a crowd cannot be the player (the controls "
                          "drive one deformer)");
    EXPECT_EQ(errorOf("[[crowd]]\nshape = 'sphere'\npath = [[0, 0, 0, 0]]\n"),
              at(1, 1) + ": key 'crowd[0]': missing required key 'name'");
    EXPECT_EQ(errorOf(crowd("") + crowd("")),
              at(9, 8) + ": key 'crowd[1].name': 'march' is already used by crowd[0]");
}

CrowdSettings marchers(int count, CrowdSettings::Formation formation) {
    CrowdSettings c;
    c.member.name = "m";
    c.member.pathKind = DeformerSettings::PathKind::Polyline;
    // Heading +Y: forward is +Y, left is -X.
    c.member.waypointsCm = {{100, 0, 20}, {100, 800, 20}};
    c.member.speedCmS = 60.0;
    c.member.mesh = "assets/meshes/biped.glb";
    c.member.clip = "walk";
    c.count = count;
    c.formation = formation;
    c.spacingCm = 50.0;
    c.width = 3;
    c.seed = 4;
    return c;
}

TEST(Crowd, AColumnStandsInRowsBehindThePathsStartInThePathsFrame) {
    const std::vector<DeformerSettings> members =
        crowdMembers(marchers(7, CrowdSettings::Formation::Column));
    ASSERT_EQ(members.size(), 7u);
    EXPECT_EQ(members[0].name, "m.0");
    EXPECT_EQ(members[6].name, "m.6");
    // Row 0: three abreast across the heading (left = -X), at the start; row 1 50 cm behind.
    const auto start = [&](int k) {
        return members[std::size_t(k)].waypointsCm[0];
    };
    EXPECT_NEAR(start(0).x, 150.0f, 1e-3f);
    EXPECT_NEAR(start(1).x, 100.0f, 1e-3f);
    EXPECT_NEAR(start(2).x, 50.0f, 1e-3f);
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(start(k).y, 0.0f, 1e-3f);
    EXPECT_NEAR(start(3).y, -50.0f, 1e-3f);
    EXPECT_NEAR(start(6).y, -100.0f, 1e-3f);
    EXPECT_NEAR(start(6).x, 150.0f, 1e-3f);
    // The whole path moves with its member, height kept.
    EXPECT_EQ(members[4].waypointsCm[1] - members[4].waypointsCm[0], glm::vec3(0, 800, 0));
    EXPECT_EQ(start(4).z, 20.0f);
}

TEST(Crowd, AGridIsCentredOnTheStartAndAScatterKeepsItsDistance) {
    const auto grid = crowdMembers(marchers(9, CrowdSettings::Formation::Grid));
    glm::vec3 mean(0.0f);
    for (const DeformerSettings& m : grid)
        mean += m.waypointsCm[0] / 9.0f;
    EXPECT_NEAR(mean.x, 100.0f, 1e-3f);
    EXPECT_NEAR(mean.y, 0.0f, 1e-3f);

    const CrowdSettings scattered = marchers(60, CrowdSettings::Formation::Scatter);
    const std::vector<glm::vec2> offsets = formationOffsets(scattered);
    ASSERT_EQ(offsets.size(), 60u);
    const float radius = 50.0f * std::sqrt(60.0f / 3.14159265f);
    double closest = 1e30;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        EXPECT_LE(glm::length(offsets[i]), radius + 1e-3f);
        for (std::size_t j = 0; j < i; ++j)
            closest = std::min(closest, double(glm::length(offsets[i] - offsets[j])));
    }
    EXPECT_GT(closest, 0.5 * 50.0); // the dart throw keeps members apart
    EXPECT_EQ(formationOffsets(scattered), offsets);
}

TEST(Crowd, PhasesAndSpeedsAreSpreadBySeedAndFeetDoNotSlide) {
    const CrowdSettings c = marchers(50, CrowdSettings::Formation::Column);
    const auto members = crowdMembers(c);
    std::set<double> phases;
    for (const DeformerSettings& m : members) {
        EXPECT_GE(m.clipPhase, 0.0);
        EXPECT_LT(m.clipPhase, 1.0);
        phases.insert(m.clipPhase);
        const double factor = m.clipSpeed / c.member.clipSpeed;
        EXPECT_GE(factor, 1.0 - c.speedSpread);
        EXPECT_LE(factor, 1.0 + c.speedSpread);
        // Clip and path speed scale together: the stride covers the same ground.
        EXPECT_NEAR(m.speedCmS, c.member.speedCmS * factor, 1e-9);
    }
    EXPECT_EQ(phases.size(), members.size()); // nobody in step with anybody
    const auto [low, high] = std::minmax_element(phases.begin(), phases.end());
    EXPECT_GT(*high - *low, 0.8); // spread over the cycle (phase_spread = 1)

    // The same seed, the same crowd; another seed, other phases.
    const auto again = crowdMembers(c);
    for (std::size_t k = 0; k < members.size(); ++k) {
        EXPECT_EQ(again[k].clipPhase, members[k].clipPhase);
        EXPECT_EQ(again[k].clipSpeed, members[k].clipSpeed);
    }
    CrowdSettings other = c;
    other.seed = 5;
    EXPECT_NE(crowdMembers(other)[0].clipPhase, members[0].clipPhase);

    // No spread: all in step, at the crowd's speed.
    CrowdSettings unison = c;
    unison.phaseSpread = 0.0;
    unison.speedSpread = 0.0;
    for (const DeformerSettings& m : crowdMembers(unison)) {
        EXPECT_EQ(m.clipPhase, 0.0);
        EXPECT_EQ(m.clipSpeed, c.member.clipSpeed);
    }
}

TEST(Crowd, KeyframedMembersKeepTheirPathAtTheirOwnPace) {
    CrowdSettings c = marchers(5, CrowdSettings::Formation::Column);
    c.member.pathKind = DeformerSettings::PathKind::Keys;
    c.member.waypointsCm.clear();
    c.member.path = {{1.0, {0, 0, 0}}, {11.0, {600, 0, 0}}};
    for (const DeformerSettings& m : crowdMembers(c)) {
        const double factor = m.clipSpeed / c.member.clipSpeed;
        EXPECT_EQ(m.path[0].timeS, 1.0);
        EXPECT_NEAR(m.path[1].timeS, 1.0 + 10.0 / factor, 1e-9);
        EXPECT_EQ(m.path[1].positionCm - m.path[0].positionCm, glm::vec3(600, 0, 0));
    }
}

TEST(Crowd, MemberNamesMustNotTakeADeformersName) {
    Settings settings;
    DeformerSettings taken;
    taken.name = "m.3";
    taken.path = {{0.0, glm::vec3(0.0f)}};
    settings.deformers.push_back(taken);
    settings.crowds.push_back(marchers(5, CrowdSettings::Formation::Column));
    auto placed = scenarioDeformers(settings);
    ASSERT_TRUE(std::holds_alternative<std::string>(placed));
    EXPECT_EQ(std::get<std::string>(placed),
              "crowd 'm': its member name 'm.3' is already a deformer's");
    settings.deformers[0].name = "solo";
    placed = scenarioDeformers(settings);
    ASSERT_TRUE(std::holds_alternative<std::vector<DeformerSettings>>(placed));
    const auto& all = std::get<std::vector<DeformerSettings>>(placed);
    ASSERT_EQ(all.size(), 6u);
    EXPECT_EQ(all[0].name, "solo");
    EXPECT_EQ(all[5].name, "m.4");
}

} // namespace
} // namespace snowcap
