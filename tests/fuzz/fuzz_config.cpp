// libFuzzer target: the config/scenario parser (toml++ and our schema) on arbitrary bytes.
// Built with -DSNOWCAP_FUZZ=ON; run with tools/fuzz config SECONDS.
#include "FuzzChecks.hpp"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string problem = snowcap::fuzz::checkConfigInput({data, size});
    if (!problem.empty()) {
        std::fprintf(stderr, "broken promise: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
