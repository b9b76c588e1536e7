#pragma once
// Shared by the *GLTest.cpp files: the binary's one headless context (tests/GLTestMain.cpp).

#include "platform/gl_context.hpp"

namespace snowcap::test {

const GlInfo& glInfo();

} // namespace snowcap::test
