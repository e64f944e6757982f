// LineChartSvg implementation.
#include "sim/view/line_chart.h"

#include <algorithm>
#include <cmath>

#include "store/check.h"
#include "store/format.h"

namespace durasim {

namespace {

constexpr double kChartWidth = 900, kChartHeight = 420;
// Margins, the legend on the right.
constexpr double kChartLeft = 70, kChartRight = 330, kChartTop = 40, kChartBottom = 50;
constexpr int kChartTicks = 5;

// `value` rounded up to 1, 2 or 5 times a power of ten (0 stays 1).
double NiceCeiling(double value) {
  if (value <= 0) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    if (value <= step * power) return step * power;
  }
  return 10 * power;
}

std::string Escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string Axes(const LineChart& chart, double x_max, double y_max) {
  const double plot_w = kChartWidth - kChartLeft - kChartRight, plot_h = kChartHeight - kChartTop - kChartBottom;
  std::string out = fmt::format(
      "<line x1='{0}' y1='{1}' x2='{2}' y2='{1}' stroke='black'/>\n<line x1='{0}' y1='{3}' x2='{0}' y2='{1}' "
      "stroke='black'/>\n",
      kChartLeft, kChartTop + plot_h, kChartLeft + plot_w, kChartTop);
  for (int i = 0; i <= kChartTicks; ++i) {
    const double x = kChartLeft + plot_w * i / kChartTicks, y = kChartTop + plot_h - plot_h * i / kChartTicks;
    out += fmt::format("<text x='{}' y='{}' font-size='11' text-anchor='middle'>{:g}</text>\n", x,
                       kChartTop + plot_h + 16, x_max * i / kChartTicks);
    out += fmt::format("<text x='{}' y='{}' font-size='11' text-anchor='end'>{:g}</text>\n", kChartLeft - 6, y + 4,
                       y_max * i / kChartTicks);
    out += fmt::format("<line x1='{}' y1='{}' x2='{}' y2='{}' stroke='#ddd'/>\n", kChartLeft, y, kChartLeft + plot_w,
                       y);
  }
  out += fmt::format("<text x='{}' y='{}' font-size='13' text-anchor='middle'>{}</text>\n", kChartLeft + plot_w / 2,
                     kChartHeight - 12, Escaped(chart.x_label));
  out += fmt::format("<text x='16' y='{}' font-size='13' text-anchor='middle' transform='rotate(-90 16 {})'>{}</text>\n",
                     kChartTop + plot_h / 2, kChartTop + plot_h / 2, Escaped(chart.y_label));
  return out;
}

}  // namespace

std::string LineChartSvg(const LineChart& chart) {
  double x_max = 0, y_max = 0;
  size_t points = 0;
  for (const ChartSeries& s : chart.series) {
    for (const auto& [x, y] : s.points) {
      DURASIM_CHECK(std::isfinite(x) && std::isfinite(y) && x >= 0 && y >= 0);  // axes start at 0
      x_max = std::max(x_max, x);
      y_max = std::max(y_max, y);
      ++points;
    }
  }
  DURASIM_CHECK_GT(points, 0u);
  x_max = NiceCeiling(x_max);
  y_max = NiceCeiling(y_max);
  const double plot_w = kChartWidth - kChartLeft - kChartRight, plot_h = kChartHeight - kChartTop - kChartBottom;
  std::string out = fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}' font-family='sans-serif'>\n"
      "<rect width='100%' height='100%' fill='white'/>\n"
      "<text x='{}' y='22' font-size='15' text-anchor='middle'>{}</text>\n",
      kChartWidth, kChartHeight, kChartWidth / 2, Escaped(chart.title));
  out += Axes(chart, x_max, y_max);
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    std::string path;
    for (const auto& [x, y] : s.points) {
      path += fmt::format("{:.1f},{:.1f} ", kChartLeft + plot_w * x / x_max, kChartTop + plot_h - plot_h * y / y_max);
    }
    out += fmt::format("<polyline fill='none' stroke='{}' stroke-width='2'{} points='{}'/>\n", s.color,
                       s.dashed ? " stroke-dasharray='6 4'" : "", path);
    const double legend_y = kChartTop + 18.0 * static_cast<double>(i);
    out += fmt::format("<line x1='{0}' y1='{1}' x2='{2}' y2='{1}' stroke='{3}' stroke-width='2'{4}/>\n"
                       "<text x='{5}' y='{6}' font-size='12'>{7}</text>\n",
                       kChartWidth - kChartRight + 12, legend_y, kChartWidth - kChartRight + 36, s.color,
                       s.dashed ? " stroke-dasharray='6 4'" : "", kChartWidth - kChartRight + 42, legend_y + 4,
                       Escaped(s.label));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace durasim
