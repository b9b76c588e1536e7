#include "core/untrusted_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace snowcap {

namespace {

std::string because(const std::filesystem::path& path, std::string_view what, int code) {
    return path.string() + ": " + std::string(what) + " (" + std::strerror(code) + ")";
}

std::string notRegular(const std::filesystem::path& path, unsigned mode) {
    return path.string() + ": not a regular file (" + std::string(fileKind(mode)) + ")";
}

std::string mib(std::uint64_t bytes) {
    const double value = double(bytes) / (1024.0 * 1024.0);
    char text[32];
    std::snprintf(text, sizeof text, value < 10.0 ? "%.2f" : "%.0f", value);
    return text;
}

} // namespace

std::string_view fileKind(unsigned mode) {
    switch (mode & S_IFMT) {
    case S_IFREG:
        return "a regular file";
    case S_IFDIR:
        return "a directory";
    case S_IFIFO:
        return "a FIFO";
    case S_IFCHR:
        return "a character device";
    case S_IFBLK:
        return "a block device";
    case S_IFSOCK:
        return "a socket";
    case S_IFLNK:
        return "a symbolic link";
    default:
        return "not a file";
    }
}

UntrustedFile::UntrustedFile(UntrustedFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), offset_(other.offset_),
      path_(std::move(other.path_)) {}

UntrustedFile& UntrustedFile::operator=(UntrustedFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        size_ = other.size_;
        offset_ = other.offset_;
        path_ = std::move(other.path_);
    }
    return *this;
}

UntrustedFile::~UntrustedFile() {
    if (fd_ >= 0)
        ::close(fd_);
}

std::variant<UntrustedFile, std::string> UntrustedFile::open(const std::filesystem::path& path,
                                                             std::uint64_t maxBytes,
                                                             std::string_view limitKey) {
    struct stat named {};
    if (::stat(path.c_str(), &named) != 0)
        return because(path, "cannot open file", errno);
    if (!S_ISREG(named.st_mode)) // before open(2): a FIFO would block there, a device stream
        return notRegular(path, named.st_mode);
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return because(path, "cannot open file", errno);
    UntrustedFile file;
    file.fd_ = fd;
    file.path_ = path;
    struct stat opened {};
    if (::fstat(fd, &opened) != 0)
        return because(path, "cannot open file", errno);
    if (!S_ISREG(opened.st_mode)) // the name was swapped between the stat and the open
        return notRegular(path, opened.st_mode);
    file.size_ = std::uint64_t(opened.st_size);
    if (maxBytes > 0 && file.size_ > maxBytes)
        return path.string() + ": file too large (" + mib(file.size_) + " MiB, " +
               (limitKey.empty() ? "at most " : "limit " + std::string(limitKey) + " = ") +
               mib(maxBytes) + " MiB)";
    return file;
}

std::optional<std::string> UntrustedFile::read(void* into, std::size_t bytes) {
    if (bytes > remaining())
        return path_.string() + ": truncated (" + std::to_string(bytes) + " bytes wanted at " +
               std::to_string(offset_) + ", the file has " + std::to_string(size_) + ")";
    auto* at = static_cast<std::uint8_t*>(into);
    std::size_t done = 0;
    while (done < bytes) {
        const ssize_t got = ::read(fd_, at + done, bytes - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return because(path_, "cannot read file", errno);
        if (got == 0) // shrank since fstat
            return path_.string() + ": truncated while it was read";
        done += std::size_t(got);
    }
    offset_ += bytes;
    return std::nullopt;
}

std::variant<std::vector<std::uint8_t>, std::string>
readUntrustedBytes(const std::filesystem::path& path, std::uint64_t maxBytes,
                   std::string_view limitKey) {
    auto opened = UntrustedFile::open(path, maxBytes, limitKey);
    if (auto* error = std::get_if<std::string>(&opened))
        return std::move(*error);
    UntrustedFile& file = std::get<UntrustedFile>(opened);
    std::vector<std::uint8_t> bytes(file.size()); // the size fstat gave, within the cap
    if (auto error = file.read(bytes.data(), bytes.size()))
        return std::move(*error);
    return bytes;
}

std::optional<std::string> readUntrustedText(const std::filesystem::path& path, std::string& text,
                                             std::uint64_t maxBytes, std::string_view limitKey) {
    text.clear();
    auto opened = UntrustedFile::open(path, maxBytes, limitKey);
    if (auto* error = std::get_if<std::string>(&opened))
        return std::move(*error);
    UntrustedFile& file = std::get<UntrustedFile>(opened);
    text.resize(file.size());
    if (auto error = file.read(text.data(), text.size())) {
        text.clear();
        return error;
    }
    return std::nullopt;
}

std::optional<std::string> checkReplaceable(const std::filesystem::path& path) {
    struct stat named {};
    if (::lstat(path.c_str(), &named) != 0)
        return errno == ENOENT ? std::nullopt
                               : std::optional(because(path, "cannot check the target", errno));
    if (S_ISREG(named.st_mode))
        return std::nullopt;
    return path.string() + ": not a regular file (" + std::string(fileKind(named.st_mode)) +
           "), not replaced";
}

std::string clipForMessage(std::string_view text, std::size_t keep) {
    if (text.size() <= keep)
        return std::string(text);
    std::size_t cut = keep;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return std::string(text.substr(0, cut)) + "\u2026";
}

} // namespace snowcap
