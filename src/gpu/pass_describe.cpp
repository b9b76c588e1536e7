// The pass list as text, for `snowcap passes` and the checks' messages: barrier bits, each
// pass's fixed-function state and its bindings.
#include "gpu/pass_record.hpp"

#include <fmt/format.h>
#include <string>
#include <utility>
#include <vector>

namespace snowcap::gpu {

std::string describeBarrier(GLbitfield bits) {
    static const std::pair<GLbitfield, const char*> kNames[] = {
        {GL_TEXTURE_FETCH_BARRIER_BIT, "texture fetch"},
        {GL_SHADER_IMAGE_ACCESS_BARRIER_BIT, "image"},
        {GL_SHADER_STORAGE_BARRIER_BIT, "storage"},
        {GL_UNIFORM_BARRIER_BIT, "uniform"},
        {GL_COMMAND_BARRIER_BIT, "command"},
        {GL_FRAMEBUFFER_BARRIER_BIT, "framebuffer"},
        {GL_TEXTURE_UPDATE_BARRIER_BIT, "texture update"},
        {GL_BUFFER_UPDATE_BARRIER_BIT, "buffer update"},
        {GL_PIXEL_BUFFER_BARRIER_BIT, "pixel buffer"}};
    std::string out;
    for (const auto& [bit, name] : kNames)
        if (bits & bit)
            out += (out.empty() ? "" : " | ") + std::string(name);
    return out.empty() ? "-" : out;
}

std::string describeState(const PassRecord& pass) {
    if (pass.compute)
        return pass.stateNote.empty() ? "compute" : pass.stateNote;
    if (!pass.state)
        return pass.stateNote.empty() ? "-" : pass.stateNote;
    const PassState& s = *pass.state;
    std::vector<std::string> parts;
    parts.push_back(s.framebuffer == 0 ? "window" : "fbo");
    if (s.scissorToViewport)
        parts.push_back("scissor");
    if (s.depthTest != DepthTest::Off)
        parts.push_back(s.depthTest == DepthTest::Less ? "depth <" : "depth <=");
    if (s.depthWrite)
        parts.push_back("depth write");
    if (s.blend == Blend::Alpha)
        parts.push_back("blend");
    if (s.cullBackFaces)
        parts.push_back("cull");
    if (s.programPointSize)
        parts.push_back("program point size");
    if (s.clearColour)
        parts.push_back("clear colour");
    if (s.clearDepth)
        parts.push_back("clear depth");
    if (!pass.stateNote.empty())
        parts.push_back(pass.stateNote);
    std::string out;
    for (const std::string& part : parts)
        out += (out.empty() ? "" : ", ") + part;
    return out;
}

std::string describeBindings(const PassRecord& pass) {
    std::string out;
    for (const PassBinding& b : pass.bindings)
        out += fmt::format("{}{} {}: {}", out.empty() ? "" : ", ", toString(b.kind), b.slot,
                           b.resource);
    return out.empty() ? "-" : out;
}

} // namespace snowcap::gpu
