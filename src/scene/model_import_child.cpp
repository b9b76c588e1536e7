// importModel: every file import runs in a forked child process, held to a memory cap and a time
// cap by the parent, and hands its model back over a pipe (scene/model_wire.*).
//
// Why a child: Assimp's readers size buffers from what a file's header claims, loop on what a
// damaged file says, and some crash; checks after the read come too late for all three. In a
// child the worst a file can do is get the child killed, and the caller (the viewer, with its
// sims and scene) carries on with one line saying why.
//
// How the caps hold: the parent polls the pipe every few milliseconds and, between reads, the
// child's resident memory (/proc/PID/statm, anonymous pages: resident minus file-backed) and
// the clock; past either cap it kills the child with SIGKILL. Resident memory rather than
// RLIMIT_AS because AddressSanitizer reserves terabytes of address space up front (and Mesa's
// drivers gigabytes), so an address-space limit cannot tell a hostile file from the runtime;
// the same watchdog therefore runs in every build. Memory a reader reserves but never touches
// costs nothing and is not counted. The pipe's own bytes count against the memory cap too.
// Under ASan the child's resident memory includes the shadow of what it touched (an eighth
// more) and the parent's own shadow at fork is in the baseline.

#include "core/untrusted_file.hpp"
#include "scene/model_import.hpp"
#include "scene/model_wire.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace snowcap {
namespace {

constexpr int kPollMs = 2; // a reader faulting in ~2 GB/s overshoots the cap by a few MiB

// Anonymous resident bytes of a process (statm: resident minus shared, in pages); -1 if gone.
long long anonymousResident(pid_t pid) {
    const std::string path =
        pid == 0 ? "/proc/self/statm" : "/proc/" + std::to_string(pid) + "/statm";
    std::FILE* file = std::fopen(path.c_str(), "r");
    if (!file)
        return -1;
    long long size = 0, resident = 0, shared = 0;
    const int got = std::fscanf(file, "%lld %lld %lld", &size, &resident, &shared);
    std::fclose(file);
    if (got != 3)
        return -1;
    return (resident - shared) * static_cast<long long>(sysconf(_SC_PAGESIZE));
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// The child: import, write the tagged result, leave without running the parent's exit handlers
// (they belong to the parent's GL context, logs and buffered output).
[[noreturn]] void runChild(int out, const std::filesystem::path& path,
                           const ImportOptions& options) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); // a parent that dies takes its import with it
    const rlimit noCore{0, 0};
    setrlimit(RLIMIT_CORE, &noCore); // a reader that crashes leaves no core file behind
    // A reader that crashes must kill the child with its signal in every build. A sanitizer
    // runtime installs handlers for these: under ASan a segfault or stack overflow inside
    // Assimp became a report of hundreds of lines on stderr and an exit, which the parent could
    // only call "stopped without a result". Memory errors ASan finds in our own code are reported
    // without these signals, so they still show.
    for (const int crash : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
        std::signal(crash, SIG_DFL);
    std::string message;
    try {
        auto result = import_detail::importInProcess(path, options);
        if (auto* model = std::get_if<ImportedModel>(&result))
            message = "M" + wire::encode(*model);
        else
            message = "E" + std::get<std::string>(result);
    } catch (const std::bad_alloc&) {
        message = "E" + path.string() + ": out of memory while importing";
    } catch (const std::exception& exception) {
        message = "E" + path.string() + ": " + exception.what();
    }
    const char* data = message.data();
    std::size_t left = message.size();
    while (left > 0) {
        const ssize_t wrote = ::write(out, data, left);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0)
            _exit(3);
        data += wrote;
        left -= static_cast<std::size_t>(wrote);
    }
    _exit(0);
}

std::string signalName(int signal) {
    const char* name = strsignal(signal);
    return name ? name : "signal " + std::to_string(signal);
}

} // namespace

std::variant<ImportedModel, std::string> importModel(const std::filesystem::path& path,
                                                     const ImportOptions& options) {
    const std::string name = path.string();
    const ImportLimits& limits = options.limits;
    if (!(limits.maxMemoryMiB > 0.0) || !std::isfinite(limits.maxMemoryMiB))
        return name + ": import.max_memory_mib must be a positive number";
    if (!(limits.maxSeconds > 0.0) || !std::isfinite(limits.maxSeconds))
        return name + ": import.max_seconds must be a positive number";
    const double capBytes = limits.maxMemoryMiB * 1024.0 * 1024.0;
    const std::string overMemory = name + ": needs more than " + number(limits.maxMemoryMiB) +
                                   " MiB to import (limit import.max_memory_mib)";
    const std::string overTime = name + ": takes more than " + number(limits.maxSeconds) +
                                 " s to import (limit import.max_seconds)";

    // A directory, FIFO or device is refused here, at once: a FIFO would otherwise block the
    // child's open until the time cap, and then be blamed for a slow import.
    if (auto opened = UntrustedFile::open(path); std::holds_alternative<std::string>(opened))
        return std::get<std::string>(opened);

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return name + ": cannot start the import (" + std::strerror(errno) + ")";
    // The child starts as a copy of this process: what it holds then is not the import's.
    const long long baseline = std::max(0LL, anonymousResident(0));
    std::fflush(nullptr); // nothing buffered may be written twice
    const pid_t child = ::fork();
    if (child < 0) {
        const int error = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        return name + ": cannot start the import (" + std::strerror(error) + ")";
    }
    if (child == 0) {
        ::close(fds[0]);
        runChild(fds[1], path, options);
    }
    ::close(fds[1]);
    ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);

    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(limits.maxSeconds);
    std::string received, failure;
    char chunk[1 << 16];
    for (bool open = true; open;) {
        pollfd wait{fds[0], POLLIN, 0};
        ::poll(&wait, 1, kPollMs);
        for (;;) {
            const ssize_t got = ::read(fds[0], chunk, sizeof chunk);
            if (got > 0) {
                received.append(chunk, static_cast<std::size_t>(got));
                continue;
            }
            if (got == 0)
                open = false; // the child closed its end: done or dead
            else if (errno == EINTR)
                continue;
            break;
        }
        const long long used = anonymousResident(child);
        if ((used >= 0 && double(used - baseline) > capBytes) || double(received.size()) > capBytes)
            failure = overMemory;
        else if (std::chrono::steady_clock::now() > deadline)
            failure = overTime;
        if (!failure.empty())
            break;
    }
    ::close(fds[0]);
    if (!failure.empty())
        ::kill(child, SIGKILL);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!failure.empty())
        return failure;
    if (WIFSIGNALED(status)) {
        // The kernel's out-of-memory killer is the memory cap's last resort.
        if (WTERMSIG(status) == SIGKILL)
            return overMemory;
        return name + ": the importer crashed on it (" + signalName(WTERMSIG(status)) + ")";
    }
    if (received.empty() || (WIFEXITED(status) && WEXITSTATUS(status) != 0))
        return name + ": the import stopped without a result (exit status " +
               std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
    if (received[0] == 'E')
        return received.substr(1, 400);
    if (received[0] != 'M')
        return name + ": the import's result is not a model";
    auto decoded = wire::decode(std::string_view(received).substr(1));
    if (auto* reason = std::get_if<std::string>(&decoded))
        return name + ": " + *reason;
    return decoded;
}

} // namespace snowcap
