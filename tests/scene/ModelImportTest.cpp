// Model import: the bundled assets in both formats (units and axes proven both ways), the
// biped's walk, the per-deformer overrides and placement, and FBX units and axes. Bad files are
// in ModelImportBadFileTest.cpp.

#include "ModelImportSupport.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace snowcap {
namespace {

using namespace model_test;

// What the generator built, in cm (tools/make_assets.cpp): both formats must give these back.
struct Expected {
    const char* name;
    glm::vec3 sizeCm;
    std::size_t triangles;
};
const Expected kAssets[] = {
    {"boot", {30.0f, 11.0f, 26.0f}, 144},    {"wheels", {60.0f, 170.0f, 59.96f}, 624},
    {"paw", {16.0f, 16.0f, 20.0f}, 940},     {"sphere", {50.0f, 50.0f, 50.0f}, 960},
    {"sled", {145.98f, 56.0f, 41.51f}, 292}, {"biped", {31.0f, 38.0f, 170.0f}, 332},
};

TEST(ModelImport, BundledAssetsAgreeAcrossFormats) {
    for (const Expected& asset : kAssets) {
        SCOPED_TRACE(asset.name);
        const ImportedModel glb = loadOk(meshFile(std::string(asset.name) + ".glb"));
        const ImportedModel fbx = loadOk(meshFile(std::string(asset.name) + ".fbx"));
        EXPECT_EQ(glb.triangleCount(), asset.triangles);
        EXPECT_EQ(fbx.triangleCount(), glb.triangleCount());
        for (const ImportedModel* model : {&glb, &fbx}) {
            const glm::vec3 size = sizeOf(model->restBounds);
            for (int k = 0; k < 3; ++k) // 1%: both writers store 32-bit floats
                EXPECT_NEAR(size[k], asset.sizeCm[k], 0.01f * asset.sizeCm[k]) << "axis " << k;
            // Placement: standing on z = 0, centred on the origin in x and y.
            EXPECT_NEAR(model->restBounds.min.z, 0.0f, 1e-3f);
            EXPECT_NEAR(model->restBounds.min.x + model->restBounds.max.x, 0.0f, 1e-3f);
            EXPECT_NEAR(model->restBounds.min.y + model->restBounds.max.y, 0.0f, 1e-3f);
            EXPECT_EQ(model->mesh.normals.size(), model->mesh.positions.size());
            EXPECT_TRUE(model->warnings.empty()) << model->warnings.front();
            EXPECT_EQ(model->skinned(), std::string(asset.name) == "biped");
        }
        EXPECT_EQ(glb.sourceFormat, "glTF 2.0 binary (.glb)");
        EXPECT_EQ(fbx.sourceFormat, "FBX (.fbx)");
        EXPECT_NE(glb.conversion.find("metres, +Y up"), std::string::npos) << glb.conversion;
        EXPECT_NE(fbx.conversion.find("1 unit = 1 cm, up +Y"), std::string::npos) << fbx.conversion;
    }
}

TEST(ModelImport, BootIsZUpAndThirtyCentimetresLong) {
    for (const char* file : {"boot.glb", "boot.fbx"}) {
        SCOPED_TRACE(file);
        const glm::vec3 size = sizeOf(loadOk(meshFile(file)).restBounds);
        EXPECT_NEAR(std::max(size.x, size.y), 30.0f, 0.3f);
        EXPECT_NEAR(size.x, 30.0f, 0.3f) << "the toe points along +X";
        EXPECT_LT(size.z, std::max(size.x, size.y)) << "a boot is longer than it is tall";
        // The tread bars are the lowest part: some vertices at z = 0 under the whole sole.
        const ImportedModel boot = loadOk(meshFile(file));
        float lowestX = INFINITY, highestX = -INFINITY;
        for (const glm::vec3& p : boot.mesh.positions)
            if (p.z < 0.01f) {
                lowestX = std::min(lowestX, p.x);
                highestX = std::max(highestX, p.x);
            }
        EXPECT_GT(highestX - lowestX, 24.0f);
    }
}

// The lowest z of the vertices that follow `joint` most, posed at `timeS` of `clip`.
float lowestOfJoint(const ImportedModel& model, const AnimationClip& clip, int joint,
                    double timeS) {
    const Mesh posed = skinMesh(model.mesh, model.joints, model.weights,
                                skinningMatrices(model.skeleton, &clip, timeS, true));
    float lowest = INFINITY;
    for (std::size_t v = 0; v < posed.positions.size(); ++v)
        if (model.joints[v][0] == joint && model.weights[v][0] > 0.5f)
            lowest = std::min(lowest, posed.positions[v].z);
    return lowest;
}

TEST(ModelImport, BipedWalkPlantsAndLiftsEachFoot) {
    for (const char* file : {"biped.glb", "biped.fbx"}) {
        SCOPED_TRACE(file);
        const ImportedModel biped = loadOk(meshFile(file));
        ASSERT_TRUE(biped.skinned());
        const AnimationClip* walk = biped.findClip("walk");
        ASSERT_NE(walk, nullptr);
        EXPECT_NEAR(walk->durationS, 1.0, 0.01);
        const int left = biped.skeleton.find("foot_l"), right = biped.skeleton.find("foot_r");
        const int pelvis = biped.skeleton.find("pelvis");
        ASSERT_GE(left, 0);
        ASSERT_GE(right, 0);
        ASSERT_GE(pelvis, 0);
        double leftPlantedRightUp = -1.0, rightPlantedLeftUp = -1.0;
        float plantedLeft = 0.0f, plantedRight = 0.0f;
        const glm::vec3 pelvisAtStart =
            glm::vec3(jointGlobals(biped.skeleton, walk, 0.0, true)[pelvis][3]);
        for (int sample = 0; sample < 48; ++sample) {
            const double t = sample / 48.0;
            const float l = lowestOfJoint(biped, *walk, left, t);
            const float r = lowestOfJoint(biped, *walk, right, t);
            EXPECT_GT(std::min(l, r), -1.0f) << "a foot sinks below the ground at " << t << " s";
            if (std::abs(l) < 1.0f && r >= 8.0f && leftPlantedRightUp < 0.0)
                leftPlantedRightUp = t, plantedLeft = l;
            if (std::abs(r) < 1.0f && l >= 8.0f && rightPlantedLeftUp < 0.0)
                rightPlantedLeftUp = t, plantedRight = r;
            // In place: the pelvis bobs at most, it never travels.
            const glm::vec3 at = glm::vec3(jointGlobals(biped.skeleton, walk, t, true)[pelvis][3]);
            EXPECT_NEAR(at.x, pelvisAtStart.x, 0.01f);
            EXPECT_NEAR(at.y, pelvisAtStart.y, 0.01f);
        }
        EXPECT_GE(leftPlantedRightUp, 0.0) << "never left foot down, right foot 8 cm up";
        EXPECT_GE(rightPlantedLeftUp, 0.0) << "never right foot down, left foot 8 cm up";
        EXPECT_NE(leftPlantedRightUp, rightPlantedLeftUp);
        EXPECT_NEAR(plantedLeft, plantedRight, 1.0f) << "both feet plant on the same ground";
    }
}

TEST(ModelImport, BipedFormatsPoseAlike) {
    const ImportedModel glb = loadOk(meshFile("biped.glb")), fbx = loadOk(meshFile("biped.fbx"));
    const AnimationClip *glbWalk = glb.findClip("walk"), *fbxWalk = fbx.findClip("walk");
    ASSERT_TRUE(glbWalk && fbxWalk);
    for (double t : {0.1, 0.3, 0.55, 0.8}) {
        const Aabb a = skinMesh(glb.mesh, glb.joints, glb.weights,
                                skinningMatrices(glb.skeleton, glbWalk, t, true))
                           .bounds();
        const Aabb b = skinMesh(fbx.mesh, fbx.joints, fbx.weights,
                                skinningMatrices(fbx.skeleton, fbxWalk, t, true))
                           .bounds();
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(a.min[k], b.min[k], 0.1f) << t << " s, axis " << k;
            EXPECT_NEAR(a.max[k], b.max[k], 0.1f) << t << " s, axis " << k;
        }
    }
}

TEST(ModelImport, ScaleAndFitHeight) {
    ImportOptions twice;
    twice.scale = 2.0;
    EXPECT_NEAR(sizeOf(loadOk(meshFile("sphere.glb"), twice).restBounds).z, 100.0f, 0.01f);

    ImportOptions fit;
    fit.fitHeightCm = 100.0;
    fit.scale = 3.0; // fitting decides the final size whatever the scale
    const ImportedModel biped = loadOk(meshFile("biped.fbx"), fit);
    const glm::vec3 size = sizeOf(biped.restBounds);
    EXPECT_NEAR(size.z, 100.0f, 0.01f);
    EXPECT_NEAR(size.x, 31.0f * 100.0f / 170.0f, 0.05f);
    // The skeleton carries the scale: the rest pose still skins to the placed mesh.
    const Aabb posed = skinMesh(biped.mesh, biped.joints, biped.weights,
                                skinningMatrices(biped.skeleton, nullptr, 0.0, false))
                           .bounds();
    EXPECT_NEAR(posed.max.z, 100.0f, 0.01f);
    EXPECT_NEAR(posed.min.z, 0.0f, 0.01f);
}

TEST(ModelImport, RotationTurnsAboutWorldAxes) {
    ImportOptions quarterTurn;
    quarterTurn.rotationDeg = {0.0f, 0.0f, 90.0f};
    const glm::vec3 turned = sizeOf(loadOk(meshFile("boot.glb"), quarterTurn).restBounds);
    EXPECT_NEAR(turned.x, 11.0f, 0.05f);
    EXPECT_NEAR(turned.y, 30.0f, 0.05f);

    ImportOptions onItsSide;
    onItsSide.rotationDeg = {90.0f, 0.0f, 0.0f}; // +Y turns to +Z: the width becomes the height
    const ImportedModel boot = loadOk(meshFile("boot.fbx"), onItsSide);
    EXPECT_NEAR(sizeOf(boot.restBounds).z, 11.0f, 0.05f);
    EXPECT_NEAR(boot.restBounds.min.z, 0.0f, 1e-3f);

    // A turned biped still walks on the ground: the turn is in its skeleton's root.
    ImportOptions facingY;
    facingY.rotationDeg = {0.0f, 0.0f, 90.0f};
    const ImportedModel biped = loadOk(meshFile("biped.glb"), facingY);
    const AnimationClip* walk = biped.findClip("walk");
    ASSERT_NE(walk, nullptr);
    const int left = biped.skeleton.find("foot_l");
    float lowest = INFINITY, highest = -INFINITY;
    for (int sample = 0; sample < 24; ++sample) {
        const float z = lowestOfJoint(biped, *walk, left, sample / 24.0);
        lowest = std::min(lowest, z);
        highest = std::max(highest, z);
    }
    EXPECT_NEAR(lowest, 0.0f, 1.0f);
    EXPECT_GE(highest, 8.0f);
}

TEST(ModelImport, OffsetMovesThePlacedModel) {
    ImportOptions options;
    options.offsetCm = {10.0f, -5.0f, 3.0f};
    const ImportedModel paw = loadOk(meshFile("paw.glb"), options);
    EXPECT_NEAR(paw.restBounds.min.z, 3.0f, 1e-3f);
    EXPECT_NEAR(0.5f * (paw.restBounds.min.x + paw.restBounds.max.x), 10.0f, 1e-3f);
    EXPECT_NEAR(0.5f * (paw.restBounds.min.y + paw.restBounds.max.y), -5.0f, 1e-3f);
    EXPECT_NEAR(paw.mesh.bounds().min.z, 3.0f, 1e-3f);
}

TEST(ModelImport, FromMemoryMatchesTheFile) {
    const std::string bytes = readBytes(meshFile("biped.glb"));
    const auto* data = reinterpret_cast<const std::byte*>(bytes.data());
    auto result = importModelFromMemory({data, bytes.size()}, "glb");
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(result)) << std::get<std::string>(result);
    const ImportedModel& fromMemory = std::get<ImportedModel>(result);
    const ImportedModel fromFile = loadOk(meshFile("biped.glb"));
    EXPECT_EQ(fromMemory.triangleCount(), fromFile.triangleCount());
    EXPECT_EQ(fromMemory.skeleton.joints.size(), fromFile.skeleton.joints.size());
    EXPECT_NE(fromMemory.findClip("walk"), nullptr);
    for (int k = 0; k < 3; ++k) {
        EXPECT_FLOAT_EQ(fromMemory.restBounds.min[k], fromFile.restBounds.min[k]);
        EXPECT_FLOAT_EQ(fromMemory.restBounds.max[k], fromFile.restBounds.max[k]);
    }

    EXPECT_EQ(std::get<std::string>(importModelFromMemory({}, ".GLB")),
              "<memory>.glb: empty input");
    const std::string garbage = "not a model at all";
    const auto* junk = reinterpret_cast<const std::byte*>(garbage.data());
    EXPECT_EQ(std::get<std::string>(importModelFromMemory({junk, garbage.size()}, "glb"))
                  .rfind("<memory>.glb: not a mesh file Assimp can read (", 0),
              0u);
}

// ---- FBX units and axes from its GlobalSettings --------------------------------------------

// An ASCII FBX holding one triangle with corners (0,0,0), (1,0,0) and (0,2,0) in file units.
std::string fbxTriangle(int upAxis, int frontAxis, int frontSign, int coordSign, double unitCm) {
    auto setting = [](const char* key, const char* type, double value) {
        std::ostringstream line;
        line << "\t\tP: \"" << key << "\", \"" << type << "\", \"Number\", \"\"," << value << "\n";
        return line.str();
    };
    return "; FBX 7.4.0 project file\n"
           "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
           "GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n" +
           setting("UpAxis", "int", upAxis) + setting("UpAxisSign", "int", 1) +
           setting("FrontAxis", "int", frontAxis) + setting("FrontAxisSign", "int", frontSign) +
           setting("CoordAxis", "int", 0) + setting("CoordAxisSign", "int", coordSign) +
           setting("UnitScaleFactor", "double", unitCm) +
           "\t}\n}\n"
           "Objects:  {\n"
           "\tGeometry: 100, \"Geometry::tri\", \"Mesh\" {\n"
           "\t\tVertices: *9 {\n\t\t\ta: 0,0,0,1,0,0,0,2,0\n\t\t}\n"
           "\t\tPolygonVertexIndex: *3 {\n\t\t\ta: 0,1,-3\n\t\t}\n\t}\n"
           "\tModel: 200, \"Model::tri\", \"Mesh\" {\n\t\tVersion: 232\n\t}\n}\n"
           "Connections:  {\n\tC: \"OO\",200,0\n\tC: \"OO\",100,200\n}\n";
}

// Assimp's FBX converter follows connections recursively; a cycle would overflow the stack.
TEST(ModelImportBadFile, FbxConnectionCycles) {
    const fs::path dir = test::scratchDir();
    std::string ascii = fbxTriangle(1, 2, 1, 1, 1.0);
    ascii.insert(ascii.rfind('}'), "\tC: \"OO\",200,200\n"); // the model becomes its own parent
    writeBytes(dir / "ascii.fbx", ascii);
    EXPECT_EQ(loadError(dir / "ascii.fbx"),
              (dir / "ascii.fbx").string() +
                  ": corrupt FBX (its object connections form a cycle through object 200)");

    // Binary: the fifth object-object connection gets its child's id as its parent.
    std::string binary = readBytes(meshFile("biped.fbx"));
    const std::string connection("\x01"
                                 "CS\x02\0\0\0OOL",
                                 10);
    std::size_t at = 0;
    for (int n = 0; n < 5; ++n)
        at = binary.find(connection, at + 1);
    ASSERT_NE(at, std::string::npos);
    binary.replace(at + 19, 8, binary.substr(at + 10, 8));
    writeBytes(dir / "binary.fbx", binary);
    EXPECT_TRUE(startsWith(loadError(dir / "binary.fbx"),
                           (dir / "binary.fbx").string() +
                               ": corrupt FBX (its object connections form a cycle"));
}

TEST(ModelImport, FbxUnitsAndUpAxisFromGlobalSettings) {
    const fs::path dir = test::scratchDir();
    // Y up, inches: 1 unit = 2.54 cm, the file's +Y becomes the world's +Z.
    writeBytes(dir / "inches.fbx", fbxTriangle(1, 2, 1, 1, 2.54));
    const ImportedModel inches = loadOk(dir / "inches.fbx");
    EXPECT_NEAR(sizeOf(inches.restBounds).x, 2.54f, 1e-4f);
    EXPECT_NEAR(sizeOf(inches.restBounds).y, 0.0f, 1e-4f);
    EXPECT_NEAR(sizeOf(inches.restBounds).z, 5.08f, 1e-4f);
    EXPECT_NE(inches.conversion.find("1 unit = 2.54 cm, up +Y"), std::string::npos)
        << inches.conversion;
    // Z up (front -Y), metres: already our axes, 100 cm per unit.
    writeBytes(dir / "metres.fbx", fbxTriangle(2, 1, -1, 1, 100.0));
    const glm::vec3 metres = sizeOf(loadOk(dir / "metres.fbx").restBounds);
    EXPECT_NEAR(metres.x, 100.0f, 1e-3f);
    EXPECT_NEAR(metres.y, 200.0f, 1e-3f);
    EXPECT_NEAR(metres.z, 0.0f, 1e-3f);
    // A left-handed file (right axis -X) comes out mirrored, with its triangles turned so they
    // still face the way their normals say.
    writeBytes(dir / "mirrored.fbx", fbxTriangle(1, 2, 1, -1, 1.0));
    const ImportedModel mirrored = loadOk(dir / "mirrored.fbx");
    ASSERT_EQ(mirrored.triangleCount(), 1u);
    const auto& p = mirrored.mesh.positions;
    const auto& i = mirrored.mesh.indices;
    const glm::vec3 facing = glm::cross(p[i[1]] - p[i[0]], p[i[2]] - p[i[0]]);
    EXPECT_GT(glm::dot(facing, mirrored.mesh.normals[i[0]]), 0.0f);
}

} // namespace
} // namespace snowcap