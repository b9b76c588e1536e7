#pragma once
// Small helpers shared by the CPU and GL tests.

#include <filesystem>
#include <string>

namespace snowcap::test {

// The repository root (shaders/, config/, tests/ live below it).
std::filesystem::path sourceDir();

// A fresh, empty directory under the system temp dir, unique to the running test.
std::filesystem::path scratchDir();

// Writes `text` to `path`, creating parent directories.
void writeText(const std::filesystem::path& path, const std::string& text);

} // namespace snowcap::test
