#include "gpu/shader_library.hpp"

#include "core/paths.hpp"
#include "gpu/binding_slots.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <spdlog/spdlog.h>
#include <sstream>

namespace snowcap::gpu {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Every file an expansion looked at, with its timestamp taken BEFORE it was read: an edit that
// lands while a build runs then still differs from the recorded stamp, so the next poll
// rebuilds with it (a stamp taken after reading would mark the newer file as built). An
// include that was not found is recorded at both places it was looked for, with the stamp of
// a missing file, so creating it triggers a rebuild too.
using Stamps = std::map<fs::path, fs::file_time_type>;

fs::file_time_type stampOf(const fs::path& path) {
    std::error_code ec;
    return fs::last_write_time(path, ec); // file_time_type::min() when missing
}

// Includes are expanded before the GLSL preprocessor runs, so the expander cannot know which
// `#if` branch a compiler will keep. It therefore lets the compiler decide what it cannot:
// - A file is left out of later includes only once it was expanded outside every conditional
//   (counting the conditionals of the files that include it): then it is surely in the program.
//   An expansion inside a conditional, or of a file expanded inside one before, is wrapped in a
//   guard macro, so it counts exactly when its branch is taken and a second copy is skipped.
// - A compiler skips the `#line` that follows an include in a branch it drops, but counts the
//   included lines; so after each #elif, #else and #endif that closes a branch holding an
//   expanded include, another `#line` puts the file's own numbering back.
struct Expander {
    const fs::path& root;
    Stamps& seen;
    ExpandedSource out;
    std::map<fs::path, int> fileIndex;        // source-string number of each file met
    std::set<fs::path> surelyIncluded;        // expanded outside every conditional
    std::set<fs::path> conditionallyIncluded; // expanded inside one: needs its guard from now on
    std::vector<fs::path> stack;              // the files being expanded (an include cycle stops)

    int indexOf(const fs::path& file) {
        auto [at, added] = fileIndex.try_emplace(file, static_cast<int>(out.files.size()));
        if (added)
            out.files.push_back(file);
        return at->second;
    }

    // Appends `file` (relative to root) to out.text. The main file's #version line is left out
    // (the caller writes it ahead of the defines); `outerDepth` counts the conditionals open in
    // the files that include this one.
    std::optional<std::string> append(const fs::path& file, bool isMain, int outerDepth) {
        seen[file] = stampOf(root / file);
        const auto text = readFile(root / file);
        if (!text)
            return file.generic_string() + ": cannot read shader file";
        const int index = indexOf(file);
        stack.push_back(file.lexically_normal());

        std::istringstream lines(*text);
        std::string line;
        int lineNumber = 0;
        int depth = 0;                  // this file's own open conditionals
        bool resyncAfterBranch = false; // an include was expanded inside the open conditional
        bool sawVersion = false;
        static const std::regex includePattern(R"(^\s*#\s*include\s+"([^"]+)\"\s*$)");
        static const std::regex conditionalPattern(
            R"(^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b.*$)");
        const auto restoreLine = [&] {
            out.text +=
                "#line " + std::to_string(lineNumber + 1) + " " + std::to_string(index) + "\n";
        };
        while (std::getline(lines, line)) {
            ++lineNumber;
            if (isMain && !sawVersion) {
                if (line.rfind("#version", 0) == 0) {
                    sawVersion = true;
                    continue; // emitted by the caller, ahead of the defines
                }
                if (line.find_first_not_of(" \t\r") != std::string::npos)
                    return file.generic_string() + ":" + std::to_string(lineNumber) +
                           ": the first line must be #version";
                continue;
            }
            std::smatch match;
            if (std::regex_match(line, match, conditionalPattern)) {
                const std::string keyword = match[1];
                if (keyword == "endif")
                    depth = std::max(depth - 1, 0);
                else if (keyword.rfind("if", 0) == 0)
                    ++depth;
                out.text += line;
                out.text += '\n';
                if (resyncAfterBranch && keyword != "if" && keyword != "ifdef" &&
                    keyword != "ifndef")
                    restoreLine();
                if (depth == 0)
                    resyncAfterBranch = false;
                continue;
            }
            if (std::regex_match(line, match, includePattern)) {
                // Includes are relative to the including file's folder, then to shaders/.
                const fs::path local = (file.parent_path() / match[1].str()).lexically_normal();
                fs::path target = local;
                if (!fs::exists(root / target))
                    target = fs::path(match[1].str()).lexically_normal();
                if (!fs::exists(root / target)) {
                    seen[local] = seen[target] = stampOf(root / target);
                    return file.generic_string() + ":" + std::to_string(lineNumber) +
                           ": cannot find include \"" + match[1].str() + "\"";
                }
                const bool cycle = std::find(stack.begin(), stack.end(), target) != stack.end();
                if (!surelyIncluded.count(target) && !cycle) {
                    const bool conditional = outerDepth + depth > 0;
                    const bool guarded = conditional || conditionallyIncluded.count(target);
                    const std::string guard = "SNOWCAP_INCLUDED_" + std::to_string(indexOf(target));
                    if (guarded)
                        out.text += "#ifndef " + guard + "\n#define " + guard + "\n";
                    out.text += "#line 1 " + std::to_string(indexOf(target)) + "\n";
                    if (auto error = append(target, false, outerDepth + depth))
                        return error;
                    if (guarded)
                        out.text += "#endif\n";
                    (conditional ? conditionallyIncluded : surelyIncluded).insert(target);
                    resyncAfterBranch = resyncAfterBranch || depth > 0;
                }
                restoreLine();
                continue;
            }
            out.text += line;
            out.text += '\n';
        }
        stack.pop_back();
        if (isMain && !sawVersion)
            return file.generic_string() + ":1: the first line must be #version";
        return std::nullopt;
    }
};

const char* stageName(GLenum stage) {
    switch (stage) {
    case GL_VERTEX_SHADER:
        return "vertex";
    case GL_FRAGMENT_SHADER:
        return "fragment";
    case GL_COMPUTE_SHADER:
        return "compute";
    case GL_TESS_CONTROL_SHADER:
        return "tess control";
    case GL_TESS_EVALUATION_SHADER:
        return "tess evaluation";
    case GL_GEOMETRY_SHADER:
        return "geometry";
    default:
        return "shader";
    }
}

std::string shaderLog(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    log.resize(std::strlen(log.c_str()));
    return log;
}

std::string programLog(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
    glGetProgramInfoLog(program, length, nullptr, log.data());
    log.resize(std::strlen(log.c_str()));
    return log;
}

std::string definesKey(const ProgramDesc& desc) {
    std::string key = desc.name;
    for (const auto& [stage, file] : desc.stages)
        key += "|" + std::to_string(stage) + ":" + file;
    for (const auto& [name, value] : desc.defines)
        key += "|" + name + "=" + value;
    return key;
}

} // namespace

namespace {

std::variant<ExpandedSource, std::string> expand(const fs::path& root, const fs::path& file,
                                                 const Defines& defines, Stamps& seen) {
    Expander expander{root, seen, {}, {}, {}, {}, {}};
    std::string header = "#version 450 core\n";
    for (const auto& [name, value] : defines)
        header += "#define " + name + " " + value + "\n";
    // Line 1 of the main file is its #version; its line 2 follows in source string 0.
    expander.out.text = header + "#line 2 0\n";
    if (auto error = expander.append(file, true, 0))
        return *error;
    return std::move(expander.out);
}

} // namespace

std::variant<ExpandedSource, std::string>
expandShaderSource(const fs::path& root, const fs::path& file, const Defines& defines) {
    Stamps seen;
    return expand(root, file, defines, seen);
}

std::string mapInfoLog(const std::string& log, const std::vector<fs::path>& files) {
    // Mesa: "0:12(3): error: ..."; NVIDIA: "0(12) : error C1008: ..."; AMD: "ERROR: 0:12: ...".
    static const std::regex mesa(R"(^(\d+):(\d+)\(\d+\):\s*(.*)$)");
    static const std::regex nvidia(R"(^(\d+)\((\d+)\)\s*:\s*(.*)$)");
    static const std::regex amd(R"(^(ERROR|WARNING):\s*(\d+):(\d+):\s*(.*)$)");
    std::istringstream lines(log);
    std::string line, out;
    while (std::getline(lines, line)) {
        if (line.empty())
            continue;
        std::smatch match;
        std::string file, lineNumber, message;
        if (std::regex_match(line, match, mesa) || std::regex_match(line, match, nvidia)) {
            file = match[1];
            lineNumber = match[2];
            message = match[3];
        } else if (std::regex_match(line, match, amd)) {
            file = match[2];
            lineNumber = match[3];
            message = match[1].str() == "ERROR" ? "error: " + match[4].str()
                                                : "warning: " + match[4].str();
        }
        if (!file.empty()) {
            const std::size_t index = std::stoul(file);
            const std::string name = index < files.size()
                                         ? ("shaders" / files[index]).generic_string()
                                         : "source " + file;
            out += name + ":" + lineNumber + ": " + message + "\n";
        } else {
            out += line + "\n";
        }
    }
    while (!out.empty() && out.back() == '\n')
        out.pop_back();
    return out;
}

ProgramDesc computeProgram(std::string name, std::string file, Defines defines) {
    return {std::move(name), {{GL_COMPUTE_SHADER, std::move(file)}}, std::move(defines)};
}

ShaderLibrary::ShaderLibrary(fs::path root) : root_(std::move(root)) {}
ShaderLibrary::~ShaderLibrary() = default;

std::variant<ShaderProgram*, std::string> ShaderLibrary::load(const ProgramDesc& desc) {
    const std::string key = definesKey(desc);
    for (auto& program : programs_)
        if (definesKey(program->desc_) == key)
            return program.get();

    auto program = std::make_unique<ShaderProgram>();
    program->desc_ = desc;
    auto built = build(*program, program->dependencies_);
    if (auto* error = std::get_if<std::string>(&built))
        return *error;
    program->program_ = std::move(std::get<ProgramName>(built));
    programs_.push_back(std::move(program));
    return programs_.back().get();
}

std::variant<std::vector<ShaderProgram*>, std::string>
ShaderLibrary::loadAll(const std::vector<ProgramDesc>& descs) {
    std::vector<ShaderProgram*> loaded;
    loaded.reserve(descs.size());
    for (const ProgramDesc& desc : descs) {
        auto program = load(desc);
        if (auto* error = std::get_if<std::string>(&program))
            return *error;
        loaded.push_back(std::get<ShaderProgram*>(program));
    }
    return loaded;
}

std::variant<ProgramName, std::string> ShaderLibrary::build(ShaderProgram& program, Stamps& seen) {
    std::vector<ShaderName> shaders;
    for (const auto& [stage, file] : program.desc_.stages) {
        auto expanded = expand(root_, file, program.desc_.defines, seen);
        if (auto* error = std::get_if<std::string>(&expanded))
            return "shaders/" + *error;
        const auto& source = std::get<ExpandedSource>(expanded);
        ShaderName shader(glCreateShader(stage));
        const char* text = source.text.c_str();
        glShaderSource(shader.id(), 1, &text, nullptr);
        glCompileShader(shader.id());
        GLint compiled = GL_FALSE;
        glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &compiled);
        if (!compiled)
            return program.desc_.name + " (" + stageName(stage) +
                   "): " + mapInfoLog(shaderLog(shader.id()), source.files);
        shaders.push_back(std::move(shader));
    }
    ProgramName linked(glCreateProgram());
    for (const auto& shader : shaders)
        glAttachShader(linked.id(), shader.id());
    glLinkProgram(linked.id());
    for (const auto& shader : shaders)
        glDetachShader(linked.id(), shader.id());
    GLint ok = GL_FALSE;
    glGetProgramiv(linked.id(), GL_LINK_STATUS, &ok);
    if (!ok)
        return program.desc_.name + " (link): " + programLog(linked.id());
    // The slots its GLSL declares against the one table the C++ binds with.
    if (auto error = checkProgramSlots(linked.id(), program.desc_.name))
        return *error;
    label(GL_PROGRAM, linked.id(), program.desc_.name);
    return linked;
}

int ShaderLibrary::rebuild(bool onlyChanged) {
    int rebuilt = 0;
    for (auto& program : programs_) {
        if (onlyChanged) {
            bool changed = false;
            for (const auto& [file, stamp] : program->dependencies_) {
                std::error_code ec;
                if (fs::last_write_time(root_ / file, ec) != stamp)
                    changed = true;
            }
            if (!changed)
                continue;
        }
        Stamps seen;
        auto built = build(*program, seen);
        if (auto* error = std::get_if<std::string>(&built)) {
            // Keep the last good program. Not retried every poll: the files the failed build
            // read keep the stamps it read them at, the ones it never reached (it stopped at
            // an error first) take their current stamps; an include it could not find is
            // watched from now on, so creating it (or mending any file read) retries.
            for (auto& [file, stamp] : program->dependencies_)
                stamp = stampOf(root_ / file);
            for (const auto& [file, stamp] : seen)
                program->dependencies_[file] = stamp;
            if (program->reloadError_ != *error)
                spdlog::error("shader reload failed, keeping the last good program:\n{}", *error);
            program->reloadError_ = *error;
            continue;
        }
        program->program_ = std::move(std::get<ProgramName>(built));
        program->dependencies_ = std::move(seen);
        program->reloadError_.clear();
        ++program->generation_;
        ++rebuilt;
        spdlog::info("reloaded shader program {}", program->name());
    }
    return rebuilt;
}

int ShaderLibrary::reloadChanged() {
    return rebuild(true);
}
int ShaderLibrary::reloadAll() {
    return rebuild(false);
}

std::vector<const ShaderProgram*> ShaderLibrary::programs() const {
    std::vector<const ShaderProgram*> result;
    for (const auto& program : programs_)
        result.push_back(program.get());
    return result;
}

fs::path defaultShaderRoot() {
    if (const char* dir = std::getenv("SNOWCAP_SHADER_DIR"))
        return dir;
    return resourceRoot() / "shaders";
}

} // namespace snowcap::gpu
