#pragma once
// "Did you mean": the closest of a set of names to a misspelt one, for error lines that name an
// unknown key, scenario or value. Pure functions, no GL.

#include <string>
#include <string_view>
#include <vector>

namespace snowcap {

// Edit distance (insertions, deletions, substitutions and swaps of neighbours count 1 each).
int editDistance(std::string_view a, std::string_view b);

// " (did you mean 'x'?)" for the candidate nearest to `word`, when it is close enough to be a
// slip (at most a third of the word's letters, and never more than 3, differ); "" otherwise.
std::string didYouMean(std::string_view word, const std::vector<std::string_view>& candidates);

} // namespace snowcap
