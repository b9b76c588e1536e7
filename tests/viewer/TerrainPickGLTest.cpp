// Picking on the terrain (viewer_views.hpp's pickGround): over mountain_path's ridge, the ray
// through the pixel where the viewer's own camera draws a point of the undisturbed snow top
// lands on that point, where the flat plane at snow.surface_z_cm would put it metres away.
#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_views.hpp"

#include <glm/glm.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(TerrainPick, AClickLandsOnTheSnowTopOverTheRidge) {
    auto created = Lab::create("mountain_path", {"snow.resolution=64"}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Lab>>(created))
        << std::get<std::string>(created);
    Lab& lab = *std::get<0>(created);
    const std::shared_ptr<const HeightField>& terrain = lab.field().terrain();
    ASSERT_TRUE(terrain && !terrain->flat());
    const int width = 1280, height = 720;
    ViewerState state;
    state.sideBarShown = false;
    const Pane pane = layoutPanes(state, width, height).front(); // A
    fitCameras(state, lab, double(pane.rect.z) / pane.rect.w);
    const glm::dmat4 viewProjection(paneCamera(state, lab, pane).viewProjection());
    const double surface = lab.settings().snow.surfaceZCm;
    const glm::dvec2 centre = lab.field().sim(0).region().centreCm;
    int picked = 0;
    double worstCm = 0.0, worstFlatCm = 0.0;
    for (double dx : {-400.0, -150.0, 0.0, 150.0, 400.0})
        for (double dy : {-300.0, 0.0, 300.0}) {
            const glm::dvec3 point(centre.x + dx, centre.y + dy,
                                   surface + terrain->heightCm(centre.x + dx, centre.y + dy));
            const glm::dvec4 clip = viewProjection * glm::dvec4(point, 1.0);
            const glm::dvec2 ndc = glm::dvec2(clip) / clip.w;
            if (std::abs(ndc.x) > 0.95 || std::abs(ndc.y) > 0.95)
                continue; // outside the pane
            const glm::dvec2 pixel(pane.rect.x + (ndc.x + 1.0) * 0.5 * pane.rect.z,
                                   pane.rect.y + (ndc.y + 1.0) * 0.5 * pane.rect.w);
            const auto hit = pickGround(state, lab, width, height, pixel);
            ASSERT_TRUE(hit) << dx << ", " << dy;
            ++picked;
            worstCm = std::max(worstCm, glm::length(*hit - point));
            // Where the flat plane would have put the click.
            const glm::dvec3 eye(paneCamera(state, lab, pane).eyeCm);
            const glm::dvec3 ray = point - eye;
            const glm::dvec3 flat = eye + ray * ((surface - eye.z) / ray.z);
            worstFlatCm = std::max(worstFlatCm, glm::length(glm::dvec2(flat - point)));
        }
    ASSERT_GE(picked, 8) << "the points should lie in the pane";
    // The camera is float: a pixel's ray is good to about a thousandth of its distance.
    EXPECT_LT(worstCm, 0.5);
    EXPECT_GT(worstFlatCm, 50.0) << "the ridge should lift the snow top well off the plane";
    std::printf("[ figures ] %d points picked: worst %.2g cm from the snow top point (the flat "
                "plane: %.1f cm)\n",
                picked, worstCm, worstFlatCm);
}

} // namespace
} // namespace snowcap
