#pragma once
// What a pass needs from the GL state machine, said in one small description (after sokol's
// sg_pass + sg_pipeline): the target framebuffer, its viewport, scissor, depth, blend, culling,
// the program, and what to clear first. beginPass() sets every one of them, so a pass never
// depends on what the pass before it left behind, and never has to put anything back: nothing
// reads the state with glGet to restore it.
//
// The zero description is a full-screen-triangle pass into the default framebuffer: no depth
// test or write, no blend, no culling, no scissor, no program point size, nothing cleared. A
// pass says what differs.
// Its inputs (textures, samplers, uniform blocks, vertex arrays) are bound by the pass itself.

#include "gpu/objects.hpp"

#include <glm/vec4.hpp>
#include <optional>

namespace snowcap::gpu {

enum class DepthTest { Off, Less, LessEqual };
enum class Blend { Off, Alpha };

struct PassState {
    GLuint framebuffer = 0;         // 0: the default (window) framebuffer
    glm::ivec4 viewport{0};         // x, y (bottom-left), width, height in pixels
    bool scissorToViewport = false; // clip draws and clears to the viewport (a pane of a window)
    DepthTest depthTest = DepthTest::Off;
    bool depthWrite = false;
    Blend blend = Blend::Off;
    bool cullBackFaces = false;
    bool programPointSize = false; // points take gl_PointSize from the program (GL_POINTS draws)
    GLuint program = 0;
    std::optional<glm::vec4> clearColour; // before drawing, within the scissor if on
    std::optional<float> clearDepth;      // written whatever depthWrite says
};

// A pass into all of `target` (its attachment size).
PassState passInto(const Framebuffer& target);
// A pass into the default framebuffer of width x height.
PassState passIntoWindow(int width, int height);

// Sets everything `pass` describes, then clears what it asks for.
void beginPass(const PassState& pass);

} // namespace snowcap::gpu
