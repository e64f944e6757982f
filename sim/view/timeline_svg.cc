// The timeline as SVG (sim/view/timeline_svg.h).
#include "sim/view/timeline_svg.h"

#include "sim/view/report.h"
#include "store/check.h"
#include "store/format.h"
#include "store/utf8.h"

namespace durasim {
namespace {

// One style sheet: what each class looks like. Colours by record kind are
// the legend's.
constexpr const char* kStyle = R"(
text { font-family: 'DejaVu Sans', Verdana, sans-serif; fill: #222; }
.title { font-size: 17px; font-weight: bold; }
.subtitle { font-size: 13px; fill: #444; }
.section { font-size: 13px; font-weight: bold; fill: #333; }
.lane.odd { fill: #f3f6fa; stroke: #c9d3df; }
.lane.even { fill: #faf7f0; stroke: #dcd3c0; }
.lane-name { font-size: 13px; font-weight: bold; }
.lane-note { font-size: 11px; fill: #555; }
.event-label { font-size: 10px; fill: #333; }
.event-label.bad, .range-label.bad { fill: #c00; font-weight: bold; }
.glyph { stroke: #333; stroke-width: 1; }
.call { fill: #3b7dd8; }
.call.repeated { fill: #e02020; stroke: #700; stroke-width: 2.5; }
.reused { fill: #fff; stroke: #1a9a3a; stroke-width: 2.5; }
.checkpoint { fill: #8e5bd0; }
.cp-line { stroke: #8e5bd0; stroke-dasharray: 3 3; }
.restore { fill: #2aa7a0; }
.restore.rejected { fill: #e02020; }
.fault { fill: #f0a020; }
.crash { stroke: #d00; stroke-width: 3; }
.crash-line { stroke: #d00; stroke-width: 1; stroke-dasharray: 2 3; }
.output { fill: #444; }
.logevent { fill: #b08850; }
.slot { fill: #fff; stroke: #e4e4e4; }
.record { stroke: #555; stroke-width: 1; }
.record.start { fill: #d9e8fb; }
.record.pending { fill: #ffe08a; }
.record.result { fill: #7fd18b; }
.record.complete { fill: #2f8f46; }
.record.tombstone { fill: #9a9a9a; }
.record.cleanup { fill: #c8b6e2; }
.record.corrupt { fill: #ff5a5a; }
.record.foreign { fill: #ff9ee0; }
.record.removed { fill-opacity: 0.35; stroke-dasharray: 3 2; }
.record.saved-not-reused { stroke: #e02020; stroke-width: 3.5; }
.record-label { font-size: 11px; font-weight: bold; }
.record-sub { font-size: 10px; fill: #333; }
.marker { stroke: #8e5bd0; stroke-width: 3; }
.marker-label { font-size: 11px; fill: #6a3aa8; font-weight: bold; }
.read-range { fill: #2aa7a0; fill-opacity: 0.6; }
.read-range.rejected { fill: #e02020; }
.range-label { font-size: 11px; fill: #1d6f6a; }
.link { fill: none; stroke: #e02020; stroke-width: 2.5; stroke-dasharray: 7 4; }
.link-label { font-size: 12px; fill: #c00; font-weight: bold; }
.violation-tag { font-size: 11px; fill: #c00; font-weight: bold; }
.violation { font-size: 12px; fill: #b00; }
.legend { font-size: 11px; }
)";

// Text XML 1.0 can hold: control characters and, in text that is not
// UTF-8, every byte above 0x7f become '?' (an input key may hold anything).
std::string Xml(const std::string& text) {
  const bool utf8 = IsValidUtf8(text);
  std::string clean;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    clean += (byte < 0x20 && c != '\t') || (!utf8 && byte > 0x7f) || byte == 0x7f ? '?' : c;
  }
  return XmlEscape(clean);
}

std::string Points(const std::vector<int>& at) {
  DURASIM_CHECK_EQ(at.size() % 2, size_t{0});  // a polygon's corners are x,y pairs
  std::string out;
  for (size_t i = 0; i + 1 < at.size(); i += 2) out += fmt::format("{}{},{}", i == 0 ? "" : " ", at[i], at[i + 1]);
  return out;
}

std::string Attributes(const Shape& shape) {
  std::string out;
  if (!shape.id.empty()) out += fmt::format(" id=\"{}\"", Xml(shape.id));
  if (!shape.cls.empty()) out += fmt::format(" class=\"{}\"", Xml(shape.cls));
  return out;
}

std::string Element(const Shape& shape) {
  const std::vector<int>& a = shape.at;
  std::string open;
  std::string tag;
  switch (shape.kind) {
    case Shape::Kind::kRect:
      tag = "rect";
      DURASIM_CHECK(a.at(2) >= 0 && a.at(3) >= 0);  // SVG draws no rectangle of negative size
      open = fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", a.at(0), a.at(1), a.at(2), a.at(3));
      break;
    case Shape::Kind::kLine:
      tag = "line";
      open = fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"", a.at(0), a.at(1), a.at(2), a.at(3));
      break;
    case Shape::Kind::kCircle:
      tag = "circle";
      DURASIM_CHECK_GT(a.at(2), 0);
      open = fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\"", a.at(0), a.at(1), a.at(2));
      break;
    case Shape::Kind::kPolygon:
      tag = "polygon";
      open = fmt::format("<polygon points=\"{}\"", Points(a));
      break;
    case Shape::Kind::kPath:
      tag = "path";
      open = fmt::format("<path d=\"M {},{} C {},{} {},{} {},{}\"", a.at(0), a.at(1), a.at(2), a.at(3), a.at(4), a.at(5),
                         a.at(6), a.at(7));
      break;
    case Shape::Kind::kText:
      return fmt::format("<text x=\"{}\" y=\"{}\"{}{}>{}</text>\n", a.at(0), a.at(1),
                         shape.anchor.empty() || shape.anchor == "start"
                             ? std::string()
                             : fmt::format(" text-anchor=\"{}\"", shape.anchor),
                         Attributes(shape), Xml(shape.text));
  }
  open += Attributes(shape);
  if (shape.title.empty()) return open + "/>\n";
  return fmt::format("{}><title>{}</title></{}>\n", open, Xml(shape.title), tag);
}

}  // namespace

std::string RenderTimelineSvg(const TimelineLayout& layout) {
  DURASIM_CHECK(layout.width > 0 && layout.height > 0);  // the layout is at least its title and legend
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n<style>{2}</style>\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n",
      layout.width, layout.height, kStyle);
  for (const Shape& shape : layout.shapes) out += Element(shape);
  out += "</svg>\n";
  return out;
}

std::string RenderTimelineHtml(const TimelineLayout& layout, const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n"
      "<style>body {{ margin: 8px; background: #ffffff; }}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      Xml(title), RenderTimelineSvg(layout));
}

std::string RenderTimelineFor(const std::string& path, const TimelineLayout& layout, const std::string& title) {
  if (path.ends_with(".html") || path.ends_with(".htm")) return RenderTimelineHtml(layout, title);
  return RenderTimelineSvg(layout);
}

}  // namespace durasim
