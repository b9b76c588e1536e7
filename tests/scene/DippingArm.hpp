#pragma once
// A test figure whose hand comes down to the snow at one instant of its clip only: a 170 cm
// body of four stacked blocks (joint 0) and an arm of 135 cm hanging from a shoulder at 140 cm
// (joint 1). The clip holds the arm swung up 80 degrees to one side, then between 0.45 s and
// 0.55 s swings it through straight down (the hand at 5 cm above the feet at t = 0.5 s, a time
// that is no key) to 80 degrees on the other side, and holds it there. At both keys of the
// swing the hand is at 116.6 cm: sampling the keys alone would say it never comes low.
#include "scene/deformer.hpp"
#include "scene/mesh.hpp"
#include "scene/skeleton.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

namespace snowcap::test {

struct DippingArm {
    Mesh mesh;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    Skeleton skeleton;
    AnimationClip clip;
    std::size_t armFirstIndex = 0;    // mesh.indices from here on are the arm's
    std::uint32_t armFirstVertex = 0; // and mesh.positions from here on

    static constexpr float kShoulderZ = 140.0f, kArmLength = 135.0f, kShoulderY = 25.0f;

    DippingArm() {
        const auto add = [&](glm::vec3 half, glm::vec3 centre, std::uint16_t joint) {
            const Mesh box = makeBox(half);
            const auto base = std::uint32_t(mesh.positions.size());
            for (std::size_t v = 0; v < box.positions.size(); ++v) {
                mesh.positions.push_back(box.positions[v] + centre);
                mesh.normals.push_back(box.normals[v]);
                joints.push_back({joint, 0, 0, 0});
                weights.push_back({1.0f, 0.0f, 0.0f, 0.0f});
            }
            for (std::uint32_t i : box.indices)
                mesh.indices.push_back(base + i);
        };
        add({10, 15, 15}, {0, 0, 15}, 0);  // legs, 0..30
        add({10, 15, 15}, {0, 0, 45}, 0);  // hips, 30..60
        add({10, 15, 25}, {0, 0, 85}, 0);  // torso, 60..110
        add({10, 15, 30}, {0, 0, 140}, 0); // chest and head, 110..170
        armFirstIndex = mesh.indices.size();
        armFirstVertex = std::uint32_t(mesh.positions.size());
        add({4, 4, kArmLength / 2}, {0, kShoulderY, kShoulderZ - kArmLength / 2}, 1);

        Joint body;
        body.name = "body";
        skeleton.joints.push_back(body);
        Joint shoulder;
        shoulder.name = "shoulder";
        shoulder.parent = 0;
        shoulder.restTranslation = {0, kShoulderY, kShoulderZ};
        shoulder.inverseBind =
            glm::inverse(glm::translate(glm::mat4(1.0f), {0, kShoulderY, kShoulderZ}));
        skeleton.joints.push_back(shoulder);

        const auto about = [](float degrees) {
            return glm::angleAxis(glm::radians(degrees), glm::vec3(1, 0, 0));
        };
        clip.name = "dip";
        clip.durationS = 1.0;
        JointChannel swing;
        swing.joint = 1;
        swing.rotations = {
            {0.0, about(-80)}, {0.45, about(-80)}, {0.55, about(80)}, {1.0, about(80)}};
        clip.channels.push_back(swing);
    }
};

} // namespace snowcap::test
