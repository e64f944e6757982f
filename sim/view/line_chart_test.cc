// Unit tests for LineChartSvg.
#include "sim/view/line_chart.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

TEST(LineChartTest, DrawsEachSeriesScaledToNiceAxesWithALegend) {
  // Strategy: two series up to x 8, y 37: the axes end at 10 and 50 (nice
  // ceilings), each series is a polyline in its colour, the dashed one
  // dashed, and the legend names both; markup in labels is escaped.
  LineChart chart{"a <title>", "checkpoints", "records", {}};
  chart.series.push_back({"rewind", "#111111", false, {{0, 0}, {8, 37}}});
  chart.series.push_back({"rewrite", "#222222", true, {{0, 5}, {8, 10}}});
  const std::string svg = LineChartSvg(chart);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("a &lt;title&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">10</text>"), std::string::npos);  // the last x tick
  EXPECT_NE(svg.find(">50</text>"), std::string::npos);  // the last y tick
  EXPECT_NE(svg.find("stroke='#111111' stroke-width='2' points="), std::string::npos);
  EXPECT_NE(svg.find("stroke='#222222' stroke-width='2' stroke-dasharray='6 4' points="), std::string::npos);
  EXPECT_NE(svg.find(">rewind</text>"), std::string::npos);
  EXPECT_NE(svg.find(">rewrite</text>"), std::string::npos);
  // (8, 37) of 10 x 50 in a 500 x 330 plot from (70, 40): x 470, y 125.8.
  EXPECT_NE(svg.find("470.0,125.8"), std::string::npos) << svg;
}

}  // namespace
}  // namespace durasim
