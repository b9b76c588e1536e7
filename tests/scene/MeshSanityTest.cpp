// inspect-mesh's sanity warnings (scene/mesh_sanity.hpp): sizes outside human scale and clips
// that sink below the ground the rest pose stands on, each naming the key that fixes it; a
// sensible figure gets none.
#include "DippingArm.hpp"
#include "scene/mesh_sanity.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

ImportedModel figure(const test::DippingArm& arm) {
    ImportedModel model;
    model.mesh = arm.mesh;
    model.joints = arm.joints;
    model.weights = arm.weights;
    model.skeleton = arm.skeleton;
    model.clips = {arm.clip};
    model.restBounds = arm.mesh.bounds();
    return model;
}

bool anyHas(const std::vector<std::string>& lines, const std::string& part) {
    for (const std::string& line : lines)
        if (line.find(part) != std::string::npos)
            return true;
    return false;
}

TEST(MeshSanity, SizesOutsideHumanScaleNameTheScaleKeys) {
    ImportedModel model;
    model.restBounds = {{-0.2f, -0.2f, 0.0f}, {0.2f, 0.2f, 0.3f}}; // 4 mm: metres as cm
    auto warnings = sanityWarnings(model);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("4.00 mm at its largest, under human scale"), std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[0].find("scale"), std::string::npos);
    EXPECT_NE(warnings[0].find("fit_height_cm"), std::string::npos);
    model.restBounds = {{-37150.0f, -13400.0f, 0.0f}, {37150.0f, 13400.0f, 27300.0f}}; // 743 m
    warnings = sanityWarnings(model);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("743.0 m at its largest, over human scale"), std::string::npos)
        << warnings[0];
    // The hint gives the size each likely mistake's factor makes of this mesh, from its scale.
    EXPECT_NE(warnings[0].find("scale = 0.01 makes it 7.4 m (centimetres read as metres)"),
              std::string::npos)
        << warnings[0];
    ImportOptions scaled;
    scaled.scale = 2.0;
    EXPECT_NE(sanityWarnings(model, scaled)[0].find("scale = 0.02 makes it 7.4 m"),
              std::string::npos)
        << sanityWarnings(model, scaled)[0];
    // fit_height_cm chose the size: nothing to say about units.
    ImportOptions fitted;
    fitted.fitHeightCm = 27300.0;
    EXPECT_TRUE(sanityWarnings(model, fitted).empty());
    model.restBounds = {{-30.0f, -15.0f, 0.0f}, {30.0f, 15.0f, 170.0f}}; // a person
    EXPECT_TRUE(sanityWarnings(model).empty());
}

TEST(MeshSanity, AClipBelowTheGroundNamesTheOffset) {
    test::DippingArm arm;
    // The rest pose stands on z = 0 and its arm swings clear: no warning.
    ImportedModel standing = figure(arm);
    EXPECT_FALSE(anyHas(sanityWarnings(standing), "below the ground"));
    // The whole body sinks 20 cm during the clip.
    JointChannel sink;
    sink.joint = 0;
    sink.translations = {{0.0, {0, 0, 0}}, {0.5, {0, 0, -20}}, {1.0, {0, 0, 0}}};
    arm.clip.channels.push_back(sink);
    ImportedModel sinking = figure(arm);
    const ClipHeights heights = clipLowestPoint(sinking, sinking.clips[0]);
    EXPECT_NEAR(heights.lowest, -20.0f, 0.5f);
    EXPECT_NEAR(heights.highest, 0.0f, 1e-3f);
    const auto warnings = sanityWarnings(sinking);
    EXPECT_TRUE(anyHas(warnings, "clip 'dip' goes 20.0 cm below the ground"));
    EXPECT_TRUE(anyHas(warnings, "offset_cm = [0, 0, 20]"));
    // Following the hint silences it; half of it asks for the rest, from what it has.
    ImportOptions raised;
    raised.offsetCm = {0.0f, 0.0f, 20.0f};
    EXPECT_FALSE(anyHas(sanityWarnings(sinking, raised), "below the ground"));
    raised.offsetCm = {0.0f, 0.0f, 5.0f};
    EXPECT_TRUE(anyHas(sanityWarnings(sinking, raised),
                       "goes 15.0 cm below the ground the rest pose stands on"));
    EXPECT_TRUE(anyHas(sanityWarnings(sinking, raised), "offset_cm = [0, 0, 20] (it has 5 cm)"));
}

TEST(MeshSanity, AWalkingSkeletonWithoutFeetIsFlagged) {
    test::DippingArm arm; // joints "body" and "shoulder"
    EXPECT_TRUE(anyHas(sanityWarnings(figure(arm)), "no foot joint"));
    arm.skeleton.joints[1].name = "LeftFoot";
    EXPECT_FALSE(anyHas(sanityWarnings(figure(arm)), "no foot joint"));
    EXPECT_TRUE(isFootJoint("mixamorig:RightToeBase"));
    EXPECT_FALSE(isFootJoint("Spine"));
}

} // namespace
} // namespace snowcap
