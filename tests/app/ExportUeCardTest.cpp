// The settings card for Unreal (app/export_ue_card.hpp): its values are the settings' values
// under their Unreal names, and its fade figures are the CPU reference's, read back from the
// JSON text the command writes.
#include "app/export_ue_card.hpp"
#include "core/decay_inverse.hpp"
#include "core/quality.hpp"
#include "lab/session.hpp"
#include "snow/cpu_reference.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

using nlohmann::json;

// The card as a reader gets it: dumped and parsed again.
json parsedCard(const Settings& settings, int sim) {
    return json::parse(ueSettingsCard(settings, sim, "test", {}).dump(2));
}

TEST(ExportUeCard, ValuesAreTheSettingsUnderTheirUnrealNames) {
    Settings settings;
    settings.snow.regionCentreCm = {120.0, -340.0};
    settings.snow.orthoWidthCm = 1536.0;
    settings.capture.offsetCm = 140.0;
    settings.capture.distanceCm = 260.0;
    settings.sims[1].decay = 0.9975;
    settings.sims[1].resolution = 1024;
    settings.sims[1].format = BufferFormat::RGBA16F;
    settings.sims[1].material.maskMulti = 35.0;
    settings.sims[1].material.tgl = 0.9;
    settings.sims[1].material.tgh = 0.99;
    settings.look.ssSnow = {0.4f, 0.6f, 0.9f};
    const json card = parsedCard(settings, 1);
    const auto value = [&](const char* asset, const char* name) {
        return card[asset][name]["value"];
    };
    EXPECT_EQ(card["sim"], "b");
    EXPECT_EQ(value("MPC_FoliageInteraction", "GuidePosition_X"), 120.0);
    EXPECT_EQ(value("MPC_FoliageInteraction", "GuidePosition_Y"), -340.0);
    EXPECT_EQ(value("MPC_FoliageInteraction", "Ortho_Width"), 1536.0);
    EXPECT_EQ(value("MPC_FoliageInteraction", "Capture_Distance"), 260.0);
    EXPECT_EQ(value("MPC_FoliageInteraction", "Mask_Attenuation"), 0.9975);
    EXPECT_EQ(value("MPC_FoliageInteraction", "RT_Blur_Distance"), 0.02); // the 1024 row
    EXPECT_EQ(value("PP_Depth_Snow", "Offset"), 140.0);
    EXPECT_EQ(value("PP_Depth_Snow", "CaptureDistance"), 260.0);
    EXPECT_EQ(value("PP_Depth_Snow", "Decay"), 0.9975);
    EXPECT_EQ(value("PP_Depth_Snow", "AttenuationFactor"), "pow(0.9975, DeltaTime * 60)");
    EXPECT_EQ(value("M_Snow", "Mask_Multi"), 35.0);
    EXPECT_EQ(value("M_Snow", "TGL"), 0.9);
    EXPECT_EQ(value("M_Snow", "TGH"), 0.99);
    EXPECT_EQ(value("M_Snow", "SS_Snow"), json::array({0.4f, 0.6f, 0.9f}));
    EXPECT_EQ(card["Enum_FoliageResolution"]["value"], 1024);
    EXPECT_EQ(card["RenderTargetFormat"]["value"], "RTF_RGBA16f");
    // Sim a keeps the defaults: per_frame is the plain factor, r16f the original format.
    Settings perFrame;
    perFrame.sims[0].decayTiming = DecayTiming::PerFrame;
    perFrame.sims[0].decay = 0.95;
    const json a = parsedCard(perFrame, 0);
    EXPECT_EQ(a["PP_Depth_Snow"]["AttenuationFactor"]["value"], "0.95");
    EXPECT_EQ(a["RenderTargetFormat"]["value"], "RTF_R16f");
    // A switch that differs from the original names what Unreal needs; one that does not, not.
    bool sawFormat = false;
    for (const auto& sw : card["snowcap_only"])
        if (sw["key"] == "sim.b.format") {
            sawFormat = true;
            EXPECT_EQ(sw["value"], "rgba16f");
            EXPECT_NE(sw["unreal"].get<std::string>().find("RTF_RGBA16f"), std::string::npos);
        }
    EXPECT_TRUE(sawFormat);
}

TEST(ExportUeCard, QualityRungDecidesTheResolution) {
    Settings settings;
    settings.snow.quality = Quality::Low;
    const json card = parsedCard(settings, 0);
    EXPECT_EQ(card["Enum_FoliageResolution"]["value"], effectiveSettings(settings).snow.resolution);
}

// The fade figures against TexelSimulation run here: the same hold, the same release.
void expectFadeIsTheCpuReference(const SimSettings& sim, const json& behaviour) {
    ASSERT_EQ(behaviour["rates"].size(), std::size(kCardRates));
    for (const json& rate : behaviour["rates"]) {
        const double fps = rate["fps"];
        const int hold = rate["hold_steps"];
        ASSERT_GE(hold, 1);
        const TexelSimulation texel{sim, HalfRounding::NearestEven, fps};
        const int steps = hold + static_cast<int>(std::ceil(kCardHorizonS * fps));
        const std::vector<float> values =
            texel.run(steps, [hold](int step, double) { return step < hold ? 1.0f : 0.0f; });
        const float peak = values[hold - 1];
        EXPECT_EQ(rate["peak"].get<float>(), peak);
        for (double t : kCardTimesS) {
            const std::string key = t == 1.0 ? "1" : t == 10.0 ? "10" : "60";
            const auto n = static_cast<std::size_t>(std::llround(t * fps));
            EXPECT_EQ(rate["remaining"][key].get<float>(), values[hold - 1 + n] / peak)
                << fps << " fps after " << t << " s";
        }
        // Times: the first whole step at or below the mark.
        auto firstAtOrBelow = [&](double fraction) -> json {
            for (std::size_t n = 0; hold - 1 + n < values.size(); ++n)
                if (values[hold - 1 + n] <= fraction * peak)
                    return double(n) / fps;
            return nullptr;
        };
        EXPECT_EQ(rate["time_to_10pct_s"], firstAtOrBelow(0.1)) << fps;
        EXPECT_EQ(rate["time_to_0.1pct_s"], firstAtOrBelow(0.001)) << fps;
        EXPECT_EQ(rate["time_to_zero_s"], firstAtOrBelow(0.0)) << fps;
    }
}

TEST(ExportUeCard, FadeFiguresAreTheCpuReference) {
    const Settings settings; // a: 0.95, b: 0.999, delta_time, half safe
    for (int s = 0; s < 2; ++s)
        expectFadeIsTheCpuReference(settings.sims[s], parsedCard(settings, s)["behaviour"]);
    // per_frame without the half-safe quanta: the law depends on the rate, and the store's
    // rounding shows.
    Settings original;
    original.sims[1].decayTiming = DecayTiming::PerFrame;
    original.sims[1].halfSafe = false;
    expectFadeIsTheCpuReference(original.sims[1], parsedCard(original, 1)["behaviour"]);
    // Linear refill is not a decay: no law, but the reference still gives the figures.
    Settings linear;
    linear.sims[0].refill = RefillMode::Linear;
    linear.sims[0].refillRatePerS = 0.25;
    const json behaviour = parsedCard(linear, 0)["behaviour"];
    expectFadeIsTheCpuReference(linear.sims[0], behaviour);
    EXPECT_TRUE(behaviour["rates"][0]["analytic"]["1"].is_null());
}

TEST(ExportUeCard, TheWriteUpsFiguresForDecay0999) {
    // Foliage Snow Interaction at 60 fps: 94.2 % after 1 s, 54.9 % after 10 s, 10 % after
    // ~38 s, 0.1 % after ~115 s. The reference is within the half-safe staircase's 1.2 %.
    Settings settings;
    const json rate = parsedCard(settings, 1)["behaviour"]["rates"][1];
    ASSERT_EQ(rate["fps"], 60.0);
    EXPECT_NEAR(rate["remaining"]["1"].get<double>(), 0.942, 0.942 * 0.012);
    EXPECT_NEAR(rate["remaining"]["10"].get<double>(), 0.549, 0.549 * 0.012);
    EXPECT_NEAR(rate["time_to_10pct_s"].get<double>(), 38.4, 1.0);
    EXPECT_NEAR(rate["time_to_0.1pct_s"].get<double>(), 115.0, 2.0);
    EXPECT_NEAR(rate["analytic"]["10"].get<double>(),
                remainingAfter(0.999, DecayTiming::DeltaTime, 60.0, 10.0), 1e-12);
}

// The editor script carries the card's values under the same names, for the MPC and the snow
// material instance, and says which asset paths to edit.
TEST(ExportUeCard, EditorScriptSetsTheCardsValues) {
    Settings settings;
    settings.sims[1].decay = 0.9975;
    settings.sims[1].material.maskMulti = 35.0;
    const auto card = ueSettingsCard(settings, 1, "test", {});
    const std::string py = ueEditorPython(card);
    EXPECT_NE(py.find("'Mask_Attenuation': 0.9975,"), std::string::npos) << py;
    EXPECT_NE(py.find("'Mask_Multi': 35,"), std::string::npos) << py;
    EXPECT_NE(py.find("MPC_PATH = "), std::string::npos);
    EXPECT_NE(py.find("set_material_instance_scalar_parameter_value"), std::string::npos);
    // The card says which node reads the decay, and how the capture camera is turned.
    EXPECT_NE(card["PP_Depth_Snow"]["Decay"]["note"].get<std::string>().find("Mask_Attenuation"),
              std::string::npos);
    EXPECT_EQ(card["SceneCaptureComponent2D"]["Rotation_Pitch"]["value"], 90.0);
}

} // namespace
} // namespace snowcap
