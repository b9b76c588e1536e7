#include "gpu/pass_state.hpp"

namespace snowcap::gpu {

PassState passInto(const Framebuffer& target) {
    PassState pass;
    pass.framebuffer = target.id();
    pass.viewport = {0, 0, target.width(), target.height()};
    return pass;
}

PassState passIntoWindow(int width, int height) {
    PassState pass;
    pass.viewport = {0, 0, width, height};
    return pass;
}

void beginPass(const PassState& pass) {
    glBindFramebuffer(GL_FRAMEBUFFER, pass.framebuffer);
    const glm::ivec4 v = pass.viewport;
    glViewport(v.x, v.y, v.z, v.w);
    if (pass.scissorToViewport) {
        glEnable(GL_SCISSOR_TEST);
        glScissor(v.x, v.y, v.z, v.w);
    } else {
        glDisable(GL_SCISSOR_TEST);
    }
    if (pass.blend == Blend::Alpha) {
        glEnable(GL_BLEND);
        glBlendEquation(GL_FUNC_ADD);
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    } else {
        glDisable(GL_BLEND);
    }
    if (pass.cullBackFaces) {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
    } else {
        glDisable(GL_CULL_FACE);
    }
    if (pass.programPointSize)
        glEnable(GL_PROGRAM_POINT_SIZE);
    else
        glDisable(GL_PROGRAM_POINT_SIZE);

    GLbitfield clear = 0;
    if (pass.clearColour) {
        const glm::vec4 c = *pass.clearColour;
        glClearColor(c.x, c.y, c.z, c.w);
        clear |= GL_COLOR_BUFFER_BIT;
    }
    if (pass.clearDepth) {
        glDepthMask(GL_TRUE); // a depth clear obeys the write mask
        glClearDepth(*pass.clearDepth);
        clear |= GL_DEPTH_BUFFER_BIT;
    }
    if (clear)
        glClear(clear);

    glDepthMask(pass.depthWrite ? GL_TRUE : GL_FALSE);
    switch (pass.depthTest) {
    case DepthTest::Off:
        glDisable(GL_DEPTH_TEST);
        break;
    case DepthTest::Less:
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        break;
    case DepthTest::LessEqual:
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LEQUAL);
        break;
    }
    glUseProgram(pass.program);
}

} // namespace snowcap::gpu
