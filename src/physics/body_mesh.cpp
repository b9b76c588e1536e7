// shape = "mesh" bodies (docs/physics.md, section 3.1): the file imported as a deformer's mesh
// is, its convex hull's solid (the centre of mass at its centroid), and the Bullet shape.

#include "core/body_rules.hpp"
#include "physics/body_hull.hpp"
#include "physics/body_list.hpp"
#include "physics/bullet_units.hpp"
#include "scene/deformer.hpp"

#include <BulletCollision/CollisionShapes/btShapeHull.h>
#include <LinearMath/btConvexHullComputer.h>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <glm/common.hpp>

namespace snowcap {

namespace bullet {

HullSolid hullSolid(std::span<const glm::vec3> pointsCm) {
    HullSolid solid;
    if (pointsCm.size() < 4)
        return solid;
    std::vector<double> coords;
    coords.reserve(pointsCm.size() * 3);
    glm::dvec3 low(pointsCm[0]), high(pointsCm[0]);
    for (const glm::vec3& p : pointsCm) {
        coords.insert(coords.end(), {double(p.x), double(p.y), double(p.z)});
        low = glm::min(low, glm::dvec3(p));
        high = glm::max(high, glm::dvec3(p));
    }
    const glm::dvec3 side = high - low;
    solid.extentCm = std::max({side.x, side.y, side.z});
    btConvexHullComputer hull;
    hull.compute(coords.data(), int(3 * sizeof(double)), int(pointsCm.size()), 0, 0);
    // The hull's own vertices are float; the points they came from are exact.
    std::vector<glm::dvec3> exact;
    for (int v = 0; v < hull.vertices.size(); ++v) {
        const glm::vec3 p = pointsCm[std::size_t(hull.original_vertex_index[v])];
        exact.push_back(glm::dvec3(p));
        solid.verticesCm.push_back(p);
    }
    if (exact.empty())
        return solid;
    // Each face fanned into triangles, each triangle a tetrahedron with the first vertex: their
    // signed volumes sum to the hull's, their centroids weighted by them to its centroid.
    const glm::dvec3 apex = exact[0];
    double volume = 0.0;
    glm::dvec3 moment(0.0);
    for (int f = 0; f < hull.faces.size(); ++f) {
        const btConvexHullComputer::Edge* first = &hull.edges[hull.faces[f]];
        const glm::dvec3 a = exact[std::size_t(first->getSourceVertex())];
        // The edges after the first, but the last (which comes back to a): (a, b, c) each.
        for (const btConvexHullComputer::Edge* e = first->getNextEdgeOfFace();
             e->getTargetVertex() != first->getSourceVertex(); e = e->getNextEdgeOfFace()) {
            const glm::dvec3 b = exact[std::size_t(e->getSourceVertex())];
            const glm::dvec3 c = exact[std::size_t(e->getTargetVertex())];
            const double tet = glm::dot(a - apex, glm::cross(b - apex, c - apex)) / 6.0;
            volume += tet;
            moment += tet * (apex + a + b + c) / 4.0;
        }
    }
    solid.volumeCm3 = std::abs(volume);
    solid.centroidCm = volume != 0.0 ? moment / volume : apex;
    return solid;
}

std::unique_ptr<btConvexHullShape> meshBodyShape(const BodyMesh& mesh, btScalar marginM) {
    std::vector<btVector3> points;
    for (const glm::vec3& p : mesh.hullCm)
        points.push_back(toMetres(p));
    if (points.size() > std::size_t(kMaxHullVertices)) {
        btConvexHullShape exact(&points[0].x(), int(points.size()), sizeof(btVector3));
        exact.setMargin(0); // btShapeHull samples the support, margin included
        btShapeHull simplified(&exact);
        simplified.buildHull(0, 1); // 256 directions
        points.assign(simplified.getVertexPointer(),
                      simplified.getVertexPointer() + simplified.numVertices());
    }
    btConvexHullComputer shrunk;
    const btScalar shrink = shrunk.compute(&points[0].x(), int(sizeof(btVector3)),
                                           int(points.size()), marginM, btScalar(0.25));
    auto shape = std::make_unique<btConvexHullShape>();
    if (shrink > 0 && shrunk.vertices.size() >= 4) {
        for (int v = 0; v < shrunk.vertices.size(); ++v)
            shape->addPoint(shrunk.vertices[v], false);
        shape->setMargin(shrink);
    } else { // too thin to shrink: the hull itself, with no margin
        for (const btVector3& p : points)
            shape->addPoint(p, false);
        shape->setMargin(0);
    }
    shape->recalcLocalAabb();
    return shape;
}

} // namespace bullet

namespace {

// A hull this small against its bounding box's largest side cubed has no volume to speak of:
// its points lie in one plane (or on a line), within float rounding.
constexpr double kFlatVolumeRatio = 1e-6;

std::variant<std::shared_ptr<const BodyMesh>, std::string>
loadBodyMesh(const BodySettings& body, std::size_t entry, const std::filesystem::path& root,
             const ImportSettings& limits) {
    const std::string key = fmt::format("key 'body[{}].mesh': ", entry);
    // Imported as a deformer's mesh is (the same bounded importer, the same cache key).
    DeformerSettings asDeformer;
    asDeformer.name = body.name;
    asDeformer.mesh = body.mesh;
    asDeformer.placement = DeformerSettings::Placement::Absolute;
    asDeformer.path = {DeformerSettings::Key{}};
    auto loaded = loadDeformer(asDeformer, root, 0.0, limits);
    if (auto* error = std::get_if<std::string>(&loaded)) {
        // The importer's line without its "deformer 'NAME': " (the key names it).
        const std::string who = "deformer '" + body.name + "': ";
        const bool named = error->rfind(who, 0) == 0;
        return key + (named ? error->substr(who.size()) : *error);
    }
    Deformer& imported = std::get<Deformer>(loaded);
    const bullet::HullSolid solid = bullet::hullSolid(imported.mesh.positions);
    if (!(solid.volumeCm3 > kFlatVolumeRatio * std::pow(solid.extentCm, 3.0)))
        return key + fmt::format("{}: its convex hull has no volume (its {} vertices lie in one "
                                 "plane or on a line), so it cannot be a rigid body",
                                 body.mesh, imported.mesh.positions.size());
    auto mesh = std::make_shared<BodyMesh>();
    mesh->centroidInFileCm = glm::vec3(solid.centroidCm);
    mesh->volumeCm3 = solid.volumeCm3;
    mesh->mesh = std::move(imported.mesh);
    for (glm::vec3& p : mesh->mesh.positions)
        p = glm::vec3(glm::dvec3(p) - solid.centroidCm);
    for (const glm::vec3& p : solid.verticesCm)
        mesh->hullCm.push_back(glm::vec3(glm::dvec3(p) - solid.centroidCm));
    mesh->meshKey = imported.meshKey + " body hull centroid";
    return std::shared_ptr<const BodyMesh>(std::move(mesh));
}

} // namespace

std::variant<std::vector<BodySpec>, std::string> placeBodies(std::span<const BodySettings> bodies,
                                                             const std::filesystem::path& root,
                                                             const ImportSettings& limits) {
    std::vector<std::shared_ptr<const BodyMesh>> meshes(bodies.size());
    for (std::size_t e = 0; e < bodies.size(); ++e) {
        if (const std::optional<BodyProblem> problem = bodyProblem(bodies[e]))
            return problem->line(e);
        if (bodies[e].shape != BodyShape::Mesh)
            continue;
        auto loaded = loadBodyMesh(bodies[e], e, root, limits);
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        meshes[e] = std::get<std::shared_ptr<const BodyMesh>>(loaded);
    }
    std::vector<BodySpec> specs = expandBodies(bodies);
    for (BodySpec& spec : specs)
        spec.mesh = meshes[spec.entry];
    return specs;
}

} // namespace snowcap
