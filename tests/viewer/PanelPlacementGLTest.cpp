// The frame `render --ui` draws (the viewer's panels on the headless context): with every panel
// open, at two screen sizes and on the split and grid layouts, every window ImGui actually
// placed stays clear of each pane's centre and label, and stays on the screen.
#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_frame.hpp"

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
            EXPECT_EQ(windows.size(), 10u) << "the control window and nine panels";
            for (const HeadlessUi::Window& window : windows) {
                const ScreenRect& r = window.rect;
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

} // namespace
} // namespace snowcap
