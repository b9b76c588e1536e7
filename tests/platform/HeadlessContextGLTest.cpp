#include "GLTestSupport.hpp"

#include <glad/gl.h>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(HeadlessContext, ReportsCoreProfileAtLeast45) {
    const GlInfo& info = test::glInfo();
    EXPECT_GE(info.major * 10 + info.minor, 45) << info.version;
    EXPECT_FALSE(info.renderer.empty());
    EXPECT_FALSE(info.vendor.empty());
    EXPECT_TRUE(info.platform == "egl-device" || info.platform == "egl-surfaceless")
        << info.platform;
    GLint profile = 0;
    glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
    EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT);
    RecordProperty("renderer", info.renderer);
    RecordProperty("version", info.version);
}

} // namespace
} // namespace snowcap
