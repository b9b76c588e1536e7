#pragma once
// The one way snowcap opens a file someone else made: scenario and config files, world files,
// mesh files (before Assimp sees them), PNG / PFM / EXR inputs. Whatever the name points at,
// the answer is the file or one line, at once and within a size cap:
//
//   1. stat(2) the name: anything but a regular file (a directory, FIFO, device, socket) is
//      refused before it is opened, so a FIFO cannot block and /dev/zero cannot stream;
//   2. open(2) with O_NONBLOCK | O_NOCTTY (a FIFO swapped in after the stat opens at once
//      instead of waiting for a writer), then fstat(2) the descriptor: it must be the regular
//      file the name was, of at most `maxBytes`;
//   3. reads never take more than the size fstat gave (a file that grows while it is read is
//      refused, not followed).
//
// It lives in core (not io) because the config reader, the lowest reader of all, uses it.
// Errors are one line: "PATH: reason". The caps are keys (import.max_*_mib), and the messages
// name the key, so the user knows what to raise.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace snowcap {

// An open regular file, read from the start. Move-only; closes its descriptor.
class UntrustedFile {
public:
    UntrustedFile() = default;
    UntrustedFile(UntrustedFile&& other) noexcept;
    UntrustedFile& operator=(UntrustedFile&& other) noexcept;
    UntrustedFile(const UntrustedFile&) = delete;
    UntrustedFile& operator=(const UntrustedFile&) = delete;
    ~UntrustedFile();

    // `maxBytes` and `limitKey` ("import.max_world_mib") bound the size; 0 = no size cap.
    static std::variant<UntrustedFile, std::string> open(const std::filesystem::path& path,
                                                         std::uint64_t maxBytes = 0,
                                                         std::string_view limitKey = {});

    std::uint64_t size() const { return size_; }
    std::uint64_t offset() const { return offset_; }
    std::uint64_t remaining() const { return size_ - offset_; }
    const std::filesystem::path& path() const { return path_; }

    // Exactly `bytes` more bytes, or the reason ("truncated" when the file holds fewer).
    std::optional<std::string> read(void* into, std::size_t bytes);

private:
    int fd_ = -1;
    std::uint64_t size_ = 0, offset_ = 0;
    std::filesystem::path path_;
};

// The whole file (after the checks above), or "PATH: reason".
std::variant<std::vector<std::uint8_t>, std::string>
readUntrustedBytes(const std::filesystem::path& path, std::uint64_t maxBytes = 0,
                   std::string_view limitKey = {});
// The same into `text`; the reason on failure (`text` is then left empty).
std::optional<std::string> readUntrustedText(const std::filesystem::path& path, std::string& text,
                                             std::uint64_t maxBytes = 0,
                                             std::string_view limitKey = {});

// Whether `path` names a regular file or nothing (then writing there creates one); the reason
// otherwise ("PATH: not a regular file (a character device), not replaced"). Writers check this
// before a run and again before they rename a finished file into place.
std::optional<std::string> checkReplaceable(const std::filesystem::path& path);

// "a directory", "a FIFO", "a character device", ... for a stat(2) mode.
std::string_view fileKind(unsigned mode);

// Long values in messages: the first 80 characters, then "…" (a 50 MB string is not echoed).
std::string clipForMessage(std::string_view text, std::size_t keep = 80);

} // namespace snowcap
