// shape = "mesh" bodies (docs/physics.md, section 3.1): the convex hull of a mesh file, in the
// frame and units of the drawn mesh. A box mesh rests as a box body of the same size does; a
// tetrahedron from a file comes to rest on the ground with its drawn mesh where Bullet has it;
// the same run twice gives the same poses bit for bit; bad input is one line naming the key.
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "physics/PhysicsWorldSupport.hpp"
#include "physics/physics_world.hpp"

#include <algorithm>
#include <cstring>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>
#include <limits>

namespace snowcap {
namespace {

using test::failure;
using test::made;

constexpr double kGroundZCm = -30.0; // test::physicsSnow: top at 0, 30 cm deep

std::string dataFile(const std::string& name) {
    return (test::sourceDir() / "tests/data" / name).string();
}

BodySettings meshBody(const std::string& name, const std::string& file, glm::vec3 at) {
    BodySettings body;
    body.name = name;
    body.shape = BodyShape::Mesh;
    body.mesh = dataFile(file);
    body.massKg = 5.0;
    body.positionCm = at;
    body.restitution = 0.0;
    return body;
}

Settings settingsWith(std::vector<BodySettings> bodies) {
    Settings settings = test::physicsSnow();
    settings.bodies = std::move(bodies);
    return settings;
}

// The lowest point of the body's drawn mesh where the world has put it.
double lowestDrawnZCm(const PhysicsWorld& world, std::size_t body) {
    const glm::mat4 model = world.modelOf(body);
    double lowest = std::numeric_limits<double>::infinity();
    for (const glm::vec3& p : world.bodies()[body].mesh->mesh.positions)
        lowest = std::min(lowest, double((model * glm::vec4(p, 1.0f)).z));
    return lowest;
}

TEST(MeshBody, ABoxMeshRestsAsABoxBodyOfTheSameSizeDoes) {
    BodySettings box;
    box.name = "box";
    box.shape = BodyShape::Box;
    box.sizeCm = {20.0f, 15.0f, 10.0f};
    box.massKg = 5.0;
    box.positionCm = {-100.0f, 0.0f, 30.0f};
    box.restitution = 0.0;
    // The file's box once imported (OBJ: metres, +Y up) is 40 x 30 x 20 cm.
    const BodySettings hull = meshBody("hull", "box_40x30x20cm.obj", {100.0f, 0.0f, 30.0f});
    auto world = made(settingsWith({box, hull}));
    ASSERT_TRUE(world);
    // Drawn in the body's frame, centred on its centre of mass, as the box's mesh is.
    const Aabb drawn = world->bodies()[1].mesh->mesh.bounds();
    for (int axis = 0; axis < 3; ++axis) {
        EXPECT_NEAR(drawn.min[axis], -box.sizeCm[axis], 1e-4) << axis;
        EXPECT_NEAR(drawn.max[axis], box.sizeCm[axis], 1e-4) << axis;
    }
    world->stepTo(2.0);
    ASSERT_TRUE(world->resting(0));
    ASSERT_TRUE(world->resting(1));
    const double boxZ = world->positionCm(0).z, hullZ = world->positionCm(1).z;
    EXPECT_NEAR(boxZ, kGroundZCm + 10.0, 0.5);
    // The hull is shrunk by its margin as the box keeps its margin inside its sides: the same
    // rest height within a millimetre, and upright as the box.
    EXPECT_NEAR(hullZ, boxZ, 0.1);
    EXPECT_NEAR(world->modelOf(1)[2].z, 1.0f, 1e-3f);
    EXPECT_NEAR(lowestDrawnZCm(*world, 1), kGroundZCm, 0.5);
}

TEST(MeshBody, ATetrahedronFromAFileComesToRestOnTheGroundWhereItIsDrawn) {
    BodySettings tetrahedron = meshBody("tet", "tetrahedron.obj", {0.0f, 0.0f, 30.0f});
    tetrahedron.rotationDeg = {35.0f, 20.0f, 10.0f};
    tetrahedron.spinDegS = {0.0f, 90.0f, 0.0f};
    auto world = made(settingsWith({tetrahedron}));
    ASSERT_TRUE(world);
    const BodyMesh& mesh = *world->bodies()[0].mesh;
    // Edges of 30 cm from one corner: 30^3 / 6 cm3, its centre of mass (the hull's centroid,
    // which for a tetrahedron is the mean of its corners) at the origin of the drawn mesh.
    EXPECT_NEAR(mesh.volumeCm3, 4500.0, 1e-2);
    ASSERT_EQ(mesh.hullCm.size(), 4u);
    glm::vec3 mean(0.0f);
    for (const glm::vec3& corner : mesh.hullCm)
        mean += 0.25f * corner;
    EXPECT_LT(glm::length(mean), 1e-4f);
    world->stepTo(4.0);
    EXPECT_TRUE(world->resting(0));
    // On the ground under the snow: its drawn mesh's lowest point there, within the margin.
    EXPECT_NEAR(lowestDrawnZCm(*world, 0), kGroundZCm, 0.5);
    EXPECT_GT(lowestDrawnZCm(*world, 0), kGroundZCm - 0.5);
}

TEST(MeshBody, AHullOfManyVerticesIsSimplifiedAndStillRestsAtItsSize) {
    // The bundled sphere: 50 cm across, a UV sphere whose hull has more vertices than Bullet's
    // shape keeps (256), so btShapeHull simplifies it; the simplified hull lies inside.
    BodySettings ball = meshBody("ball", "", {0.0f, 0.0f, 20.0f});
    ball.mesh = "assets/meshes/sphere.glb"; // from the repository root, as a scenario names it
    auto world = made(settingsWith({ball}));
    ASSERT_TRUE(world);
    EXPECT_GT(world->bodies()[0].mesh->hullCm.size(), 256u);
    world->stepTo(3.0);
    EXPECT_TRUE(world->resting(0));
    // Its centre a radius above the ground, less what the facets and the simplification cut.
    EXPECT_NEAR(world->positionCm(0).z, kGroundZCm + 25.0, 1.0);
    EXPECT_LT(world->positionCm(0).z, kGroundZCm + 25.0 + 0.01);
}

TEST(MeshBody, TheSameRunTwiceGivesTheSamePosesBitForBit) {
    BodySettings tetrahedra = meshBody("tet", "tetrahedron.obj", {0.0f, 0.0f, 60.0f});
    tetrahedra.count = 6;
    tetrahedra.spacingCm = 50.0;
    tetrahedra.rotationSpreadDeg = 60.0;
    tetrahedra.velocityCmS = {100.0f, 0.0f, 0.0f};
    tetrahedra.velocitySpreadCmS = 150.0;
    BodySettings boxes = meshBody("box", "box_40x30x20cm.obj", {0.0f, 250.0f, 60.0f});
    boxes.count = 4;
    boxes.spacingCm = 60.0;
    boxes.rotationSpreadDeg = 45.0;
    std::vector<std::vector<glm::mat4>> runs;
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto world = made(settingsWith({tetrahedra, boxes}));
        ASSERT_TRUE(world);
        std::vector<glm::mat4> poses;
        for (int frame = 1; frame <= 120; ++frame) {
            world->stepTo(frame / 60.0);
            for (std::size_t b = 0; b < world->bodyCount(); ++b)
                poses.push_back(world->modelOf(b));
        }
        runs.push_back(std::move(poses));
    }
    ASSERT_EQ(runs[0].size(), runs[1].size());
    EXPECT_EQ(std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(glm::mat4)), 0);
    // They moved: the last frame is not the first.
    EXPECT_NE(runs[0].front(), runs[0].back());
}

TEST(MeshBody, AnEntrysMembersShareOneHullAndOneMeshKey) {
    BodySettings boxes = meshBody("box", "box_40x30x20cm.obj", {0.0f, 0.0f, 60.0f});
    boxes.count = 3;
    boxes.spacingCm = 60.0;
    auto world = made(settingsWith({boxes}));
    ASSERT_TRUE(world);
    ASSERT_EQ(world->bodyCount(), 3u);
    EXPECT_EQ(world->bodies()[0].mesh, world->bodies()[2].mesh);
    const Deformer first = bodyDeformer(world->bodies()[0]);
    const Deformer last = bodyDeformer(world->bodies()[2]);
    EXPECT_EQ(first.meshKey, last.meshKey);
    EXPECT_EQ(first.mesh.positions.size(), world->bodies()[0].mesh->mesh.positions.size());
}

// ---- bad input: one line naming the key, and no world ------------------------------------

TEST(MeshBody, AMissingFileIsOneLineNamingTheKey) {
    const std::string error =
        failure(settingsWith({meshBody("lost", "no_such_mesh.obj", {0.0f, 0.0f, 30.0f})}));
    EXPECT_EQ(error.rfind("key 'body[0].mesh': ", 0), 0u) << error;
    EXPECT_NE(error.find("no_such_mesh.obj"), std::string::npos) << error;
    EXPECT_NE(error.find("cannot open file"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(MeshBody, AMeshWithNoVolumeIsOneLineNamingTheKey) {
    BodySettings sheet = meshBody("sheet", "flat_square.obj", {0.0f, 0.0f, 30.0f});
    const std::string error =
        failure(settingsWith({test::sphereBody("ball", {-100.0f, 0.0f, 30.0f}), sheet}));
    EXPECT_EQ(error, "key 'body[1].mesh': " + sheet.mesh +
                         ": its convex hull has no volume (its 4 vertices lie in one plane or "
                         "on a line), so it cannot be a rigid body");
}

TEST(MeshBody, ShapeMeshWithoutAMeshAndAMeshOnAnotherShapeAreOneLineEach) {
    BodySettings bare = meshBody("bare", "tetrahedron.obj", {0.0f, 0.0f, 30.0f});
    bare.mesh.clear();
    EXPECT_EQ(failure(settingsWith({bare})),
              "key 'body[0].shape': shape = \"mesh\" needs a mesh file (mesh = \"PATH\")");
    BodySettings boxed = meshBody("boxed", "tetrahedron.obj", {0.0f, 0.0f, 30.0f});
    boxed.shape = BodyShape::Box;
    EXPECT_EQ(failure(settingsWith({boxed})),
              "key 'body[0].mesh': only a body of shape = \"mesh\" takes a mesh file, this one's "
              "shape is another");
}

std::string configError(const std::string& text) {
    auto loaded = loadSettingsFromText(text, "bodies.toml");
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    ADD_FAILURE() << "loaded";
    return {};
}

TEST(MeshBodyConfig, TheReaderNamesTheFileLineAndKey) {
    EXPECT_EQ(configError("[[body]]\nname = 'b'\nshape = 'mesh'\n"),
              "bodies.toml:3:9: key 'body[0].shape': shape = \"mesh\" needs a mesh file (mesh = "
              "\"PATH\")");
    EXPECT_EQ(configError("[[body]]\nname = 'b'\nshape = 'box'\nmesh = 'rock.obj'\n"),
              "bodies.toml:4:8: key 'body[0].mesh': only a body of shape = \"mesh\" takes a mesh "
              "file, this one's shape is another");
    auto loaded = loadSettingsFromText(
        "[[body]]\nname = 'rock'\nshape = 'mesh'\nmesh = 'rock.obj'\n", "bodies.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded));
    EXPECT_EQ(std::get<Settings>(loaded).bodies[0].shape, BodyShape::Mesh);
    EXPECT_EQ(std::get<Settings>(loaded).bodies[0].mesh, "rock.obj");
}

} // namespace
} // namespace snowcap
