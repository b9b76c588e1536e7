// The video writer's failures (lab/video.hpp) with a stand-in for ffmpeg on PATH: whatever
// ffmpeg prints, the user gets one line naming the video, the way it failed and ffmpeg's last
// line, with its control characters replaced and a long one clipped; nothing ffmpeg wrote
// before that line, and no video or partial file left behind.
#include "TestSupport.hpp"
#include "lab/video.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

// Puts a shell script named ffmpeg first on PATH for the test's lifetime.
class FakeFfmpeg {
public:
    FakeFfmpeg(const fs::path& scratch, const std::string& script) {
        dir_ = scratch / "fake_ffmpeg";
        fs::create_directories(dir_);
        const fs::path program = dir_ / "ffmpeg";
        std::ofstream(program) << "#!/bin/sh\n" << script;
        fs::permissions(program, fs::perms::owner_all);
        const char* path = std::getenv("PATH");
        saved_ = path ? path : "";
        setenv("PATH", (dir_.string() + ":" + saved_).c_str(), 1);
    }
    ~FakeFfmpeg() { setenv("PATH", saved_.c_str(), 1); }

private:
    fs::path dir_;
    std::string saved_;
};

// Three lines on stderr, the last with colour escapes and a bell, then exit 1.
constexpr const char* kNoisyFailure =
    "cat >/dev/null\n"
    "printf 'Input #0, rawvideo\\n  Stream #0:0: Video\\n' >&2\n"
    "printf '\\033[31mUnknown encoder \\007libx264\\033[0m\\n\\n' >&2\n"
    "exit 1\n";

void expectOneCleanLine(const std::string& line) {
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    for (const char c : line)
        EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            << "control character " << int(c) << " in: " << line;
}

TEST(VideoWriter, AFailedFfmpegIsOneLineQuotingItsLastLine) {
    const fs::path dir = test::scratchDir(); // (each call empties it)
    FakeFfmpeg fake(dir, kNoisyFailure);
    const fs::path video = dir / "noisy.mp4";
    auto opened = VideoWriter::open(video, 16, 16, 30.0, 1, false);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<VideoWriter>>(opened))
        << std::get<std::string>(opened);
    VideoWriter& writer = *std::get<std::unique_ptr<VideoWriter>>(opened);
    EXPECT_FALSE(writer.write(ImageRgba8(16, 16)));
    const auto error = writer.finish();
    ASSERT_TRUE(error);
    std::printf("%s\n", error->c_str());
    expectOneCleanLine(*error);
    EXPECT_EQ(error->rfind(video.string() + ": ffmpeg failed (exit status 1): ffmpeg: ", 0), 0u)
        << *error;
    EXPECT_NE(error->find("Unknown encoder  libx264"), std::string::npos) << *error;
    EXPECT_EQ(error->find("Stream #0"), std::string::npos) << *error; // only the last line
    EXPECT_FALSE(fs::exists(video));
    EXPECT_FALSE(fs::exists(dir / "noisy.partial.mp4"));
}

TEST(VideoWriter, AnFfmpegThatStopsReadingIsOneLineAndALongLineIsClipped) {
    // No frame is read; the last line is 307 characters (clipped to 200 in the message).
    const fs::path dir = test::scratchDir();
    FakeFfmpeg fake(dir, "printf 'error: %0300d\\n' 0 >&2\nexit 3\n");
    const fs::path video = dir / "deaf.mp4";
    auto opened = VideoWriter::open(video, 512, 512, 30.0, 1, false);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<VideoWriter>>(opened));
    VideoWriter& writer = *std::get<std::unique_ptr<VideoWriter>>(opened);
    std::optional<std::string> error;
    // Each 512 x 512 frame (768 KiB) is more than a socket holds: the sends fail once
    // ffmpeg has exited, at the latest in the next frame.
    for (int i = 0; i < 100 && !error; ++i)
        error = writer.write(ImageRgba8(512, 512));
    if (!error)
        error = writer.finish();
    else
        writer.finish();
    ASSERT_TRUE(error);
    expectOneCleanLine(*error);
    EXPECT_NE(error->find(": ffmpeg: error: 0000"), std::string::npos) << *error;
    EXPECT_LT(error->size(), video.string().size() + 350) << *error;
    EXPECT_FALSE(fs::exists(video));
}

} // namespace
} // namespace snowcap
