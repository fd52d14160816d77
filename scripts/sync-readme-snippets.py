#!/usr/bin/env python3
"""Copies the marked snippets of Sources/AssayExamples/ReadmeExamples.swift (which the build compiles)
into README.md, replacing the ```swift block after each `<!-- snippet: NAME -->` marker.
Usage: scripts/sync-readme-snippets.py   (ReadmeTests fails when the two differ)."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
source = (root / "Sources/AssayExamples/ReadmeExamples.swift").read_text()
snippets = {}
for match in re.finditer(r"^( *)// README: ([\w-]+)\n(.*?)^ *// README: end\n", source, re.S | re.M):
    indent = len(match.group(1))
    lines = [line[indent:] if line.strip() else "" for line in match.group(3).split("\n")]
    snippets[match.group(2)] = "\n".join(lines).rstrip() + "\n"

readme = (root / "README.md").read_text()
missing = []

def replace(match):
    name = match.group(1)
    if name not in snippets:
        missing.append(name)
        return match.group(0)
    return f"<!-- snippet: {name} -->\n```swift\n{snippets[name]}```\n"

readme = re.sub(r"<!-- snippet: ([\w-]+) -->\n```swift\n.*?```\n", replace, readme, flags=re.S)
(root / "README.md").write_text(readme)
if missing:
    sys.exit(f"no snippet named {', '.join(missing)} in ReadmeExamples.swift")
