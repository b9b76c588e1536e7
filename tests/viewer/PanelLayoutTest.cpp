// Where the viewer's windows open (viewer/panel_layout.hpp): never over a pane's centre or its
// label, on the screen, apart from each other while there is room, full size where it fits, and
// folded to a title bar (still clear of the panes) where nothing else fits.
#include "viewer/panel_layout.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

// Panes as the viewer's layouts make them (ImGui coordinates: from the top).
std::vector<ScreenRect> panesOf(const std::string& layout, float w, float h) {
    if (layout == "split_vertical")
        return {{0, 0, w / 2 - 1, h}, {w / 2 + 1, 0, w / 2 - 1, h}};
    if (layout == "split_horizontal")
        return {{0, 0, w, h / 2 - 1}, {0, h / 2 + 1, w, h / 2 - 1}};
    if (layout == "grid")
        return {{0, 0, w / 2 - 1, h / 2 - 1},
                {w / 2 + 1, 0, w / 2 - 1, h / 2 - 1},
                {0, h / 2 + 1, w / 2 - 1, h / 2 - 1},
                {w / 2 + 1, h / 2 + 1, w / 2 - 1, h / 2 - 1}};
    return {{0, 0, w, h}};
}

// The control window and all ten panels at their viewer sizes (viewer_panels.cpp).
std::vector<PanelRequest> everyWindow(float h) {
    return {{420, 255, 255},    {560, h - 260, 240}, {420, 0.4f * h, 180}, {440, 190, 120},
            {420, h - 20, 260}, {480, 430, 260},     {420, 0.3f * h, 140}, {400, 230, 140},
            {420, 440, 200},    {420, 520, 200},     {600, 215, 120}};
}

TEST(PanelLayout, NoWindowOpensOverAPaneCentreOnAnyLayoutOrScreen) {
    for (const char* layout : {"split_vertical", "split_horizontal", "grid", "single"})
        for (const auto& [w, h] : {std::pair{800.0f, 450.0f},
                                   {1280.0f, 720.0f},
                                   {1600.0f, 900.0f},
                                   {1920.0f, 1080.0f}}) {
            std::vector<ScreenRect> clear;
            for (const ScreenRect& pane : panesOf(layout, w, h))
                clear.push_back(paneCentreBox(pane));
            for (std::size_t open = 1; open <= 11; ++open) {
                std::vector<PanelRequest> requests = everyWindow(h);
                requests.resize(open);
                const std::vector<PanelPlace> places = placePanels(w, h, clear, requests);
                ASSERT_EQ(places.size(), open);
                for (std::size_t i = 0; i < places.size(); ++i) {
                    const ScreenRect& r = places[i].rect;
                    EXPECT_TRUE(r.inside(w, h)) << layout << " " << w << " window " << i;
                    const bool edge = r.x == 10.0f || r.x + r.width == w - 10.0f || r.y == 10.0f ||
                                      r.y + r.height == h - 10.0f;
                    EXPECT_TRUE(edge) << layout << " " << w << "x" << h << ": window " << i
                                      << " at " << r.x << "," << r.y << " is afloat";
                    for (const ScreenRect& c : clear)
                        EXPECT_FALSE(r.overlaps(c))
                            << layout << " " << w << "x" << h << ": window " << i << " of " << open
                            << " at " << r.x << "," << r.y << " " << r.width << "x" << r.height
                            << " covers a pane centre";
                }
            }
        }
}

TEST(PanelLayout, WindowsStackAtTheEdgesApartAndFoldOnlyWhenNothingElseFits) {
    // 1280 x 720, A | B: the control window top left, the next windows down the left edge
    // under it (below A's centre), then the right edge.
    const float w = 1280, h = 720;
    std::vector<ScreenRect> clear;
    for (const ScreenRect& pane : panesOf("split_vertical", w, h))
        clear.push_back(paneCentreBox(pane));
    const std::vector<PanelPlace> places =
        placePanels(w, h, clear, {{420, 255, 255}, {420, 300, 160}, {420, 300, 160}});
    ASSERT_EQ(places.size(), 3u);
    EXPECT_FLOAT_EQ(places[0].rect.x, 10.0f);
    EXPECT_FLOAT_EQ(places[0].rect.y, 10.0f);
    EXPECT_FLOAT_EQ(places[0].rect.height, 255.0f) << "full size where it fits";
    for (const PanelPlace& p : places)
        EXPECT_FALSE(p.folded);
    const ScreenRect &second = places[1].rect, &third = places[2].rect;
    EXPECT_TRUE(second.x == 10.0f || second.x == w - 420 - 10) << "at an edge";
    EXPECT_TRUE(third.x == 10.0f || third.x == w - 420 - 10) << "at an edge";
    EXPECT_FALSE(places[0].rect.overlaps(second));
    EXPECT_FALSE(places[0].rect.overlaps(third));
    EXPECT_FALSE(second.overlaps(third));

    // A screen with room for the control window alone: the rest fold to title bars, still
    // clear of the pane centres, and a folded request is folded however much room there is.
    const std::vector<PanelPlace> crowded =
        placePanels(500, 300, {paneCentreBox({0, 0, 500, 300})},
                    {{420, 255, 255}, {420, 200, 160}, {420, 200, 160, true}}, 19.0f);
    ASSERT_EQ(crowded.size(), 3u);
    EXPECT_TRUE(crowded[1].folded);
    EXPECT_FLOAT_EQ(crowded[1].rect.height, 19.0f);
    EXPECT_TRUE(crowded[2].folded);
    for (const PanelPlace& p : crowded)
        EXPECT_FALSE(p.rect.overlaps(paneCentreBox({0, 0, 500, 300})));
    EXPECT_TRUE(placePanels(w, h, {}, {{420, 300, 160, true}})[0].folded);
}

TEST(PanelLayout, AWindowShortensToFitAboveAnObstacleRatherThanCoverIt) {
    // One obstacle 100 points below the top: a 300-point window at the top edge (10 points
    // down) has 90 points above it, more than its least (60), so it opens 90 high.
    const std::vector<PanelPlace> places =
        placePanels(400, 400, {{0, 100, 400, 300}}, {{200, 300, 60}});
    ASSERT_EQ(places.size(), 1u);
    EXPECT_FALSE(places[0].folded);
    EXPECT_FLOAT_EQ(places[0].rect.y, 10.0f);
    EXPECT_FLOAT_EQ(places[0].rect.height, 90.0f);
    EXPECT_FALSE(places[0].rect.overlaps({0, 100, 400, 300}));
}

} // namespace
} // namespace snowcap
