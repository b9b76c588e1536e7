// Bounded imports: the child process's memory and time caps, the header-count checks that refuse
// impossible claims at once, and the parent's distrust of what comes back over the pipe.

#include "TestSupport.hpp"
#include "scene/model_import.hpp"
#include "scene/model_wire.hpp"

#include <chrono>
#include <gtest/gtest.h>
#include <string>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::string errorOf(const std::variant<ImportedModel, std::string>& result) {
    const auto* error = std::get_if<std::string>(&result);
    return error ? *error : std::string("(imported)");
}

// A grid of 2 x cells^2 triangles as ASCII OBJ: valid, and as big as asked for.
std::string gridObj(int cells) {
    std::string text;
    for (int y = 0; y <= cells; ++y)
        for (int x = 0; x <= cells; ++x)
            text += "v " + std::to_string(x) + " 0 " + std::to_string(y) + "\n";
    auto at = [&](int x, int y) {
        return std::to_string(y * (cells + 1) + x + 1);
    };
    for (int y = 0; y < cells; ++y)
        for (int x = 0; x < cells; ++x)
            text += "f " + at(x, y) + " " + at(x + 1, y) + " " + at(x + 1, y + 1) + " " +
                    at(x, y + 1) + "\n";
    return text;
}

TEST(ImportBounds, ValidFileComesBackThroughTheChildUnchanged) {
    const fs::path biped = test::sourceDir() / "assets/meshes/biped.glb";
    auto bounded = importModel(biped);
    auto direct = import_detail::importInProcess(biped, {});
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(bounded)) << errorOf(bounded);
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(direct));
    const ImportedModel& a = std::get<ImportedModel>(bounded);
    const ImportedModel& b = std::get<ImportedModel>(direct);
    EXPECT_EQ(a.mesh.positions, b.mesh.positions);
    EXPECT_EQ(a.mesh.indices, b.mesh.indices);
    EXPECT_EQ(a.joints, b.joints);
    ASSERT_EQ(a.skeleton.joints.size(), b.skeleton.joints.size());
    EXPECT_EQ(a.skeleton.joints.back().name, b.skeleton.joints.back().name);
    ASSERT_EQ(a.clips.size(), b.clips.size());
    EXPECT_EQ(a.clips[0].channels.size(), b.clips[0].channels.size());
    EXPECT_EQ(a.conversion, b.conversion);
}

TEST(ImportBounds, MemoryCapStopsTheChild) {
    const fs::path file = test::scratchDir() / "grid.obj";
    test::writeText(file, gridObj(400)); // 320k triangles: far more than 16 MiB to import
    ImportOptions options;
    options.limits.maxMemoryMiB = 16;
    EXPECT_EQ(errorOf(importModel(file, options)),
              file.string() + ": needs more than 16 MiB to import (limit import.max_memory_mib)");
    options.limits.maxMemoryMiB = 2048; // and within the default it loads
    EXPECT_TRUE(std::holds_alternative<ImportedModel>(importModel(file, options)));
}

TEST(ImportBounds, TimeCapStopsTheChild) {
    const fs::path file = test::scratchDir() / "grid.obj";
    test::writeText(file, gridObj(200));
    ImportOptions options;
    options.limits.maxSeconds = 0.001;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(errorOf(importModel(file, options)),
              file.string() + ": takes more than 0.001 s to import (limit import.max_seconds)");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(ImportBounds, ImpossibleHeaderCountsAreRefusedBeforeReading) {
    const fs::path dir = test::scratchDir();
    // The shape of the public file: a few real vertices under a header claiming 3.5e11.
    std::string off = "OFF\n353535235358 1 0\n";
    while (off.size() < 300)
        off += "0 0 0\n";
    off += "3 0 1 2\n";
    test::writeText(dir / "huge.off", off);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(errorOf(importModel(dir / "huge.off")),
              (dir / "huge.off").string() +
                  ": header claims 353535235358 vertices, more than its " +
                  std::to_string(off.size()) + " bytes can hold");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));

    test::writeText(dir / "huge.ply", "ply\nformat binary_little_endian 1.0\nelement vertex "
                                      "4000000000\nproperty float x\nproperty float y\nproperty "
                                      "float z\nend_header\n0000");
    EXPECT_NE(errorOf(importModel(dir / "huge.ply")).find("header claims 4000000000 vertex items"),
              std::string::npos);
    // An honest header passes the check.
    test::writeText(dir / "tri.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 0 1\n3 0 1 2\n");
    EXPECT_TRUE(std::holds_alternative<ImportedModel>(importModel(dir / "tri.off")))
        << errorOf(importModel(dir / "tri.off"));
}

TEST(ImportBounds, LimitsMustBePositive) {
    ImportOptions options;
    options.limits.maxSeconds = 0;
    EXPECT_NE(errorOf(importModel("x.glb", options)).find("import.max_seconds must be"),
              std::string::npos);
}

// The parent decodes whatever the child sent: every truncation and a count that lies must be a
// reason, never a crash or an allocation the bytes cannot back.
TEST(ImportWire, TruncatedOrLyingBytesAreReasons) {
    auto loaded = import_detail::importInProcess(test::sourceDir() / "assets/meshes/biped.glb", {});
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(loaded));
    const std::string bytes = wire::encode(std::get<ImportedModel>(loaded));
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(wire::decode(bytes)));
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 7)
        EXPECT_TRUE(std::holds_alternative<std::string>(wire::decode(bytes.substr(0, cut))))
            << "cut at " << cut;
    std::string lying = bytes;
    lying[8 + 7] = '\x7f'; // the position count's top byte: ~9e18 vertices claimed
    EXPECT_EQ(errorOf(wire::decode(lying)), "the import's result is truncated or malformed");
    std::string badIndex = bytes;
    // The first triangle index (after magic, version, positions, normals and the index count).
    const auto& model = std::get<ImportedModel>(loaded);
    const std::size_t first =
        8 + 8 + model.mesh.positions.size() * 12 + 8 + model.mesh.normals.size() * 12 + 8;
    badIndex[first + 3] = '\x7f';
    EXPECT_EQ(errorOf(wire::decode(badIndex)),
              "the import's result is inconsistent (triangle index out of range)");
}

} // namespace
} // namespace snowcap
