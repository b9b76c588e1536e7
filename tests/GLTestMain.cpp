// Entry point of the GL test binary: one headless context for every test in it.
#include "GLTestSupport.hpp"

#include <cstdio>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

namespace snowcap::test {

namespace {
std::unique_ptr<HeadlessContext> gContext;
}

const GlInfo& glInfo() {
    return gContext->info();
}

} // namespace snowcap::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    // Test discovery only lists names: no context needed for that.
    if (::testing::GTEST_FLAG(list_tests))
        return RUN_ALL_TESTS();
    spdlog::set_level(spdlog::level::warn);
    auto context = snowcap::HeadlessContext::create(true);
    if (auto* error = std::get_if<snowcap::ContextError>(&context)) {
        std::fprintf(stderr, "no headless GL context: %s\n", error->message.c_str());
        return 2;
    }
    snowcap::test::gContext = std::move(std::get<0>(context));
    const int result = RUN_ALL_TESTS();
    snowcap::test::gContext.reset();
    return result;
}
