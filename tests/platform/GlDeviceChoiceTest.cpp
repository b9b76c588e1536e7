// Which EGL device a headless context is made on: auto never takes a software rasteriser while
// another device gives a 4.5 context; a number takes that device or says why not.
#include "platform/gl_context.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

GlDevice device(int index, const std::string& renderer, bool usable = true) {
    GlDevice d;
    d.index = index;
    d.platform = index == 2 ? "egl-surfaceless" : "egl-device";
    d.gl.renderer = renderer;
    d.usable = usable;
    d.whyNot = usable ? "" : "the driver refused OpenGL 4.6 and 4.5 core";
    d.software = isSoftwareRenderer(renderer);
    return d;
}

int chosen(const std::vector<GlDevice>& devices, const std::string& choice) {
    auto parsed = parseGlDeviceChoice(choice);
    EXPECT_TRUE(std::holds_alternative<GlDeviceChoice>(parsed)) << choice;
    auto result = chooseGlDevice(devices, std::get<GlDeviceChoice>(parsed));
    if (auto* error = std::get_if<ContextError>(&result)) {
        ADD_FAILURE() << error->message;
        return -1;
    }
    return std::get<ChosenGlDevice>(result).index;
}

TEST(GlDeviceChoice, KnowsTheSoftwareRasterisers) {
    EXPECT_TRUE(isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(isSoftwareRenderer("softpipe"));
    EXPECT_TRUE(isSoftwareRenderer("Mesa X11 swrast"));
    EXPECT_FALSE(isSoftwareRenderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
    EXPECT_FALSE(isSoftwareRenderer("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.7)"));
}

// Mesa lists its software device first on the device platform, beside the GPU's.
TEST(GlDeviceChoice, AutoPassesSoftwareByWhenAGpuWorks) {
    const std::vector<GlDevice> devices = {device(0, "llvmpipe (LLVM 15.0.6, 256 bits)"),
                                           device(1, "NVIDIA H100 80GB HBM3/PCIe/SSE2"),
                                           device(2, "llvmpipe (LLVM 15.0.6, 256 bits)")};
    EXPECT_EQ(chosen(devices, "auto"), 1);
    EXPECT_EQ(chosen(devices, ""), 1);
    auto result = chooseGlDevice(devices, {});
    EXPECT_NE(std::get<ChosenGlDevice>(result).reason.find("passing software device 0"),
              std::string::npos)
        << std::get<ChosenGlDevice>(result).reason;
}

TEST(GlDeviceChoice, AutoTakesSoftwareOnlyWhenNothingElseWorks) {
    const std::vector<GlDevice> devices = {device(0, "NVIDIA (too old)", false),
                                           device(1, "llvmpipe (LLVM 15.0.6, 256 bits)"),
                                           device(2, "llvmpipe (LLVM 15.0.6, 256 bits)")};
    EXPECT_EQ(chosen(devices, "auto"), 1);
}

TEST(GlDeviceChoice, ANumberTakesThatDeviceEvenSoftware) {
    const std::vector<GlDevice> devices = {device(0, "llvmpipe (LLVM 15.0.6, 256 bits)"),
                                           device(1, "NVIDIA H100 80GB HBM3/PCIe/SSE2")};
    EXPECT_EQ(chosen(devices, "0"), 0);
    EXPECT_EQ(chosen(devices, "1"), 1);
}

TEST(GlDeviceChoice, ImpossibleChoicesSayWhy) {
    const std::vector<GlDevice> devices = {device(0, "NVIDIA", false)};
    auto missing = chooseGlDevice(devices, {3});
    ASSERT_TRUE(std::holds_alternative<ContextError>(missing));
    EXPECT_EQ(std::get<ContextError>(missing).message,
              "GL device 3: there are 1 (numbered from 0; `snowcap gl-info` lists them)");
    auto refused = chooseGlDevice(devices, {0});
    ASSERT_TRUE(std::holds_alternative<ContextError>(refused));
    EXPECT_NE(std::get<ContextError>(refused).message.find("egl-device: the driver refused"),
              std::string::npos);
    for (const char* bad : {"-1", "x", "1x", "auto2"})
        EXPECT_TRUE(std::holds_alternative<ContextError>(parseGlDeviceChoice(bad))) << bad;
    EXPECT_EQ(std::get<GlDeviceChoice>(parseGlDeviceChoice("2")).index, 2);
    EXPECT_EQ(std::get<GlDeviceChoice>(parseGlDeviceChoice("auto")).index, -1);
}

} // namespace
} // namespace snowcap
