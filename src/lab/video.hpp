#pragma once
// Videos of a run (`render --video`, the viewer's Record button): frames piped as raw RGB into
// the `ffmpeg` program (Debian's ffmpeg package), encoded H.264 yuv420p in whatever container
// the file's extension names (.mp4 normally). One frame per recorded step at a fixed rate, so
// the video's length is the simulated length it shows. No GL here.
//
// Why the program and not libavcodec: the program's command line is stable across FFmpeg
// releases (the library API is not), it runs in its own process (an encoder fault cannot take
// the lab down), and a missing ffmpeg is one line, not a link error.

#include "io/image.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// The named program on PATH, if there is one that is executable.
std::optional<std::filesystem::path> findOnPath(const std::string& program);

// "60/1": the rate as a rational ffmpeg reads exactly (fps to a millionth).
std::string frameRateText(double framesPerSecond);

// Time and probe values, drawn in the bottom-left corner over a dark box.
void drawOverlay(ImageRgba8& image, const std::vector<std::string>& lines);

class VideoWriter {
public:
    // Starts ffmpeg writing `path` (replaced when it exists, atomically: the video appears
    // under its name only once complete). `width` x `height` is the size of every frame;
    // H.264 yuv420p needs even sides, so odd ones are padded by repeating the last column or
    // row. `expectedFrames` only feeds the progress line on stderr (`progress` false: none).
    // One line on failure (no ffmpeg on PATH, a directory that cannot be written, a target
    // that is not a regular file: a FIFO, a device or a link is refused, never replaced).
    // ffmpeg's own messages are kept from the terminal; a failure's line quotes its last one.
    static std::variant<std::unique_ptr<VideoWriter>, std::string>
    open(const std::filesystem::path& path, int width, int height, double framesPerSecond,
         int expectedFrames = 0, bool progress = true);
    ~VideoWriter(); // an unfinished video is abandoned: ffmpeg stopped, the partial file removed

    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    // One frame of the size given to open(). After a failure every later call fails the same.
    std::optional<std::string> write(const ImageRgba8& frame);
    // Ends the stream, waits for ffmpeg and moves the file into place.
    std::optional<std::string> finish();

    int frames() const { return frames_; }
    const std::filesystem::path& path() const { return path_; }
    int encodedWidth() const { return width_ + (width_ & 1); }
    int encodedHeight() const { return height_ + (height_ & 1); }

private:
    VideoWriter() = default;
    void reportProgress(bool last);
    void stop();

    std::filesystem::path path_, partial_;
    int width_ = 0, height_ = 0;
    double fps_ = 0.0;
    int expected_ = 0;
    std::string ffmpegSaid() const; // its stderr's last line, for the one line of a failure
    int fd_ = -1;                   // our end of the socket ffmpeg reads as stdin
    int errFd_ = -1;                // an unlinked file that takes ffmpeg's stderr
    int pid_ = -1;                  // ffmpeg
    int frames_ = 0;
    std::optional<std::string> error_;
    std::vector<std::uint8_t> rgb_;
    std::chrono::steady_clock::time_point start_, lastReport_;
    bool reported_ = false;
    bool progress_ = true;
};

} // namespace snowcap
