// Writes a laid-out timeline (sim/view/timeline_layout.h) as SVG, or as an HTML
// page holding the SVG inline: self-contained, no script, no network.
// Deterministic: the same layout gives the same bytes.
#pragma once

#include <string>

#include "sim/view/timeline_layout.h"

namespace durasim {

std::string RenderTimelineSvg(const TimelineLayout& layout);
std::string RenderTimelineHtml(const TimelineLayout& layout, const std::string& title);

// The SVG, or the HTML page when `path` ends in .html or .htm.
std::string RenderTimelineFor(const std::string& path, const TimelineLayout& layout, const std::string& title);

}  // namespace durasim
