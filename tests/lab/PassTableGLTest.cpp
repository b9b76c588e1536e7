// The frame as declared passes (gpu/pass_record.hpp, render/frame.cpp): docs/architecture.md's
// pass table is `snowcap passes --scenario decay_ladder --markdown`; no pass reads what nothing
// before it in the frame writes unless it is a history input; every input a pass's program
// samples is in its bindings; and the list leaves out what idle skip, quality "off" and a
// switched-off feature leave out.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/frame_graph.hpp"
#include "lab/pass_table.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>

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
    advanceScenarioStep(lab);
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
    advanceScenarioStep(*lab); // as `snowcap passes` does
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

// Every bundled scenario (config/scenarios/*.toml).
std::vector<std::string> bundledScenarios() {
    std::vector<std::string> out;
    for (const auto& entry :
         std::filesystem::directory_iterator(test::sourceDir() / "config/scenarios"))
        if (entry.path().extension() == ".toml")
            out.push_back(entry.path().stem().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Every bundled scenario's first step, its second, and a frame that only draws (a paused
// viewer): no pass reads what nothing before it writes, the derived barriers order every
// hazard (the debug builds' check, gpu::checkPasses), every input a program uses is declared
// (a compute pass's storage buffers too), and no pass stores through a binding it declared
// read-only (each is read back before and after its pass).
TEST(PassTable, EveryScenarioChecksItself) {
    const std::vector<std::string> scenarios = bundledScenarios();
    ASSERT_GE(scenarios.size(), 20u);
    for (const std::string& scenario : scenarios) {
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
            if (step > 0.0) // as runFrame does
                lab->field().advance(lab->instancesAt(frame * dt));
            const std::vector<gpu::PassRecord> passes = framePasses(
                lab->field(), lab->renderer(), {lab->instancesAt(frame * dt), step, {views}});
            for (const std::string& problem : gpu::checkPasses(passes))
                ADD_FAILURE() << "frame " << frame << ": " << problem;
            for (const std::string& missing : gpu::undeclaredInputs(passes))
                ADD_FAILURE() << "frame " << frame << ": " << missing;
            for (const std::string& store : gpu::runPassesAudited(passes))
                ADD_FAILURE() << "frame " << frame << ": " << store;
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

// The snowpack's first step as passes, one a dispatch, broken on purpose three ways.
std::vector<gpu::PassRecord> snowpackStep(Lab& lab, const Target& target) {
    const std::vector<gpu::PassRecord> passes = firstStep(lab, target);
    EXPECT_TRUE(has(passes, "snowpack.b.compact"));
    EXPECT_TRUE(gpu::unwrittenReads(passes).empty());
    EXPECT_TRUE(gpu::undeclaredInputs(passes).empty());
    return passes;
}

gpu::PassRecord& named(std::vector<gpu::PassRecord>& passes, const std::string& name) {
    const auto at = std::find_if(passes.begin(), passes.end(),
                                 [&](const gpu::PassRecord& pass) { return pass.name == name; });
    if (at == passes.end())
        throw std::runtime_error("no pass " + name);
    return *at;
}

TEST(PassTable, ARemovedReadIsCaught) {
    auto lab = makeLab("snowpack_compare", {"snow.resolution=64"});
    ASSERT_TRUE(lab);
    const Target target;
    std::vector<gpu::PassRecord> passes = snowpackStep(*lab, target);
    // The compaction no longer declares the capture it samples.
    ASSERT_TRUE(has(passes, "snowpack.b.compact"));
    std::erase_if(named(passes, "snowpack.b.compact").bindings,
                  [](const gpu::PassBinding& b) { return b.resource == "capture"; });
    const std::vector<std::string> missing = gpu::undeclaredInputs(passes);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing.front(),
              "snowpack.b.compact uses texture 'captureDepth' at 0 and does not declare it");
}

TEST(PassTable, APassBeforeItsProducerIsCaught) {
    auto lab = makeLab("snowpack_compare", {"snow.resolution=64"});
    ASSERT_TRUE(lab);
    const Target target;
    std::vector<gpu::PassRecord> passes = snowpackStep(*lab, target);
    // The plough's resolve runs before the compaction has written the state.
    auto compact = std::find_if(passes.begin(), passes.end(), [](const auto& p) {
        return p.name == "snowpack.b.plough_resolve";
    });
    auto classify = std::find_if(passes.begin(), passes.end(),
                                 [](const auto& p) { return p.name == "snowpack.b.classify"; });
    ASSERT_NE(compact, passes.end());
    std::rotate(classify, compact, compact + 1); // plough_resolve now comes first
    const std::vector<std::string> missing = gpu::unwrittenReads(passes);
    ASSERT_FALSE(missing.empty());
    EXPECT_EQ(missing.front(), "snowpack.b.plough_resolve reads 'snowpack.b'");
}

TEST(PassTable, AnUndeclaredStoreIsCaught) {
    auto lab = makeLab("snowpack_compare", {"snow.resolution=64"});
    ASSERT_TRUE(lab);
    const Target target;
    std::vector<gpu::PassRecord> passes = snowpackStep(*lab, target);
    // The compaction marks the tiles it touched: declared a load only, its store would get
    // no barrier before the lists that read the bits.
    ASSERT_TRUE(has(passes, "snowpack.b.compact"));
    for (gpu::PassBinding& binding : named(passes, "snowpack.b.compact").bindings)
        if (binding.resource == "snowpack.b.tile_state")
            binding.access = gpu::ImageAccess::Read;
    const std::vector<std::string> stores = gpu::runPassesAudited(passes);
    ASSERT_EQ(stores.size(), 1u);
    EXPECT_EQ(stores.front(), "snowpack.b.compact stores into 'snowpack.b.tile_state' through "
                              "buffer 3, declared read-only");
}

// Broken on purpose: a paused frame (the views sample the snowpack's state) and then a step, as
// one list. The step's compaction stores into the state the views read: its derived barrier
// carries the image bit, which holds the stores back until those reads have completed; without
// it the check names the store.
TEST(PassTable, AStoreAfterAReadIsCaught) {
    auto lab = makeLab("snowpack_compare", {"snow.resolution=64"});
    ASSERT_TRUE(lab);
    const Target target;
    const std::vector<FrameView> views =
        splitViews(lab->field(), lab->settings(), target.framebuffer.id(), 64, 64);
    std::vector<gpu::PassRecord> passes = framePasses(
        lab->field(), lab->renderer(), {lab->instancesAt(lab->fixedDtS()), 0.0, {views}});
    for (gpu::PassRecord& pass : snowpackStep(*lab, target))
        passes.push_back(std::move(pass));
    gpu::Barriers barriers = gpu::deriveBarriers(passes);
    ASSERT_TRUE(gpu::unorderedAccesses(passes, barriers).empty());
    const auto compact =
        std::find_if(passes.begin(), passes.end(),
                     [](const gpu::PassRecord& pass) { return pass.name == "snowpack.b.compact"; });
    ASSERT_NE(compact, passes.end());
    GLbitfield& bits = barriers.before[std::size_t(compact - passes.begin())];
    ASSERT_TRUE(bits & GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    bits &= ~GLbitfield(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    const std::vector<std::string> problems = gpu::unorderedAccesses(passes, barriers);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems.front(), "snowpack.b.compact stores into 'snowpack.b' after view.surface "
                                "touched it: no image barrier between");
}

// What planning must leave as it was: every sim's clock, buffer and region, and a snowpack
// sim's state, Snowpack block and clocks (its own and its sky's).
struct FieldSnapshot {
    std::vector<double> times;
    std::vector<std::vector<float>> buffers;
    std::vector<glm::dvec2> centres;
    std::vector<double> packTimes, weatherTimes;
    std::vector<std::vector<std::uint8_t>> blocks;
    int captures = 0;

    explicit FieldSnapshot(const SnowField& field) {
        for (int s = 0; s < field.simCount(); ++s) {
            const SnowSim& sim = field.sim(s);
            times.push_back(sim.timeS());
            buffers.push_back(sim.persistent().readFloats());
            centres.push_back(field.plannedRegion(s).centreCm);
            if (const SnowpackSim* pack = field.snowpack(s)) {
                packTimes.push_back(pack->clock().timeS());
                weatherTimes.push_back(pack->weather().clock().timeS());
                std::vector<std::uint8_t> block(pack->block().bytes());
                gpu::readBuffer(pack->block().id(), 0, block.size(), block.data());
                blocks.push_back(std::move(block));
            }
        }
        captures = field.captureCount();
    }
    bool operator==(const FieldSnapshot&) const = default;
};

// Planning and printing the list change nothing: once the step is advanced (the following
// windows' next places and captures, as `snowcap passes` does), the list printed twice is the
// same, and the field is as it was until the list runs; then the step changes it. Every
// bundled scenario.
TEST(PassTable, PrintingTheListChangesNothing) {
    for (const std::string& scenario : bundledScenarios()) {
        SCOPED_TRACE(scenario);
        auto lab = makeLab(scenario, {"snow.resolution=64", "view.width=64", "view.height=64"});
        ASSERT_TRUE(lab);
        // The list runs below: into a target of the view's size, not the window the headless
        // context lacks (drawing there is a GL error).
        const Target target;
        advanceScenarioStep(*lab);
        const FieldSnapshot before(lab->field());
        const GLuint into = target.framebuffer.id();
        const std::vector<gpu::PassRecord> passes = scenarioFramePasses(*lab, into);
        const std::string first = passListText(passes);
        const std::string second = passListText(scenarioFramePasses(*lab, into));
        EXPECT_EQ(first, second);
        EXPECT_TRUE(FieldSnapshot(lab->field()) == before);
        while (glGetError() != GL_NO_ERROR) {
        }
        gpu::runPasses(passes);
        EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
        EXPECT_FALSE(FieldSnapshot(lab->field()) == before);
    }
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
