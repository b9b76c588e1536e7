#pragma once
// CPU images: 8-bit RGBA for what people look at (PNG snapshots, docs, golden tests) and
// single-channel float for the snow buffers read back from the GPU (PFM, bit exact). Also the
// small drawing kit the headless renderer and the plots share: colour maps, bitmap text,
// panels side by side, and the image comparison of the golden tests. No GL here.

#include <cstdint>
#include <filesystem>
#include <glm/vec4.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace snowcap {

// RGBA, 8 bits a channel, row 0 = TOP (the order of PNG files and of screens).
struct ImageRgba8 {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels; // width * height * 4 bytes, row after row

    ImageRgba8() = default;
    ImageRgba8(int width, int height, glm::u8vec4 fill = {0, 0, 0, 255});

    bool empty() const { return width <= 0 || height <= 0; }
    bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }

    // Unchecked: the caller keeps (x, y) inside; see contains().
    glm::u8vec4 at(int x, int y) const;
    void set(int x, int y, glm::u8vec4 colour);
    // Composites `colour` over the pixel with its alpha ("over"); outside pixels are ignored.
    void blend(int x, int y, glm::u8vec4 colour);

    // Rectangles are clipped to the image. fillRect replaces, blendRect composites with alpha.
    void fillRect(int x, int y, int w, int h, glm::u8vec4 colour);
    void blendRect(int x, int y, int w, int h, glm::u8vec4 colour);
    // Copies `src` with its top-left corner at (x, y), clipped; pixels are replaced, not blended.
    void blit(const ImageRgba8& src, int x, int y);
};

// One float a texel, row 0 = BOTTOM: the order glReadPixels / glGetTexImage return, and the
// order PFM files store, so buffers go GPU -> file without a flip.
struct ImageFloat {
    int width = 0;
    int height = 0;
    std::vector<float> values; // width * height, bottom row first

    ImageFloat() = default;
    ImageFloat(int width, int height, float fill = 0.0f);

    bool empty() const { return width <= 0 || height <= 0; }
    float& at(int x, int y) { return values[static_cast<std::size_t>(y) * width + x]; }
    float at(int x, int y) const { return values[static_cast<std::size_t>(y) * width + x]; }
};

// RGBA8 rows as OpenGL reads them back (bottom row first) as a top-first image.
ImageRgba8 imageFromBottomUpRows(const std::uint8_t* rows, int width, int height);

// ---- files: errors are one line naming the path and the reason ---------------------------
// Writes go to a temporary file in the same directory and are renamed into place, so a reader
// (or a crash) never sees half a file. Replace is for a run refreshing its own outputs
// (`render --out DIR`); Refuse is for files a person names or collects (screenshots): an
// existing file is never replaced, the error says "file exists, not overwritten".
enum class Overwrite { Replace, Refuse };

std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               const std::vector<std::uint8_t>& bytes,
                                               Overwrite overwrite = Overwrite::Replace);

std::optional<std::string> writePng(const std::filesystem::path& path, const ImageRgba8& image,
                                    Overwrite overwrite = Overwrite::Replace);
std::variant<ImageRgba8, std::string> readPng(const std::filesystem::path& path);
// A PNG someone else made, read as untrusted (core/untrusted_file.hpp, at most `maxBytes`):
// the signature and the IHDR header are checked before stb decodes anything, and a side of
// more than `maxSide` pixels is refused before any pixel is allocated. Errors are "PATH:
// reason" ("not a PNG (...)", "40000 x 16 pixels, at most 8192 a side", "its pixel data is
// shorter than its 64 x 64 pixels need", ...).
std::variant<ImageRgba8, std::string> readPngWithin(const std::filesystem::path& path, int maxSide,
                                                    std::uint64_t maxBytes);

// Greyscale Portable Float Map ("Pf"), little endian (scale -1). Reading accepts either
// byte order; colour "PF" files, bad headers and truncated or oversized data are rejected.
std::optional<std::string> writePfm(const std::filesystem::path& path, const ImageFloat& image,
                                    Overwrite overwrite = Overwrite::Replace);
std::variant<ImageFloat, std::string> readPfm(const std::filesystem::path& path);
// Colour Portable Float Map ("PF"): three floats a texel (`rgb`, width * height * 3, bottom row
// first), little endian.
std::optional<std::string> writePfmColour(const std::filesystem::path& path, int width, int height,
                                          const std::vector<float>& rgb,
                                          Overwrite overwrite = Overwrite::Replace);

// ---- colour maps ------------------------------------------------------------------------

enum class ColourMap {
    Inferno,  // perceptually uniform, dark to bright: for buffers (depth, masks, heights)
    Grey,     // linear black to white
    Diverging // blue - white - red with white at 0.5: for A - B differences
};

// t is clamped to [0, 1]; NaN maps to magenta so holes in the data cannot pass for values.
glm::u8vec4 colourMap(ColourMap map, float t);

struct ValueRange {
    float lo = 0.0f;
    float hi = 0.0f;
};
// The smallest and largest finite value; {0, 0} when there is none.
ValueRange finiteRange(const ImageFloat& image);

// Maps lo -> 0 and hi -> 1 (values outside are clamped) and flips to top-first rows. When
// lo == hi, values equal to lo take the middle colour (white in Diverging: "no difference").
ImageRgba8 colourMapped(const ImageFloat& image, ColourMap map, float lo, float hi);

// ---- text (stb_easy_font: printable ASCII, '\n' starts a new line) -----------------------
// (x, y) is the top-left corner of the text; `scale` is an integer pixel multiplier. Glyphs
// are 7 px tall at scale 1 (descenders reach 9) and lines are 12 px apart.

inline constexpr int kTextCapHeight = 7;
inline constexpr int kTextLineHeight = 12;

void drawText(ImageRgba8& image, int x, int y, std::string_view text, glm::u8vec4 colour,
              int scale = 1);
// The size of the inked box drawText fills, starting at (x, y).
int textWidth(std::string_view text, int scale = 1);
int textHeight(std::string_view text, int scale = 1);
// Text over a translucent dark box (padded by 2 * scale), readable on any background.
void drawLabel(ImageRgba8& image, int x, int y, std::string_view text,
               glm::u8vec4 colour = {255, 255, 255, 255}, int scale = 1);

// ---- composition and comparison ---------------------------------------------------------

// Panels left to right, top aligned, `gap` pixels apart; the background is gapColour. Null
// entries are skipped.
ImageRgba8 sideBySide(const std::vector<const ImageRgba8*>& panels, int gap, glm::u8vec4 gapColour);

struct ImageDiff {
    int maxDelta = 0;        // largest per-channel absolute difference, 0..255
    double meanDelta = 0.0;  // mean per-channel absolute difference over all channels
    double fractionOver = 0; // share of pixels where any channel differs by more than tolerance
    ImageRgba8 diffImage;    // dimmed expected image; differing pixels amplified in colour
};

// Per-channel comparison for golden tests. Pixels over tolerance are red in diffImage, pixels
// that differ within tolerance yellow. A size mismatch gives maxDelta 255, fractionOver 1.
ImageDiff compareImages(const ImageRgba8& expected, const ImageRgba8& actual, int tolerance);

} // namespace snowcap
