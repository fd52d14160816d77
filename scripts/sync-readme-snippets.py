#!/usr/bin/env python3
"""Copies the marked snippets of Sources/AssayExamples/ReadmeExamples.swift and DocCExamples.swift
(which the build compiles) and of Integrations/Examples/Snippets (which the Integrations build compiles) into README.md and the DocC articles (Sources/*/Documentation.docc/*.md, and the adapters' in Integrations/Sources),
replacing the ```swift block after each `<!-- snippet: NAME -->` marker.
Usage: scripts/sync-readme-snippets.py   (ReadmeTests fails when they differ)."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
snippets = {}
for name in ["Sources/AssayExamples/ReadmeExamples.swift", "Sources/AssayExamples/DocCExamples.swift",
             "Integrations/Examples/Snippets/HummingbirdSnippets.swift",
             "Integrations/Examples/Snippets/VaporSnippets.swift",
             "Integrations/Examples/Snippets/OpenAPISnippets.swift",
             "Integrations/Examples/NotesService/Sources/NotesService/NotesService.swift",
             "Integrations/Examples/ClientsService/Sources/ClientsService/ClientsService.swift"]:
    source = (root / name).read_text()
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

documents = [root / "README.md"] + sorted(root.glob("Sources/*/Documentation.docc/*.md")) + sorted(
    root.glob("Integrations/Sources/*/Documentation.docc/*.md"))
for document in documents:
    text = document.read_text()
    updated = re.sub(r"<!-- snippet: ([\w-]+) -->\n```swift\n.*?```\n", replace, text, flags=re.S)
    if updated != text:
        document.write_text(updated)
if missing:
    sys.exit(f"no snippet named {', '.join(missing)} in Sources/AssayExamples")

# Doc comments: a `/// <!-- snippet: NAME -->` line above a ```swift block, at the comment's indent.
def replace_in_comment(match):
    indent, name = match.group(1), match.group(2)
    if name not in snippets:
        missing.append(name)
        return match.group(0)
    lines = [f"{indent}///" + (f" {line}" if line else "") for line in snippets[name].rstrip("\n").split("\n")]
    return f"{indent}/// <!-- snippet: {name} -->\n{indent}/// ```swift\n" + "\n".join(lines) + f"\n{indent}/// ```\n"

for source in sorted(root.glob("Sources/*/**/*.swift")) + sorted(root.glob("Integrations/Sources/*/**/*.swift")):
    text = source.read_text()
    if "/// <!-- snippet: " not in text:
        continue
    updated = re.sub(
        r"^( *)/// <!-- snippet: ([\w-]+) -->\n\1/// ```swift\n(?:\1///.*\n)*?\1/// ```\n",
        replace_in_comment, text, flags=re.M)
    if updated != text:
        source.write_text(updated)
if missing:
    sys.exit(f"no snippet named {', '.join(missing)} in Sources/AssayExamples")
