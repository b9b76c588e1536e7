#pragma once
// Where snowcap finds its resources (config/, shaders/, assets/).

#include <filesystem>

namespace snowcap {

// The repository root that holds config/, shaders/ and assets/: $SNOWCAP_ROOT when set, else
// the source tree this binary was built from.
std::filesystem::path resourceRoot();

} // namespace snowcap
