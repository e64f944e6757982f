#!/usr/bin/env python3
"""Include-floor lint: a file includes its own floor (top-level folder) or a
lower one, never a higher one (docs/architecture.md).

  floors.py ROOT   checks every .h/.cc under ROOT's floor folders; prints
                   FILE:LINE: the offending include and exits 1 when one
                   breaks the rule, 0 otherwise.

The build enforces the same rule (each target sees only the floors it
links); this lint names the line, and also sees headers no target compiles.
"""
import pathlib
import re
import sys

FLOORS = ["store", "model", "properties", "sim"]  # ground floor first
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')


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


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: floors.py ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    if not all((root / floor).is_dir() for floor in FLOORS[:2]):
        print(f"floors.py: {root} has no store/ and model/ folders", file=sys.stderr)
        return 2
    problems = check(root)
    for problem in problems:
        print(problem)
    print(f"floors: {len(problems)} include(s) from a lower floor to a higher one")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
