#include "lab/run_guard.hpp"

#include "io/image.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <unistd.h>
#include <utility>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = ".snowcap-run.lock";
constexpr const char* kManifestName = "run.json";

volatile std::sig_atomic_t interruptSignal = 0;

void onInterrupt(int signal) {
    interruptSignal = signal;
}

} // namespace

RunGuard::RunGuard(fs::path dir, int fd) : dir_(std::move(dir)), fd_(fd) {}

RunGuard::RunGuard(RunGuard&& other) noexcept
    : dir_(std::move(other.dir_)), fd_(std::exchange(other.fd_, -1)), startedAt_(other.startedAt_) {
}

RunGuard::~RunGuard() {
    if (fd_ >= 0)
        ::close(fd_); // releases the flock; the file stays (unlinking it would race a newcomer)
}

std::variant<RunGuard, std::string> RunGuard::createAndTake(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return fmt::format("{}: cannot create output directory ({})", dir.string(), ec.message());
    return take(dir);
}

std::variant<RunGuard, std::string> RunGuard::take(const fs::path& dir) {
    const fs::path lock = dir / kLockName;
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return fmt::format("{}: cannot take the output directory ({})", dir.string(),
                           std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        char text[32] = {};
        const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
        ::close(fd);
        if (error != EWOULDBLOCK)
            return fmt::format("{}: cannot lock the output directory ({})", dir.string(),
                               std::strerror(error));
        const long pid = got > 0 ? std::strtol(text, nullptr, 10) : 0;
        return fmt::format("{}: another snowcap run (PID {}) is writing there; wait for it or "
                           "choose another --out",
                           dir.string(), pid > 0 ? std::to_string(pid) : "unknown");
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
        const int error = errno;
        ::close(fd);
        return fmt::format("{}: cannot write the lock ({})", dir.string(), std::strerror(error));
    }
    RunGuard guard(dir, fd);
    guard.startedAt_ = fs::file_time_type::clock::now();
    return guard;
}

void RunGuard::begin() const {
    // From now on the old outputs are not a complete set: their manifest goes first.
    std::error_code ignored;
    fs::remove(dir_ / kManifestName, ignored);
}

std::optional<std::string> RunGuard::publish(const std::string& command,
                                             std::vector<fs::path>* published) const {
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    std::error_code error;
    std::vector<fs::path> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_, error)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file(error) || name == kLockName || name == kManifestName ||
            name.find(".tmp-") != std::string::npos)
            continue;
        // A second of slack: file times are as coarse as the file system keeps them.
        if (entry.last_write_time(error) + std::chrono::seconds(1) < startedAt_)
            continue; // an older run's, not part of this set
        names.push_back(entry.path());
    }
    if (error)
        return fmt::format("{}: cannot list the outputs ({})", dir_.string(), error.message());
    std::sort(names.begin(), names.end());
    for (const fs::path& path : names)
        files.push_back(
            {{"name", path.filename().string()}, {"bytes", fs::file_size(path, error)}});
    const nlohmann::ordered_json manifest = {
        {"command", command}, {"pid", ::getpid()}, {"complete", true}, {"files", files}};
    const std::string text = manifest.dump(2) + "\n";
    if (auto error = writeFileAtomically(dir_ / kManifestName, {text.begin(), text.end()}))
        return error;
    if (published) {
        *published = names;
        published->push_back(dir_ / kManifestName);
    }
    return std::nullopt;
}

void RunGuard::catchInterrupts() {
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

void RunGuard::defaultInterrupts() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

int RunGuard::interruptedBy() {
    return interruptSignal;
}

std::string RunGuard::interruptedNote(const std::string& command, const fs::path& dir, int signal) {
    return fmt::format("{}: interrupted ({}); {} holds no complete set of outputs (no {})", command,
                       signal == SIGINT    ? "SIGINT"
                       : signal == SIGTERM ? "SIGTERM"
                                           : "a signal",
                       dir.string(), kManifestName);
}

} // namespace snowcap
