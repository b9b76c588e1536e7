// The Snowpack panel's buffer views on the driver: the density view maps mass / depth (not a
// channel) onto the colour bar its legend shows, the depth view maps depth onto the same bar,
// bare texels are told apart; and the panel, drawn by `render --ui`'s headless UI over a
// snowpack sim, puts its legend's bar into the frame.
#include "GLTestSupport.hpp"
#include "core/snowpack_laws.hpp"
#include "lab/lab.hpp"
#include "lab/snowpack_stats.hpp"
#include "snow/snowpack_sim.hpp"
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_views.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSide = 32;      // the state, and the view at 1:1 (a pixel per texel)
constexpr int kBarWidth = 256; // the legend's bar

glm::ivec3 rgb(const std::vector<float>& rgba8, std::size_t pixel) {
    return {int(std::lround(rgba8[pixel * 4] * 255.0f)),
            int(std::lround(rgba8[pixel * 4 + 1] * 255.0f)),
            int(std::lround(rgba8[pixel * 4 + 2] * 255.0f))};
}

int farthest(glm::ivec3 a, glm::ivec3 b) {
    const glm::ivec3 d = glm::abs(a - b);
    return std::max({d.x, d.y, d.z});
}

// Rows of `image` that hold a legend's bar: a run of at least 96 pixels (the smallest view)
// that starts at inferno's dark end, never darkens and ends at its bright end, in steps of at
// most 24 (inferno's steepest over a 96-pixel bar is about 17). Nothing else the viewer draws
// is such a ramp: a panel's edge against the snow is one jump.
int barRows(const ImageRgba8& image) {
    const auto luma = [&](int x, int y) {
        const glm::u8vec4 p = image.at(x, y);
        return p.x + p.y + p.z;
    };
    int bars = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            if (luma(x, y) > 40)
                continue;
            int end = x;
            while (end + 1 < image.width && luma(end + 1, y) + 6 >= luma(end, y) &&
                   luma(end + 1, y) <= luma(end, y) + 24)
                ++end;
            const glm::u8vec4 last = image.at(end, y);
            if (end - x + 1 >= 96 && last.x + last.y > 400)
                ++bars;
            x = end;
        }
    return bars;
}

// Depth grows along x, density along y, so mass (their product) orders the texels otherwise
// than either; a column of bare texels (depth 0) on the left.
std::vector<SnowColumn> testColumns() {
    std::vector<SnowColumn> columns(static_cast<std::size_t>(kSide) * kSide);
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) {
            SnowColumn& c = columns[static_cast<std::size_t>(y) * kSide + x];
            if (x == 0)
                continue;                                    // bare
            c.depthCm = 2.0f * float(x);                     // 2 .. 62 cm
            const float density = 100.0f + 12.0f * float(y); // 100 .. 472 kg/m3
            c.massKgM2 = columnMass(c.depthCm, density);
        }
    return columns;
}

// snowpack_compare at 64² texels (llvmpipe is slow; B is the snowpack) with `panel` open in
// `render --ui`'s headless UI (A over B), after `steps` fixed steps. Empty on a failure, which
// it reports.
struct SnowpackUi {
    std::unique_ptr<Lab> lab;
    std::unique_ptr<HeadlessUi> ui; // after the lab: it goes first
};
SnowpackUi snowpackUi(const char* panel, int steps) {
    SnowpackUi run;
    auto created = Lab::create("snowpack_compare", {"snow.resolution=64"}, test::glInfo().renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return {};
    }
    run.lab = std::move(std::get<0>(created));
    if (!run.lab->field().snowpack(1)) {
        ADD_FAILURE() << "sim b of snowpack_compare is not a snowpack";
        return {};
    }
    auto made = HeadlessUi::create(*run.lab, panel, "horizontal", {}, test::glInfo().renderer);
    if (auto* error = std::get_if<std::string>(&made)) {
        ADD_FAILURE() << *error;
        return {};
    }
    run.ui = std::move(std::get<0>(made));
    const double dt = run.lab->fixedDtS();
    for (int step = 1; step <= steps; ++step) {
        run.lab->stepTo(step * dt, dt);
        run.ui->afterStep(*run.lab, dt);
    }
    return run;
}

TEST(SnowpackPanel, ViewsMapOntoTheirLegendsBar) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    ViewerGl gl;
    ASSERT_FALSE(gl.init(shaders));
    const std::vector<SnowColumn> columns = testColumns();
    std::vector<float> rgba;
    for (const SnowColumn& c : columns)
        rgba.insert(rgba.end(), {c.depthCm, c.massKgM2, c.waterKgM2, c.groundPrintCm});
    gpu::Texture2D state(kSide, kSide, gpu::TextureFormat::RGBA32F, "test.snowpack_state");
    state.upload(rgba);

    const std::vector<float> bar = gl.colourBar(1, kBarWidth, 4).readFloats();
    // The bar runs dark to bright: its ends are inferno's.
    EXPECT_LT(rgb(bar, 0).x + rgb(bar, 0).y + rgb(bar, 0).z, 40);
    EXPECT_GT(rgb(bar, kBarWidth - 1).x + rgb(bar, kBarWidth - 1).y, 400);
    // The legend's colour for a value: its column on the bar (the view's t lies within half a
    // bar column of that column's centre: at most 2 units of 255 off on inferno's steepest part).
    const auto legend = [&](float value, glm::vec2 range) {
        const float t = std::clamp((value - range.x) / (range.y - range.x), 0.0f, 1.0f);
        return rgb(bar, std::size_t(std::clamp(int(t * kBarWidth), 0, kBarWidth - 1)));
    };

    const glm::vec2 densityRange{120.0f, 450.0f};
    const std::vector<float> density =
        gl.preview(2, state, 0, densityRange, kSide, ViewerGl::PreviewValue::SnowpackDensity)
            .readFloats();
    int worst = 0, massWouldDiffer = 0;
    for (std::size_t t = 0; t < columns.size(); ++t) {
        const glm::ivec3 shown = rgb(density, t);
        if (columns[t].depthCm < kBareDepthCm) {
            EXPECT_EQ(shown, glm::ivec3(68, 76, 92)) << "bare texel " << t; // slate grey
            continue;
        }
        worst = std::max(worst, farthest(shown, legend(densityOf(columns[t]), densityRange)));
        massWouldDiffer += farthest(shown, legend(columns[t].massKgM2, densityRange)) > 20;
    }
    EXPECT_LE(worst, 3) << "the density view and its legend disagree";
    EXPECT_GT(massWouldDiffer, int(columns.size()) / 2) << "the test cannot tell density from G";

    const glm::vec2 depthRange{0.0f, 60.0f};
    const std::vector<float> depth = gl.preview(3, state, 0, depthRange, kSide).readFloats();
    worst = 0;
    for (std::size_t t = 0; t < columns.size(); ++t)
        worst = std::max(worst, farthest(rgb(depth, t), legend(columns[t].depthCm, depthRange)));
    EXPECT_LE(worst, 3) << "the depth view and its legend disagree";
}

// The Buffers panel's water view of a snowpack sim: the state's B (kg/m2) onto the bar its
// legend shows, over the view's own range.
TEST(BuffersPanel, TheWaterViewMapsOntoItsLegendsBar) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    ViewerGl gl;
    ASSERT_FALSE(gl.init(shaders));
    std::vector<SnowColumn> columns = testColumns();
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) // water along y and x: 0 .. 6.2 kg/m2, past the range
            columns[static_cast<std::size_t>(y) * kSide + x].waterKgM2 =
                0.1f * float(x + 31 * (y % 2));
    std::vector<float> rgba;
    for (const SnowColumn& c : columns)
        rgba.insert(rgba.end(), {c.depthCm, c.massKgM2, c.waterKgM2, c.groundPrintCm});
    gpu::Texture2D state(kSide, kSide, gpu::TextureFormat::RGBA32F, "test.snowpack_state");
    state.upload(rgba);
    const std::vector<float> bar = gl.colourBar(32, kBarWidth, 4).readFloats();
    const glm::vec2 range{0.0f, 5.0f}; // the panel's default
    const auto legend = [&](float value) {
        const float t = std::clamp((value - range.x) / (range.y - range.x), 0.0f, 1.0f);
        return rgb(bar, std::size_t(std::clamp(int(t * kBarWidth), 0, kBarWidth - 1)));
    };
    const std::vector<float> water = gl.preview(32, state, 2, range, kSide).readFloats();
    int worst = 0, depthWouldDiffer = 0;
    for (std::size_t t = 0; t < columns.size(); ++t) {
        worst = std::max(worst, farthest(rgb(water, t), legend(columns[t].waterKgM2)));
        depthWouldDiffer += farthest(rgb(water, t), legend(columns[t].depthCm)) > 20;
    }
    EXPECT_LE(worst, 3) << "the water view and its legend disagree";
    EXPECT_GT(depthWouldDiffer, int(columns.size()) / 2) << "the test cannot tell B from R";
}

// The Buffers panel's view of what drifted (WeatherSim::driftRecordKgM2, kg/m2 in - out): the
// signed value onto the diverging bar its legend shows, -range (blue) .. +range (red).
TEST(BuffersPanel, TheDriftViewMapsOntoItsDivergingLegendsBar) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    ViewerGl gl;
    ASSERT_FALSE(gl.init(shaders));
    std::vector<float> drifted(static_cast<std::size_t>(kSide) * kSide);
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) // -1.55 .. +1.55 kg/m2: past the range at both ends
            drifted[static_cast<std::size_t>(y) * kSide + x] =
                0.05f * float(x - 31) * (y % 2 ? 1.0f : -1.0f);
    gpu::Texture2D record(kSide, kSide, gpu::TextureFormat::R32F, "test.drift_record");
    record.upload(drifted);
    const std::vector<float> bar =
        gl.colourBar(34, kBarWidth, 4, ViewerGl::BarMap::Diverging).readFloats();
    const float range = 1.0f; // the panel's default
    const auto legend = [&](float value) {
        const float t = std::clamp((value / range + 1.0f) * 0.5f, 0.0f, 1.0f);
        return rgb(bar, std::size_t(std::clamp(int(t * kBarWidth), 0, kBarWidth - 1)));
    };
    const std::vector<float> view =
        gl.preview(34, record, 0, {-range, range}, kSide, ViewerGl::PreviewValue::Diverging)
            .readFloats();
    int worst = 0, signWouldDiffer = 0;
    for (std::size_t t = 0; t < drifted.size(); ++t) {
        worst = std::max(worst, farthest(rgb(view, t), legend(drifted[t])));
        signWouldDiffer += farthest(rgb(view, t), legend(-drifted[t])) > 20;
    }
    EXPECT_LE(worst, 3) << "the drift view and its legend disagree";
    EXPECT_GT(signWouldDiffer, int(drifted.size()) / 2) << "the test cannot tell in from out";
}

// `render --ui`'s headless UI draws the Buffers panel over a snowpack sim with the water view's
// legend: its bar is in the frame (the panel draws no other).
TEST(BuffersPanel, RenderUiDrawsTheWaterLegendOfASnowpackSim) {
    SnowpackUi run = snowpackUi("buffers", 5);
    ASSERT_TRUE(run.ui);
    Lab& lab = *run.lab;
    HeadlessUi& ui = *run.ui;
    const double dt = lab.fixedDtS();
    // A over B on a 1600 x 1600 screen: the panes' centres lie clear of the left column, so the
    // panel opens under the control window at the screen's height, tall enough for the
    // capture's view and both sims' (B's water view and its legend last).
    const ImageRgba8 image = ui.render(lab, 1600, 1600, dt);
    EXPECT_GE(barRows(image), 12) << "no water legend's bar in the frame";
}

TEST(SnowpackPanel, RenderUiDrawsTheLegendOfASnowpackSim) {
    SnowpackUi run = snowpackUi("snowpack", 30);
    ASSERT_TRUE(run.ui);
    Lab& lab = *run.lab;
    HeadlessUi& ui = *run.ui;
    const double dt = lab.fixedDtS();
    // A over B on a 1000 x 1000 screen: the panes' centres are mid-screen, so the panel opens
    // at its full height (620) in the left column; on a shorter screen, or with A | B, it is
    // shortened to clear the centres and scrolls.
    const ImageRgba8 image = ui.render(lab, 1000, 1000, dt);

    // The legends' bars are in the frame. Two bars (depth, density) of 12 rows each.
    EXPECT_GE(barRows(image), 2 * 12) << "no colour bar from dark to bright in the frame";

    // The budget the panel shows is stats.json's: the same figures, and they close.
    const std::vector<SnowpackFigure> figures = snowpackFigures(*lab.field().snowpack(1));
    ASSERT_EQ(figures.size(), 12u);
    EXPECT_STREQ(figures[0].key, "mass_kg");
    EXPECT_STREQ(figures[6].key, "mass_error");
    EXPECT_NEAR(figures[6].value, 0.0, 1e-5) << "mass_error";
}

// Rows of `image` holding a diverging legend's bar: a run of at least 96 pixels whose red less
// blue never falls by more than 24 a step, from blue (blue over red by 60) to red (red over blue
// by 60). Nothing else the viewer draws runs from blue to red across a row.
int divergingBarRows(const ImageRgba8& image) {
    const auto redness = [&](int x, int y) {
        const glm::u8vec4 p = image.at(x, y);
        return int(p.x) - int(p.z);
    };
    int bars = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            if (redness(x, y) > -60)
                continue;
            int end = x;
            while (end + 1 < image.width && redness(end + 1, y) + 6 >= redness(end, y) &&
                   redness(end + 1, y) <= redness(end, y) + 24)
                ++end;
            if (end - x + 1 >= 96 && redness(end, y) > 60)
                ++bars;
            x = end;
        }
    return bars;
}

// `render --ui --panels buffers:drift` opens the Buffers panel scrolled to what drifted: on a
// 1600 x 900 screen, where the panel's height puts the drift view below its fold, the view's
// diverging legend is in the frame with it and not without.
TEST(BuffersPanel, RenderUiOpensOnTheDriftView) {
    const auto drawn = [](const char* panels) {
        auto created = Lab::create("blizzard", {"snow.resolution=64"}, test::glInfo().renderer);
        if (auto* error = std::get_if<std::string>(&created)) {
            ADD_FAILURE() << *error;
            return -1;
        }
        std::unique_ptr<Lab> lab = std::move(std::get<0>(created));
        auto made = HeadlessUi::create(*lab, panels, "horizontal", {}, test::glInfo().renderer);
        if (auto* error = std::get_if<std::string>(&made)) {
            ADD_FAILURE() << *error;
            return -1;
        }
        std::unique_ptr<HeadlessUi> ui = std::move(std::get<0>(made));
        const double dt = lab->fixedDtS();
        for (int step = 1; step <= 5; ++step) {
            lab->stepTo(step * dt, dt);
            ui->afterStep(*lab, dt);
        }
        const int rows = divergingBarRows(ui->render(*lab, 1600, 900, dt));
        ui.reset(); // before the lab
        return rows;
    };
    const int plain = drawn("buffers"), onDrift = drawn("buffers:drift");
    std::printf("diverging legend rows: --panels buffers %d, buffers:drift %d\n", plain, onDrift);
    EXPECT_EQ(plain, 0) << "the drift view was already in view: the test shows nothing";
    EXPECT_GE(onDrift, 12) << "no drift legend's bar in the frame";
}

TEST(BuffersPanel, PanelViewsAreNamedOrRefused) {
    std::array<bool, static_cast<int>(PanelId::Count)> open{};
    std::string scrollTo;
    EXPECT_EQ(parsePanelList("sims,buffers:drift", open, &scrollTo), std::nullopt);
    EXPECT_EQ(scrollTo, "drift");
    EXPECT_TRUE(open[static_cast<int>(PanelId::Buffers)]);
    EXPECT_EQ(parsePanelList("buffers:water", open, &scrollTo).value_or(""),
              "--panels: unknown view 'buffers:water' (known: buffers:drift, scene:ground, "
              "scene:terrain, scene:terrain_slope)");
    EXPECT_EQ(parsePanelList("buffers:drift", open).value_or(""),
              "--panels: 'buffers:drift': a view to open a panel on is for render --ui");
}

} // namespace
} // namespace snowcap
