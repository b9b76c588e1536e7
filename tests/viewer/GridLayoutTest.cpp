// The viewer's panes for N sims: the grid layout puts every sim in its cell of render's pane
// grid (A B / C D for four), a pixel apart; the split layouts stay A and B; a lab of more than
// two sims starts on the grid unless --layout names another. The panes share what the docked
// side bar leaves of the window, and never reach under it.
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_views.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

bool overlap(const glm::ivec4& a, const glm::ivec4& b) {
    return a.x < b.x + b.z && b.x < a.x + a.z && a.y < b.y + b.w && b.y < a.y + a.w;
}

TEST(GridLayout, EverySimGetsItsCellAPixelFromItsNeighbours) {
    ViewerState state;
    state.sideBarShown = false; // the whole window: the cells' own geometry
    state.layout = CompareLayout::Grid;
    state.simCount = 4;
    const std::vector<Pane> panes = layoutPanes(state, 1600, 900);
    ASSERT_EQ(panes.size(), 4u);
    for (int s = 0; s < 4; ++s)
        EXPECT_EQ(panes[s].sim, s);
    // A top left (GL rows from the bottom), D bottom right; one pixel off each inner edge.
    EXPECT_EQ(panes[0].rect, glm::ivec4(0, 451, 799, 449));
    EXPECT_EQ(panes[1].rect, glm::ivec4(801, 451, 799, 449));
    EXPECT_EQ(panes[2].rect, glm::ivec4(0, 0, 799, 449));
    EXPECT_EQ(panes[3].rect, glm::ivec4(801, 0, 799, 449));
    for (int count = 1; count <= kMaxSims; ++count) {
        state.simCount = count;
        const std::vector<Pane> grid = layoutPanes(state, 1600, 900);
        ASSERT_EQ(static_cast<int>(grid.size()), count);
        for (std::size_t i = 0; i < grid.size(); ++i)
            for (std::size_t j = i + 1; j < grid.size(); ++j)
                EXPECT_FALSE(overlap(grid[i].rect, grid[j].rect)) << count << ": " << i << j;
    }
}

TEST(GridLayout, SplitsStayABAndOneSimIsOnePane) {
    ViewerState state;
    state.simCount = 4;
    state.layout = CompareLayout::SplitVertical;
    const std::vector<Pane> split = layoutPanes(state, 1600, 900);
    ASSERT_EQ(split.size(), 2u);
    EXPECT_EQ(split[0].sim, 0);
    EXPECT_EQ(split[1].sim, 1);

    state.simCount = 1;
    for (int layout = 0; layout < static_cast<int>(std::size(kLayoutNames)); ++layout) {
        state.layout = static_cast<CompareLayout>(layout);
        const std::vector<Pane> panes = layoutPanes(state, 1600, 900);
        ASSERT_EQ(panes.size(), 1u) << kLayoutNames[layout];
        EXPECT_EQ(panes[0].sim, 0) << kLayoutNames[layout];
    }
}

TEST(GridLayout, MoreThanTwoSimsStartOnTheGrid) {
    ViewerState two, four, asked;
    applyStartOptions(two, "", {}, 2);
    applyStartOptions(four, "", {}, 4);
    applyStartOptions(asked, "horizontal", {}, 4);
    EXPECT_EQ(two.layout, CompareLayout::SplitVertical);
    EXPECT_EQ(four.layout, CompareLayout::Grid);
    EXPECT_EQ(asked.layout, CompareLayout::SplitHorizontal);
    EXPECT_EQ(four.simCount, 4);
}

TEST(GridLayout, ThePanesShareWhatTheSideBarLeaves) {
    ViewerState state;
    state.simCount = 4;
    for (const auto& [w, h] : {std::pair{800, 450}, {1000, 640}, {1280, 720}, {1600, 900}})
        for (int layout = 0; layout < static_cast<int>(std::size(kLayoutNames)); ++layout) {
            state.layout = static_cast<CompareLayout>(layout);
            const int bar = sideBarPixels(state, w);
            // The user's 420 points, capped at 40 % of the window.
            EXPECT_EQ(bar, std::min(420, int(0.4f * w))) << w;
            EXPECT_EQ(sceneArea(state, w, h), glm::ivec4(bar, 0, w - bar, h));
            long long area = 0;
            for (const Pane& pane : layoutPanes(state, w, h)) {
                const glm::ivec4 r = pane.rect;
                EXPECT_GE(r.x, bar) << kLayoutNames[layout] << " " << w << ": pane " << pane.sim
                                    << " reaches under the side bar";
                EXPECT_LE(r.x + r.z, w) << kLayoutNames[layout];
                EXPECT_GE(r.y, 0);
                EXPECT_LE(r.y + r.w, h);
                area += static_cast<long long>(r.z) * r.w;
            }
            // The panes fill the rest but for the one-pixel gaps between them.
            EXPECT_GT(area, static_cast<long long>(w - bar) * h * 99 / 100)
                << kLayoutNames[layout] << " " << w;
        }
    // A wider drag is capped: the panes keep the larger part of the window.
    state.sideBarWidth = 5000.0f;
    EXPECT_EQ(sideBarPixels(state, 1600), 640);
    // Twice the pixels a point (HiDPI): twice the pixels wide.
    state.sideBarWidth = 300.0f;
    state.pixelsPerPoint = 2.0f;
    EXPECT_EQ(sideBarPixels(state, 3200), 600);
    // Hidden (Tab): the panes take the whole window, the divider's split as before.
    state.sideBarShown = false;
    state.layout = CompareLayout::SplitVertical;
    EXPECT_EQ(sceneArea(state, 1600, 900), glm::ivec4(0, 0, 1600, 900));
    EXPECT_EQ(layoutPanes(state, 1600, 900)[1].rect, glm::ivec4(801, 0, 799, 900));
}

} // namespace
} // namespace snowcap
