#include "snow/weather_sim.hpp"

// What a weather sim tells outside its step: the mass it brought in and took out, and its drift
// record, raw or as kg/m2 (weather_sim.hpp).

#include "gpu/binding_slots.hpp"
#include "gpu/frame_graph.hpp"
#include "gpu/pass_state.hpp"
#include "snow/snowpack_sim.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace snowcap {

namespace {

double totalKg(const gpu::Buffer& totals, int first, double texelCm) {
    if (!totals.id())
        return 0.0;
    std::array<std::uint32_t, 4> counts{};
    gpu::readBuffer(totals.id(), 0, sizeof(counts), counts.data());
    const double quanta = static_cast<double>((std::uint64_t(counts[first + 1]) << 32) |
                                              std::uint64_t(counts[first]));
    const double areaM2 = (texelCm * 0.01) * (texelCm * 0.01);
    return quanta * static_cast<double>(kWeatherQuantum) * areaM2;
}

} // namespace

double WeatherSim::massInKg() const {
    return totalKg(totals_, 0, texelCm_);
}
double WeatherSim::massOutKg() const {
    return totalKg(totals_, 2, texelCm_);
}

std::vector<std::int32_t> WeatherSim::readDriftRecord() const {
    std::vector<std::int32_t> record(active() ? static_cast<std::size_t>(size_) * size_ : 0);
    if (!record.empty())
        glGetTextureImage(record_[record0_].id(), 0, GL_RED_INTEGER, GL_INT,
                          static_cast<GLsizei>(record.size() * sizeof(std::int32_t)),
                          record.data());
    return record;
}

const gpu::Texture2D* WeatherSim::driftRecordKgM2(const SnowpackSim& snowpack) {
    if (!active())
        return nullptr;
    if (recordView_.width() != size_) {
        recordView_ = gpu::Texture2D(size_, size_, gpu::TextureFormat::R32F, "weather.drift_view");
        recordViewStale_ = true;
    }
    if (!recordView_.id())
        return nullptr;
    if (recordViewStale_) {
        // The record in kg/m2, stored as an image; what reads it next (the viewer's panel
        // samples it or reads it back) gets the barrier the graph derives at its end.
        gpu::FrameGraph graph;
        const gpu::BufferId block =
            graph.buffer({"snowpack.block", snowpack.block().bytes(), [&snowpack] {
                              return snowpack.block().id();
                          }});
        const gpu::TextureId record =
            graph.texture({"weather.drift_record", GL_R32I, size_, size_, [this] {
                               return record_[record0_].id();
                           }});
        const gpu::TextureId view =
            graph.texture({"weather.drift_view", GL_R32F, size_, size_, [this] {
                               return recordView_.id();
                           }});
        graph.addPass(
            "weather.drift_record_view",
            [&](gpu::PassBuilder& pass) {
                pass.compute(recordViewProgram_->id());
                pass.uniform(block, gpu::slot::kSnowpack);
                pass.sample(record, gpu::slot::kDriftRecord);
                pass.image(view, gpu::slot::kDriftRecordView, gpu::ImageAccess::Write);
                pass.history(block);
                pass.history(record);
            },
            [this] {
                const GLuint groups = static_cast<GLuint>((size_ + 7) / 8);
                gpu::dispatchCompute(groups, groups);
            });
        gpu::runGraph(graph);
        recordViewStale_ = false;
    }
    return &recordView_;
}

} // namespace snowcap
