#!/usr/bin/env python3
"""House lint: the shape rules of docs/architecture.md "The house", measured.

  house.py ROOT            checks the floors under ROOT; prints each breach
                           as FILE:LINE: what, then the figures, and exits 1
                           on a breach, 0 otherwise
  house.py ROOT --figures  prints the figures only (exit 0)

The rules, on non-test sources (*.h, *.cc, not *_test.cc, not fuzz drivers):
  - no function body longer than FUNCTION_LINES_MAX lines (from the line of
    its opening brace to the line of its closing brace);
  - every floor holds at least CHECKS_PER_100_LINES_MIN DURASIM_CHECK* uses
    per 100 non-blank lines;
  - no include circle between the files of a floor (a .cc counts as its
    header: a.cc including b.h and b.cc including a.h is a circle).

A function is found the way this code base writes one: a line that opens a
brace after a closing parenthesis (a signature), outside a class body's
member list, with the body ending at the matching brace. Lambdas and local
classes count toward the function that holds them. Good enough to hold a
line; not a C++ parser.
"""
import pathlib
import re
import sys

FLOORS = ["store", "model", "properties", "sim"]
FUNCTION_LINES_MAX = 70
CHECKS_PER_100_LINES_MIN = 1.0
CHECK = re.compile(r"\bDURASIM_CHECK\w*\(")
SIGNATURE_END = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->\s*[\w:<>, ]+\s*)?\{\s*(//.*)?$")
CONTROL = re.compile(r"^\s*(\}\s*)?(if|for|while|switch|catch|else if|do)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root: pathlib.Path, floor: str):
    for path in sorted((root / floor).rglob("*")):
        if path.suffix not in (".h", ".cc") or path.name.endswith("_test.cc"):
            continue
        if "fuzz" in path.parts and path.name.startswith("libfuzzer_"):
            continue
        yield path


def strip_strings(line: str) -> str:
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split("//")[0]


def long_functions(path: pathlib.Path, root: pathlib.Path):
    lines = path.read_text(errors="replace").splitlines()
    depth = 0
    start = None  # (line number, depth before the brace) of the open function
    for number, raw in enumerate(lines, 1):
        line = strip_strings(raw)
        if start is None and SIGNATURE_END.search(raw.split("//")[0] + ("" if "//" not in raw else "")) \
                and not CONTROL.match(line) and "=" not in line.split("(")[0]:
            start = (number, depth)
        depth += line.count("{") - line.count("}")
        if start is not None and depth <= start[1]:
            length = number - start[0] + 1
            if length > FUNCTION_LINES_MAX:
                yield f"{path.relative_to(root)}:{start[0]}: function of {length} lines (at most {FUNCTION_LINES_MAX})"
            start = None


def floor_figures(root: pathlib.Path, floor: str):
    lines = checks = 0
    for path in sources(root, floor):
        text = path.read_text(errors="replace")
        lines += sum(1 for line in text.splitlines() if line.strip())
        checks += len(CHECK.findall(text))
    return lines, checks


def include_circles(root: pathlib.Path, floor: str):
    # unit: a path without its suffix; edges from every file of the unit
    edges: dict[str, set[str]] = {}
    for path in sources(root, floor):
        unit = str(path.relative_to(root).with_suffix(""))
        for raw in path.read_text(errors="replace").splitlines():
            match = INCLUDE.match(raw)
            if match and match.group(1).startswith(floor + "/"):
                target = str(pathlib.Path(match.group(1)).with_suffix(""))
                if target != unit:
                    edges.setdefault(unit, set()).add(target)
    circles, state = [], {}

    def visit(unit, stack):
        state[unit] = "open"
        for target in sorted(edges.get(unit, ())):
            if state.get(target) == "open":
                circles.append(" -> ".join(stack[stack.index(target):] + [target]))
            elif target not in state:
                visit(target, stack + [target])
        state[unit] = "done"

    for unit in sorted(edges):
        if unit not in state:
            visit(unit, [unit])
    return [f"{floor}: include circle {circle}" for circle in circles]


def main() -> int:
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--figures"):
        print("usage: house.py ROOT [--figures]", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    figures_only = len(sys.argv) == 3
    problems = []
    for floor in FLOORS:
        if not (root / floor).is_dir():
            continue
        for path in sources(root, floor):
            problems.extend(long_functions(path, root))
        problems.extend(include_circles(root, floor))
        lines, checks = floor_figures(root, floor)
        rate = 100.0 * checks / lines if lines else 0.0
        print(f"house: {floor}: {lines} non-blank lines, {checks} checks, {rate:.2f} per 100 lines")
        if rate < CHECKS_PER_100_LINES_MIN:
            problems.append(f"{floor}: {rate:.2f} checks per 100 lines (at least {CHECKS_PER_100_LINES_MIN})")
    if figures_only:
        for problem in problems:
            print(f"house: {problem}")
        return 0
    for problem in problems:
        print(problem)
    print(f"house: {len(problems)} breaches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
