// The walking biped end to end: loaded from its file, standing on the ground under shallow snow
// (the default placement), carried along a polyline at its cycle's pace while its clip plays,
// run headless through the snow field. Its feet must leave separate prints, taking turns left
// and right of its path: connected regions in the persistent buffer.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "render/deformer_set.hpp"
#include "snow/snow_field.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

struct Region {
    int texels = 0;
    double sumX = 0.0, sumY = 0.0; // texel centres, cm
    double x() const { return sumX / texels; }
    double y() const { return sumY / texels; }
};

// 4-connected regions of texels above `threshold`; row 0 is the bottom (world -y).
std::vector<Region> regionsAbove(const std::vector<float>& mask, int size, double widthCm,
                                 float threshold) {
    std::vector<int> label(mask.size(), -1);
    std::vector<Region> regions;
    std::vector<int> stack;
    const double texelCm = widthCm / size;
    for (int start = 0; start < size * size; ++start) {
        if (label[start] >= 0 || !(mask[start] > threshold))
            continue;
        Region region;
        label[start] = int(regions.size());
        stack.assign(1, start);
        while (!stack.empty()) {
            const int at = stack.back();
            stack.pop_back();
            const int x = at % size, y = at / size;
            region.texels += 1;
            region.sumX += (x + 0.5) * texelCm - 0.5 * widthCm;
            region.sumY += (y + 0.5) * texelCm - 0.5 * widthCm;
            const int next[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
            for (const auto& n : next) {
                if (n[0] < 0 || n[1] < 0 || n[0] >= size || n[1] >= size)
                    continue;
                const int j = n[1] * size + n[0];
                if (label[j] < 0 && mask[j] > threshold) {
                    label[j] = int(regions.size());
                    stack.push_back(j);
                }
            }
        }
        regions.push_back(region);
    }
    return regions;
}

TEST(WalkingPrints, TheBipedLeavesSeparateAlternatingFootprints) {
    Settings settings;
    settings.snow.resolution = 128; // 2 cm a texel over 256 cm
    settings.snow.orthoWidthCm = 256.0;
    settings.snow.depthCm = 8.0; // the swinging foot (lifted 12 cm) clears it
    for (SimSettings& sim : settings.sims) {
        sim.decay = 1.0; // keep every print
        sim.accumulate = AccumulateMode::Max;
    }
    DeformerSettings walker;
    walker.name = "walker";
    walker.mesh = "assets/meshes/biped.glb";
    walker.clip = "walk";
    walker.facePath = true;
    walker.pathKind = DeformerSettings::PathKind::Polyline;
    walker.waypointsCm = {{-90, 0, 0}, {90, 0, 0}};
    walker.speedCmS = 60.0; // the walk's own pace
    auto loaded = loadDeformer(walker, test::sourceDir(), groundZCm(settings.snow));
    ASSERT_TRUE(std::holds_alternative<Deformer>(loaded)) << std::get<std::string>(loaded);
    std::vector<Deformer> deformers;
    deformers.push_back(std::move(std::get<Deformer>(loaded)));
    DeformerSet set(std::move(deformers));

    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto created = SnowField::create(settings, shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created))
        << std::get<std::string>(created);
    SnowField& field = *std::get<0>(created);
    const double dt = 1.0 / 30.0;
    for (int step = 0; step < 90; ++step) // 3 s: 180 cm, three walk cycles
        field.step(set.instancesAt((step + 1) * dt), dt);

    const std::vector<float> mask = field.sim(1).persistent().readFloats();
    // The buffer holds depth below the surface over the capture distance (a full 8 cm print is
    // 8 / 250); a print is where a foot went more than half way down.
    const float full = float(settings.snow.depthCm / settings.capture.distanceCm);
    const float deepest = *std::max_element(mask.begin(), mask.end());
    EXPECT_NEAR(deepest, full, 0.1f * full); // planted feet reach the ground
    std::vector<Region> prints;
    for (const Region& r : regionsAbove(mask, 128, 256.0, 0.5f * full))
        if (r.texels >= 8) // a boot-sized print is ~ 60 texels; specks are edge coverage
            prints.push_back(r);
    std::sort(prints.begin(), prints.end(),
              [](const Region& a, const Region& b) { return a.x() < b.x(); });
    std::string seen;
    for (const Region& r : prints)
        seen += "(" + std::to_string(int(r.x())) + ", " + std::to_string(int(r.y())) + ", " +
                std::to_string(r.texels) + ") ";
    // 180 cm in steps of 30 (60 cm/s, a foot lands every half cycle): six or seven steps, and
    // the two prints it stands in at the start.
    ASSERT_GE(prints.size(), 6u) << seen;
    EXPECT_LE(prints.size(), 9u) << seen;
    int left = 0, right = 0;
    for (std::size_t i = 0; i < prints.size(); ++i) {
        // Each print lies off the path's centre line, on the side of its foot ...
        EXPECT_GT(std::abs(prints[i].y()), 4.0) << seen;
        EXPECT_LT(std::abs(prints[i].y()), 20.0) << seen;
        (prints[i].y() > 0.0 ? left : right) += 1;
        // ... and the feet take turns along the path.
        if (i > 0) {
            EXPECT_NE(prints[i].y() > 0.0, prints[i - 1].y() > 0.0) << seen;
            EXPECT_NEAR(prints[i].x() - prints[i - 1].x(), 30.0, 5.0) << seen;
        }
    }
    EXPECT_GE(left, 2) << seen;
    EXPECT_GE(right, 2) << seen;
}

} // namespace
} // namespace snowcap
