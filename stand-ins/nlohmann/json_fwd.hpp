// torchlint stand-in for nlohmann/json_fwd.hpp (https://json.nlohmann.me): the library's forward
// declarations, here the stand-in json.hpp whole, so that a project that includes json_fwd.hpp in
// its headers and json.hpp in its sources gets one nlohmann::json. See ../README.md.
#pragma once
#include "json.hpp"
