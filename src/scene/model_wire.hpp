#pragma once
// An ImportedModel as bytes and back, for handing an import from the child process that ran it
// to the parent (scene/model_import_child.cpp). The parent does not trust what arrives: every
// count is checked against the bytes actually left before anything is allocated, and indices,
// joints and parents are checked against what they point into, so a child that died half-way or
// wrote garbage gives a reason, never a crash or an allocation the bytes cannot back.

#include "scene/model_import.hpp"

#include <string>
#include <string_view>
#include <variant>

namespace snowcap::wire {

std::string encode(const ImportedModel& model);
// The model, or the reason the bytes are not one (one phrase, no file name).
std::variant<ImportedModel, std::string> decode(std::string_view bytes);

} // namespace snowcap::wire
