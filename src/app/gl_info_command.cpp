// `snowcap gl-info`: every EGL device a headless context can be made on, which one snowcap
// uses (auto, $SNOWCAP_GL_DEVICE or --gl-device) and the limits of that one it relies on.
#include "app/commands.hpp"
#include "platform/gl_context.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace snowcap {

CLI::App* addGlInfoCommand(CLI::App& app) {
    return app.add_subcommand(
        "gl-info", "List the EGL devices, the one snowcap uses and the GL limits it relies on");
}

int runGlInfo(const CommonOptions& common) {
    const std::vector<GlDevice> devices = listGlDevices();
    std::printf("EGL devices, numbered as --gl-device takes them:\n");
    for (const GlDevice& device : devices) {
        std::printf("  %d  %-15s  ", device.index, device.platform.c_str());
        if (!device.usable) {
            std::printf("no 4.5 core context: %s\n", device.whyNot.c_str());
            continue;
        }
        std::printf("%s | %s | %s%s%s%s\n", device.gl.renderer.c_str(), device.gl.vendor.c_str(),
                    device.gl.version.c_str(), device.software ? " | software" : "",
                    device.deviceFile.empty() ? "" : " | ", device.deviceFile.c_str());
    }
    if (devices.empty())
        std::printf("  (none)\n");

    auto context = HeadlessContext::create(common.debugGl);
    if (auto* error = std::get_if<ContextError>(&context)) {
        std::fprintf(stderr, "%s\n", error->message.c_str());
        return 2;
    }
    const GlInfo& info = std::get<0>(context)->info();
    std::printf("snowcap uses device %s\n", info.device.c_str());
    std::printf("limits it relies on:\n");
    for (const GlLimit& limit : queryGlLimits())
        std::printf("  %-39s %-22s %s\n", limit.name.c_str(), limit.value.c_str(),
                    limit.usedBy.c_str());
    return 0;
}

} // namespace snowcap
