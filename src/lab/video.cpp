#include "lab/video.hpp"

#include "core/untrusted_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace snowcap {

namespace fs = std::filesystem;

std::optional<fs::path> findOnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path)
        return std::nullopt;
    std::string_view rest(path);
    while (true) {
        const std::size_t colon = rest.find(':');
        const std::string_view dir = rest.substr(0, colon);
        const fs::path candidate = fs::path(dir.empty() ? "." : std::string(dir)) / program;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (colon == std::string_view::npos)
            return std::nullopt;
        rest.remove_prefix(colon + 1);
    }
}

std::string frameRateText(double framesPerSecond) {
    // 1e6 as the denominator: 60 -> "60000000/1000000", which ffmpeg reduces to 60/1 exactly;
    // 144 / 5 -> 28.8 fps exactly, where a decimal string could round.
    return fmt::format("{}/1000000", std::llround(framesPerSecond * 1e6));
}

void drawOverlay(ImageRgba8& image, const std::vector<std::string>& lines) {
    const int scale = image.width >= 960 ? 2 : 1;
    const int margin = 6 * scale;
    // Bottom left, clear of the pane labels at the top.
    int y = image.height - margin - static_cast<int>(lines.size()) * kTextLineHeight * scale;
    for (const std::string& line : lines) {
        drawLabel(image, margin, y, line, {255, 255, 255, 255}, scale);
        y += kTextLineHeight * scale;
    }
}

std::variant<std::unique_ptr<VideoWriter>, std::string>
VideoWriter::open(const fs::path& path, int width, int height, double framesPerSecond,
                  int expectedFrames, bool progress) {
    fs::path partial = path;
    partial.replace_filename(path.stem().string() + ".partial" + path.extension().string());
    for (const fs::path& target : {path, partial})
        if (auto refused = checkReplaceable(target))
            return *refused;
    const std::optional<fs::path> ffmpeg = findOnPath("ffmpeg");
    if (!ffmpeg)
        return path.string() + ": cannot record: the ffmpeg program is not on PATH (Debian: "
                               "apt-get install ffmpeg)";
    if (width <= 0 || height <= 0 || !(framesPerSecond > 0.0))
        return path.string() +
               fmt::format(": cannot record {} x {} at {} fps", width, height, framesPerSecond);
    std::error_code ec;
    if (path.has_parent_path())
        fs::create_directories(path.parent_path(), ec);
    std::unique_ptr<VideoWriter> writer(new VideoWriter());
    writer->path_ = path;
    writer->partial_ = path;
    writer->partial_.replace_filename(path.stem().string() + ".partial" +
                                      path.extension().string());
    writer->width_ = width;
    writer->height_ = height;
    writer->fps_ = framesPerSecond;
    writer->expected_ = expectedFrames;
    writer->progress_ = progress;

    // A socket, not a pipe: send() with MSG_NOSIGNAL reports a dead ffmpeg as EPIPE instead of
    // killing the lab with SIGPIPE, without touching the process's signal handlers.
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
        return path.string() + ": cannot record: socketpair failed (" + std::strerror(errno) + ")";
    const std::string size = fmt::format("{}x{}", writer->encodedWidth(), writer->encodedHeight());
    const std::string rate = frameRateText(framesPerSecond);
    // clang-format off
    std::vector<std::string> args = {
        ffmpeg->string(), "-hide_banner", "-nostats", "-loglevel", "error", "-y",
        // input: raw RGB frames of the padded size at the recording's rate, from our socket
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-video_size", size, "-framerate", rate,
        "-i", "pipe:0",
        // output: H.264 yuv420p (what every player decodes), the same constant rate
        "-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p",
        "-r", rate, "-movflags", "+faststart", writer->partial_.string()};
    // clang-format on
    std::vector<char*> argv;
    for (std::string& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // ffmpeg's stderr into an unlinked file of ours: a failure is summarised in our one line.
    std::string errName = (fs::temp_directory_path() / "snowcap-ffmpeg-XXXXXX").string();
    writer->errFd_ = mkostemp(errName.data(), O_CLOEXEC);
    if (writer->errFd_ >= 0)
        unlink(errName.c_str());
    posix_spawn_file_actions_adddup2(&actions, sockets[1], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    if (writer->errFd_ >= 0)
        posix_spawn_file_actions_adddup2(&actions, writer->errFd_, STDERR_FILENO);
    else
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(sockets[1]);
    if (spawned != 0) {
        close(sockets[0]);
        return path.string() + ": cannot start " + ffmpeg->string() + " (" +
               std::strerror(spawned) + ")";
    }
    writer->fd_ = sockets[0];
    writer->pid_ = pid;
    writer->rgb_.resize(static_cast<std::size_t>(writer->encodedWidth()) * writer->encodedHeight() *
                        3);
    writer->start_ = writer->lastReport_ = std::chrono::steady_clock::now();
    return writer;
}

std::string VideoWriter::ffmpegSaid() const {
    if (errFd_ < 0)
        return {};
    std::string text(4096, '\0');
    const off_t end = lseek(errFd_, 0, SEEK_END);
    const off_t from = std::max<off_t>(0, end - off_t(text.size()));
    const ssize_t got = pread(errFd_, text.data(), text.size(), from);
    text.resize(got > 0 ? std::size_t(got) : 0);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.pop_back();
    text =
        text.substr(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    return text.empty() ? std::string() : ": ffmpeg: " + clipForMessage(text, 200);
}

VideoWriter::~VideoWriter() {
    if (errFd_ >= 0)
        close(errFd_);
    if (pid_ > 0) {
        stop();
        kill(pid_, SIGTERM);
        int status = 0;
        waitpid(pid_, &status, 0);
        std::error_code ec;
        fs::remove(partial_, ec);
    }
}

void VideoWriter::stop() {
    if (fd_ >= 0) {
        close(fd_);
        fd_ = -1;
    }
}

std::optional<std::string> VideoWriter::write(const ImageRgba8& frame) {
    if (error_)
        return error_;
    if (fd_ < 0)
        return error_ = path_.string() + ": the video is already finished";
    if (frame.width != width_ || frame.height != height_)
        return error_ = path_.string() + fmt::format(": frame {} x {} in a {} x {} video",
                                                     frame.width, frame.height, width_, height_);
    const int w = encodedWidth(), h = encodedHeight();
    for (int y = 0; y < h; ++y) {
        const int sy = std::min(y, height_ - 1); // the padding repeats the last row / column
        for (int x = 0; x < w; ++x) {
            const std::uint8_t* p =
                &frame
                     .pixels[(static_cast<std::size_t>(sy) * width_ + std::min(x, width_ - 1)) * 4];
            std::uint8_t* q = &rgb_[(static_cast<std::size_t>(y) * w + x) * 3];
            q[0] = p[0];
            q[1] = p[1];
            q[2] = p[2];
        }
    }
    std::size_t sent = 0;
    while (sent < rgb_.size()) {
        const ssize_t n = send(fd_, rgb_.data() + sent, rgb_.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return error_ = path_.string() + ": ffmpeg stopped reading frames (" +
                            std::strerror(errno) + ")" + ffmpegSaid();
        sent += static_cast<std::size_t>(n);
    }
    ++frames_;
    reportProgress(false);
    return std::nullopt;
}

std::optional<std::string> VideoWriter::finish() {
    if (pid_ <= 0)
        return error_ ? error_ : std::optional<std::string>(path_.string() + ": not recording");
    stop();
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    reportProgress(true);
    std::error_code ec;
    if (!error_ && frames_ == 0)
        error_ = path_.string() + ": no frames were recorded";
    if (!error_ && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        error_ =
            path_.string() +
            fmt::format(": ffmpeg failed ({} {})", WIFEXITED(status) ? "exit status" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status)) +
            ffmpegSaid();
    if (!error_)
        if (auto refused = checkReplaceable(path_)) // swapped for a special file meanwhile
            error_ = *refused;
    if (!error_) {
        fs::rename(partial_, path_, ec);
        if (ec)
            error_ = path_.string() + ": cannot move the video into place (" + ec.message() + ")";
    }
    if (error_)
        fs::remove(partial_, ec);
    return error_;
}

// The one progress line of a recording (a shared reporter can take this call over): at most
// every 2 s, redrawn in place on a terminal, a plain line otherwise.
void VideoWriter::reportProgress(bool last) {
    const auto now = std::chrono::steady_clock::now();
    if (!progress_)
        return;
    if (!last && now - lastReport_ < std::chrono::seconds(2))
        return;
    if (last && !reported_)
        return; // short recordings say nothing until their one summary line
    lastReport_ = now;
    reported_ = true;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const bool tty = isatty(STDERR_FILENO);
    const std::string total = expected_ > 0 ? fmt::format("/{}", expected_) : "";
    std::fprintf(stderr, "%svideo: frame %d%s (%.1f s of video), %.1f frames/s%s", tty ? "\r" : "",
                 frames_, total.c_str(), frames_ / fps_, frames_ / std::max(elapsed, 1e-9),
                 tty && !last ? "   " : "\n");
    std::fflush(stderr);
}

} // namespace snowcap
