#include "lab/pass_table.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace snowcap {

void advanceScenarioStep(Lab& lab) {
    lab.field().advance(lab.instancesAt(lab.fixedDtS()));
}

std::vector<gpu::PassRecord> scenarioFramePasses(Lab& lab, GLuint framebuffer) {
    const Settings& settings = lab.settings();
    const double dt = lab.fixedDtS();
    const std::vector<FrameView> views =
        splitViews(lab.field(), settings, framebuffer, settings.view.width, settings.view.height);
    // The physics step comes first (Lab::stepTo runs it before it plans the frame).
    std::vector<gpu::PassRecord> passes;
    if (std::optional<gpu::PassRecord> physics = lab.physicsPass(dt))
        passes.push_back(std::move(*physics));
    for (gpu::PassRecord& pass :
         framePasses(lab.field(), lab.renderer(), {lab.instancesAt(dt), dt, {views}}))
        passes.push_back(std::move(pass));
    return passes;
}

namespace {

// What a pass reads and writes, from its bindings and its other declarations.
std::string reads(const gpu::PassRecord& pass) {
    std::string out;
    for (const gpu::ResourceUse& use : gpu::resourceUses(pass))
        if (use.read)
            out += (out.empty() ? "" : ", ") + use.name + (use.history ? " (history)" : "");
    return out.empty() ? "-" : out;
}

std::string writes(const gpu::PassRecord& pass) {
    std::string out;
    for (const gpu::ResourceUse& use : gpu::resourceUses(pass))
        if (use.write)
            out += (out.empty() ? "" : ", ") + use.name;
    return out.empty() ? "-" : out;
}

std::string timer(const gpu::PassRecord& pass) {
    return pass.timerName().empty() ? "-" : pass.timerName();
}

// A cell of a Markdown table: a pipe would end it.
std::string cell(std::string text) {
    std::string out;
    for (char c : text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

} // namespace

std::string passListText(std::span<const gpu::PassRecord> passes) {
    std::string out;
    const gpu::Barriers barriers = gpu::deriveBarriers(passes);
    for (std::size_t p = 0; p < passes.size(); ++p) {
        const gpu::PassRecord& pass = passes[p];
        if (barriers.before[p])
            out += fmt::format("    -- barrier: {}\n", gpu::describeBarrier(barriers.before[p]));
        out += fmt::format("{:<24} timer {:<22} state {}\n", pass.name, timer(pass),
                           gpu::describeState(pass));
        out += fmt::format("    binds  {}\n", gpu::describeBindings(pass));
        out += fmt::format("    reads  {}\n", reads(pass));
        out += fmt::format("    writes {}\n", writes(pass));
    }
    if (barriers.after)
        out += fmt::format("    -- barrier at the end: {}\n", gpu::describeBarrier(barriers.after));
    return out;
}

std::string passListMarkdown(std::span<const gpu::PassRecord> passes) {
    std::string out = "| pass | reads | writes | bindings | state | timer |\n"
                      "| --- | --- | --- | --- | --- | --- |\n";
    for (const gpu::PassRecord& pass : passes)
        out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(pass.name), cell(reads(pass)),
                           cell(writes(pass)), cell(gpu::describeBindings(pass)),
                           cell(gpu::describeState(pass)),
                           pass.timerName().empty() ? "-" : "`" + pass.timerName() + "`");
    return out;
}

} // namespace snowcap
