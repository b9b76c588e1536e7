// libFuzzer target: mesh import from memory (our pre-read checks, Assimp, our scene walk and
// placement) on arbitrary bytes. Built with -DSNOWCAP_FUZZ=ON; run with tools/fuzz mesh SECONDS.
#include "FuzzChecks.hpp"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string problem = snowcap::fuzz::checkMeshInput({data, size});
    if (!problem.empty()) {
        std::fprintf(stderr, "broken promise: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
