#pragma once
// Inside the physics module only (Bullet's headers): a shape = "mesh" body's collision shape,
// the convex hull of its mesh (docs/physics.md, section 3.1), and the hull's solid: its volume
// and centroid, which place the body's centre of mass.

#include "physics/body_list.hpp"

#include <btBulletDynamicsCommon.h>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <vector>

namespace snowcap::bullet {

// The convex hull of `pointsCm` as a solid of uniform density (btConvexHullComputer, exact:
// no shrink, no simplification): its vertices (a subset of the points), volume and centroid.
struct HullSolid {
    std::vector<glm::vec3> verticesCm;
    double volumeCm3 = 0.0;
    glm::dvec3 centroidCm{0.0};
    double extentCm = 0.0; // the largest side of the points' bounding box
};
HullSolid hullSolid(std::span<const glm::vec3> pointsCm);

// Hulls of more vertices are simplified with btShapeHull (the support in 256 directions: each
// kept vertex is a hull vertex, so the simplified hull lies inside the exact one).
inline constexpr int kMaxHullVertices = 256;

// The body's Bullet shape (metres): its hull, simplified past kMaxHullVertices, shrunk by the
// collision margin (at most `marginM`, at most a quarter of the hull's inner radius) so that the
// hull grown by its margin is the mesh's hull again, as btBoxShape keeps its margin inside.
std::unique_ptr<btConvexHullShape> meshBodyShape(const BodyMesh& mesh, btScalar marginM);

} // namespace snowcap::bullet
