// The picture of docs/network.md: the final.png of a session's server and of its clients in a
// grid two panes wide, each labelled with who drew it (the server, or a client and its link), so
// the picture reads without its caption. tools/net-picture runs the session and calls this.
//
//   net_picture OUT.png DIR LABEL [DIR LABEL ...]

#include "io/image.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace snowcap;

namespace {

constexpr int kGap = 4;
constexpr int kTextScale = 2;
const glm::u8vec4 kGapColour{20, 22, 26, 255};

// `rows` stacked top to bottom, `gap` apart, as wide as the widest.
ImageRgba8 stacked(const std::vector<ImageRgba8>& rows, int gap) {
    int width = 0, height = 0;
    for (const ImageRgba8& row : rows) {
        width = std::max(width, row.width);
        height += row.height;
    }
    height += gap * static_cast<int>(rows.size() - 1);
    ImageRgba8 out(width, height, kGapColour);
    int y = 0;
    for (const ImageRgba8& row : rows) {
        for (int r = 0; r < row.height; ++r)
            std::memcpy(&out.pixels[(static_cast<std::size_t>(y + r) * width) * 4],
                        &row.pixels[static_cast<std::size_t>(r) * row.width * 4],
                        static_cast<std::size_t>(row.width) * 4);
        y += row.height + gap;
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4 || (argc - 2) % 2 != 0) {
        std::fprintf(stderr, "usage: net_picture OUT.png DIR LABEL [DIR LABEL ...]\n");
        return 2;
    }
    std::vector<ImageRgba8> panes;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string file = std::string(argv[i]) + "/final.png";
        auto read = readPng(file);
        if (auto* error = std::get_if<std::string>(&read)) {
            std::fprintf(stderr, "net_picture: %s\n", error->c_str());
            return 2;
        }
        ImageRgba8 pane = std::move(std::get<ImageRgba8>(read));
        // Bottom left: the panes' own labels (the sims) are at the top.
        const int margin = 8;
        drawLabel(pane, margin, pane.height - margin - textHeight(argv[i + 1], kTextScale),
                  argv[i + 1], {255, 255, 255, 255}, kTextScale);
        panes.push_back(std::move(pane));
    }
    std::vector<ImageRgba8> rows;
    for (std::size_t i = 0; i < panes.size(); i += 2) {
        std::vector<const ImageRgba8*> row = {&panes[i]};
        if (i + 1 < panes.size())
            row.push_back(&panes[i + 1]);
        rows.push_back(sideBySide(row, kGap, kGapColour));
    }
    if (auto error = writePng(argv[1], stacked(rows, kGap))) {
        std::fprintf(stderr, "net_picture: %s\n", error->c_str());
        return 1;
    }
    return 0;
}
