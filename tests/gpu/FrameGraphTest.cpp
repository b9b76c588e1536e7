// The frame graph's declarations without a GL context (gpu/frame_graph.hpp,
// gpu/pass_record.hpp): a binding is the read, the read-before-write check sees the order, and
// each memory barrier's bits follow from how the writer stored and how the reader reads.
#include "gpu/frame_graph.hpp"

#include <gtest/gtest.h>

namespace snowcap::gpu {
namespace {

// A little compute chain: a list builder stores into a buffer, a pass dispatches from it and
// stores into an image, a draw samples the image.
struct Chain {
    FrameGraph graph;
    TextureId state = graph.texture({"state", GL_RGBA32F, 64, 64, [] {
                                         return 1u;
                                     }});
    BufferId list = graph.buffer({"list", 256, [] {
                                      return 2u;
                                  }});
    TextureId target = graph.texture({"target", GL_RGBA8, 64, 64, [] {
                                          return 3u;
                                      }});

    Chain() {
        graph.addPass("build",
                      [&](PassBuilder& pass) {
                          pass.compute(10);
                          pass.storage(list, 4, ImageAccess::Write);
                      },
                      {});
        graph.addPass("step",
                      [&](PassBuilder& pass) {
                          pass.compute(11);
                          pass.indirect(list);
                          pass.storage(list, 4, ImageAccess::Read);
                          pass.image(state, 0, ImageAccess::ReadWrite);
                          pass.history(state);
                      },
                      {});
        graph.addPass("draw",
                      [&](PassBuilder& pass) {
                          pass.sample(state, 2);
                          pass.write(target, Access::Attachment);
                      },
                      {});
    }
};

TEST(FrameGraph, TheBindingIsTheRead) {
    Chain chain;
    const PassRecord& step = chain.graph.passes()[1];
    ASSERT_EQ(step.bindings.size(), 2u);
    EXPECT_EQ(step.bindings[1].resource, "state");
    EXPECT_EQ(step.bindings[1].kind, BindingKind::Image);
    EXPECT_EQ(step.bindings[1].imageFormat, GLenum(GL_RGBA32F)); // the registered format
    EXPECT_EQ(glAccess(step.bindings[1].access), GLenum(GL_READ_WRITE));
    const std::vector<ResourceUse> uses = resourceUses(step);
    ASSERT_EQ(uses.size(), 2u);
    EXPECT_EQ(uses[0].name, "list");
    EXPECT_TRUE(uses[0].read && !uses[0].write);
    EXPECT_EQ(uses[0].readBits, GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT));
    EXPECT_EQ(uses[1].name, "state");
    EXPECT_TRUE(uses[1].read && uses[1].write && uses[1].history);
    EXPECT_EQ(uses[1].storeBits, GLbitfield(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT));
    EXPECT_TRUE(unwrittenReads(chain.graph.passes()).empty());
}

TEST(FrameGraph, BarrierBitsFollowTheReadersAccess) {
    Chain chain;
    const Barriers barriers = deriveBarriers(chain.graph.passes());
    ASSERT_EQ(barriers.before.size(), 3u);
    // The list's first storage store: what ran before the list may still read the buffer.
    EXPECT_EQ(barriers.before[0], GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT));
    // The list was stored by a shader: the dispatch reads its command and its storage; and
    // its image store is the list's first.
    EXPECT_EQ(barriers.before[1],
              GLbitfield(GL_COMMAND_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                         GL_SHADER_IMAGE_ACCESS_BARRIER_BIT));
    // The image store is sampled next: texture fetch, and nothing the last barrier covered.
    EXPECT_EQ(barriers.before[2], GLbitfield(GL_TEXTURE_FETCH_BARRIER_BIT));
    // What is still pending reaches whatever comes after by every path of its kind: the state
    // by image, copy and attachment (fetch was made visible), the list by uniform and copy.
    EXPECT_EQ(barriers.after,
              GLbitfield(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                         GL_FRAMEBUFFER_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT |
                         GL_BUFFER_UPDATE_BARRIER_BIT));
}

TEST(FrameGraph, DrawnWritesNeedNoBarrier) {
    FrameGraph graph;
    const TextureId colour = graph.texture({"colour", GL_RGBA8, 8, 8, {}});
    graph.addPass("draw", [&](PassBuilder& pass) { pass.write(colour, Access::Attachment); }, {});
    graph.addPass("copy", [&](PassBuilder& pass) { pass.sample(colour, 0); }, {});
    const Barriers barriers = deriveBarriers(graph.passes());
    EXPECT_EQ(barriers.before[1], 0u); // the GL orders rendering before a later fetch itself
    EXPECT_EQ(barriers.after, 0u);
}

TEST(FrameGraph, ACopyAfterImageStoresWaitsForThem) {
    FrameGraph graph;
    const TextureId state = graph.texture({"state", GL_RGBA32F, 8, 8, {}});
    graph.addPass("store", [&](PassBuilder& pass) { pass.image(state, 0, ImageAccess::Write); },
                  {});
    graph.addPass("copy",
                  [&](PassBuilder& pass) {
                      pass.read(state, Access::TextureCopy);
                      pass.write(state, Access::TextureCopy);
                  },
                  {});
    EXPECT_EQ(deriveBarriers(graph.passes()).before[1], GLbitfield(GL_TEXTURE_UPDATE_BARRIER_BIT));
}

// Write after read: an image store into what an earlier pass sampled waits for the sampling
// (the image bit holds later stores back until every earlier access has completed); a store
// into what nothing in the list touched since the last image barrier does not.
struct SampledThenStored {
    FrameGraph graph;
    TextureId first = graph.texture({"first", GL_RGBA32F, 8, 8, {}});
    TextureId sampled = graph.texture({"sampled", GL_RGBA32F, 8, 8, {}});
    TextureId untouched = graph.texture({"untouched", GL_RGBA32F, 8, 8, {}});

    SampledThenStored() {
        // The list's first image store: it carries the image barrier for what ran before.
        graph.addPass("first", [&](PassBuilder& pass) { pass.image(first, 0, ImageAccess::Write); },
                      {});
        graph.addPass("look", [&](PassBuilder& pass) { pass.sample(sampled, 0); }, {});
        graph.addPass("other",
                      [&](PassBuilder& pass) { pass.image(untouched, 1, ImageAccess::Write); }, {});
        graph.addPass("store",
                      [&](PassBuilder& pass) { pass.image(sampled, 1, ImageAccess::Write); }, {});
    }
};

TEST(FrameGraph, AStoreAfterAReadWaitsForTheRead) {
    SampledThenStored list;
    const Barriers barriers = deriveBarriers(list.graph.passes());
    ASSERT_EQ(barriers.before.size(), 4u);
    EXPECT_EQ(barriers.before[0], GLbitfield(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT));
    EXPECT_EQ(barriers.before[1], 0u);
    EXPECT_EQ(barriers.before[2], 0u); // nothing touched it since the first barrier
    EXPECT_EQ(barriers.before[3], GLbitfield(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT));
    EXPECT_TRUE(unorderedAccesses(list.graph.passes(), barriers).empty());
}

// Broken on purpose: the derived barriers without their write-after-read bits (as the
// derivation was before it knew of them): the check names each store left unordered.
TEST(FrameGraph, AStoreLeftUnorderedIsCaught) {
    SampledThenStored list;
    Barriers barriers = deriveBarriers(list.graph.passes());
    barriers.before[3] = 0;
    std::vector<std::string> problems = unorderedAccesses(list.graph.passes(), barriers);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems.front(), "store stores into 'sampled' after look touched it: no image "
                                "barrier between");
    barriers.before[0] = 0;
    problems = unorderedAccesses(list.graph.passes(), barriers);
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(problems.front(), "first stores into 'first', which what ran before the list may "
                                "still touch: no image barrier since the list began");
}

// Broken on purpose: a read after a store without its barrier.
TEST(FrameGraph, AReadLeftUnorderedIsCaught) {
    Chain chain;
    Barriers barriers = deriveBarriers(chain.graph.passes());
    EXPECT_TRUE(unorderedAccesses(chain.graph.passes(), barriers).empty());
    barriers.before[2] = 0;
    const std::vector<std::string> problems = unorderedAccesses(chain.graph.passes(), barriers);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems.front(),
              "draw reads 'state' after step stored into it: no texture fetch barrier between");
}

// Broken on purpose: the draw moved before the pass that stores what it samples.
TEST(FrameGraph, APassBeforeItsProducerIsCaught) {
    Chain chain;
    std::vector<PassRecord> passes = chain.graph.takePasses();
    std::swap(passes[1], passes[2]);
    const std::vector<std::string> missing = unwrittenReads(passes);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing.front(), "draw reads 'state'");
}

// Broken on purpose: the dispatch's store is undeclared (declared a load): the draw after it
// gets no barrier at all, which on a real GPU may sample stale texels.
TEST(FrameGraph, AnUndeclaredStoreLosesItsBarrier) {
    Chain chain;
    std::vector<PassRecord> passes = chain.graph.takePasses();
    passes[1].bindings[1].access = ImageAccess::Read;
    EXPECT_EQ(deriveBarriers(passes).before[2], 0u);
}

TEST(FrameGraph, GivenResourcesAndHistoryNeedNoWriter) {
    FrameGraph graph;
    const TextureId capture = graph.texture({"capture", GL_DEPTH_COMPONENT32F, 8, 8, {}});
    graph.addPass("step", [&](PassBuilder& pass) { pass.sample(capture, 0); }, {});
    EXPECT_EQ(unwrittenReads(graph.passes()).size(), 1u);
    const std::string given[] = {"capture"};
    EXPECT_TRUE(unwrittenReads(graph.passes(), given).empty());
}

TEST(FrameGraph, ANameIsRegisteredOnce) {
    FrameGraph graph;
    const TextureId a = graph.texture({"state", GL_RGBA32F, 8, 8, {}});
    const TextureId b = graph.texture({"state", GL_RGBA32F, 8, 8, {}});
    EXPECT_EQ(a.index, b.index);
    EXPECT_TRUE(graph.problems().empty());
    graph.texture({"state", GL_R16F, 8, 8, {}});
    ASSERT_EQ(graph.problems().size(), 1u);
    EXPECT_NE(graph.problems().front().find("resource 'state' registered twice"),
              std::string::npos);
}

} // namespace
} // namespace snowcap::gpu
