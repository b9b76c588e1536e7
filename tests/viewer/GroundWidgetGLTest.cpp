// The Scene panel's Ground section (viewer/panel_ground.cpp) on the driver: loading a texture
// through it sets kind = "texture" and the field's ground; a file that cannot be the ground is
// one line naming ground.texture, the file and why, and the lab keeps the ground it had (the
// settings and the texture on the GPU), as every live edit does.
#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_panels.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(GroundWidget, LoadsATextureAndKeepsTheGroundOnABadFile) {
    auto created = Lab::create("press_release", {"snow.resolution=64"}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Lab>>(created))
        << std::get<std::string>(created);
    Lab& lab = *std::get<0>(created);
    ASSERT_EQ(lab.settings().ground.kind, GroundKind::Colour);
    ASSERT_EQ(lab.field().groundTexture(), nullptr);

    // A bad file while the ground is the colour: refused, nothing changed.
    const auto bad =
        applyGround(lab, groundWithTexture(lab.settings().ground, "tests/data/tetrahedron.obj"));
    ASSERT_TRUE(bad.has_value());
    EXPECT_NE(bad->find("key 'ground.texture': "), std::string::npos) << *bad;
    EXPECT_NE(bad->find("tetrahedron.obj: not a PNG"), std::string::npos) << *bad;
    EXPECT_EQ(bad->find('\n'), std::string::npos) << "one line";
    EXPECT_EQ(lab.settings().ground.kind, GroundKind::Colour);
    EXPECT_EQ(lab.field().groundTexture(), nullptr);

    // The bundled texture: loaded, the kind set with it.
    EXPECT_EQ(
        applyGround(lab, groundWithTexture(lab.settings().ground, "assets/ground/pebbles.png")),
        std::nullopt);
    EXPECT_EQ(lab.settings().ground.kind, GroundKind::Texture);
    EXPECT_EQ(lab.settings().ground.texture, "assets/ground/pebbles.png");
    const auto pebbles = lab.field().groundTexture();
    ASSERT_NE(pebbles, nullptr);
    EXPECT_EQ(pebbles->texture().width(), 256);

    // A bad file over a texture: the pebbles stay, on the GPU and in the settings.
    const auto missing =
        applyGround(lab, groundWithTexture(lab.settings().ground, "tests/data/no_such.png"));
    ASSERT_TRUE(missing.has_value());
    EXPECT_NE(missing->find("no_such.png"), std::string::npos) << *missing;
    EXPECT_EQ(lab.settings().ground.texture, "assets/ground/pebbles.png");
    EXPECT_EQ(lab.field().groundTexture(), pebbles);

    // Back to a kind: the texture is let go.
    GroundSettings mud = lab.settings().ground;
    mud.kind = GroundKind::Mud;
    EXPECT_EQ(applyGround(lab, mud), std::nullopt);
    EXPECT_EQ(lab.field().groundTexture(), nullptr);
}

} // namespace
} // namespace snowcap
