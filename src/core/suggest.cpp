#include "core/suggest.hpp"

#include <algorithm>
#include <numeric>

namespace snowcap {

int editDistance(std::string_view a, std::string_view b) {
    // Optimal string alignment over three rows: the previous two and this one.
    const std::size_t n = b.size();
    std::vector<int> before(n + 1), previous(n + 1), current(n + 1);
    std::iota(previous.begin(), previous.end(), 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = static_cast<int>(i);
        for (std::size_t j = 1; j <= n; ++j) {
            const int substitution = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] =
                std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[n];
}

std::string didYouMean(std::string_view word, const std::vector<std::string_view>& candidates) {
    const int allowed = std::min(3, std::max(1, static_cast<int>(word.size()) / 3));
    std::string_view best;
    int bestDistance = allowed + 1;
    for (std::string_view candidate : candidates) {
        const int distance = editDistance(word, candidate);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = candidate;
        }
    }
    if (best.empty())
        return "";
    return " (did you mean '" + std::string(best) + "'?)";
}

} // namespace snowcap
