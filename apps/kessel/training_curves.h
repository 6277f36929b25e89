// `kessel train --curves FILE.html`: the training curves as a self-contained page (inline SVG, no
// scripts): training loss and dev ROUGE-L per epoch, one line per ensemble member, each member's
// early-stopping epoch marked.
#pragma once

#include <string>

#include "kessel/summarize/eaca.h"

namespace kessel::cli {

// `title` names the run (data path, seed); `summary` is one line of results shown under it.
std::string training_curves_html(const summarize::TrainResult& result, const std::string& title,
                                 const std::string& summary);

}  // namespace kessel::cli
