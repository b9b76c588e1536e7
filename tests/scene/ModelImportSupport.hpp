// What the model import tests share: the bundled meshes' paths, loading that fails the test on an
// unexpected result, and raw bytes in and out of scratch files.
#pragma once

#include "TestSupport.hpp"
#include "scene/model_import.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <string>

namespace snowcap::model_test {

namespace fs = std::filesystem;

inline fs::path meshFile(const std::string& name) {
    return test::sourceDir() / "assets" / "meshes" / name;
}

inline ImportedModel loadOk(const fs::path& path, const ImportOptions& options = {}) {
    auto result = importModel(path, options);
    if (const auto* error = std::get_if<std::string>(&result)) {
        ADD_FAILURE() << "unexpected import error: " << *error;
        return {};
    }
    return std::get<ImportedModel>(std::move(result));
}

inline std::string loadError(const fs::path& path, const ImportOptions& options = {}) {
    auto result = importModel(path, options);
    if (const auto* error = std::get_if<std::string>(&result))
        return *error;
    ADD_FAILURE() << path << " imported although it should not";
    return "";
}

inline std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

inline glm::vec3 sizeOf(const Aabb& box) {
    return box.max - box.min;
}

inline bool startsWith(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

} // namespace snowcap::model_test
