// The child-to-parent encoding of an ImportedModel: little framing, native byte order (both ends
// are the same executable on the same machine), a magic word and a version so a stray write
// cannot pass for a model.

#include "scene/model_wire.hpp"

#include <cstdint>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <type_traits>

namespace snowcap::wire {
namespace {

constexpr std::uint32_t kMagic = 0x534d4f44; // "SMOD"
constexpr std::uint32_t kVersion = 1;

class Writer {
public:
    template <class T> void pod(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        out_.append(reinterpret_cast<const char*>(&value), sizeof(T));
    }
    void count(std::size_t n) { pod(static_cast<std::uint64_t>(n)); }
    template <class T> void array(const std::vector<T>& values) {
        count(values.size());
        if (!values.empty())
            out_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    }
    void text(const std::string& value) {
        count(value.size());
        out_ += value;
    }
    void texts(const std::vector<std::string>& values) {
        count(values.size());
        for (const std::string& value : values)
            text(value);
    }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

// Reads fail sticky: after the first short read everything is zero and ok() says false.
class Reader {
public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}
    bool ok() const { return ok_; }
    std::size_t left() const { return bytes_.size() - at_; }
    bool atEnd() const { return at_ == bytes_.size(); }

    template <class T> T pod() {
        T value{};
        if (!take(sizeof(T)))
            return value;
        std::memcpy(&value, bytes_.data() + at_ - sizeof(T), sizeof(T));
        return value;
    }
    // A count of items each at least `minBytes` long: more than the bytes left can hold is a
    // lie, refused before anything is sized from it.
    std::size_t count(std::size_t minBytes) {
        const std::uint64_t n = pod<std::uint64_t>();
        if (!ok_ || (minBytes > 0 && n > left() / minBytes)) {
            ok_ = false;
            return 0;
        }
        return static_cast<std::size_t>(n);
    }
    template <class T> std::vector<T> array() {
        std::vector<T> values(count(sizeof(T)));
        if (!values.empty() && take(values.size() * sizeof(T)))
            std::memcpy(values.data(), bytes_.data() + at_ - values.size() * sizeof(T),
                        values.size() * sizeof(T));
        return values;
    }
    std::string text() {
        const std::size_t n = count(1);
        if (!take(n))
            return {};
        return std::string(bytes_.substr(at_ - n, n));
    }
    std::vector<std::string> texts() {
        std::vector<std::string> values(count(sizeof(std::uint64_t)));
        for (std::string& value : values)
            value = text();
        return values;
    }

private:
    bool take(std::size_t n) {
        if (!ok_ || n > left()) {
            ok_ = false;
            return false;
        }
        at_ += n;
        return true;
    }
    std::string_view bytes_;
    std::size_t at_ = 0;
    bool ok_ = true;
};

template <class T> void writeKeys(Writer& out, const std::vector<Keyframe<T>>& keys) {
    out.count(keys.size());
    for (const Keyframe<T>& key : keys) {
        out.pod(key.timeS);
        out.pod(key.value);
    }
}

template <class T> std::vector<Keyframe<T>> readKeys(Reader& in) {
    std::vector<Keyframe<T>> keys(in.count(sizeof(double) + sizeof(T)));
    for (Keyframe<T>& key : keys) {
        key.timeS = in.pod<double>();
        key.value = in.pod<T>();
    }
    return keys;
}

// What the GPU and the skinning code index with must point inside what it indexes.
std::string checkReferences(const ImportedModel& model) {
    const std::size_t vertices = model.mesh.positions.size();
    if (model.mesh.normals.size() != vertices && !model.mesh.normals.empty())
        return "normals do not match the vertices";
    if (model.mesh.indices.size() % 3 != 0)
        return "index count is not a multiple of 3";
    for (std::uint32_t index : model.mesh.indices)
        if (index >= vertices)
            return "triangle index out of range";
    if (model.joints.size() != model.weights.size() ||
        (!model.joints.empty() && model.joints.size() != vertices))
        return "skin weights do not match the vertices";
    const std::size_t joints = model.skeleton.joints.size();
    for (const glm::u16vec4& slots : model.joints)
        for (int k = 0; k < 4; ++k)
            if (slots[k] >= joints)
                return "skin joint index out of range";
    for (std::size_t j = 0; j < joints; ++j) {
        const int parent = model.skeleton.joints[j].parent;
        if (parent < -1 || parent >= static_cast<int>(j))
            return "joint parent out of order";
    }
    for (const AnimationClip& clip : model.clips)
        for (const JointChannel& channel : clip.channels)
            if (channel.joint < 0 || static_cast<std::size_t>(channel.joint) >= joints)
                return "clip channel on a missing joint";
    return "";
}

} // namespace

std::string encode(const ImportedModel& model) {
    Writer out;
    out.pod(kMagic);
    out.pod(kVersion);
    out.array(model.mesh.positions);
    out.array(model.mesh.normals);
    out.array(model.mesh.indices);
    out.array(model.joints);
    out.array(model.weights);
    out.count(model.skeleton.joints.size());
    for (const Joint& joint : model.skeleton.joints) {
        out.text(joint.name);
        out.pod(static_cast<std::int32_t>(joint.parent));
        out.pod(joint.inverseBind);
        out.pod(joint.restTranslation);
        out.pod(joint.restRotation);
        out.pod(joint.restScale);
    }
    out.pod(model.skeleton.root);
    out.count(model.clips.size());
    for (const AnimationClip& clip : model.clips) {
        out.text(clip.name);
        out.pod(clip.durationS);
        out.count(clip.channels.size());
        for (const JointChannel& channel : clip.channels) {
            out.pod(static_cast<std::int32_t>(channel.joint));
            writeKeys(out, channel.translations);
            writeKeys(out, channel.rotations);
            writeKeys(out, channel.scales);
        }
    }
    out.text(model.sourceFormat);
    out.text(model.conversion);
    out.count(model.sourceMeshes);
    out.texts(model.materials);
    out.pod(model.restBounds);
    out.texts(model.warnings);
    return out.take();
}

std::variant<ImportedModel, std::string> decode(std::string_view bytes) {
    Reader in(bytes);
    if (in.pod<std::uint32_t>() != kMagic || in.pod<std::uint32_t>() != kVersion)
        return std::string("the import's result is not a model");
    ImportedModel model;
    model.mesh.positions = in.array<glm::vec3>();
    model.mesh.normals = in.array<glm::vec3>();
    model.mesh.indices = in.array<std::uint32_t>();
    model.joints = in.array<glm::u16vec4>();
    model.weights = in.array<glm::vec4>();
    // A joint is at least its name's length, parent and transforms.
    model.skeleton.joints.resize(
        in.count(sizeof(std::uint64_t) + sizeof(std::int32_t) + sizeof(glm::mat4)));
    for (Joint& joint : model.skeleton.joints) {
        joint.name = in.text();
        joint.parent = in.pod<std::int32_t>();
        joint.inverseBind = in.pod<glm::mat4>();
        joint.restTranslation = in.pod<glm::vec3>();
        joint.restRotation = in.pod<glm::quat>();
        joint.restScale = in.pod<glm::vec3>();
    }
    model.skeleton.root = in.pod<glm::mat4>();
    model.clips.resize(in.count(2 * sizeof(std::uint64_t)));
    for (AnimationClip& clip : model.clips) {
        clip.name = in.text();
        clip.durationS = in.pod<double>();
        clip.channels.resize(in.count(sizeof(std::int32_t) + 3 * sizeof(std::uint64_t)));
        for (JointChannel& channel : clip.channels) {
            channel.joint = in.pod<std::int32_t>();
            channel.translations = readKeys<glm::vec3>(in);
            channel.rotations = readKeys<glm::quat>(in);
            channel.scales = readKeys<glm::vec3>(in);
        }
    }
    model.sourceFormat = in.text();
    model.conversion = in.text();
    model.sourceMeshes = in.count(0);
    model.materials = in.texts();
    model.restBounds = in.pod<Aabb>();
    model.warnings = in.texts();
    if (!in.ok() || !in.atEnd())
        return std::string("the import's result is truncated or malformed");
    if (std::string reason = checkReferences(model); !reason.empty())
        return "the import's result is inconsistent (" + reason + ")";
    return model;
}

} // namespace snowcap::wire
