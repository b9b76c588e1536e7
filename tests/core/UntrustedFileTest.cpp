// core/untrusted_file.hpp: special files refused at once (a FIFO without a writer does not block),
// the size cap before a byte is read, exact reads that never pass the size fstat gave, the
// replace check of the writers, and long values cut in messages.
#include "TestSupport.hpp"
#include "core/untrusted_file.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::string refusal(const fs::path& path, std::uint64_t cap = 0) {
    auto opened = UntrustedFile::open(path, cap, "import.max_config_mib");
    return std::holds_alternative<std::string>(opened) ? std::get<std::string>(opened) : "";
}

TEST(UntrustedFile, AnythingButARegularFileIsRefusedWithoutBlocking) {
    const fs::path dir = test::scratchDir();
    EXPECT_EQ(refusal(dir), dir.string() + ": not a regular file (a directory)");
    EXPECT_EQ(refusal("/dev/zero"), "/dev/zero: not a regular file (a character device)");
    EXPECT_EQ(refusal("/dev/null"), "/dev/null: not a regular file (a character device)");
    const fs::path fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(refusal(fifo), fifo.string() + ": not a regular file (a FIFO)");
    const fs::path link = dir / "zero";
    fs::create_symlink("/dev/zero", link); // followed: what it points at is judged
    EXPECT_EQ(refusal(link), link.string() + ": not a regular file (a character device)");
    const fs::path socketPath = dir / "socket";
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socketPath.c_str());
    if (socketPath.string().size() < sizeof address.sun_path &&
        ::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
        EXPECT_EQ(refusal(socketPath), socketPath.string() + ": not a regular file (a socket)");
    }
    ::close(sock);
    EXPECT_EQ(refusal(dir / "missing"),
              (dir / "missing").string() + ": cannot open file (No such file or directory)");
}

TEST(UntrustedFile, TheCapComesBeforeAnyByteAndReadsStopAtTheSize) {
    const fs::path path = test::scratchDir() / "sparse";
    test::writeText(path, "head");
    ASSERT_EQ(::truncate(path.c_str(), off_t(3) << 30), 0); // 3 GiB, a hole: no disk spent
    EXPECT_EQ(refusal(path, 1u << 20),
              path.string() + ": file too large (3072 MiB, limit import.max_config_mib = 1.00 "
                              "MiB)");
    ASSERT_EQ(::truncate(path.c_str(), 4), 0);
    auto opened = UntrustedFile::open(path, 1u << 20);
    ASSERT_TRUE(std::holds_alternative<UntrustedFile>(opened));
    UntrustedFile& file = std::get<UntrustedFile>(opened);
    char text[8] = {};
    EXPECT_EQ(file.read(text, 5).value_or(""),
              path.string() + ": truncated (5 bytes wanted at 0, the file has 4)");
    EXPECT_FALSE(file.read(text, 4));
    EXPECT_EQ(std::string(text), "head");
    EXPECT_EQ(file.remaining(), 0u);
    std::string whole;
    EXPECT_FALSE(readUntrustedText(path, whole, 4));
    EXPECT_EQ(whole, "head");
    EXPECT_TRUE(readUntrustedText(path, whole, 3));
    EXPECT_EQ(whole, "");
}

TEST(UntrustedFile, OnlyRegularFilesOrNothingAreReplaceable) {
    const fs::path dir = test::scratchDir();
    EXPECT_FALSE(checkReplaceable(dir / "new"));
    test::writeText(dir / "old", "x");
    EXPECT_FALSE(checkReplaceable(dir / "old"));
    EXPECT_EQ(checkReplaceable("/dev/full").value_or(""),
              "/dev/full: not a regular file (a character device), not replaced");
    fs::create_symlink(dir / "old", dir / "link");
    EXPECT_EQ(checkReplaceable(dir / "link").value_or(""),
              (dir / "link").string() + ": not a regular file (a symbolic link), not replaced");
    EXPECT_EQ(checkReplaceable(dir).value_or(""),
              dir.string() + ": not a regular file (a directory), not replaced");
}

TEST(UntrustedFile, LongValuesAreCutAtEightyCharacters) {
    EXPECT_EQ(clipForMessage("short"), "short");
    EXPECT_EQ(clipForMessage(std::string(80, 'x')), std::string(80, 'x'));
    EXPECT_EQ(clipForMessage(std::string(50u << 20, 'x')), std::string(80, 'x') + "\u2026");
    // Never inside a UTF-8 sequence: 79 ASCII bytes, then "é" (2 bytes) across the cut.
    EXPECT_EQ(clipForMessage(std::string(79, 'a') + "\u00e9\u00e9"),
              std::string(79, 'a') + "\u2026");
}

} // namespace
} // namespace snowcap
