// The pane grid of `render`'s final.png and the viewer's grid layout: A | B as it always was,
// A B / C D for three or four sims, two rows beyond; no pane overlaps another.
#include "render/frame.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(PaneGrid, ColumnsAndRows) {
    const int expected[][3] = {{1, 1, 1}, {2, 2, 1}, {3, 2, 2}, {4, 2, 2},
                               {5, 3, 2}, {6, 3, 2}, {7, 4, 2}, {8, 4, 2}};
    for (const auto& [count, columns, rows] : expected) {
        EXPECT_EQ(paneGrid(count).columns, columns) << count;
        EXPECT_EQ(paneGrid(count).rows, rows) << count;
    }
}

TEST(PaneGrid, TwoSimsAreTheHalvesTheyAlwaysWere) {
    for (const int width : {1280, 1281, 129}) {
        const int half = width / 2;
        EXPECT_EQ(gridPaneRect(0, 2, width, 720), glm::ivec4(0, 0, half, 720));
        EXPECT_EQ(gridPaneRect(1, 2, width, 720), glm::ivec4(width - half, 0, half, 720));
    }
}

TEST(PaneGrid, FourSimsAreABOverCD) {
    // GL rows count from the bottom: A and B on top.
    EXPECT_EQ(gridPaneRect(0, 4, 1280, 720), glm::ivec4(0, 360, 640, 360));
    EXPECT_EQ(gridPaneRect(1, 4, 1280, 720), glm::ivec4(640, 360, 640, 360));
    EXPECT_EQ(gridPaneRect(2, 4, 1280, 720), glm::ivec4(0, 0, 640, 360));
    EXPECT_EQ(gridPaneRect(3, 4, 1280, 720), glm::ivec4(640, 0, 640, 360));
    // Three sims leave D's cell empty.
    EXPECT_EQ(gridPaneRect(2, 3, 1280, 720), glm::ivec4(0, 0, 640, 360));
}

TEST(PaneGrid, PanesStayInsideAndNeverOverlap) {
    for (int count = 1; count <= kMaxSims; ++count)
        for (const auto& [width, height] : {std::pair{1280, 720}, {1001, 333}, {64, 48}}) {
            std::vector<int> covered(static_cast<std::size_t>(width) * height, 0);
            for (int i = 0; i < count; ++i) {
                const glm::ivec4 r = gridPaneRect(i, count, width, height);
                ASSERT_GE(r.x, 0);
                ASSERT_GE(r.y, 0);
                ASSERT_LE(r.x + r.z, width);
                ASSERT_LE(r.y + r.w, height);
                EXPECT_EQ(r.z, width / paneGrid(count).columns);
                EXPECT_EQ(r.w, height / paneGrid(count).rows);
                for (int y = r.y; y < r.y + r.w; ++y)
                    for (int x = r.x; x < r.x + r.z; ++x)
                        ++covered[static_cast<std::size_t>(y) * width + x];
            }
            for (int c : covered)
                ASSERT_LE(c, 1) << count << " panes in " << width << "x" << height;
        }
}

} // namespace
} // namespace snowcap
