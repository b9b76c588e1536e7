#pragma once
// Shared by the *GLTest.cpp files: the binary's one headless context (tests/GLTestMain.cpp).

#include "platform/gl_context.hpp"

namespace snowcap::test {

const GlInfo& glInfo();

// Where a GL test's tolerance or golden image depends on the driver's arithmetic, it depends
// on this: llvmpipe (and the other CPU rasterisers) is what the tests were measured on, and its
// tolerances stay as strict as measured; a GPU may round differently (a half-float store to
// nearest where llvmpipe truncates, filtering weights of 8 sub-texel bits, its own sin, exp
// and pow), and gets its own, each with its reason beside it.
enum class VendorClass { Software, Hardware };
inline VendorClass vendorClass() {
    return isSoftwareRenderer(glInfo().renderer) ? VendorClass::Software : VendorClass::Hardware;
}
inline const char* vendorClassName() {
    return vendorClass() == VendorClass::Software ? "software" : "hardware";
}

} // namespace snowcap::test
