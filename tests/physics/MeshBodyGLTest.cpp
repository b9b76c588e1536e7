// shape = "mesh" bodies on the snow for real (a 128² field on the driver): they press the snow
// as their drawn mesh, instanced by entry; the same run twice gives byte-identical buffers; a
// bad mesh fails the lab with one line and builds nothing.
#include "TestSupport.hpp"
#include "lab/run_stats.hpp"
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

Settings smallField(double fps) {
    Settings settings = test::physicsSnow();
    settings.run.fps = fps;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 256.0;
    settings.snow.regionCentreCm = {0.0, 0.0};
    return settings;
}

BodySettings meshBody(const std::string& name, const std::string& file, glm::vec3 at) {
    BodySettings body;
    body.name = name;
    body.shape = BodyShape::Mesh;
    body.mesh = (test::sourceDir() / "tests/data" / file).string();
    body.massKg = 5.0;
    body.positionCm = at;
    return body;
}

std::vector<BodySettings> tumblingMeshes() {
    BodySettings tetrahedra = meshBody("tet", "tetrahedron.obj", {-50.0f, -40.0f, 50.0f});
    tetrahedra.count = 3;
    tetrahedra.spacingCm = 45.0;
    tetrahedra.rotationSpreadDeg = 60.0;
    tetrahedra.velocityCmS = {150.0f, 0.0f, 0.0f};
    tetrahedra.velocitySpreadCmS = 80.0;
    BodySettings boxes = meshBody("box", "box_40x30x20cm.obj", {0.0f, 50.0f, 60.0f});
    boxes.count = 2;
    boxes.spacingCm = 60.0;
    boxes.rotationSpreadDeg = 40.0;
    return {tetrahedra, boxes};
}

// Texels of the buffer above the threshold.
long long pressed(const ImageFloat& image, float threshold) {
    long long count = 0;
    for (float v : image.values)
        count += v > threshold ? 1 : 0;
    return count;
}

TEST(MeshBodyGL, TheSameRunTwiceGivesByteIdenticalBuffers) {
    for (double fps : {60.0, 144.0}) {
        SCOPED_TRACE(fps);
        std::vector<std::vector<ImageFloat>> buffers;
        for (int attempt = 0; attempt < 2; ++attempt) {
            Settings settings = smallField(fps);
            settings.bodies = tumblingMeshes();
            auto lab = test::makeLab(settings, "mesh_bodies");
            ASSERT_TRUE(lab);
            test::run(*lab, 1.5);
            buffers.push_back(test::readAllPersistent(lab->field()));
        }
        test::expectSameBytes(buffers[0], buffers[1]);
        for (std::size_t s = 0; s < buffers[0].size(); ++s) // not an empty field: they pressed
            EXPECT_GT(pressed(buffers[0][s], 0.01f), 100) << "sim " << s;
    }
}

TEST(MeshBodyGL, ARestingBoxMeshPressesItsFootprint) {
    Settings settings = smallField(60.0);
    settings.bodies = {meshBody("box", "box_40x30x20cm.obj", {0.0f, 0.0f, 20.0f})};
    auto lab = test::makeLab(settings, "mesh_bodies");
    ASSERT_TRUE(lab);
    test::run(*lab, 2.0);
    ASSERT_TRUE(lab->physics()->resting(0));
    // Its deformer is where the body is.
    ASSERT_EQ(lab->instances().size(), 1u);
    EXPECT_NEAR(lab->instances()[0].model[3].z, lab->physics()->positionCm(0).z, 1e-4);
    // 40 x 30 cm on 2 cm texels: 20 x 15 texels pressed, within its rim of texels.
    const ImageFloat buffer = readPersistent(lab->field().sim(0));
    EXPECT_NEAR(double(pressed(buffer, 0.01f)), 300.0, 2.0 * (20 + 15) + 4);
}

TEST(MeshBodyGL, ABadMeshFailsTheLabWithOneLine) {
    Settings settings = smallField(60.0);
    settings.bodies = {meshBody("sheet", "flat_square.obj", {0.0f, 0.0f, 20.0f})};
    auto created = Lab::create(settings, "mesh_bodies", {}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::string>(created));
    const std::string& error = std::get<std::string>(created);
    EXPECT_EQ(error.rfind("key 'body[0].mesh': ", 0), 0u) << error;
    EXPECT_NE(error.find("no volume"), std::string::npos) << error;
}

} // namespace
} // namespace snowcap
