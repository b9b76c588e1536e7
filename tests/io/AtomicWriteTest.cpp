// Output files: written whole or not at all (temp file + rename), and Overwrite::Refuse never
// replaces an existing file. docs/reliability.md says which outputs use which policy.
#include "TestSupport.hpp"
#include "io/image.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <sys/stat.h>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> bytes(std::string_view text) {
    return {text.begin(), text.end()};
}

int entriesIn(const fs::path& dir) {
    return static_cast<int>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(AtomicWrite, ReplaceRefreshesAndLeavesNoTemporaryFile) {
    const fs::path dir = test::scratchDir();
    const fs::path file = dir / "stats.json";
    EXPECT_EQ(writeFileAtomically(file, bytes("one")), std::nullopt);
    EXPECT_EQ(writeFileAtomically(file, bytes("two")), std::nullopt);
    EXPECT_EQ(readText(file), "two");
    EXPECT_EQ(entriesIn(dir), 1);
}

TEST(AtomicWrite, RefuseKeepsAnExistingFile) {
    const fs::path dir = test::scratchDir();
    const fs::path file = dir / "shot.png";
    EXPECT_EQ(writeFileAtomically(file, bytes("first"), Overwrite::Refuse), std::nullopt);
    EXPECT_EQ(writeFileAtomically(file, bytes("second"), Overwrite::Refuse),
              "cannot write '" + file.string() + "': file exists, not overwritten");
    EXPECT_EQ(readText(file), "first");
    EXPECT_EQ(entriesIn(dir), 1); // the temporary file is gone in both cases
}

TEST(AtomicWrite, FailureNamesThePathAndLeavesNothing) {
    const fs::path dir = test::scratchDir();
    const fs::path file = dir / "missing" / "x.pfm";
    const auto error = writeFileAtomically(file, bytes("x"));
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(*error, "cannot write '" + file.string() + "': No such file or directory");
    EXPECT_EQ(entriesIn(dir), 0);
}

// rename(2) would replace whatever the name is: a FIFO, a symbolic link or (as root) /dev/full
// would become a regular file. Only a regular file or nothing is ever replaced. (/dev/full
// itself is not tried: on a shared machine a regression would replace the real device.)
TEST(AtomicWrite, ReplaceNeverReplacesAnythingButARegularFile) {
    const fs::path dir = test::scratchDir();
    const fs::path fifo = dir / "world.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(writeFileAtomically(fifo, bytes("x")),
              "cannot write '" + fifo.string() + "': not a regular file (a FIFO), not replaced");
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    const fs::path link = dir / "link.json";
    fs::create_symlink(dir / "elsewhere.json", link);
    EXPECT_TRUE(writeFileAtomically(link, bytes("x")).has_value());
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(entriesIn(dir), 2); // no temporary file left
}

TEST(AtomicWrite, PngRefuseToo) {
    const fs::path file = test::scratchDir() / "a.png";
    ImageRgba8 image;
    image.width = image.height = 1;
    image.pixels = {1, 2, 3, 255};
    EXPECT_EQ(writePng(file, image, Overwrite::Refuse), std::nullopt);
    image.pixels = {9, 9, 9, 255};
    EXPECT_TRUE(writePng(file, image, Overwrite::Refuse).has_value());
    EXPECT_EQ(std::get<ImageRgba8>(readPng(file)).pixels,
              (std::vector<std::uint8_t>{1, 2, 3, 255}));
}

} // namespace
} // namespace snowcap
