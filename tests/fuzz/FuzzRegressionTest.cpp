// Every input kept under tests/fuzz/<target>/ (crashes and broken promises the fuzzers found,
// and the seeds that reach deep paths) replayed through the same checks as the libFuzzer
// targets, in the normal cpu suite: a fixed bug stays fixed without clang or libFuzzer.

#include "FuzzChecks.hpp"
#include "TestSupport.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <vector>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> casesOf(const std::string& target) {
    std::vector<fs::path> cases;
    for (const auto& entry : fs::directory_iterator(test::sourceDir() / "tests/fuzz" / target))
        if (entry.is_regular_file())
            cases.push_back(entry.path());
    std::sort(cases.begin(), cases.end());
    return cases;
}

std::vector<std::uint8_t> bytesOf(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(FuzzRegression, ConfigCasesKeepTheirPromises) {
    const auto cases = casesOf("config");
    ASSERT_FALSE(cases.empty());
    for (const fs::path& file : cases)
        EXPECT_EQ(fuzz::checkConfigInput(bytesOf(file)), "") << file;
}

TEST(FuzzRegression, MeshCasesKeepTheirPromises) {
    const auto cases = casesOf("mesh");
    ASSERT_FALSE(cases.empty());
    for (const fs::path& file : cases)
        EXPECT_EQ(fuzz::checkMeshInput(bytesOf(file)), "") << file;
}

// Good input and input rejected with a proper line both keep the promise; readers by magic.
TEST(FuzzRegression, ChecksAcceptGoodAndProperlyRejectedInput) {
    for (const std::string text : {"[run]\nfps = 60\n", "[run]\nfps = 'x'\n", "[\"a\\nb\"]\n"})
        EXPECT_EQ(fuzz::checkConfigInput(
                      {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}),
                  "")
            << text;
    EXPECT_EQ(fuzz::meshFormatHint(std::vector<std::uint8_t>{'g', 'l', 'T', 'F'}), "glb");
    EXPECT_EQ(fuzz::meshFormatHint(std::vector<std::uint8_t>{'v', ' ', '0'}), "obj");
}

} // namespace
} // namespace snowcap
