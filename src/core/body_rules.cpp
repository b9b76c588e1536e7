#include "core/body_rules.hpp"

namespace snowcap {

std::optional<BodyProblem> bodyProblem(const BodySettings& body) {
    // A mesh key on another shape would be silently unused: the body would not be what the
    // file says, so it is refused rather than ignored.
    if (body.shape == BodyShape::Mesh && body.mesh.empty())
        return BodyProblem{"shape", "shape = \"mesh\" needs a mesh file (mesh = \"PATH\")"};
    if (body.shape != BodyShape::Mesh && !body.mesh.empty())
        return BodyProblem{"mesh", "only a body of shape = \"mesh\" takes a mesh file, this one's "
                                   "shape is another"};
    return std::nullopt;
}

} // namespace snowcap
