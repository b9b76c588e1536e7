// The right way up in every format: one box, 92 x 324 x 152 cm in the world (x wide, y long,
// z tall, like a standing quadruped), written in each format this test can produce in that
// format's own axis convention (metres; Y up for OBJ, PLY, STL, OFF, AC3D and Collada Y_UP; Z
// up for SMD, DXF and Collada Z_UP), must come in standing: 92 x 324 x 152 cm with
// up_axis = "auto". The Z-up rows are the evidence for docs/meshes.md's table that Assimp
// hands SMD and DXF over unrotated (and converts Collada itself); up_axis = "y" / "z" override.

#include "TestSupport.hpp"
#include "scene/mesh_preview.hpp"
#include "scene/model_import.hpp"

#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace snowcap {
namespace {

namespace fs = std::filesystem;
using Corner = std::array<double, 3>;

// A wedge (a ridge along its length at the top, a flat rectangle at the bottom), so upside
// down is told apart from the right way up: 6 corners in file coordinates (metres), 8 triangles.
struct Box {
    std::vector<Corner> corners;
    std::vector<std::array<int, 3>> triangles;
};

Box box(bool zUp) {
    // World size (x, y, z) = (0.92, 3.24, 1.52) m. A Y-up file holds (x, z_world, -y_world).
    const double sx = 0.92, length = 3.24, tall = 1.52;
    const std::vector<Corner> world = {{0, 0, 0},       {sx, 0, 0},        {0, length, 0},
                                       {sx, length, 0}, {sx / 2, 0, tall}, {sx / 2, length, tall}};
    Box b;
    for (const Corner& c : world)
        b.corners.push_back(zUp ? c : Corner{c[0], c[2], -c[1]});
    b.triangles = {{0, 2, 1}, {1, 2, 3}, {0, 2, 5}, {0, 5, 4},
                   {1, 5, 3}, {1, 4, 5}, {0, 4, 1}, {2, 3, 5}};
    return b;
}

std::string num(double v) {
    return std::to_string(v);
}
std::string xyz(const Corner& c) {
    return num(c[0]) + " " + num(c[1]) + " " + num(c[2]);
}

std::string obj(const Box& b) {
    std::string t;
    for (const Corner& c : b.corners)
        t += "v " + xyz(c) + "\n";
    for (const auto& f : b.triangles)
        t += "f " + std::to_string(f[0] + 1) + " " + std::to_string(f[1] + 1) + " " +
             std::to_string(f[2] + 1) + "\n";
    return t;
}

std::string off(const Box& b) {
    std::string t = "OFF\n6 8 0\n";
    for (const Corner& c : b.corners)
        t += xyz(c) + "\n";
    for (const auto& f : b.triangles)
        t += "3 " + std::to_string(f[0]) + " " + std::to_string(f[1]) + " " + std::to_string(f[2]) +
             "\n";
    return t;
}

std::string ply(const Box& b) {
    std::string t = "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float "
                    "y\nproperty float z\nelement face 8\nproperty list uchar int "
                    "vertex_indices\nend_header\n";
    return t + off(b).substr(10);
}

std::string stl(const Box& b) {
    std::string t = "solid box\n";
    for (const auto& f : b.triangles) {
        t += "facet normal 0 0 0\nouter loop\n";
        for (int k : f)
            t += "vertex " + xyz(b.corners[k]) + "\n";
        t += "endloop\nendfacet\n";
    }
    return t + "endsolid box\n";
}

// Valve SMD: one bone, the reference pose, triangles with per-vertex bone, position, normal, uv.
std::string smd(const Box& b) {
    std::string t = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n"
                    "triangles\n";
    for (const auto& f : b.triangles) {
        t += "box\n";
        for (int k : f)
            t += "0 " + xyz(b.corners[k]) + " 0 0 1 0 0\n";
    }
    return t + "end\n";
}

// DXF: an ENTITIES section of 3DFACEs (group codes 10/20/30 .. 13/23/33 for the corners).
std::string dxf(const Box& b) {
    std::string t = "0\nSECTION\n2\nENTITIES\n";
    for (const auto& f : b.triangles) {
        t += "0\n3DFACE\n8\n0\n";
        for (int i = 0; i < 4; ++i) {
            const Corner& c = b.corners[f[std::min(i, 2)]];
            for (int a = 0; a < 3; ++a)
                t += std::to_string(10 * (a + 1) + i) + "\n" + num(c[a]) + "\n";
        }
    }
    return t + "0\nENDSEC\n0\nEOF\n";
}

// AC3D: a world object with one poly object; SURF 0x10 is a polygon, refs its vertex indices.
std::string ac3d(const Box& b) {
    std::string t = "AC3Db\nMATERIAL \"m\" rgb 1 1 1  amb 0.2 0.2 0.2  emis 0 0 0  spec 0 0 0  "
                    "shi 10  trans 0\nOBJECT world\nkids 1\nOBJECT poly\nname \"box\"\nnumvert 6\n";
    for (const Corner& c : b.corners)
        t += xyz(c) + "\n";
    t += "numsurf 8\n";
    for (const auto& f : b.triangles) {
        t += "SURF 0x10\nmat 0\nrefs 3\n";
        for (int k : f)
            t += std::to_string(k) + " 0 0\n";
    }
    return t + "kids 0\n";
}

std::string collada(const Box& b, const std::string& up) {
    std::string positions, indices;
    for (const Corner& c : b.corners)
        positions += xyz(c) + " ";
    for (const auto& f : b.triangles)
        indices +=
            std::to_string(f[0]) + " " + std::to_string(f[1]) + " " + std::to_string(f[2]) + " ";
    return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="meter" meter="1"/><up_axis>)" +
           up + R"(</up_axis></asset>
<library_geometries><geometry id="g"><mesh><source id="p"><float_array id="pa" count="18">)" +
           positions +
           R"(</float_array><technique_common><accessor source="#pa" count="6" stride="3">
<param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
</accessor></technique_common></source><vertices id="v"><input semantic="POSITION" source="#p"/>
</vertices><triangles count="8"><input semantic="VERTEX" source="#v" offset="0"/><p>)" +
           indices + R"(</p></triangles></mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node>
</visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene></COLLADA>
)";
}

// The size in the world, and the x extent of what is near the top (0 for the ridge: the right
// way up; the whole width when upside down).
struct Pose {
    glm::vec3 size{0.0f};
    float topWidth = -1.0f;
};

Pose poseOf(const fs::path& file, UpAxis up = UpAxis::Auto) {
    ImportOptions options;
    options.upAxis = up;
    auto result = importModel(file, options);
    if (auto* error = std::get_if<std::string>(&result)) {
        ADD_FAILURE() << *error;
        return {};
    }
    const ImportedModel& model = std::get<ImportedModel>(result);
    Pose pose{model.restBounds.max - model.restBounds.min, 0.0f};
    float low = INFINITY, high = -INFINITY;
    for (const glm::vec3& p : model.mesh.positions)
        if (p.z > model.restBounds.max.z - 10.0f)
            low = std::min(low, p.x), high = std::max(high, p.x);
    pose.topWidth = high - low;
    return pose;
}

void expectStanding(const Pose& pose, const std::string& what) {
    EXPECT_NEAR(pose.size.x, 92.0f, 0.5f) << what;
    EXPECT_NEAR(pose.size.y, 324.0f, 0.5f) << what;
    EXPECT_NEAR(pose.size.z, 152.0f, 0.5f) << what;
    EXPECT_LT(pose.topWidth, 10.0f) << what << ": upside down";
}

TEST(UpAxis, TheSameBoxStandsInEveryFormat) {
    const fs::path dir = test::scratchDir();
    const Box yUp = box(false), zUp = box(true);
    const std::vector<std::pair<std::string, std::string>> files = {
        {"box.obj", obj(yUp)},
        {"box.off", off(yUp)},
        {"box.ply", ply(yUp)},
        {"box.stl", stl(yUp)},
        {"box.ac", ac3d(yUp)},
        {"box_y.dae", collada(yUp, "Y_UP")},
        {"box_z.dae", collada(zUp, "Z_UP")},
        {"box.smd", smd(zUp)},
        {"box.dxf", dxf(zUp)}};
    for (const auto& [name, text] : files) {
        test::writeText(dir / name, text);
        expectStanding(poseOf(dir / name), name);
    }
}

TEST(UpAxis, TheFormatTableNamesTheZUpFormats) {
    EXPECT_EQ(formatUpAxis("smd"), UpAxis::Z);
    EXPECT_EQ(formatUpAxis("dxf"), UpAxis::Z);
    for (const char* y : {"obj", "ply", "stl", "off", "ac", "dae", "glb", "fbx", "3ds", "x"})
        EXPECT_EQ(formatUpAxis(y), UpAxis::Y) << y;
}

// An explicit up_axis wins over the format's convention, in both directions.
TEST(UpAxis, ExplicitAxisOverridesTheFormat) {
    const fs::path dir = test::scratchDir();
    test::writeText(dir / "zup.obj", obj(box(true))); // a Z-up OBJ (as some exporters write)
    EXPECT_NEAR(poseOf(dir / "zup.obj").size.z, 324.0f, 0.5f); // assumed Y up: on its tail
    expectStanding(poseOf(dir / "zup.obj", UpAxis::Z), "zup.obj, up_axis z");
    test::writeText(dir / "yup.smd", smd(box(false)));
    expectStanding(poseOf(dir / "yup.smd", UpAxis::Y), "yup.smd, up_axis y");
    // A DXF holding Y-up data (as some converters write it): Assimp's own Z-to-Y turn is undone
    // first, so up_axis = "y" means the file's y.
    test::writeText(dir / "yup.dxf", dxf(box(false)));
    EXPECT_NEAR(poseOf(dir / "yup.dxf").size.z, 324.0f, 0.5f);
    expectStanding(poseOf(dir / "yup.dxf", UpAxis::Y), "yup.dxf, up_axis y");
}

// The preview: three views side by side, the silhouette drawn, the ground line below it.
TEST(MeshPreview, DrawsThreeSilhouettesAboveTheGround) {
    const fs::path dir = test::scratchDir();
    test::writeText(dir / "box.obj", obj(box(false)));
    auto result = importModel(dir / "box.obj");
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(result));
    const ImageRgba8 image = renderMeshPreview(std::get<ImportedModel>(result).mesh, "box", 200);
    ASSERT_EQ(image.width, 600);
    const glm::u8vec4 silhouette{52, 86, 140, 255}, ground{150, 90, 40, 255};
    for (int view = 0; view < 3; ++view) {
        int filled = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = view * 200; x < (view + 1) * 200; ++x)
                filled += image.at(x, y) == silhouette;
        EXPECT_GT(filled, 1000) << "view " << view;
    }
    // Front and side views: the ground line runs along the silhouette's bottom edge.
    int groundPixels = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < 400; ++x)
            groundPixels += image.at(x, y) == ground;
    EXPECT_GT(groundPixels, 300);
}

} // namespace
} // namespace snowcap
