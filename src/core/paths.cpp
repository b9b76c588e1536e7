#include "core/paths.hpp"

#include <cstdlib>

namespace snowcap {

std::filesystem::path resourceRoot() {
    if (const char* dir = std::getenv("SNOWCAP_ROOT"))
        return dir;
    return SNOWCAP_SOURCE_DIR;
}

} // namespace snowcap
