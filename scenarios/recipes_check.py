#!/usr/bin/env python3
"""Strategy: the recipes at the top of docs/scenarios.md are the files CI
runs. Each ```yaml block of the "## Recipes" section follows a line naming
`scenarios/fast/<file>`; the block must be that file, word for word, and
every scenarios/fast/recipe_*.yaml must have its block.

  recipes_check.py REPO_ROOT
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
text = (root / "docs" / "scenarios.md").read_text()
section = re.search(r"^## Recipes\n(.*?)^## ", text, re.S | re.M)
if not section:
    sys.exit("docs/scenarios.md has no '## Recipes' section")
blocks = re.findall(r"`(scenarios/fast/recipe_[a-z_]+\.yaml)`:\n\n```yaml\n(.*?)\n```", section.group(1), re.S)
problems = []
for name, body in blocks:
    path = root / name
    if not path.is_file():
        problems.append(f"{name}: named in docs/scenarios.md, no such file")
    elif path.read_text().rstrip("\n") != body:
        problems.append(f"{name}: its block in docs/scenarios.md differs from the file")
named = {name for name, _ in blocks}
for path in sorted((root / "scenarios" / "fast").glob("recipe_*.yaml")):
    if f"scenarios/fast/{path.name}" not in named:
        problems.append(f"scenarios/fast/{path.name}: no block in the Recipes section of docs/scenarios.md")
for problem in problems:
    print("FAIL:", problem)
if problems or not blocks:
    sys.exit(1)
print(f"recipes: {len(blocks)} blocks match their files")
