// [ground]: the default is the look's own ground layer, bit for bit; the kinds set the layer;
// a bad kind is one line naming the key.
#include "core/config.hpp"
#include "core/ground.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <variant>

namespace snowcap {
namespace {

TEST(GroundConfig, ColourIsTheLooksLayerAndTheKindsSetTheirOwn) {
    const Settings defaults;
    EXPECT_EQ(defaults.ground.kind, GroundKind::Colour);
    LookSettings look;
    look.groundColour = {0.1f, 0.2f, 0.3f};
    look.groundOr = {0.4, 0.5};
    const GroundLayer colour = groundLayer(defaults.ground, look);
    EXPECT_EQ(colour.colour, look.groundColour);
    EXPECT_EQ(colour.orValues, look.groundOr);
    EXPECT_EQ(colour.wetDarkening, 0.0f); // no darkening term: the surface as before

    auto read = loadSettingsFromText("[ground]\nkind = 'mud'\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(read)) << std::get<ConfigError>(read).message;
    const GroundSettings& mudSettings = std::get<Settings>(read).ground;
    EXPECT_EQ(mudSettings.kind, GroundKind::Mud);
    const GroundLayer mud = groundLayer(mudSettings, look);
    GroundSettings other;
    float darkest = 0.0f;
    for (GroundKind kind : {GroundKind::Grass, GroundKind::Rock}) {
        other.kind = kind;
        const GroundLayer layer = groundLayer(other, look);
        EXPECT_NE(layer.colour, look.groundColour);
        darkest = std::max(darkest, layer.wetDarkening);
    }
    EXPECT_GT(mud.wetDarkening, darkest); // mud darkens most when wet
}

TEST(GroundConfig, ABadKindIsOneLineNamingTheKey) {
    auto read = loadSettingsFromText("[ground]\nkind = 'lava'\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(read));
    EXPECT_EQ(std::get<ConfigError>(read).message,
              "x.toml:2:8: key 'ground.kind': must be 'colour', 'grass', 'mud', 'rock' or "
              "'texture', got 'lava'");
    // The texture's file is read by the field, not the reader (tests/snow/GroundTextureTest.cpp).
}

} // namespace
} // namespace snowcap
