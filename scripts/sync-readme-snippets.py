#!/usr/bin/env python3
"""Copies the marked snippets of Sources/AssayExamples/ReadmeExamples.swift and DocCExamples.swift
(which the build compiles) into README.md and the DocC articles (Sources/*/Documentation.docc/*.md),
replacing the ```swift block after each `<!-- snippet: NAME -->` marker.
Usage: scripts/sync-readme-snippets.py   (ReadmeTests fails when they differ)."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
snippets = {}
for name in ["ReadmeExamples.swift", "DocCExamples.swift"]:
    source = (root / "Sources/AssayExamples" / name).read_text()
    for match in re.finditer(r"^( *)// README: ([\w-]+)\n(.*?)^ *// README: end\n", source, re.S | re.M):
        indent = len(match.group(1))
        lines = [line[indent:] if line.strip() else "" for line in match.group(3).split("\n")]
        snippets[match.group(2)] = "\n".join(lines).rstrip() + "\n"

missing = []

def replace(match):
    name = match.group(1)
    if name not in snippets:
        missing.append(name)
        return match.group(0)
    return f"<!-- snippet: {name} -->\n```swift\n{snippets[name]}```\n"

documents = [root / "README.md"] + sorted(root.glob("Sources/*/Documentation.docc/*.md"))
for document in documents:
    text = document.read_text()
    updated = re.sub(r"<!-- snippet: ([\w-]+) -->\n```swift\n.*?```\n", replace, text, flags=re.S)
    if updated != text:
        document.write_text(updated)
if missing:
    sys.exit(f"no snippet named {', '.join(missing)} in Sources/AssayExamples")
