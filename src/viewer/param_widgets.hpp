#pragma once
// The viewer's widgets for parameter-table keys: each key gets the widget its row names, with
// its range as the widget's limits and its doc, unit and range as the tooltip, so a panel can
// neither offer a value the reader would refuse nor hide one it accepts.

#include "core/params.hpp"

#include <initializer_list>
#include <string_view>

namespace snowcap {

// A note shown after an enum value in its combo, e.g. "UE" after blur's "per_pixel"; "" for none.
using ValueNote = std::string_view (*)(std::string_view key, std::string_view value);

struct WidgetOptions {
    ValueNote note = nullptr;
    // Report a change only when the edit is finished (the mouse released): for keys whose
    // change is expensive (a deformer re-imports its mesh).
    bool onRelease = false;
    // The key's name is drawn elsewhere (a table's first column): the widget has no label of
    // its own and takes the width it is given.
    bool unlabelled = false;
};

// One key's widget; true when it changed `owner`. Keys whose widget is None draw nothing.
template <class S>
bool paramWidget(const params::Param<S>& param, S& owner, const WidgetOptions& options = {});

// The widget of the key named `key` in `section` (a missing key is a programming error).
template <class S>
bool paramWidget(const params::Section<S>& section, std::string_view key, S& owner,
                 const WidgetOptions& options = {});

// Every key of `section` that has a widget, in table order, except those in `skip` (keys the
// panel draws itself or places elsewhere).
template <class S>
bool paramWidgets(const params::Section<S>& section, S& owner,
                  std::initializer_list<std::string_view> skip = {},
                  const WidgetOptions& options = {});

} // namespace snowcap
