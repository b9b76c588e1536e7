// kind = "mesh" and terrain.mesh_file (snow/terrain_mesh.hpp, docs/terrain_files.md): a mesh
// rasterised from above into the height field on the GPU, the higher of it and the ground
// beneath winning, against a CPU reference that intersects every sample's vertical line with
// every triangle; and mesh files that cannot be terrain, one line each.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "scene/model_import.hpp"
#include "snow/terrain_mesh.hpp"
#include "terrain/terrain.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <sys/stat.h>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

// The reference: at each sample's cell centre, the highest z of any triangle whose closed
// footprint holds the point (barycentric, in doubles), over the base's height.
HeightField cpuReference(const HeightField& base, const Mesh& mesh) {
    std::vector<float> heights = base.heightsM();
    const glm::dvec2 low = base.centreCm() - 0.5 * base.sizeCm();
    const glm::dvec2 cell = base.cellCm();
    for (int row = 0; row < base.rows(); ++row)
        for (int column = 0; column < base.columns(); ++column) {
            const glm::dvec2 p(low.x + (column + 0.5) * cell.x,
                               low.y + (base.rows() - row - 0.5) * cell.y);
            double highest = -std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
                const glm::dvec3 a(mesh.positions[mesh.indices[i]]);
                const glm::dvec3 b(mesh.positions[mesh.indices[i + 1]]);
                const glm::dvec3 c(mesh.positions[mesh.indices[i + 2]]);
                const double area = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
                if (std::abs(area) < 1e-9)
                    continue; // seen edge-on from above
                const double wb = ((p.x - a.x) * (c.y - a.y) - (c.x - a.x) * (p.y - a.y)) / area;
                const double wc = ((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)) / area;
                const double wa = 1.0 - wb - wc;
                if (wa < 0.0 || wb < 0.0 || wc < 0.0)
                    continue;
                highest = std::max(highest, wa * a.z + wb * b.z + wc * c.z);
            }
            float& h = heights[std::size_t(row) * base.columns() + column];
            if (std::isfinite(highest))
                h = std::max(h, float(highest / 100.0));
        }
    return HeightField(base.columns(), base.rows(), std::move(heights), base.centreCm(),
                       base.sizeCm());
}

// A tilted ground (0.2 m per 10 m eastward, 0.5 m at the centre) of 47 x 41 samples over
// 9.4 x 8.2 m centred off the origin: cells of 20 cm.
HeightField tiltedGround() {
    std::vector<float> heights;
    for (int row = 0; row < 41; ++row)
        for (int column = 0; column < 47; ++column)
            heights.push_back(0.5f + 0.02f * float(column - 23) * 0.2f);
    return HeightField(47, 41, std::move(heights), glm::dvec2(130.0, -70.0),
                       glm::dvec2(940.0, 820.0));
}

// A ramp crossing the ground and a block standing in its upper half, corners off the samples'
// cell centres (world cm, Z up): part of the ramp is under the ground, part of the block under
// the ramp.
Mesh rampAndBlock() {
    Mesh mesh;
    const auto quad = [&](glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
        const auto first = std::uint32_t(mesh.positions.size());
        mesh.positions.insert(mesh.positions.end(), {a, b, c, d});
        mesh.indices.insert(mesh.indices.end(),
                            {first, first + 1, first + 2, first, first + 2, first + 3});
    };
    quad({-263.3f, -201.7f, 0.0f}, {291.1f, -201.7f, 180.0f}, {291.1f, 137.9f, 180.0f},
         {-263.3f, 137.9f, 0.0f});
    quad({101.3f, -90.7f, 135.0f}, {233.9f, -90.7f, 135.0f}, {233.9f, 44.1f, 135.0f},
         {101.3f, 44.1f, 135.0f});
    mesh.normals.assign(mesh.positions.size(), glm::vec3(0, 0, 1));
    return mesh;
}

struct TerrainMeshFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
};

TEST_F(TerrainMeshFixture, TheHigherOfTheMeshAndTheGroundWinsAtEverySample) {
    const HeightField ground = tiltedGround();
    const Mesh mesh = rampAndBlock();
    auto drawn = rasteriseTerrainMesh(ground, mesh, shaders);
    ASSERT_TRUE(std::holds_alternative<HeightField>(drawn)) << std::get<std::string>(drawn);
    const HeightField& gpu = std::get<HeightField>(drawn);
    const HeightField cpu = cpuReference(ground, mesh);
    ASSERT_EQ(gpu.columns(), cpu.columns());
    ASSERT_EQ(gpu.rows(), cpu.rows());
    int onMesh = 0, onBlock = 0, onGround = 0;
    double worstCm = 0.0;
    for (int row = 0; row < cpu.rows(); ++row)
        for (int column = 0; column < cpu.columns(); ++column) {
            const double expected = cpu.sampleM(column, row);
            worstCm = std::max(worstCm, std::abs(gpu.sampleM(column, row) - expected) * 100.0);
            if (expected == ground.sampleM(column, row))
                ++onGround;
            else if (std::abs(expected - 1.35) < 1e-6)
                ++onBlock;
            else
                ++onMesh;
        }
    std::cout << "mesh terrain: " << onMesh << " samples on the ramp, " << onBlock
              << " on the block, " << onGround << " on the ground; worst " << worstCm
              << " cm from the CPU reference\n";
    // Float interpolation of z across a triangle 5.5 m wide against doubles: well under 0.01 cm.
    EXPECT_LT(worstCm, 0.01);
    EXPECT_GT(onMesh, 100);
    EXPECT_GT(onBlock, 10); // 133 x 135 cm of 20 cm cells, part of it under the ramp
    EXPECT_GT(onGround, 100);
}

Settings meshTerrain(const std::string& file) {
    Settings settings;
    settings.terrain.kind = TerrainKind::Mesh;
    settings.terrain.file = file;
    settings.terrain.sizeM = {8.0, 6.0};
    settings.terrain.meshCellCm = 10.0;
    settings.terrain.centreCm = {-40.0, 25.0};
    return settings;
}

TEST_F(TerrainMeshFixture, AMeshFileIsImportedPlacedAndRasterised) {
    const fs::path file = test::sourceDir() / "tests/data/terrain/ramp_block.obj";
    Settings settings = meshTerrain(file.string());
    settings.terrain.meshOffsetCm = {30.0, 0.0, 12.0};
    auto loaded = loadTerrainWithMesh(settings, test::sourceDir(), shaders);
    ASSERT_TRUE(std::holds_alternative<HeightField>(loaded)) << std::get<std::string>(loaded);
    const HeightField& field = std::get<HeightField>(loaded);
    EXPECT_EQ(field.columns(), 80);
    EXPECT_EQ(field.rows(), 60);
    // The same import as the terrain's: centred on centre_cm, lowest at 0, then the offset.
    ImportOptions options;
    options.offsetCm = {-10.0f, 25.0f, 12.0f};
    auto imported = importModel(file, options);
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(imported));
    const Mesh& mesh = std::get<ImportedModel>(imported).mesh;
    EXPECT_NEAR(mesh.bounds().max.z, 162.0f, 1e-3f); // the ramp's top, 1.5 m, raised 12 cm
    const HeightField cpu =
        cpuReference(std::get<HeightField>(meshBaseField(settings.terrain)), mesh);
    double worstCm = 0.0;
    for (int row = 0; row < cpu.rows(); ++row)
        for (int column = 0; column < cpu.columns(); ++column)
            worstCm = std::max(
                worstCm, std::abs(field.sampleM(column, row) - cpu.sampleM(column, row)) * 100.0);
    EXPECT_LT(worstCm, 0.01);
    EXPECT_NEAR(field.spanCm().highCm, 162.0, 2.0); // the ramp's top edge, within a cell's rise
}

TEST_F(TerrainMeshFixture, MeshFilesThatCannotBeTerrainAreOneLineEach) {
    const fs::path dir = test::scratchDir();
    std::ofstream(dir / "nan.obj") << "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    std::ofstream(dir / "text.glb") << "this is not a glTF binary";
    {
        // A glTF binary header that claims 2 GiB of content and holds 12 bytes.
        std::ofstream glb(dir / "short.glb", std::ios::binary);
        const std::uint32_t header[3] = {0x46546C67u, 2u, 0x7FFFFFF0u};
        glb.write(reinterpret_cast<const char*>(header), sizeof header);
    }
    std::ofstream(dir / "empty.obj") << "# no faces\n";
    ASSERT_EQ(mkfifo((dir / "pipe.obj").c_str(), 0600), 0);
    const std::vector<fs::path> bad = {dir / "missing.obj", dir,
                                       dir / "pipe.obj",    dir / "nan.obj",
                                       dir / "text.glb",    dir / "short.glb",
                                       dir / "empty.obj"};
    for (const fs::path& file : bad) {
        const auto started = std::chrono::steady_clock::now();
        auto loaded = loadTerrainWithMesh(meshTerrain(file.string()), {}, shaders);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        ASSERT_TRUE(std::holds_alternative<std::string>(loaded)) << file;
        const std::string& line = std::get<std::string>(loaded);
        std::cout << line << "\n";
        EXPECT_EQ(line.find('\n'), std::string::npos) << line;
        EXPECT_EQ(line.rfind("key 'terrain.file': ", 0), 0u) << line;
        EXPECT_NE(line.find(file.filename().string()), std::string::npos) << line;
        EXPECT_LT(seconds, 2.0) << line;
    }

    // The second key over no terrain, and a mesh grid past the side limit.
    Settings flat;
    flat.terrain.meshFile = (test::sourceDir() / "tests/data/terrain/ramp_block.obj").string();
    auto overFlat = loadTerrainWithMesh(flat, {}, shaders);
    ASSERT_TRUE(std::holds_alternative<std::string>(overFlat));
    EXPECT_EQ(std::get<std::string>(overFlat).rfind("key 'terrain.mesh_file': ", 0), 0u);
    Settings huge = meshTerrain(flat.terrain.meshFile);
    huge.terrain.sizeM = {5000.0, 10.0};
    huge.terrain.meshCellCm = 1.0;
    auto tooMany = loadTerrainWithMesh(huge, {}, shaders);
    ASSERT_TRUE(std::holds_alternative<std::string>(tooMany));
    EXPECT_NE(std::get<std::string>(tooMany).find("at most 16384 a side"), std::string::npos)
        << std::get<std::string>(tooMany);
}

TEST_F(TerrainMeshFixture, AMeshOverAHeightmapTakesTheHeightmapsSamples) {
    Settings settings;
    settings.terrain.kind = TerrainKind::Heightmap;
    settings.terrain.file = (test::sourceDir() / "tests/data/terrain/ridge.png").string();
    settings.terrain.sizeM = {640.0, 480.0};
    settings.terrain.heightRangeM = {0.0, 1.0};
    settings.terrain.meshFile = "tests/data/terrain/ramp_block.obj";
    // The ramp's middle (0.75 m up its slope) a metre higher, on the cell centre at (5, 5) m:
    // column 32, row 23 of the ridge's 10 m cells. The ridge is at most 1 m high.
    settings.terrain.meshOffsetCm = {500.0, 500.0, 100.0};
    auto loaded = loadTerrainWithMesh(settings, test::sourceDir(), shaders);
    ASSERT_TRUE(std::holds_alternative<HeightField>(loaded)) << std::get<std::string>(loaded);
    auto ground = loadTerrain(settings.terrain, test::sourceDir());
    const HeightField& base = std::get<HeightField>(ground);
    const HeightField& field = std::get<HeightField>(loaded);
    ASSERT_EQ(field.columns(), base.columns());
    ASSERT_EQ(field.rows(), base.rows());
    EXPECT_EQ(field.centreCm(), base.centreCm());
    EXPECT_EQ(field.sizeCm(), base.sizeCm());
    for (int row = 0; row < base.rows(); ++row)
        for (int column = 0; column < base.columns(); ++column)
            if (column == 32 && row == 23)
                EXPECT_NEAR(field.sampleM(column, row), 1.75, 1e-4);
            else // the ramp covers no other cell centre
                EXPECT_EQ(field.sampleM(column, row), base.sampleM(column, row));
}

} // namespace
} // namespace snowcap
