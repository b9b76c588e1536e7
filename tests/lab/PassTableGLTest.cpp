// The frame as declared passes (gpu/pass_record.hpp, render/frame.cpp): docs/architecture.md's
// pass table is `snowcap passes --scenario decay_ladder --markdown`; no pass reads what nothing
// before it in the frame writes unless it is a history input; every input a pass's program
// samples is in its bindings; and the list leaves out what idle skip, quality "off" and a
// switched-off feature leave out.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "lab/pass_table.hpp"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace snowcap {
namespace {

std::unique_ptr<Lab> makeLab(const std::string& scenario, std::vector<std::string> overrides) {
    auto created = Lab::create(scenario, overrides, test::glInfo().renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

// A 64 x 64 colour + depth target the tests' views draw into (the headless context has no
// window to draw into).
struct Target {
    gpu::Texture2D colour{64, 64, gpu::TextureFormat::RGBA8, "test.colour"};
    gpu::Texture2D depth{64, 64, gpu::TextureFormat::D32F, "test.depth"};
    gpu::Framebuffer framebuffer{&colour, &depth, "test.target"};
};

// The scenario's first step drawn into `target`.
std::vector<gpu::PassRecord> firstStep(Lab& lab, const Target& target) {
    const std::vector<FrameView> views =
        splitViews(lab.field(), lab.settings(), target.framebuffer.id(), 64, 64);
    return framePasses(lab.field(), lab.renderer(),
                       {lab.instancesAt(lab.fixedDtS()), lab.fixedDtS(), {views}});
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> names(const std::vector<gpu::PassRecord>& passes) {
    std::vector<std::string> out;
    for (const gpu::PassRecord& pass : passes)
        out.push_back(pass.name);
    return out;
}

bool has(const std::vector<gpu::PassRecord>& passes, const std::string& name) {
    const std::vector<std::string> all = names(passes);
    return std::find(all.begin(), all.end(), name) != all.end();
}

TEST(PassTable, ArchitectureDocsTableIsTheDecayLadderFrame) {
    auto lab = makeLab("decay_ladder", {});
    ASSERT_TRUE(lab);
    const std::vector<gpu::PassRecord> passes = scenarioFramePasses(*lab); // planned, not run
    const std::string doc = readText(test::sourceDir() / "docs/architecture.md");
    const std::size_t begin = doc.find(kPassTableBegin), end = doc.find(kPassTableEnd);
    ASSERT_NE(begin, std::string::npos) << "docs/architecture.md lacks: " << kPassTableBegin;
    ASSERT_NE(end, std::string::npos) << "docs/architecture.md lacks: " << kPassTableEnd;
    const std::size_t first = doc.find('\n', begin) + 1;
    EXPECT_TRUE(doc.substr(first, end - first) == passListMarkdown(passes))
        << "docs/architecture.md's pass table differs from the frame's list; regenerate it "
           "between its markers: build/release/snowcap passes --scenario decay_ladder --markdown";
}

// Every scenario's first step, its second, and a frame that only draws (a paused viewer).
TEST(PassTable, NoPassReadsWhatNothingBeforeItWrites) {
    for (const char* scenario :
         {"decay_compare", "decay_ladder", "follow_compare", "world_observers", "idle_compare",
          "blur_compare", "quality_compare", "format_compare", "foliage", "crowd"}) {
        SCOPED_TRACE(scenario);
        auto lab = makeLab(scenario, {"snow.resolution=64"});
        ASSERT_TRUE(lab);
        const Settings& settings = lab->settings();
        const double dt = lab->fixedDtS();
        const Target target;
        const std::vector<FrameView> views =
            splitViews(lab->field(), settings, target.framebuffer.id(), 64, 64);
        for (int frame = 1; frame <= 3; ++frame) {
            const double step = frame < 3 ? dt : 0.0;
            const std::vector<gpu::PassRecord> passes = framePasses(
                lab->field(), lab->renderer(), {lab->instancesAt(frame * dt), step, {views}});
            const std::vector<std::string> missing = gpu::unwrittenReads(passes);
            EXPECT_TRUE(missing.empty()) << "frame " << frame << ": " << missing.front();
            gpu::runPasses(passes);
        }
    }
}

TEST(PassTable, AReadWithoutItsWriteIsCaught) {
    auto lab = makeLab("decay_compare", {"snow.resolution=64"});
    ASSERT_TRUE(lab);
    const Target target;
    std::vector<gpu::PassRecord> passes = firstStep(*lab, target);
    gpu::runPasses(passes);
    ASSERT_TRUE(gpu::unwrittenReads(passes).empty());
    // Broken on purpose: the capture leaves the frame, the accumulate still reads it.
    std::erase_if(passes, [](const gpu::PassRecord& pass) { return pass.name == "capture"; });
    const std::vector<std::string> missing = gpu::unwrittenReads(passes);
    ASSERT_FALSE(missing.empty());
    EXPECT_EQ(missing.front(), "accumulate.ab reads 'capture'");
}

// Whatever a pass's program samples is in the pass's bindings, so no pass depends on what
// another left bound. Storage buffers are left out: the deformer batch binds its records and
// palette at each draw (snow/deformer_batch.cpp), the wind buffer once when uploaded.
TEST(PassTable, EveryProgramInputIsBoundByItsPass) {
    for (const char* scenario : {"decay_compare", "quality_compare", "blur_compare", "crowd"}) {
        SCOPED_TRACE(scenario);
        auto lab = makeLab(scenario, {"snow.resolution=64", "look.deformer_shadows=true"});
        ASSERT_TRUE(lab);
        const Target target;
        const std::vector<gpu::PassRecord> passes = firstStep(*lab, target);
        for (const gpu::PassRecord& pass : passes) {
            if (!pass.state || !pass.state->program)
                continue;
            for (const gpu::ProgramSlot& slot : gpu::programSlots(pass.state->program)) {
                if (slot.kind == gpu::BindingKind::StorageBuffer)
                    continue;
                const bool bound = std::any_of(
                    pass.bindings.begin(), pass.bindings.end(), [&](const gpu::PassBinding& b) {
                        return b.kind == slot.kind && b.slot == slot.slot;
                    });
                EXPECT_TRUE(bound) << pass.name << " samples " << slot.glslName << " at "
                                   << slot.slot << " and does not bind it";
            }
        }
        gpu::runPasses(passes);
    }
}

TEST(PassTable, LeftOutPassesAreAbsent) {
    {
        // snow.quality = "off": no capture, accumulate or blur, only the views.
        auto lab = makeLab("decay_compare", {"snow.resolution=64", "snow.quality=\"off\""});
        ASSERT_TRUE(lab);
        const Target target;
        const std::vector<gpu::PassRecord> passes = firstStep(*lab, target);
        EXPECT_FALSE(has(passes, "capture"));
        EXPECT_FALSE(has(passes, "accumulate.ab"));
        EXPECT_TRUE(has(passes, "view.surface"));
        gpu::runPasses(passes);
    }
    for (const bool idleSkip : {true, false}) {
        // Nothing reaches the snow of a fresh field: idle skip leaves capture and accumulate
        // out and only steps the clocks; without it both run.
        auto lab =
            makeLab("decay_compare", {"snow.resolution=64", std::string("snow.idle_skip=") +
                                                                (idleSkip ? "true" : "false")});
        ASSERT_TRUE(lab);
        const Target target;
        const std::vector<FrameView> views =
            splitViews(lab->field(), lab->settings(), target.framebuffer.id(), 64, 64);
        const std::vector<gpu::PassRecord> passes =
            framePasses(lab->field(), lab->renderer(), {{}, lab->fixedDtS(), {views}});
        EXPECT_EQ(has(passes, "capture"), !idleSkip);
        EXPECT_EQ(has(passes, "accumulate.ab"), !idleSkip);
        EXPECT_EQ(has(passes, "idle.a.b"), idleSkip);
        EXPECT_TRUE(gpu::unwrittenReads(passes).empty());
        gpu::runPasses(passes);
        EXPECT_EQ(lab->field().idleSteps(0), idleSkip ? 1 : 0);
    }
    {
        // No shadows: no shadow pass, and no surface pass reads its map.
        auto lab = makeLab("decay_compare", {"snow.resolution=64", "look.deformer_shadows=false"});
        ASSERT_TRUE(lab);
        const Target target;
        const std::vector<gpu::PassRecord> passes = firstStep(*lab, target);
        EXPECT_FALSE(has(passes, "shadow"));
        gpu::runPasses(passes);
    }
    {
        // With shadows the pass is there, before the views that read it.
        auto lab = makeLab("decay_compare", {"snow.resolution=64", "look.deformer_shadows=true"});
        ASSERT_TRUE(lab);
        const Target target;
        const std::vector<gpu::PassRecord> passes = firstStep(*lab, target);
        EXPECT_TRUE(has(passes, "shadow"));
        gpu::runPasses(passes);
    }
}

} // namespace
} // namespace snowcap
