// A line chart as SVG: series of (x, y) points over shared axes, drawn by
// the project (no plotting library), for the figures docs/benchmarks.md
// shows (durasim compare-stores --svg).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace durasim {

struct ChartSeries {
  std::string label;
  std::string color;                               // an SVG colour: "#1f77b4"
  bool dashed = false;
  std::vector<std::pair<double, double>> points;  // (x, y), x increasing
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<ChartSeries> series;
};

// The chart as a standalone SVG document: axes from 0 to the largest x and
// y (rounded up), five ticks each, a legend. REQUIRES: some point.
std::string LineChartSvg(const LineChart& chart);

}  // namespace durasim
