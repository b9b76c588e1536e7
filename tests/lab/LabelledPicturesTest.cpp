// Golden images of the pictures `render` writes to be read without the docs (lab/run_pictures.hpp,
// lab/run_plots.hpp): a buffers.png panel with its label, length bar and colour key, for a mask
// and a snowpack, and probes.png with its axes and legend. The inputs are made here, so nothing
// but the drawing decides the pixels. SNOWCAP_UPDATE_GOLDEN=1 rewrites the references (look at
// old and new first: CONTRIBUTING.md).
#include "TestSupport.hpp"
#include "lab/run_pictures.hpp"
#include "lab/run_plots.hpp"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <set>

namespace snowcap {
namespace {

// A 64^2 buffer over 400 cm: a round print (value 1 at its middle, fading to its edge) and a
// trail of four boot prints, as `fill` maps a print's strength (0..1) to the buffer's value.
template <class Fill> ImageFloat prints(float untouched, Fill fill) {
    ImageFloat values(64, 64, untouched);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) {
            const double r = std::hypot(x - 20.5, y - 40.5);
            if (r < 9.0)
                values.at(x, y) = fill(float(1.0 - r / 9.0 * 0.6));
            for (int k = 0; k < 4; ++k)
                if (x >= 30 + 8 * k && x < 34 + 8 * k && y >= 12 + (k % 2) * 6 &&
                    y < 20 + (k % 2) * 6)
                    values.at(x, y) = fill(0.5f + 0.12f * k);
        }
    return values;
}

// Compares with the reference (within `tolerance` of 255 on at most `share` of the pixels), or
// writes it with SNOWCAP_UPDATE_GOLDEN set.
void expectGolden(const ImageRgba8& actual, const char* name, int tolerance, double share) {
    // Not a blank picture: the map, the text and the background make many colours.
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i + 3 < actual.pixels.size(); i += 4)
        colours.insert(std::uint32_t(actual.pixels[i]) << 16 | actual.pixels[i + 1] << 8 |
                       actual.pixels[i + 2]);
    EXPECT_GT(colours.size(), 40u) << name;
    const auto reference = test::sourceDir() / "tests/golden" / name;
    if (std::getenv("SNOWCAP_UPDATE_GOLDEN")) {
        ASSERT_EQ(writePng(reference, actual), std::nullopt);
        GTEST_SKIP() << "reference written to " << reference;
    }
    auto expected = readPng(reference);
    ASSERT_TRUE(std::holds_alternative<ImageRgba8>(expected)) << std::get<std::string>(expected);
    const ImageRgba8& golden = std::get<ImageRgba8>(expected);
    ASSERT_EQ(golden.width, actual.width) << name;
    ASSERT_EQ(golden.height, actual.height) << name;
    const ImageDiff diff = compareImages(golden, actual, tolerance);
    if (diff.fractionOver > share) {
        const auto dir = test::scratchDir();
        writePng(dir / name, actual);
        writePng(dir / ("diff_" + std::string(name)), diff.diffImage);
        ADD_FAILURE() << name << " differs from its golden image: " << diff.fractionOver * 100.0
                      << " % of pixels over " << tolerance << "/255 (max " << diff.maxDelta
                      << "); actual and diff in " << dir;
    }
}

TEST(LabelledPictures, AMaskPanelHasItsLabelLengthBarAndKey) {
    SimSettings sim = defaultSim(0);
    sim.decay = 0.999;
    const ImageRgba8 panel = labelledBufferPanel(
        prints(0.0f, [](float s) { return s; }),
        "A: decay 0.999 (delta_time), material.rt_blur_distance 0.02", 400.0, bufferKey(sim));
    // Enlarged to 512 wide (8 pixels a texel); the key strip below.
    EXPECT_EQ(panel.width, 512);
    EXPECT_GT(panel.height, 512);
    // Integer pixels and a bitmap font: exact.
    expectGolden(panel, "buffer_panel_mask.png", 0, 0.0);
}

TEST(LabelledPictures, ASnowpackPanelKeysDepthFromTheGroundToTwiceTheSnow) {
    SimSettings sim = defaultSim(1);
    sim.model = SimModel::Snowpack;
    sim.snowpack.depthCm = 30.0;
    const ColourKey key = bufferKey(sim);
    EXPECT_EQ(key.hi, 60.0f);
    EXPECT_NE(key.caption.find("untouched 30"), std::string::npos) << key.caption;
    // A print packs the column down to 30 - 22 cm; the rims around are not drawn here.
    const ImageRgba8 panel = labelledBufferPanel(
        prints(30.0f, [](float s) { return 30.0f - 22.0f * s; }),
        "B: snowpack 30 cm at 120 kg/m3, material.rt_blur_distance 0.003", 400.0, key);
    expectGolden(panel, "buffer_panel_snowpack.png", 0, 0.0);
}

TEST(LabelledPictures, TheProbePlotHasAxesTitleAndALegendEntryPerProbeAndSim) {
    // Two probes in two sims over 5 s at 60 fps: a print pressed at 1 s, released at 2 s, fading
    // at decay 0.95 (A) and 0.999 (B) a frame.
    std::vector<RunRecorder::Probe> probes(2);
    probes[0].name = "on the print";
    probes[1].name = "beside it";
    const int frames = 300;
    for (int p = 0; p < 2; ++p) {
        probes[p].values.resize(2);
        for (int s = 0; s < 2; ++s) {
            const double decay = s == 0 ? 0.95 : 0.999;
            double value = 0.0;
            for (int f = 0; f < frames; ++f) {
                const double t = (f + 1) / 60.0;
                value = t >= 1.0 && t < 2.0 ? (p == 0 ? 1.0 : 0.35) : value * decay;
                probes[p].values[s].push_back(float(value));
            }
        }
    }
    const std::vector<SimModel> models{SimModel::Decay, SimModel::Decay};
    const ImageRgba8 plot = probePlotImage(probes, models, frames, 60.0);
    // Smoothed lines: a few pixels' blending may round differently with another compiler.
    expectGolden(plot, "probe_plot.png", 8, 0.002);
}

TEST(LabelledPictures, MasksAndDepthsGetAPlotEach) {
    // A's probe reads a mask (0..1), B's a snowpack's depth in cm: one axis for both would
    // squash the mask into the bottom pixel rows.
    std::vector<RunRecorder::Probe> probes(1);
    probes[0].name = "track";
    probes[0].values = {std::vector<float>(60, 0.5f), std::vector<float>(60, 30.0f)};
    const std::vector<SimModel> mixed{SimModel::Decay, SimModel::Snowpack};
    const ImageRgba8 both = probePlotImage(probes, mixed, 60, 60.0);
    const std::vector<SimModel> masks{SimModel::Decay, SimModel::Decay};
    const ImageRgba8 one = probePlotImage(probes, masks, 60, 60.0);
    EXPECT_EQ(both.width, one.width);
    EXPECT_EQ(both.height, 2 * (one.height * 3 / 4));
    // Each half is a plot of its own: white background with dark ink, not an empty strip.
    for (int half = 0; half < 2; ++half) {
        int ink = 0;
        for (int y = half * both.height / 2; y < (half + 1) * both.height / 2; ++y)
            for (int x = 0; x < both.width; ++x)
                ink += both.at(x, y).x < 100 ? 1 : 0;
        EXPECT_GT(ink, 500) << "half " << half;
    }
}

} // namespace
} // namespace snowcap
