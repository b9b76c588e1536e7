// The text formats' hostile fixtures (glTF JSON, OBJ, PLY, OFF, Collada); the binary ones (GLB,
// STL, FBX, the .zae archives) are in hostile_binary.cpp. Every file is small and built from
// scratch here, so the suite needs nothing but this tool to regenerate.

#include "hostile_fixtures.hpp"

#include "hostile_write.hpp"

#include <nlohmann/json.hpp>

namespace hostile {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A one-triangle glTF (positions and indices in a data: URI buffer), for the caller to damage.
json triangleGltf(const std::vector<float>& positions, const std::vector<std::uint16_t>& indices) {
    std::string buffer = bytesOf(positions);
    const std::size_t indexOffset = buffer.size();
    buffer += bytesOf(indices);
    while (buffer.size() % 4)
        buffer += '\0';
    json gltf = {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"mesh", 0}}}},
        {"meshes",
         {{{"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}, {"mode", 4}}}}}}},
        {"buffers",
         {{{"byteLength", buffer.size()},
           {"uri", "data:application/octet-stream;base64," + base64(buffer)}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", positions.size() * 4}},
          {{"buffer", 0}, {"byteOffset", indexOffset}, {"byteLength", indices.size() * 2}}}},
        {"accessors",
         {{{"bufferView", 0},
           {"componentType", 5126},
           {"count", positions.size() / 3},
           {"type", "VEC3"}},
          {{"bufferView", 1},
           {"componentType", 5123},
           {"count", indices.size()},
           {"type", "SCALAR"}}}},
    };
    return gltf;
}

const std::vector<float> kTriangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};

// A skinned triangle: two joints, JOINTS_0/WEIGHTS_0 (+ _1 when eight weights are asked for).
json skinnedGltf(const std::vector<float>& weights, bool eightWeights) {
    std::string buffer = bytesOf(kTriangle);
    std::vector<std::uint8_t> joints(eightWeights ? 24 : 12);
    for (std::size_t i = 0; i < joints.size(); ++i)
        joints[i] = static_cast<std::uint8_t>(i % 2);
    const std::size_t jointsAt = buffer.size();
    buffer += bytesOf(joints);
    const std::size_t weightsAt = buffer.size();
    buffer += bytesOf(weights);
    const std::vector<float> identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const std::size_t bindAt = buffer.size();
    buffer += bytesOf(identity) + bytesOf(identity);
    json gltf = triangleGltf(kTriangle, {0, 1, 2});
    gltf["buffers"][0] = {{"byteLength", buffer.size()},
                          {"uri", "data:application/octet-stream;base64," + base64(buffer)}};
    gltf["bufferViews"] = {
        {{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 36}},
        {{"buffer", 0}, {"byteOffset", jointsAt}, {"byteLength", joints.size()}},
        {{"buffer", 0}, {"byteOffset", weightsAt}, {"byteLength", weights.size() * 4}},
        {{"buffer", 0}, {"byteOffset", bindAt}, {"byteLength", 128}}};
    gltf["accessors"] = {
        {{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}},
        {{"bufferView", 1}, {"componentType", 5121}, {"count", 3}, {"type", "VEC4"}},
        {{"bufferView", 2}, {"componentType", 5126}, {"count", 3}, {"type", "VEC4"}},
        {{"bufferView", 3}, {"componentType", 5126}, {"count", 2}, {"type", "MAT4"}}};
    json attributes = {{"POSITION", 0}, {"JOINTS_0", 1}, {"WEIGHTS_0", 2}};
    if (eightWeights) {
        gltf["bufferViews"][1]["byteStride"] = 8; // JOINTS_0 and _1 interleaved
        gltf["bufferViews"][2]["byteStride"] = 32;
        gltf["accessors"].push_back({{"bufferView", 1},
                                     {"byteOffset", 4},
                                     {"componentType", 5121},
                                     {"count", 3},
                                     {"type", "VEC4"}});
        gltf["accessors"].push_back({{"bufferView", 2},
                                     {"byteOffset", 16},
                                     {"componentType", 5126},
                                     {"count", 3},
                                     {"type", "VEC4"}});
        attributes["JOINTS_1"] = 4;
        attributes["WEIGHTS_1"] = 5;
    }
    gltf["meshes"][0]["primitives"][0] = {{"attributes", attributes}, {"mode", 4}};
    gltf["nodes"] = {{{"mesh", 0}, {"skin", 0}}, {{"children", {2}}}, {{"translation", {0, 1, 0}}}};
    gltf["scenes"][0]["nodes"] = {0, 1};
    gltf["skins"] = {{{"joints", {1, 2}}, {"inverseBindMatrices", 3}}};
    return gltf;
}

void gltfFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    auto add = [&](const std::string& name, const json& gltf, const std::string& what,
                   Expect expect, const std::string& message = "") {
        writeFile(dir / name, gltf.dump());
        out.push_back({"glTF/GLB", name, what, expect, message});
    };
    json counts = triangleGltf(kTriangle, {0, 1, 2});
    counts["accessors"][0]["count"] = 1000000000;
    add("count_claims_1e9.gltf", counts, "accessor count 1e9 over a 36-byte view", Expect::Refuse);
    add("index_out_of_range.gltf", triangleGltf(kTriangle, {0, 1, 99}), "index 99 of 3 vertices",
        Expect::Refuse);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    add("nan_position.gltf", triangleGltf({0, 0, 0, nan, 0, 0, 0, 1, 0}, {0, 1, 2}),
        "a NaN coordinate", Expect::Refuse, "non-finite");
    add("inf_position.gltf", triangleGltf({0, 0, 0, inf, 0, 0, 0, 1, 0}, {0, 1, 2}),
        "an Inf coordinate", Expect::Refuse);
    add("huge_position.gltf", triangleGltf({0, 0, 0, 1e38f, 0, 0, 0, 1, 0}, {0, 1, 2}),
        "a 1e38 coordinate", Expect::Refuse);
    json zero = triangleGltf(kTriangle, {0, 1, 2});
    zero["nodes"][0]["scale"] = {0, 0, 0};
    add("zero_scale.gltf", zero, "node scaled to zero", Expect::Refuse, "zero size");
    json singular = triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 1}, {0, 1, 2});
    singular["nodes"][0]["matrix"] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    add("singular_matrix.gltf", singular, "non-invertible node matrix (flattens Y)", Expect::Load);
    json cycle = triangleGltf(kTriangle, {0, 1, 2});
    cycle["nodes"] = {{{"mesh", 0}, {"children", {1}}}, {{"children", {0}}}};
    add("node_cycle.gltf", cycle, "node hierarchy with a cycle", Expect::Refuse);
    json deep = triangleGltf(kTriangle, {0, 1, 2});
    deep["nodes"] = json::array();
    constexpr int kDepth = 20000;
    for (int i = 0; i < kDepth; ++i)
        deep["nodes"].push_back(i + 1 < kDepth ? json{{"children", {i + 1}}} : json{{"mesh", 0}});
    add("deep_hierarchy.gltf", deep, "20,000 nested nodes", Expect::Refuse);
    std::vector<float> eight(24, 0.125f);
    add("skin_8_weights.gltf", skinnedGltf(eight, true), "eight weights per vertex", Expect::Load);
    add("skin_zero_weights.gltf", skinnedGltf(std::vector<float>(12, 0.0f), false),
        "skin weights summing to 0 (they follow the root joint, with a warning)", Expect::Load);
    json animation = skinnedGltf({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, false);
    animation["accessors"].push_back(
        {{"bufferView", 2}, {"componentType", 5126}, {"count", 3}, {"type", "SCALAR"}});
    json sampler = {{"input", 4}, {"output", 0}};
    json channel = {{"sampler", 0}, {"target", {{"node", 42}, {"path", "translation"}}}};
    animation["animations"] =
        json::array({{{"samplers", json::array({sampler})}, {"channels", json::array({channel})}}});
    add("animation_missing_node.gltf", animation, "animation channel on node 42 of 3",
        Expect::Refuse);
    json image = triangleGltf(kTriangle, {0, 1, 2});
    image["images"] = {{{"uri", "huge_image.png"}}};
    image["textures"] = {{{"source", 0}}};
    image["materials"] = {{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
    image["meshes"][0]["primitives"][0]["material"] = 0;
    writeFile(dir / "huge_image.png", hugePngHeader());
    add("huge_image.gltf", image, "material image claiming 65535 x 65535 px", Expect::Load);
}

void objFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    auto add = [&](const std::string& name, const std::string& text, const std::string& what,
                   Expect expect, const std::string& message = "") {
        writeFile(dir / name, text);
        out.push_back({"OBJ", name, what, expect, message});
    };
    const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    add("index_out_of_range.obj", v + "f 1 2 99\n", "index 99 of 3 vertices", Expect::Refuse);
    add("negative_index.obj", v + "f -1 -2 -99\n", "relative index -99 of 3", Expect::Refuse);
    add("nan_position.obj", "v nan nan nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "NaN coordinates",
        Expect::Refuse);
    add("huge_position.obj", "v 1e38 0 0\nv 0 0 0\nv 0 1 0\nf 1 2 3\n", "a 1e38 coordinate",
        Expect::Refuse);
    add("truncated_before_faces.obj", v, "cut after the vertices", Expect::Refuse);
    add("truncated_mid_face.obj", v + "f 1 2", "cut inside the first face", Expect::Refuse);
    writeFile(dir / "huge_image.mtl", "newmtl m\nmap_Kd huge_image.png\n");
    add("huge_image.obj", "mtllib huge_image.mtl\nusemtl m\n" + v + "f 1 2 3\n",
        "material image claiming 65535 x 65535 px", Expect::Load);
}

void plyFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    auto add = [&](const std::string& name, const std::string& text, const std::string& what,
                   Expect expect, const std::string& message = "") {
        writeFile(dir / name, text);
        out.push_back({"PLY", name, what, expect, message});
    };
    auto header = [](const std::string& format, const std::string& vertices,
                     const std::string& faces) {
        return "ply\nformat " + format + " 1.0\nelement vertex " + vertices +
               "\nproperty float x\nproperty float y\nproperty float z\nelement face " + faces +
               "\nproperty list uchar int vertex_indices\nend_header\n";
    };
    const std::string body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    add("vertex_count_claims.ply", header("ascii", "4000000000", "1") + body,
        "4e9 vertices claimed in 100 bytes", Expect::Refuse, "header claims");
    add("face_count_claims.ply", header("ascii", "3", "3000000000") + body, "3e9 faces claimed",
        Expect::Refuse, "header claims");
    add("binary_count_claims.ply", header("binary_little_endian", "100000000", "1") + "abcd",
        "1e8 binary vertices in 4 bytes", Expect::Refuse, "header claims");
    add("truncated_header.ply", "ply\nformat ascii 1.0\nelement vertex 3\n", "no end_header",
        Expect::Refuse, "no end_header");
    add("truncated_after_vertices.ply", header("ascii", "3", "1") + "0 0 0\n1 0 0\n0 1 0\n",
        "cut after the vertices", Expect::Refuse);
    add("index_out_of_range.ply", header("ascii", "3", "1") + "0 0 0\n1 0 0\n0 1 0\n3 0 1 99\n",
        "index 99 of 3 vertices", Expect::Refuse);
    add("nan_position.ply", header("ascii", "3", "1") + "nan 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
        "a NaN coordinate", Expect::Refuse);
    add("list_count_lies.ply", header("ascii", "3", "1") + "0 0 0\n1 0 0\n0 1 0\n255 0 1 2\n",
        "a face list claiming 255 indices, holding 3 (read as the triangle it holds)",
        Expect::Load);
}

void offFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    auto add = [&](const std::string& name, const std::string& text, const std::string& what,
                   Expect expect, const std::string& message = "") {
        writeFile(dir / name, text);
        out.push_back({"OFF", name, what, expect, message});
    };
    // The public file's shape: 309 bytes under a header claiming 353,535,235,358 vertices.
    std::string claims = "OFF\n353535235358 1 0\n";
    while (claims.size() < 301)
        claims += "0 0 0\n";
    claims.resize(301, ' ');
    claims += "\n3 0 1 2";
    add("vertex_count_claims.off", claims, "3.5e11 vertices claimed in 309 bytes", Expect::Refuse,
        "header claims 353535235358 vertices");
    add("face_count_claims.off", "OFF\n3 4000000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
        "4e9 faces claimed", Expect::Refuse, "header claims");
    add("truncated_after_vertices.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n",
        "cut after the vertices", Expect::Refuse);
    add("truncated_header.off", "OFF\n3", "cut inside the header", Expect::Refuse);
    add("index_out_of_range.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 99\n",
        "index 99 of 3 vertices (Assimp clamps it to the last vertex)", Expect::Load);
    add("nan_position.off", "OFF\n3 1 0\nnan 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "a NaN coordinate",
        Expect::Refuse);
    add("face_size_lies.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n1000000 0 1 2\n",
        "a face claiming 1e6 corners, holding 3", Expect::Refuse);
}

std::string collada(const std::string& positions, const std::string& indices,
                    const std::string& nodes, const std::string& floatCount = "9") {
    return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count=")" +
           floatCount + R"(">)" + positions + R"(</float_array>
<technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/>
<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>)" +
           indices + R"(</p></triangles>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s">)" +
           nodes + R"(</visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
}

const std::string kMeshNode = R"(<node id="n"><instance_geometry url="#g"/></node>)";

void colladaFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    auto add = [&](const std::string& name, const std::string& text, const std::string& what,
                   Expect expect, const std::string& message = "") {
        writeFile(dir / name, text);
        out.push_back({"Collada/ZAE", name, what, expect, message});
    };
    const std::string p = "0 0 0 1 0 0 0 1 0";
    add("index_out_of_range.dae", collada(p, "0 1 99", kMeshNode), "index 99 of 3 vertices",
        Expect::Refuse);
    add("nan_position.dae", collada("nan 0 0 1 0 0 0 1 0", "0 1 2", kMeshNode), "a NaN coordinate",
        Expect::Refuse);
    add("count_claims.dae", collada(p, "0 1 2", kMeshNode, "1000000000"),
        "float_array count 1e9 holding 9", Expect::Refuse);
    add("zero_scale.dae",
        collada(p, "0 1 2",
                R"(<node id="n"><scale>0 0 0</scale><instance_geometry url="#g"/></node>)"),
        "node scaled to zero", Expect::Refuse, "zero size");
    add("node_cycle.dae",
        collada(p, "0 1 2",
                R"(<node id="n"><instance_geometry url="#g"/><instance_node url="#n"/></node>)"),
        "a node instancing itself", Expect::Refuse);
    std::string deep;
    constexpr int kDepth = 20000;
    for (int i = 0; i < kDepth; ++i)
        deep += "<node id=\"d" + std::to_string(i) + "\">";
    deep += R"(<instance_geometry url="#g"/>)";
    for (int i = 0; i < kDepth; ++i)
        deep += "</node>";
    add("deep_hierarchy.dae", collada(p, "0 1 2", deep), "20,000 nested nodes", Expect::Refuse);
    add("truncated.dae", validCollada().substr(0, validCollada().size() / 2), "cut in the middle",
        Expect::Refuse);
}

} // namespace

std::string validCollada() {
    return collada("0 0 0 1 0 0 0 1 0", "0 1 2", kMeshNode);
}

void writeTextFixtures(const fs::path& dir, std::vector<Fixture>& out) {
    gltfFixtures(dir, out);
    objFixtures(dir, out);
    plyFixtures(dir, out);
    offFixtures(dir, out);
    colladaFixtures(dir, out);
}

} // namespace hostile
