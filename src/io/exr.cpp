#include "io/exr.hpp"

#include "core/untrusted_file.hpp"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIO.h>
#include <ImfInputFile.h>
#include <ImfOutputFile.h>
#include <ImfStandardAttributes.h>
#include <algorithm>
#include <array>
#include <cstring>
#include <exception>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

// The file is built in memory and handed to writeFileAtomically, so an EXR gets the same
// replace-or-refuse and never-half-a-file behaviour as every other output.
class MemoryStream final : public Imf::OStream {
public:
    MemoryStream() : Imf::OStream("memory") {}
    void write(const char c[], int n) override {
        if (position_ + n > bytes_.size())
            bytes_.resize(position_ + n);
        std::memcpy(bytes_.data() + position_, c, static_cast<std::size_t>(n));
        position_ += n;
    }
    uint64_t tellp() override { return position_; }
    void seekp(uint64_t pos) override { position_ = pos; }
    std::vector<std::uint8_t>& bytes() { return bytes_; }

private:
    std::vector<std::uint8_t> bytes_;
    std::size_t position_ = 0;
};

constexpr int kMaxSide = 16384;
constexpr std::size_t kMaxChannels = 16;

// R, G, B, A first, then the rest by name: the order the snow buffers interleave channels.
int channelRank(const std::string& name) {
    static const std::array<const char*, 4> order{"R", "G", "B", "A"};
    for (std::size_t i = 0; i < order.size(); ++i)
        if (name == order[i])
            return static_cast<int>(i);
    return 4;
}

std::size_t bytesPerSample(ExrPixel pixel) {
    return pixel == ExrPixel::Half ? 2 : 4;
}

} // namespace

std::optional<std::string> writeExr(const fs::path& path, const ExrImage& image,
                                    Overwrite overwrite) {
    if (image.width <= 0 || image.height <= 0 || image.channels.empty())
        return path.string() + ": cannot write an empty EXR image";
    const std::size_t have =
        image.pixel == ExrPixel::Half ? image.halves.size() : image.floats.size();
    if (have != image.samples())
        return path.string() + ": EXR image holds " + std::to_string(have) + " samples, expected " +
               std::to_string(image.samples());
    const std::size_t channels = image.channels.size();
    const std::size_t sampleBytes = bytesPerSample(image.pixel);
    const std::size_t rowBytes = static_cast<std::size_t>(image.width) * channels * sampleBytes;
    // Rows top first, as the file stores them.
    std::vector<char> rows(rowBytes * image.height);
    const char* source = image.pixel == ExrPixel::Half
                             ? reinterpret_cast<const char*>(image.halves.data())
                             : reinterpret_cast<const char*>(image.floats.data());
    for (int y = 0; y < image.height; ++y)
        std::memcpy(rows.data() + rowBytes * y, source + rowBytes * (image.height - 1 - y),
                    rowBytes);
    try {
        Imf::Header header(image.width, image.height);
        header.compression() = Imf::ZIP_COMPRESSION; // lossless, read by every EXR tool
        header.lineOrder() = Imf::INCREASING_Y;
        if (!image.comments.empty())
            Imf::addComments(header, image.comments);
        const Imf::PixelType type = image.pixel == ExrPixel::Half ? Imf::HALF : Imf::FLOAT;
        Imf::FrameBuffer frame;
        for (std::size_t c = 0; c < channels; ++c) {
            header.channels().insert(image.channels[c], Imf::Channel(type));
            frame.insert(image.channels[c], Imf::Slice(type, rows.data() + c * sampleBytes,
                                                       channels * sampleBytes, rowBytes));
        }
        MemoryStream stream;
        {
            Imf::OutputFile file(stream, header, 1);
            file.setFrameBuffer(frame);
            file.writePixels(image.height);
        }
        return writeFileAtomically(path, stream.bytes(), overwrite);
    } catch (const std::exception& error) {
        return path.string() + ": cannot write EXR (" + error.what() + ")";
    }
}

std::variant<ExrImage, std::string> readExr(const fs::path& path) {
    // A directory, FIFO or device is refused before OpenEXR opens it (core/untrusted_file.hpp).
    if (auto opened = UntrustedFile::open(path); std::holds_alternative<std::string>(opened))
        return std::get<std::string>(opened);
    try {
        Imf::InputFile file(path.c_str(), 1);
        const Imf::Header& header = file.header();
        const Imath::Box2i window = header.dataWindow();
        const long long width = static_cast<long long>(window.max.x) - window.min.x + 1;
        const long long height = static_cast<long long>(window.max.y) - window.min.y + 1;
        if (width <= 0 || height <= 0 || width > kMaxSide || height > kMaxSide)
            return path.string() + ": EXR data window " + std::to_string(width) + " x " +
                   std::to_string(height) + " is outside 1 .. " + std::to_string(kMaxSide);
        ExrImage image;
        image.width = static_cast<int>(width);
        image.height = static_cast<int>(height);
        std::optional<Imf::PixelType> type;
        for (auto it = header.channels().begin(); it != header.channels().end(); ++it) {
            if (it.channel().xSampling != 1 || it.channel().ySampling != 1)
                return path.string() + ": channel " + it.name() + " is subsampled";
            if (it.channel().type == Imf::UINT)
                return path.string() + ": channel " + it.name() + " is UINT, not half or float";
            if (type && *type != it.channel().type)
                return path.string() + ": channels mix half and float";
            type = it.channel().type;
            image.channels.emplace_back(it.name());
        }
        if (image.channels.empty() || image.channels.size() > kMaxChannels)
            return path.string() + ": EXR has " + std::to_string(image.channels.size()) +
                   " channels, expected 1 .. " + std::to_string(kMaxChannels);
        std::stable_sort(image.channels.begin(), image.channels.end(),
                         [](const std::string& a, const std::string& b) {
                             const int ra = channelRank(a), rb = channelRank(b);
                             return ra != rb ? ra < rb : a < b;
                         });
        image.pixel = *type == Imf::HALF ? ExrPixel::Half : ExrPixel::Float;
        if (const Imf::StringAttribute* comments =
                header.findTypedAttribute<Imf::StringAttribute>("comments"))
            image.comments = comments->value();

        const std::size_t channels = image.channels.size();
        const std::size_t sampleBytes = bytesPerSample(image.pixel);
        const std::size_t rowBytes = static_cast<std::size_t>(width) * channels * sampleBytes;
        std::vector<char> rows(rowBytes * height); // top first, as stored
        Imf::FrameBuffer frame;
        for (std::size_t c = 0; c < channels; ++c)
            frame.insert(image.channels[c],
                         Imf::Slice::Make(*type, rows.data() + c * sampleBytes, window.min, width,
                                          height, channels * sampleBytes, rowBytes));
        file.setFrameBuffer(frame);
        file.readPixels(window.min.y, window.max.y);

        char* target;
        if (image.pixel == ExrPixel::Half) {
            image.halves.resize(image.samples());
            target = reinterpret_cast<char*>(image.halves.data());
        } else {
            image.floats.resize(image.samples());
            target = reinterpret_cast<char*>(image.floats.data());
        }
        for (long long y = 0; y < height; ++y)
            std::memcpy(target + rowBytes * y, rows.data() + rowBytes * (height - 1 - y), rowBytes);
        return image;
    } catch (const std::exception& error) {
        return path.string() + ": not a readable EXR file (" + error.what() + ")";
    }
}

} // namespace snowcap
