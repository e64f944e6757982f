#!/usr/bin/env python3
"""Include-floor lint: a file includes its own floor (top-level folder) or a
lower one, never a higher one (docs/architecture.md).

  floors.py ROOT   checks every .h/.cc under ROOT's floor folders; prints
                   FILE:LINE: the offending include and exits 1 when one
                   breaks the rule, 0 otherwise.

Inside sim/, the rooms (docs/architecture.md "The rooms of sim/") obey the
same rule: a file includes its own room, a room before it, or sim/'s root
(what the rooms share); explore/ and fuzz/ stand side by side and include
neither the other; sim/main.cc, the dispatch, may include every room.

The build enforces the same rule (each target sees only the floors it
links); this lint names the line, and also sees headers no target compiles.

No folder inside a floor bears a floor's name: a failed check names its
file from the last such folder in the path (store/check.cc), however the
build spelt it.

fmt is included through store/format.h, which makes fmt::format_to and the
formatters call libfmt's formatting engine instead of compiling it again:
no file of the floors but that one includes fmt/format.h or fmt/core.h, and
a file that includes another fmt header (fmt/ranges.h) includes
store/format.h too.
"""
import pathlib
import re
import sys

FLOORS = ["store", "model", "properties", "sim"]  # ground floor first
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')
ROOM_INCLUDE = re.compile(r'^\s*#\s*include\s+"sim/([^"]+)"')
# sim/'s rooms, lowest first; rooms of one rank include neither the other.
ROOM_RANKS = {"scenario": 1, "run": 2, "view": 3, "explore": 4, "fuzz": 4, "cli": 5}
DISPATCH = "main.cc"  # sim/main.cc, above every room
FMT_HOME = "store/format.h"
FMT_INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]fmt/([^>"]+)[>"]')
FMT_HOME_INCLUDE = re.compile(r'^\s*#\s*include\s+"store/format\.h"')


def check(root: pathlib.Path) -> list[str]:
    problems = []
    for level, floor in enumerate(FLOORS):
        for path in sorted((root / floor).rglob("*")):
            if path.suffix not in (".h", ".cc"):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match or match.group(1) not in FLOORS:
                    continue
                target = match.group(1)
                if FLOORS.index(target) > level:
                    problems.append(f"{path.relative_to(root)}:{number}: floor {floor} includes higher floor "
                                    f"{target}: {line.strip()}")
    return problems


def check_folder_names(root: pathlib.Path) -> list[str]:
    problems = []
    for floor in FLOORS:
        for path in sorted((root / floor).rglob("*")):
            if path.is_dir() and path.name in FLOORS:
                problems.append(f"{path.relative_to(root)}/: a folder inside floor {floor} bears a floor's name")
    return problems


def room_of(relative: pathlib.PurePath) -> tuple[str, int]:
    """A path under sim/ -> (room, rank): "" and 0 for what the rooms share."""
    parts = relative.parts
    if len(parts) == 1:
        return ("main", 9) if parts[0] == DISPATCH else ("", 0)
    return parts[0], ROOM_RANKS.get(parts[0], 0)


def check_rooms(root: pathlib.Path) -> list[str]:
    problems = []
    sim = root / "sim"
    if not sim.is_dir():
        return problems
    for path in sorted(sim.rglob("*")):
        if path.suffix not in (".h", ".cc"):
            continue
        room, rank = room_of(path.relative_to(sim))
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = ROOM_INCLUDE.match(line)
            if not match:
                continue
            target, target_rank = room_of(pathlib.PurePath(match.group(1)))
            if target == room:
                continue
            if target_rank > rank or (target_rank == rank and target != room):
                problems.append(f"{path.relative_to(root)}:{number}: room sim/{room or '.'} includes room "
                                f"sim/{target or '.'}, not one before it: {line.strip()}")
    return problems


def check_fmt(root: pathlib.Path) -> list[str]:
    problems = []
    for floor in FLOORS:
        for path in sorted((root / floor).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.suffix not in (".h", ".cc") or relative == FMT_HOME:
                continue
            lines = path.read_text(errors="replace").splitlines()
            includes_home = any(FMT_HOME_INCLUDE.match(line) for line in lines)
            for number, line in enumerate(lines, 1):
                match = FMT_INCLUDE.match(line)
                if not match:
                    continue
                if match.group(1) in ("format.h", "core.h"):
                    problems.append(f"{relative}:{number}: fmt included past {FMT_HOME}: {line.strip()}")
                elif not includes_home:
                    problems.append(f"{relative}:{number}: fmt included without {FMT_HOME}: {line.strip()}")
    return problems


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: floors.py ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    if not all((root / floor).is_dir() for floor in FLOORS[:2]):
        print(f"floors.py: {root} has no store/ and model/ folders", file=sys.stderr)
        return 2
    problems = check(root) + check_rooms(root) + check_folder_names(root) + check_fmt(root)
    for problem in problems:
        print(problem)
    print(f"floors: {len(problems)} problem(s): includes from a lower floor or room to a higher one, "
          "folders named after a floor, fmt past store/format.h")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
