// The frame `render --ui` draws (the viewer's panels on the headless context): with every panel
// open, at two screen sizes and on the split and grid layouts, ImGui placed one window, the
// docked side bar, and it lies on no pane; and no panel pixel lies on a pane: every pane's
// pixels are the same with every panel open as with none, while the side bar's are not.
#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_panels.hpp"

#include <glm/glm.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

struct UiFrame {
    ImageRgba8 image;
    std::vector<HeadlessUi::Window> windows;
    std::vector<ScreenRect> panes;
};

// One `render --ui` frame of `lab` as it stands (no step), with `panels` open.
UiFrame uiFrame(Lab& lab, const char* panels, const char* layout, int w, int h,
                bool sideBar = true) {
    auto made = HeadlessUi::create(lab, panels, layout, {}, test::glInfo().renderer);
    if (!std::holds_alternative<std::unique_ptr<HeadlessUi>>(made)) {
        ADD_FAILURE() << std::get<std::string>(made);
        return {};
    }
    HeadlessUi& ui = *std::get<0>(made);
    ui.showSideBar(sideBar);
    UiFrame frame{ui.render(lab, w, h, lab.fixedDtS()), ui.windows(), ui.panes()};
    return frame;
}

// Pixels inside `r` (points = pixels here) that differ between two images.
long long differing(const ImageRgba8& a, const ImageRgba8& b, const ScreenRect& r) {
    long long n = 0;
    for (int y = int(r.y); y < int(r.y + r.height); ++y)
        for (int x = int(r.x); x < int(r.x + r.width); ++x)
            n += a.at(x, y) != b.at(x, y);
    return n;
}

TEST(PanelPlacement, RenderUiDrawsNoPanelPixelOnAPane) {
    auto created = Lab::create("decay_ladder", {"snow.resolution=64"}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Lab>>(created))
        << std::get<std::string>(created);
    Lab& lab = *std::get<0>(created);
    for (int step = 0; step < 20; ++step) // prints in every pane
        lab.step(lab.fixedDtS(), false);
    for (const char* layout : {"vertical", "grid"})
        for (const auto& [w, h] : {std::pair{800, 450}, {1280, 720}}) {
            const UiFrame all = uiFrame(lab, "all", layout, w, h);
            const UiFrame none = uiFrame(lab, "none", layout, w, h);
            ASSERT_EQ(all.image.width, w);
            ASSERT_EQ(none.image.width, w);
            const std::size_t panes = std::string(layout) == "grid" ? 4u : 2u;
            ASSERT_EQ(all.panes.size(), panes) << layout;
            ASSERT_EQ(all.windows.size(), 1u) << "one window: the side bar holds every panel";
            const ScreenRect& bar = all.windows[0].rect;
            EXPECT_EQ(all.windows[0].title, "snowcap");
            EXPECT_TRUE(bar.inside(float(w), float(h)));
            EXPECT_EQ(bar.height, float(h)) << "the side bar runs the window's height";
            for (const ScreenRect& pane : all.panes) {
                EXPECT_FALSE(bar.overlaps(pane))
                    << layout << " " << w << "x" << h << ": the side bar (" << bar.width
                    << " wide) covers the pane at " << pane.x << "," << pane.y;
                EXPECT_EQ(differing(all.image, none.image, pane), 0)
                    << layout << " " << w << "x" << h << ": a panel drew on the pane at " << pane.x
                    << "," << pane.y << " " << pane.width << "x" << pane.height;
            }
            // The control: the open sections do show, in the side bar.
            EXPECT_GT(differing(all.image, none.image, bar), 1000) << "the check is blind";
        }
}

TEST(PanelPlacement, HiddenSideBarGivesThePanesTheWholeWindow) {
    auto created = Lab::create("decay_compare", {"snow.resolution=64"}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Lab>>(created));
    Lab& lab = *std::get<0>(created);
    const UiFrame hidden = uiFrame(lab, "all", "vertical", 800, 450, false);
    EXPECT_TRUE(hidden.windows.empty());
    ASSERT_EQ(hidden.panes.size(), 2u);
    EXPECT_EQ(hidden.panes[0].x, 0.0f);
    EXPECT_EQ(hidden.panes[1].x + hidden.panes[1].width, 800.0f);
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
