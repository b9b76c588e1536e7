#include "TestSupport.hpp"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>

namespace snowcap::test {

std::filesystem::path sourceDir() {
    if (const char* dir = std::getenv("SNOWCAP_SOURCE_DIR"))
        return dir;
    return SNOWCAP_SOURCE_DIR;
}

std::filesystem::path scratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "snowcap-test";
    if (info)
        name += std::string("-") + info->test_suite_name() + "-" + info->name();
    for (char& c : name)
        if (c == '/')
            c = '_';
    auto dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

void writeText(const std::filesystem::path& path, const std::string& text) {
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace snowcap::test
