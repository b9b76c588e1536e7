#pragma once
// GLSL programs built from files under shaders/: `#include "file"` resolved by us (each file
// once per program), variants as `#define`s from typed options, compile errors reported at the
// ORIGINAL file and line, and hot reload that rebuilds every program depending on a changed file
// and swaps only on success.

#include "gpu/objects.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace snowcap::gpu {

// Preprocessor definitions, in order. Turn typed options into these at one place per pass.
using Defines = std::vector<std::pair<std::string, std::string>>;

struct ProgramDesc {
    std::string name;                                   // for logs and debug labels
    std::vector<std::pair<GLenum, std::string>> stages; // stage, file relative to shaders/
    Defines defines;
};

// A program of one compute stage.
ProgramDesc computeProgram(std::string name, std::string file, Defines defines = {});

// A shader file with its includes expanded and `#line` directives that carry source-string
// numbers, so compiler messages can be mapped back to files.
struct ExpandedSource {
    std::string text;
    std::vector<std::filesystem::path> files; // source-string number -> file (relative)
};

// Expands `file` (relative to `root`). Fails with "file:line: reason" for a missing include,
// an unreadable file, or a missing `#version` line.
std::variant<ExpandedSource, std::string> expandShaderSource(const std::filesystem::path& root,
                                                             const std::filesystem::path& file,
                                                             const Defines& defines);

// Rewrites a driver's info log ("0:12(3): error: ..." from Mesa, "0(12) : error ..." from
// NVIDIA) into "shaders/inc.glsl:12: error: ..." lines.
std::string mapInfoLog(const std::string& log, const std::vector<std::filesystem::path>& files);

class ShaderProgram {
public:
    GLuint id() const { return program_.id(); }
    const std::string& name() const { return desc_.name; }
    // Why the last (re)build failed; empty when the running program is the newest source.
    const std::string& reloadError() const { return reloadError_; }
    int generation() const { return generation_; } // bumps on each successful rebuild

private:
    friend class ShaderLibrary;
    ProgramDesc desc_;
    ProgramName program_;
    std::map<std::filesystem::path, std::filesystem::file_time_type> dependencies_;
    std::string reloadError_;
    int generation_ = 0;
};

class ShaderLibrary {
public:
    explicit ShaderLibrary(std::filesystem::path root);
    ~ShaderLibrary();

    // Builds the program, or returns the one already built from the same description. The
    // pointer stays valid for the library's lifetime; hot reload swaps the GL program inside.
    std::variant<ShaderProgram*, std::string> load(const ProgramDesc& desc);
    // Loads each in order: the programs in the same order, or the first failure's message.
    std::variant<std::vector<ShaderProgram*>, std::string>
    loadAll(const std::vector<ProgramDesc>& descs);

    // Rebuilds programs whose files changed on disk since they were built. Returns how many
    // were rebuilt successfully; failures keep the last good program and set reloadError().
    int reloadChanged();
    // Rebuilds every program regardless of timestamps (F5).
    int reloadAll();

    const std::filesystem::path& root() const { return root_; }
    std::vector<const ShaderProgram*> programs() const;

private:
    // Builds from the files on disk; `seen` gets every file looked at, stamped before reading.
    std::variant<ProgramName, std::string>
    build(ShaderProgram& program,
          std::map<std::filesystem::path, std::filesystem::file_time_type>& seen);
    int rebuild(bool onlyChanged);

    std::filesystem::path root_;
    std::vector<std::unique_ptr<ShaderProgram>> programs_;
};

// The shaders/ directory: $SNOWCAP_SHADER_DIR, else next to the executable's source checkout.
std::filesystem::path defaultShaderRoot();

} // namespace snowcap::gpu
