#pragma once
// A model's silhouettes as a picture (`inspect-mesh FILE --preview OUT.png`): front (seen from
// +X, the way a model faces), side (from -Y) and top (from +Z), all at one scale, with the
// ground line (z = 0), the origin and a 1 m scale bar, so a user sees at a glance whether a
// model stands on its feet and how big it is. CPU only.

#include "io/image.hpp"
#include "scene/mesh.hpp"

#include <cmath>
#include <cstdint>
#include <span>
#include <string>

namespace snowcap {

// `mesh` in world centimetres (Z up); `caption` is written above the views. With `highlight`
// (triangles over the same vertices, e.g. a capture subset) the mesh is drawn grey and those
// triangles in colour over it, and a finite `lineZCm` marks that height in the side views.
ImageRgba8 renderMeshPreview(const Mesh& mesh, const std::string& caption, int viewSize = 300,
                             std::span<const std::uint32_t> highlight = {}, float lineZCm = NAN);

} // namespace snowcap
