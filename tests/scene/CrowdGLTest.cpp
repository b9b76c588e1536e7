// A crowd loaded as a scenario loads it: one import, one uploaded mesh for every member, each
// member in a pose of its own, and a step of the field captures them in one draw.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "lab/session.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(CrowdGL, MembersShareOneMeshAndPressTheirOwnPrints) {
    Settings settings;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 512.0;
    CrowdSettings crowd;
    crowd.member.name = "walkers";
    crowd.member.mesh = "assets/meshes/biped.glb";
    crowd.member.clip = "walk";
    crowd.member.contact = ContactType::Foot;
    crowd.member.path = {{0.0, glm::vec3(0.0f, 0.0f, 20.0f)}};
    crowd.count = 20;
    crowd.formation = CrowdSettings::Formation::Grid;
    crowd.spacingCm = 60.0;
    settings.crowds.push_back(crowd);
    // And one more biped of its own, loaded the same way: it shares the mesh too.
    DeformerSettings solo = crowd.member;
    solo.name = "solo";
    solo.path = {{0.0, glm::vec3(200.0f, 200.0f, 20.0f)}};
    settings.deformers.push_back(solo);

    auto loaded = loadScenarioDeformers(settings);
    ASSERT_TRUE(std::holds_alternative<std::vector<Deformer>>(loaded))
        << std::get<std::string>(loaded);
    std::vector<Deformer> deformers = std::move(std::get<std::vector<Deformer>>(loaded));
    ASSERT_EQ(deformers.size(), 21u);
    EXPECT_EQ(deformers[0].name, "solo");
    EXPECT_EQ(deformers[1].name, "walkers.0");
    DeformerSet set(std::move(deformers));
    EXPECT_EQ(set.meshCount(), 1);
    const std::vector<DeformerInstance>& instances = set.instancesAt(0.3);
    ASSERT_EQ(instances.size(), 21u);
    for (const DeformerInstance& d : instances) {
        EXPECT_EQ(d.mesh, instances[0].mesh);
        ASSERT_EQ(d.skinning.size(), instances[0].skinning.size());
    }
    // Phases of their own: no two members in the same pose.
    int samePose = 0;
    for (std::size_t i = 1; i < instances.size(); ++i)
        for (std::size_t j = 1; j < i; ++j)
            samePose += std::equal(instances[i].skinning.begin(), instances[i].skinning.end(),
                                   instances[j].skinning.begin());
    EXPECT_EQ(samePose, 0);

    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    field->step(instances, 1.0 / 60.0);
    EXPECT_EQ(field->capture(0).lastDraw().draws, 1);
    EXPECT_EQ(field->capture(0).lastDraw().instances, 21);
    EXPECT_GT(test::maxOf(test::redOf(field->sim(1).persistent())),
              0.0f); // their first step pressed
}

} // namespace
} // namespace snowcap
