// Building the Assimp scene of an asset (make_assets_scene.hpp).

#include "make_assets_scene.hpp"

#include <algorithm>
#include <assimp/scene.h>

namespace snowcap::assets {
namespace {

aiMatrix4x4 toAi(const glm::mat4& m) {
    return aiMatrix4x4(m[0][0], m[1][0], m[2][0], m[3][0], m[0][1], m[1][1], m[2][1], m[3][1],
                       m[0][2], m[1][2], m[2][2], m[3][2], m[0][3], m[1][3], m[2][3], m[3][3]);
}

aiVector3D toAi(glm::vec3 v) {
    return {v.x, v.y, v.z};
}

template <class T> T* copyArray(const std::vector<T>& values) {
    T* out = new T[values.size()];
    std::copy(values.begin(), values.end(), out);
    return out;
}

aiNode* addChild(aiNode* parent, const std::string& name, const glm::mat4& transform) {
    auto* child = new aiNode(name);
    child->mTransformation = toAi(transform);
    child->mParent = parent;
    std::vector<aiNode*> children(parent->mChildren, parent->mChildren + parent->mNumChildren);
    children.push_back(child);
    delete[] parent->mChildren;
    parent->mChildren = copyArray(children);
    parent->mNumChildren = static_cast<unsigned>(children.size());
    return child;
}

} // namespace

aiScene* buildScene(const Asset& asset, const FileBasis& basis) {
    const glm::mat4 toFile = basis.matrix(), toWorld = glm::inverse(toFile);
    const glm::mat3 normalToFile = glm::mat3(FileBasis::zUpToYUp());
    auto* scene = new aiScene();
    scene->mRootNode = new aiNode(asset.name);
    auto* material = new aiMaterial();
    const aiString materialName(asset.name + "_material");
    material->AddProperty(&materialName, AI_MATKEY_NAME);
    const aiColor4D grey(0.8f, 0.8f, 0.8f, 1.0f);
    material->AddProperty(&grey, 1, AI_MATKEY_COLOR_DIFFUSE);
    scene->mMaterials = new aiMaterial* [1] {
        material
    };
    scene->mNumMaterials = 1;

    auto* mesh = new aiMesh();
    mesh->mName = asset.name;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = static_cast<unsigned>(asset.mesh.positions.size());
    mesh->mVertices = new aiVector3D[mesh->mNumVertices];
    mesh->mNormals = new aiVector3D[mesh->mNumVertices];
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        mesh->mVertices[v] = toAi(glm::vec3(toFile * glm::vec4(asset.mesh.positions[v], 1.0f)));
        mesh->mNormals[v] = toAi(normalToFile * asset.mesh.normals[v]);
    }
    mesh->mNumFaces = static_cast<unsigned>(asset.mesh.indices.size() / 3);
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        mesh->mFaces[f].mNumIndices = 3;
        mesh->mFaces[f].mIndices = new unsigned[3];
        std::copy_n(&asset.mesh.indices[3 * f], 3, mesh->mFaces[f].mIndices);
    }
    scene->mMeshes = new aiMesh* [1] {
        mesh
    };
    scene->mNumMeshes = 1;
    aiNode* meshNode = scene->mRootNode;
    if (!asset.skeleton.empty())
        meshNode = addChild(scene->mRootNode, asset.name + "_mesh", glm::mat4(1.0f));
    meshNode->mMeshes = new unsigned[1]{0};
    meshNode->mNumMeshes = 1;
    if (asset.skeleton.empty())
        return scene;

    const std::vector<Joint>& joints = asset.skeleton.joints;
    std::vector<aiNode*> nodes;
    for (const Joint& joint : joints)
        nodes.push_back(addChild(joint.parent >= 0 ? nodes[joint.parent] : scene->mRootNode,
                                 joint.name, toFile * joint.restLocal() * toWorld));
    std::vector<aiBone*> bones;
    for (std::size_t j = 0; j < joints.size(); ++j) {
        std::vector<aiVertexWeight> weights;
        for (unsigned v = 0; v < mesh->mNumVertices; ++v)
            for (int k = 0; k < 4; ++k)
                if (asset.joints[v][k] == j && asset.weights[v][k] > 0.0f)
                    weights.emplace_back(v, asset.weights[v][k]);
        auto* bone = new aiBone();
        bone->mName = joints[j].name;
        bone->mOffsetMatrix = toAi(toFile * joints[j].inverseBind * toWorld);
        bone->mNumWeights = static_cast<unsigned>(weights.size());
        bone->mWeights = copyArray(weights);
        bones.push_back(bone);
    }
    mesh->mBones = copyArray(bones);
    mesh->mNumBones = static_cast<unsigned>(bones.size());

    // Ticks are seconds: Assimp 5.2's FBX writer takes key times as seconds whatever
    // mTicksPerSecond says (the glTF writer divides by it, so 1 suits both).
    constexpr double kTicksPerSecond = 1.0;
    std::vector<aiAnimation*> animations;
    for (const AnimationClip& clip : asset.clips) {
        auto* animation = new aiAnimation();
        animation->mName = clip.name;
        animation->mTicksPerSecond = kTicksPerSecond;
        animation->mDuration = clip.durationS * kTicksPerSecond;
        std::vector<aiNodeAnim*> channels;
        for (const JointChannel& source : clip.channels) {
            auto* channel = new aiNodeAnim();
            channel->mNodeName = joints[source.joint].name;
            std::vector<aiVectorKey> translations, scales;
            std::vector<aiQuatKey> rotations;
            for (const auto& key : source.translations)
                translations.emplace_back(key.timeS * kTicksPerSecond,
                                          toAi(glm::vec3(toFile * glm::vec4(key.value, 0.0f))));
            for (const auto& key : source.rotations) {
                // Turning a rotation's frame turns its axis: exact for this axis permutation.
                const glm::vec3 axis =
                    normalToFile * glm::vec3(key.value.x, key.value.y, key.value.z);
                const glm::quat q(key.value.w, axis.x, axis.y, axis.z);
                rotations.emplace_back(key.timeS * kTicksPerSecond,
                                       aiQuaternion(q.w, q.x, q.y, q.z));
            }
            for (const auto& key : source.scales)
                scales.emplace_back(key.timeS * kTicksPerSecond, toAi(key.value));
            channel->mPositionKeys = copyArray(translations);
            channel->mNumPositionKeys = static_cast<unsigned>(translations.size());
            channel->mRotationKeys = copyArray(rotations);
            channel->mNumRotationKeys = static_cast<unsigned>(rotations.size());
            channel->mScalingKeys = copyArray(scales);
            channel->mNumScalingKeys = static_cast<unsigned>(scales.size());
            channels.push_back(channel);
        }
        animation->mChannels = copyArray(channels);
        animation->mNumChannels = static_cast<unsigned>(channels.size());
        animations.push_back(animation);
    }
    scene->mAnimations = copyArray(animations);
    scene->mNumAnimations = static_cast<unsigned>(animations.size());
    return scene;
}

} // namespace snowcap::assets
