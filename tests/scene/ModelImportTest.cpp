// Model import: the bundled assets in both formats (units and axes proven both ways), the
// biped's walk, the per-deformer overrides and placement, and every kind of bad file with the
// exact start of its one-line reason.

#include "TestSupport.hpp"
#include "scene/model_import.hpp"

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

namespace fs = std::filesystem;

fs::path meshFile(const std::string& name) {
    return test::sourceDir() / "assets" / "meshes" / name;
}

ImportedModel loadOk(const fs::path& path, const ImportOptions& options = {}) {
    auto result = importModel(path, options);
    if (const auto* error = std::get_if<std::string>(&result)) {
        ADD_FAILURE() << "unexpected import error: " << *error;
        return {};
    }
    return std::get<ImportedModel>(std::move(result));
}

std::string loadError(const fs::path& path, const ImportOptions& options = {}) {
    auto result = importModel(path, options);
    if (const auto* error = std::get_if<std::string>(&result))
        return *error;
    ADD_FAILURE() << path << " imported although it should not";
    return "";
}

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

glm::vec3 sizeOf(const Aabb& box) {
    return box.max - box.min;
}

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

// ---- bad files: each class gets its own reason, and nothing crashes ----------------------------

std::string base64(const std::string& bytes) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t chunk = 0;
        for (std::size_t k = 0; k < 3; ++k)
            chunk = (chunk << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        for (std::size_t k = 0; k < 4; ++k)
            out += k <= n ? digits[(chunk >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

// A minimal glTF 2.0 file with its buffer inline: one mesh of `positions` and `indices`.
nlohmann::json gltf(const std::vector<glm::vec3>& positions,
                    const std::vector<std::uint32_t>& indices, int mode = 4) {
    std::string data(reinterpret_cast<const char*>(positions.data()), positions.size() * 12);
    data.append(reinterpret_cast<const char*>(indices.data()), indices.size() * 4);
    return {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"mesh", 0}}}},
        {"buffers",
         {{{"byteLength", data.size()},
           {"uri", "data:application/octet-stream;base64," + base64(data)}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", positions.size() * 12}},
          {{"buffer", 0},
           {"byteOffset", positions.size() * 12},
           {"byteLength", indices.size() * 4}}}},
        {"accessors",
         {{{"bufferView", 0},
           {"componentType", 5126},
           {"count", positions.size()},
           {"type", "VEC3"}},
          {{"bufferView", 1},
           {"componentType", 5125},
           {"count", indices.size()},
           {"type", "SCALAR"}}}},
        {"meshes",
         {{{"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}, {"mode", mode}}}}}}},
    };
}

const std::vector<glm::vec3> kTriangle = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

fs::path writeGltf(const fs::path& dir, const std::string& name, const nlohmann::json& document) {
    const fs::path path = dir / name;
    writeBytes(path, document.dump());
    return path;
}

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

TEST(ModelImportBadFile, MissingEmptyOrDirectory) {
    const fs::path dir = test::scratchDir();
    EXPECT_EQ(loadError(dir / "nope.glb"),
              (dir / "nope.glb").string() + ": cannot open file (No such file or directory)");
    EXPECT_EQ(loadError(dir), dir.string() + ": not a regular file (a directory)");
    writeBytes(dir / "empty.glb", "");
    EXPECT_EQ(loadError(dir / "empty.glb"), (dir / "empty.glb").string() + ": empty file");
}

TEST(ModelImportBadFile, GarbageAndUnknownFormats) {
    const fs::path dir = test::scratchDir();
    const std::string text = "these are words, not a model\n";
    for (const char* name : {"words.glb", "words.gltf", "words.xyz"}) {
        writeBytes(dir / name, text);
        const std::string extension = fs::path(name).extension().string();
        EXPECT_EQ(loadError(dir / name), (dir / name).string() +
                                             ": not a mesh file Assimp can read (no reader "
                                             "recognises its content as " +
                                             extension + ")");
    }
    writeBytes(dir / "words.fbx", text);
    EXPECT_TRUE(
        startsWith(loadError(dir / "words.fbx"),
                   (dir / "words.fbx").string() + ": not a mesh file Assimp can read (FBX-"));
    writeBytes(dir / "broken.gltf", R"({ "asset": { "version": "2.0" ,, })");
    EXPECT_TRUE(startsWith(loadError(dir / "broken.gltf"),
                           (dir / "broken.gltf").string() + ": not a mesh file Assimp can read ("));
}

TEST(ModelImportBadFile, TruncatedFiles) {
    const fs::path dir = test::scratchDir();
    // A glTF binary's header says how long it is, so the cut is named before Assimp reads it.
    const std::string glb = readBytes(meshFile("biped.glb"));
    writeBytes(dir / "biped.glb", glb.substr(0, glb.size() / 2));
    EXPECT_EQ(loadError(dir / "biped.glb"),
              (dir / "biped.glb").string() + ": truncated glTF binary (the header says " +
                  std::to_string(glb.size()) + " bytes, the file has " +
                  std::to_string(glb.size() / 2) + ")");
    writeBytes(dir / "biped.glb", glb.substr(0, 7));
    EXPECT_EQ(loadError(dir / "biped.glb"),
              (dir / "biped.glb").string() +
                  ": truncated glTF binary (7 bytes, not even a header)");
    // FBX has no such header: Assimp's reader finds the cut. (The last bytes of a binary FBX
    // are footer padding that readers ignore, so cuts stop short of it.)
    for (const char* name : {"biped.fbx", "boot.fbx"}) {
        const std::string bytes = readBytes(meshFile(name));
        for (std::size_t keep :
             {std::size_t(12), std::size_t(100), bytes.size() / 2, bytes.size() * 9 / 10}) {
            writeBytes(dir / name, bytes.substr(0, keep));
            EXPECT_TRUE(startsWith(loadError(dir / name),
                                   (dir / name).string() + ": not a mesh file Assimp can read ("))
                << name << " cut to " << keep << " bytes";
        }
    }
}

// One flipped bit can make a length or a key value absurd; Assimp would then allocate
// gigabytes, so these are caught before it reads.
TEST(ModelImportBadFile, AbsurdLengthsAndKeyValues) {
    const fs::path dir = test::scratchDir();
    std::string glb = readBytes(meshFile("biped.glb"));
    glb[15] = static_cast<char>(0x80); // the JSON chunk's length gains 2 GiB
    writeBytes(dir / "biped.glb", glb);
    EXPECT_TRUE(startsWith(loadError(dir / "biped.glb"),
                           (dir / "biped.glb").string() +
                               ": corrupt glTF binary (its JSON chunk claims 2147"));

    // The 18th key of the first rotation curve turns into -1.7e38 degrees.
    std::string fbx = readBytes(meshFile("biped.fbx"));
    std::size_t curve = 0;
    for (int n = 0; n < 4; ++n)
        curve = fbx.find("KeyValueFloatf", curve + 1);
    ASSERT_NE(curve, std::string::npos);
    fbx[curve + 14 + 12 + 17 * 4 + 3] = static_cast<char>(0xff);
    writeBytes(dir / "biped.fbx", fbx);
    const std::string error = loadError(dir / "biped.fbx");
    EXPECT_TRUE(startsWith(error, (dir / "biped.fbx").string() + ": corrupt FBX (animation curve"))
        << error;

    // An array that claims more values than its bytes hold.
    fbx = readBytes(meshFile("boot.fbx"));
    const std::size_t vertices = fbx.find("Verticesd");
    ASSERT_NE(vertices, std::string::npos);
    fbx[vertices + 9 + 3] = static_cast<char>(0x40); // the value count gains 1 << 30
    writeBytes(dir / "boot.fbx", fbx);
    EXPECT_TRUE(startsWith(loadError(dir / "boot.fbx"),
                           (dir / "boot.fbx").string() + ": corrupt binary FBX (an array at"));
}

TEST(ModelImportBadFile, MissingBufferFile) {
    const fs::path dir = test::scratchDir();
    nlohmann::json document = gltf(kTriangle, {0, 1, 2});
    document["buffers"][0]["uri"] = "missing.bin";
    const std::string error = loadError(writeGltf(dir, "nobin.gltf", document));
    EXPECT_TRUE(
        startsWith(error, (dir / "nobin.gltf").string() + ": not a mesh file Assimp can read ("));
    EXPECT_NE(error.find("missing.bin"), std::string::npos) << error;
}

TEST(ModelImportBadFile, IndicesOutOfRange) {
    const fs::path dir = test::scratchDir();
    const fs::path allBad = writeGltf(dir, "oob.gltf", gltf(kTriangle, {0, 1, 7}));
    EXPECT_TRUE(startsWith(loadError(allBad), allBad.string() + ": contains no triangle meshes"));
    // A bad triangle among good ones is dropped; the rest loads.
    const std::vector<glm::vec3> square = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    const ImportedModel partly =
        loadOk(writeGltf(dir, "partly.gltf", gltf(square, {0, 1, 2, 1, 3, 9})));
    EXPECT_EQ(partly.triangleCount(), 1u);
}

TEST(ModelImportBadFile, NonFinitePositions) {
    const fs::path dir = test::scratchDir();
    for (float bad : {NAN, INFINITY, -INFINITY}) {
        const fs::path path =
            writeGltf(dir, "bad.gltf", gltf({{0, 0, 0}, {bad, 0, 0}, {0, 1, 0}}, {0, 1, 2}));
        EXPECT_EQ(loadError(path), path.string() + ": non-finite vertex positions") << bad;
    }
}

TEST(ModelImportBadFile, NothingToPressWith) {
    const fs::path dir = test::scratchDir();
    nlohmann::json noMesh = gltf(kTriangle, {0, 1, 2});
    noMesh["nodes"][0].erase("mesh");
    const fs::path empty = writeGltf(dir, "nomesh.gltf", noMesh);
    EXPECT_EQ(loadError(empty), empty.string() + ": contains no triangle meshes");
    const fs::path points = writeGltf(dir, "points.gltf", gltf(kTriangle, {0, 1, 2}, 0));
    EXPECT_TRUE(startsWith(loadError(points), points.string() + ": contains no triangle meshes"));
}

TEST(ModelImportBadFile, ZeroSizeAndAbsurdlyLarge) {
    const fs::path dir = test::scratchDir();
    const fs::path tiny =
        writeGltf(dir, "tiny.gltf", gltf({{0, 0, 0}, {1e-6f, 0, 0}, {0, 1e-6f, 0}}, {0, 1, 2}));
    EXPECT_EQ(loadError(tiny), tiny.string() + ": model has zero size");
    const fs::path huge =
        writeGltf(dir, "huge.gltf", gltf({{0, 0, 0}, {1e4f, 0, 0}, {0, 1e4f, 0}}, {0, 1, 2}));
    EXPECT_TRUE(startsWith(loadError(huge), huge.string() +
                                                ": model is 1e+06 cm across after conversion "
                                                "(limit 100000 cm)"));
    // The same file is fine once scaled down to something the snow can hold.
    ImportOptions small;
    small.scale = 0.001;
    EXPECT_NEAR(sizeOf(loadOk(huge, small).restBounds).x, 1000.0f, 0.5f);
}

TEST(ModelImportBadFile, AnimationOfAMissingNode) {
    const fs::path dir = test::scratchDir();
    nlohmann::json document = gltf(kTriangle, {0, 1, 2});
    document["animations"] = {
        {{"channels", {{{"sampler", 0}, {"target", {{"node", 5}, {"path", "translation"}}}}}},
         {"samplers", {{{"input", 0}, {"output", 0}}}}}};
    const fs::path path = writeGltf(dir, "anim.gltf", document);
    const std::string error = loadError(path);
    EXPECT_TRUE(startsWith(error, path.string() + ": not a mesh file Assimp can read (")) << error;
    EXPECT_NE(error.find("out of bounds"), std::string::npos) << error;
}

// Valid glTF that Assimp 5.2's reader would crash on: named, or rewritten harmlessly.
TEST(ModelImportBadFile, GltfThatCrashesAssimp) {
    const fs::path dir = test::scratchDir();
    std::string glb = readBytes(meshFile("biped.glb"));
    glb[glb.find("inverseBindMatrices") + 7] = 'X'; // the skin loses its bind matrices
    writeBytes(dir / "biped.glb", glb);
    EXPECT_EQ(loadError(dir / "biped.glb"),
              (dir / "biped.glb").string() +
                  ": glTF skin 0 has no inverseBindMatrices, which Assimp 5.2 cannot read "
                  "(export the skin with its bind matrices)");

    // A line loop with an index out of range: no crash, and lines are no triangles.
    const fs::path loop = writeGltf(dir, "loop.gltf", gltf(kTriangle, {0, 9, 2}, 2));
    EXPECT_TRUE(startsWith(loadError(loop), loop.string() + ": contains no triangle meshes"));
    // A sound line loop next to a triangle: the triangle loads, the loop is dropped.
    nlohmann::json both = gltf(kTriangle, {0, 1, 2});
    both["meshes"][0]["primitives"].push_back(
        {{"attributes", {{"POSITION", 0}}}, {"indices", 1}, {"mode", 2}});
    EXPECT_EQ(loadOk(writeGltf(dir, "both.gltf", both)).triangleCount(), 1u);
}

TEST(ModelImportBadFile, BadOptions) {
    const fs::path sphere = meshFile("sphere.glb");
    ImportOptions zero;
    zero.scale = 0.0;
    EXPECT_EQ(loadError(sphere, zero),
              sphere.string() + ": scale must be a positive number, got 0");
    ImportOptions negativeFit;
    negativeFit.fitHeightCm = -1.0;
    EXPECT_EQ(loadError(sphere, negativeFit),
              sphere.string() + ": fit_height_cm must be 0 (off) or positive, got -1");
    ImportOptions flat;
    flat.fitHeightCm = 10.0;
    const fs::path plane = writeGltf(test::scratchDir(), "flat.gltf",
                                     gltf({{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, {0, 1, 2}));
    EXPECT_EQ(loadError(plane, flat),
              plane.string() + ": cannot fit a height: the model is flat in Z");
}

// Cutting or flipping bytes anywhere in real files must give a model or a one-line reason. Some
// of these FBX cases reach an assertion inside Debian's Assimp build (FBXConverter.cpp,
// out_idx != nullptr), which would abort the test without the handler in model_import.cpp.
TEST(ModelImportBadFile, DamagedBytesNeverCrash) {
    const fs::path dir = test::scratchDir();
    for (const char* name : {"biped.glb", "biped.fbx"}) {
        const std::string bytes = readBytes(meshFile(name));
        for (int step = 1; step < 24; ++step) {
            std::string damaged = bytes;
            const std::size_t at = bytes.size() * step / 24;
            damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
            damaged[at / 2] = static_cast<char>(0xff);
            writeBytes(dir / name, damaged);
            auto result = importModel(dir / name);
            if (const auto* error = std::get_if<std::string>(&result)) {
                EXPECT_TRUE(startsWith(*error, (dir / name).string() + ": ")) << *error;
                EXPECT_EQ(error->find('\n'), std::string::npos) << *error;
            } else {
                for (const glm::vec3& p : std::get<ImportedModel>(result).mesh.positions)
                    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
            }
        }
    }
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
