#include "snow/terrain_mesh.hpp"

#include "gpu/objects.hpp"
#include "gpu/pass_state.hpp"
#include "scene/model_import.hpp"
#include "terrain/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <span>

namespace snowcap {

namespace {

// What the target holds where no triangle is: far below any terrain (finite, so a readback
// never meets an infinity).
constexpr float kNoSurfaceCm = -3.0e38f;

} // namespace

std::variant<HeightField, std::string>
rasteriseTerrainMesh(const HeightField& base, const Mesh& mesh, gpu::ShaderLibrary& shaders) {
    const int columns = base.columns(), rows = base.rows();
    GLint viewportMax[2] = {0, 0};
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewportMax);
    if (columns > viewportMax[0] || rows > viewportMax[1])
        return "the terrain's " + std::to_string(columns) + " x " + std::to_string(rows) +
               " samples are more than this GL draws at once (" + std::to_string(viewportMax[0]) +
               " x " + std::to_string(viewportMax[1]) + ")";
    auto program = shaders.load({"terrain.mesh_height",
                                 {{GL_VERTEX_SHADER, "terrain/mesh_height.vert"},
                                  {GL_FRAGMENT_SHADER, "terrain/mesh_height.frag"}},
                                 {}});
    if (auto* error = std::get_if<std::string>(&program))
        return *error;
    gpu::Texture2D heights(columns, rows, gpu::TextureFormat::R32F, "terrain.mesh.heights");
    gpu::Texture2D depth(columns, rows, gpu::TextureFormat::D32F, "terrain.mesh.depth");
    for (const gpu::Texture2D* texture : {&heights, &depth})
        if (!texture->allocationError().empty())
            return "the terrain's mesh heights: " + texture->allocationError();
    gpu::Framebuffer target(&heights, &depth, "terrain.mesh");
    if (auto incomplete = target.completeness(); !incomplete.empty())
        return "the terrain's mesh heights: " + incomplete;

    // x and y: the field's extent edge to edge onto the viewport, so pixel (i, j)'s centre is
    // column i's and row (rows - 1 - j)'s cell centre (GL's rows go up: south first). z: the
    // mesh's heights onto the depth range reversed, so the highest surface has the least depth.
    const glm::dvec2 lowCorner = base.centreCm() - 0.5 * base.sizeCm();
    const glm::dvec2 highCorner = base.centreCm() + 0.5 * base.sizeCm();
    const Aabb bounds = mesh.bounds();
    const double bottom = double(bounds.min.z) - 1.0, top = double(bounds.max.z) + 1.0;
    // glm::ortho's near/far are distances along -Z from an eye at z = 0 looking down.
    const glm::mat4 worldToClip =
        glm::ortho(float(lowCorner.x), float(highCorner.x), float(lowCorner.y), float(highCorner.y),
                   float(-top), float(-bottom));

    const std::span<const glm::vec3> positions = mesh.positions;
    gpu::Buffer vertices(positions.size_bytes(), positions.data(), "terrain.mesh.vertices");
    gpu::Buffer indices(mesh.indices.size() * sizeof(std::uint32_t), mesh.indices.data(),
                        "terrain.mesh.indices");
    gpu::VertexArray layout("terrain.mesh");
    glVertexArrayVertexBuffer(layout.id(), 0, vertices.id(), 0, sizeof(glm::vec3));
    glVertexArrayAttribFormat(layout.id(), 0, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(layout.id(), 0, 0);
    glEnableVertexArrayAttrib(layout.id(), 0);
    glVertexArrayElementBuffer(layout.id(), indices.id());

    gpu::PassState pass = gpu::passInto(target);
    pass.clearColour = glm::vec4(kNoSurfaceCm);
    pass.clearDepth = 1.0f;
    pass.depthTest = gpu::DepthTest::Less;
    pass.depthWrite = true;
    pass.cullBackFaces = false; // a surface seen from above whichever way it winds
    pass.program = std::get<gpu::ShaderProgram*>(program)->id();
    gpu::beginPass(pass);
    glProgramUniformMatrix4fv(pass.program, 0, 1, GL_FALSE, glm::value_ptr(worldToClip));
    glBindVertexArray(layout.id());
    glDrawElements(GL_TRIANGLES, GLsizei(mesh.indices.size()), GL_UNSIGNED_INT, nullptr);
    glBindVertexArray(0);

    const std::vector<float> drawn = heights.readFloats(); // south row first
    std::vector<float> merged = base.heightsM();
    for (int row = 0; row < rows; ++row) {
        const float* from = drawn.data() + std::size_t(rows - 1 - row) * columns;
        float* to = merged.data() + std::size_t(row) * columns;
        for (int column = 0; column < columns; ++column)
            if (from[column] > kNoSurfaceCm)
                to[column] = std::max(to[column], from[column] / 100.0f);
    }
    return HeightField(columns, rows, std::move(merged), base.centreCm(), base.sizeCm());
}

std::variant<HeightField, std::string> loadTerrainWithMesh(const Settings& settings,
                                                           const std::filesystem::path& root,
                                                           gpu::ShaderLibrary& shaders) {
    const TerrainSettings& terrain = settings.terrain;
    auto loaded = loadTerrain(terrain, root);
    const auto meshPath = terrainMeshPath(terrain, root);
    if (std::holds_alternative<std::string>(loaded) || !meshPath)
        return loaded;
    const std::string key =
        terrain.kind == TerrainKind::Mesh ? "key 'terrain.file': " : "key 'terrain.mesh_file': ";
    HeightField& base = std::get<HeightField>(loaded);
    if (base.flat())
        return key + "a mesh needs a terrain beneath it (kind = \"mesh\", \"heightmap\", "
                     "\"dem\" or \"noise\"), not kind = \"flat\"";
    ImportOptions options;
    options.limits = {settings.import.maxMemoryMiB, settings.import.maxSeconds};
    // The import centres the mesh on the origin with its lowest point at z = 0; from there
    // to the terrain's centre, then by mesh_offset_cm.
    options.offsetCm = glm::vec3(float(terrain.centreCm[0] + terrain.meshOffsetCm[0]),
                                 float(terrain.centreCm[1] + terrain.meshOffsetCm[1]),
                                 float(terrain.meshOffsetCm[2]));
    auto imported = importModel(*meshPath, options);
    if (auto* error = std::get_if<std::string>(&imported))
        return key + *error;
    auto rasterised = rasteriseTerrainMesh(base, std::get<ImportedModel>(imported).mesh, shaders);
    if (auto* error = std::get_if<std::string>(&rasterised))
        return key + meshPath->string() + ": " + *error;
    return rasterised;
}

} // namespace snowcap
