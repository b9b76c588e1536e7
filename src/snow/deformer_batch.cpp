#include "snow/deformer_batch.hpp"

#include "snow/snow_params.hpp"

#include <algorithm>
#include <unordered_map>

namespace snowcap {

namespace {

// Immutable GL storage cannot grow: a buffer too small for `bytes` is replaced by one with
// room to spare (doubling), so a growing crowd reallocates a few times, not every frame.
void ensureCapacity(gpu::Buffer& buffer, std::size_t bytes, const char* name) {
    if (buffer.id() && buffer.bytes() >= bytes)
        return;
    const std::size_t size = std::max<std::size_t>({bytes, 2 * buffer.bytes(), 256});
    buffer = gpu::Buffer(size, nullptr, name);
}

} // namespace

void DeformerBatch::prepare(std::span<const DeformerInstance> instances) {
    instances_ = instances;
    groups_.clear();
    order_.clear();
    records_.clear();
    palette_.clear();
    // Group by mesh, in the order the meshes first appear.
    std::unordered_map<const gpu::GpuMesh*, std::size_t> slot;
    std::vector<std::vector<std::uint32_t>> members;
    for (std::size_t i = 0; i < instances.size(); ++i) {
        const gpu::GpuMesh* mesh = instances[i].mesh;
        if (!mesh)
            continue;
        const auto [at, added] = slot.try_emplace(mesh, groups_.size());
        if (added) {
            groups_.push_back({mesh, 0, 0});
            members.emplace_back();
        }
        members[at->second].push_back(static_cast<std::uint32_t>(i));
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        groups_[g].first = static_cast<std::uint32_t>(order_.size());
        groups_[g].count = static_cast<std::uint32_t>(members[g].size());
        order_.insert(order_.end(), members[g].begin(), members[g].end());
    }
    // The records, group after group, and the poses of the skinned ones in the palette: each
    // pose is uploaded once and read by every pass of the frame.
    records_.reserve(order_.size());
    for (const std::uint32_t index : order_) {
        const DeformerInstance& d = instances[index];
        DeformerInstanceGpu record{};
        record.model = d.model;
        if (d.mesh->skinned() && !d.skinning.empty()) {
            record.jointBase = static_cast<std::uint32_t>(palette_.size());
            record.flags |= kInstanceSkinned;
            const std::size_t joints = std::min<std::size_t>(d.skinning.size(), gpu::kMaxJoints);
            palette_.insert(palette_.end(), d.skinning.begin(), d.skinning.begin() + joints);
        }
        if (d.sway != glm::vec4(0.0f))
            record.flags |= kInstanceSway;
        record.contact = static_cast<std::uint32_t>(contactTypeCode(d.contact));
        record.colour = index;
        record.sway = d.sway;
        records_.push_back(record);
    }
    if (records_.empty())
        return;
    const std::size_t recordBytes = records_.size() * sizeof(DeformerInstanceGpu);
    ensureCapacity(recordBuffer_, recordBytes, "deformers.records");
    recordBuffer_.update(0, recordBytes, records_.data());
    const std::size_t paletteBytes = palette_.size() * sizeof(glm::mat4);
    ensureCapacity(paletteBuffer_, paletteBytes, "deformers.palette");
    if (paletteBytes > 0)
        paletteBuffer_.update(0, paletteBytes, palette_.data());
    // The full list (record r at entry r) opens the list buffer; culled passes append theirs.
    list_.resize(records_.size());
    for (std::size_t r = 0; r < list_.size(); ++r)
        list_[r] = static_cast<std::uint32_t>(r);
    listUsed_ = 0;
    const std::uint32_t base = reserveList(static_cast<std::uint32_t>(list_.size()));
    listBuffer_.update(base * sizeof(std::uint32_t), list_.size() * sizeof(std::uint32_t),
                       list_.data());
}

std::uint32_t DeformerBatch::reserveList(std::uint32_t entries) {
    const std::size_t needed = (std::size_t(listUsed_) + entries) * sizeof(std::uint32_t);
    if (!listBuffer_.id() || listBuffer_.bytes() < needed) {
        // Room for several culled passes a frame (captures, shadow, views) before growing
        // again; what this frame already wrote moves along (a copy on the GPU, in order).
        gpu::Buffer grown(std::max<std::size_t>({needed * 2, listBuffer_.bytes() * 2, 256}),
                          nullptr, "deformers.list");
        if (listBuffer_.id() && listUsed_ > 0)
            glCopyNamedBufferSubData(listBuffer_.id(), grown.id(), 0, 0,
                                     GLsizeiptr(listUsed_) * GLsizeiptr(sizeof(std::uint32_t)));
        listBuffer_ = std::move(grown);
    }
    const std::uint32_t base = listUsed_;
    listUsed_ += entries;
    return base;
}

DeformerDrawStats DeformerBatch::draw(GLuint program, gpu::GpuMesh::Detail detail, const Keep& keep,
                                      const DetailOf& detailOf) {
    DeformerDrawStats stats;
    if (records_.empty())
        return stats;
    // The draws: per group, runs of consecutive instances with one detail (one run per group
    // without `detailOf`); `base` is the run's first entry in the list buffer.
    struct Run {
        const gpu::GpuMesh* mesh;
        gpu::GpuMesh::Detail detail;
        std::uint32_t base, count;
    };
    std::vector<Run> runs;
    const auto addTo = [&](const Group& group, gpu::GpuMesh::Detail d, std::uint32_t entry) {
        if (!runs.empty() && runs.back().mesh == group.mesh && runs.back().detail == d &&
            runs.back().base + runs.back().count == entry)
            ++runs.back().count;
        else
            runs.push_back({group.mesh, d, entry, 1});
    };
    if (keep) {
        list_.clear();
        for (const Group& group : groups_)
            for (std::uint32_t r = group.first; r < group.first + group.count; ++r) {
                const DeformerInstance& instance = instances_[order_[r]];
                if (!keep(instance))
                    continue;
                addTo(group, detailOf ? detailOf(instance) : detail,
                      static_cast<std::uint32_t>(list_.size()));
                list_.push_back(r);
            }
        if (list_.empty())
            return stats;
        const std::uint32_t base = reserveList(static_cast<std::uint32_t>(list_.size()));
        listBuffer_.update(base * sizeof(std::uint32_t), list_.size() * sizeof(std::uint32_t),
                           list_.data());
        for (Run& run : runs)
            run.base += base;
    } else {
        // The prepared list holds record r at entry r.
        for (const Group& group : groups_) {
            if (!detailOf) {
                runs.push_back({group.mesh, detail, group.first, group.count});
                continue;
            }
            for (std::uint32_t r = group.first; r < group.first + group.count; ++r)
                addTo(group, detailOf(instances_[order_[r]]), r);
        }
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kJointPaletteBinding, paletteBuffer_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kInstanceRecordsBinding, recordBuffer_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kRecordListBinding, listBuffer_.id());
    for (const Run& run : runs) {
        if (run.count == 0)
            continue;
        glProgramUniform1ui(program, kRecordBaseLocation, run.base);
        run.mesh->drawInstances(static_cast<int>(run.count), run.detail);
        ++stats.draws;
        stats.instances += static_cast<int>(run.count);
        stats.triangles += static_cast<long long>(run.count) * run.mesh->triangleCount(run.detail);
    }
    return stats;
}

} // namespace snowcap
