// The frame `render --ui` draws (the viewer's panels on the headless context): with every panel
// open, at two screen sizes and on the split and grid layouts, every panel ImGui actually
// placed stays clear of each pane's centre and label, and stays on the screen (the control
// window opens top left whatever the screen).
#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_panels.hpp"

#include <glm/glm.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(PanelPlacement, RenderUiOpensNoPanelOverAPaneCentreOrLabel) {
    auto created = Lab::create("decay_ladder", {"snow.resolution=64"}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Lab>>(created))
        << std::get<std::string>(created);
    Lab& lab = *std::get<0>(created);
    for (const char* layout : {"vertical", "grid"})
        for (const auto& [w, h] : {std::pair{800, 450}, {1280, 720}}) {
            auto made = HeadlessUi::create(lab, "all", layout, {}, test::glInfo().renderer);
            ASSERT_TRUE(std::holds_alternative<std::unique_ptr<HeadlessUi>>(made))
                << std::get<std::string>(made);
            HeadlessUi& ui = *std::get<0>(made);
            const ImageRgba8 image = ui.render(lab, w, h, lab.fixedDtS());
            ASSERT_EQ(image.width, w);
            const std::vector<ScreenRect> clear = ui.keptClear(lab);
            // Pane centres (one a pane) and labels (one a pane).
            const std::size_t panes = std::string(layout) == "grid" ? 4u : 2u;
            ASSERT_EQ(clear.size(), 2 * panes) << layout;
            const std::vector<HeadlessUi::Window> windows = ui.windows();
            EXPECT_EQ(windows.size(), 11u) << "the control window and ten panels";
            for (const HeadlessUi::Window& window : windows) {
                const ScreenRect& r = window.rect;
                if (window.title == "snowcap")
                    continue; // the control window always opens top left (viewer_panels.hpp)
                EXPECT_TRUE(r.inside(float(w), float(h)))
                    << window.title << " at " << r.x << "," << r.y << " " << r.width << "x"
                    << r.height << " leaves the " << w << "x" << h << " screen";
                for (const ScreenRect& c : clear)
                    EXPECT_FALSE(r.overlaps(c))
                        << layout << " " << w << "x" << h << ": '" << window.title << "' at " << r.x
                        << "," << r.y << " " << r.width << "x" << r.height
                        << (window.folded ? " (folded)" : "") << " covers " << c.x << "," << c.y
                        << " " << c.width << "x" << c.height;
            }
        }
}

// The difference view's key: the diverging bar runs from the map's blue (-range: B holds more)
// through white (equal) to its red (+range: A holds more), and render --ui's difference pane
// shows it under the pane's label.
TEST(PanelPlacement, TheDifferenceViewCarriesItsColourKey) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    ViewerGl gl;
    ASSERT_FALSE(gl.init(shaders));
    constexpr int kWidth = 221; // an odd width has a middle column
    const std::vector<float> bar =
        gl.colourBar(kDifferenceKeySlot, kWidth, 2, ViewerGl::BarMap::Diverging).readFloats();
    const auto at = [&](int x) {
        return glm::ivec3(
            glm::round(glm::vec3(bar[x * 4], bar[x * 4 + 1], bar[x * 4 + 2]) * 255.0f));
    };
    const auto near = [](glm::ivec3 a, glm::ivec3 b) {
        return glm::all(glm::lessThanEqual(glm::abs(a - b), glm::ivec3(4)));
    };
    // colour_map.frag's diverging(): blue (0.23, 0.30, 0.75), white 0.95, red (0.71, 0.02, 0.15).
    const glm::ivec3 blue(59, 77, 191), white(242), red(181, 5, 38);
    EXPECT_TRUE(near(at(0), blue)) << at(0).x << "," << at(0).y << "," << at(0).z;
    EXPECT_TRUE(near(at(kWidth / 2), white));
    EXPECT_TRUE(near(at(kWidth - 1), red));

    auto created = Lab::create("decay_compare", {"snow.resolution=64"}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Lab>>(created));
    Lab& lab = *std::get<0>(created);
    for (const char* layout : {"difference", "vertical"}) {
        auto made = HeadlessUi::create(lab, "none", layout, {}, test::glInfo().renderer);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<HeadlessUi>>(made));
        const ImageRgba8 image = std::get<0>(made)->render(lab, 800, 450, lab.fixedDtS());
        // Rows holding the key: blue at some column and red 219 columns on (the key is 220
        // wide); the snow and sky hold neither.
        int rows = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x + 219 < image.width; ++x) {
                const glm::u8vec4 a = image.at(x, y), b = image.at(x + 219, y);
                if (near(glm::ivec3(a), blue) && near(glm::ivec3(b), red)) {
                    ++rows;
                    break;
                }
            }
        if (std::string(layout) == "difference")
            EXPECT_GE(rows, 8) << "no colour key in the difference pane";
        else
            EXPECT_EQ(rows, 0) << "a key where there is no difference pane (the test is blind)";
    }
}

} // namespace
} // namespace snowcap
