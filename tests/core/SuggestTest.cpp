// "Did you mean": the nearest name to a slip, and none for a word that is no slip.

#include "core/suggest.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(Suggest, EditDistanceCountsOneForEachInsertionDeletionSubstitutionAndSwap) {
    EXPECT_EQ(editDistance("decay", "decay"), 0);
    EXPECT_EQ(editDistance("decy", "decay"), 1);            // a deletion
    EXPECT_EQ(editDistance("decays", "decay"), 1);          // an insertion
    EXPECT_EQ(editDistance("decoy", "decay"), 1);           // a substitution
    EXPECT_EQ(editDistance("resolutoin", "resolution"), 1); // neighbours swapped
    EXPECT_EQ(editDistance("", "abc"), 3);
    EXPECT_EQ(editDistance("kitten", "sitting"), 3);
}

TEST(Suggest, NamesTheNearestCandidateOnlyWhenItIsASlip) {
    const std::vector<std::string_view> keys{"decay", "decay_timing", "resolution", "refill"};
    EXPECT_EQ(didYouMean("decy", keys), " (did you mean 'decay'?)");
    EXPECT_EQ(didYouMean("resolutoin", keys), " (did you mean 'resolution'?)");
    EXPECT_EQ(didYouMean("colour", keys), ""); // nothing near
    EXPECT_EQ(didYouMean("x", keys), "");      // too short to guess from
    EXPECT_EQ(didYouMean("decay", {}), "");
}

} // namespace
} // namespace snowcap
