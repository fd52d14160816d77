#!/usr/bin/env python3
"""LinearRegex against V8 (node's RegExp with the `u` flag, the reference for ECMA-262): random
patterns — classes, property escapes, counted and lazy quantifiers, groups, alternations, anchors,
word boundaries, lookaheads and lookbehinds, nested — with random flags (`i`, `m`, `s`; none for
most), each against random inputs (ASCII, non-BMP, combining marks, case variants, line
terminators, empty). A pair agrees when both give the same verdict and, on a match, the same
first match (start and end, in scalars); every pair that differs is counted and shown; patterns V8
accepts and Assay refuses, or the reverse, are counted apart by reason.

    Benchmarks/regex_differential.py [PAIRS] [--seed N] [--bin DIR]   (default 1,000,000 pairs)

Needs `node` and the release ScalingProbe (`swift build -c release --product ScalingProbe`).
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALPHABET = ["a", "b", "c", "A", "B", "1", "2", " ", "-", ".", "_", "é", "e\u0301", "Ω", "ж", "😀", "\U00010400",
            "\n", "\u2028", "$", "/", "k", "K", "\u212A", "s", "\u017F", "ß", "\u1E9E", "σ", "ς", "\u0130", "\r",
            "\U00010428"]
LITERALS = ["a", "b", "c", "A", "1", " ", "-", "é", "Ω", "😀", "\\.", "\\/", "\\$", "\\u{1F600}", "\\u00e9",
            "\\x41", "\\n", "\\t", "\\&", "\\%", "{", "}", "]", "\\{", "\\]", "k", "s", "S", "ß", "Σ", "\\u212A",
            "i"]
CLASSES = [".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "[abc]", "[^a]", "[a-c]", "[^\\d\\s]", "[A-Za-z0-9_]",
           "\\p{Lu}", "\\p{L}", "\\P{L}", "\\p{Script=Greek}", "\\p{Nd}", "[\\p{Lu}\\d]", "[😀-\\u{1F64F}]",
           "[.-]", "[\\-a]", "[^]", "[\\b]", "[a-z]", "[^k]", "[^\\W]", "\\p{Ll}", "\\P{Lu}", "[\\s\\S]"]
FLAGS = ["i", "m", "s", "im", "is", "ms", "ims"]
ASSERTIONS = ["^", "$", "\\b", "\\B"]


def pattern(rng, depth=0):
    """A random pattern as text (now and then with an escape of ASCII punctuation that `u` mode
    refuses and Assay accepts by choice, or a lone brace that both refuse)."""
    alternatives = [sequence(rng, depth) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    return "|".join(alternatives)


def sequence(rng, depth):
    parts = []
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
        parts.append(term(rng, depth))
    return "".join(parts)


def term(rng, depth):
    roll = rng.random()
    if roll < 0.30:
        atom, quantifiable = rng.choice(LITERALS), True
    elif roll < 0.55:
        atom, quantifiable = rng.choice(CLASSES), True
    elif roll < 0.65:
        atom, quantifiable = rng.choice(ASSERTIONS), False
    elif roll < 0.82 and depth < 3:
        kind = rng.choice(["(", "(?:", "(?<g%d>" % rng.randrange(1000)])
        atom, quantifiable = kind + pattern(rng, depth + 1) + ")", True
    elif depth < 3:
        kind = rng.choice(["(?=", "(?!", "(?<=", "(?<!"])
        atom, quantifiable = kind + pattern(rng, depth + 1) + ")", False
    else:
        atom, quantifiable = rng.choice(LITERALS), True
    if quantifiable and rng.random() < 0.35:
        low = rng.randrange(4)
        quantifier = rng.choice(["*", "+", "?", "{%d}" % low, "{%d,}" % low, "{%d,%d}" % (low, low + rng.randrange(4))])
        if rng.random() < 0.25:
            quantifier += "?"
        atom += quantifier
    return atom


def subject(rng):
    # At most 13 scalars: V8 backtracks, and a random pattern of nested quantifiers can take it
    # exponential time in the input's length (Assay's own long inputs are in the scaling benchmark).
    return "".join(rng.choice(ALPHABET) for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 13])))


NODE = r"""
const fs = require('fs');
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n');
const out = [];
let last = null, regex = null, sticky = null, failure = null, rewritten = '';
for (const line of lines) {
  if (!line) continue;
  const [p, s, f] = JSON.parse(line);
  if (p + '/' + f !== last) {
    last = p + '/' + f; regex = null; failure = null;
    rewritten = '';
    try { regex = new RegExp(p, f + 'u'); sticky = new RegExp(p, f + 'uy'); } catch (e) { failure = 'E ' + e.message; }
    if (failure && failure.includes('Invalid escape')) {
      // \& and \% are the characters for Assay, by choice; V8's `u` mode refuses them: compare
      // with the pattern that spells them plainly.
      const plain = p.replace(/\\([&%])/g, '$1');
      try { regex = new RegExp(plain, f + 'u'); sticky = new RegExp(plain, f + 'uy'); failure = null; rewritten = 'r'; }
      catch (e) { failure = 'E ' + e.message; }
    }
  }
  if (failure) { out.push(failure); continue; }
  // The verdict by the standard: a match tried at every code point (RegExpBuiltinExec advances
  // lastIndex with AdvanceStringIndex). V8's own search also starts inside a surrogate pair, where
  // an assertion can hold that holds at no code point boundary: such pairs are marked "q".
  // The first match the standard finds: its start and end, counted in code points.
  let spec = false, range = '';
  for (let index = 0; index <= s.length && !spec; index++) {
    const unit = s.charCodeAt(index - 1);
    if (index > 0 && index < s.length && unit >= 0xD800 && unit <= 0xDBFF) {
      const next = s.charCodeAt(index);
      if (next >= 0xDC00 && next <= 0xDFFF) continue;
    }
    sticky.lastIndex = index;
    const found = sticky.exec(s);
    if (found) {
      spec = true;
      const start = [...s.slice(0, index)].length;
      range = ' ' + start + ' ' + (start + [...found[0]].length);
    }
  }
  const plain = regex.test(s);
  out.push((spec ? '1' : '0') + (plain === spec ? '' : 'q') + rewritten + range);
}
fs.writeFileSync(process.argv[3], out.join('\n') + '\n');
"""


def swift_literal(text):
    out = ""
    for character in text:
        if character in "\\\"":
            out += "\\" + character
        elif ord(character) < 0x20 or 0x7F <= ord(character) < 0xA0 or character in "\u2028\u2029":
            out += "\\u{%X}" % ord(character)
        else:
            out += character
    return '"' + out + '"'


def every_eighth(pairs, key):
    """Every eighth pattern (by `key`), in the order the pairs first give them."""
    patterns = []
    for pair in pairs:
        if not patterns or patterns[-1] != key(pair):
            patterns.append(key(pair))
    return set(patterns[::8])


def emit_swift(pairs, v8, count, seed):
    """Every eighth pattern's pairs (all its inputs) up to `count` pairs, V8's standard verdicts."""
    print("    // Benchmarks/regex_differential.py --seed %d --emit-swift %d (V8: node %s)" % (
        seed, count, subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()))
    print("    static let v8Sample: [(String, String, Bool?)] = [")
    emitted = 0
    chosen = every_eighth(pairs, lambda pair: pair[0])
    for (source, text, flags), verdict in zip(pairs, v8):
        if source not in chosen or verdict == "T" or emitted >= count or flags:
            continue
        verdict = verdict.split(" ")[0].rstrip("q")
        value = "nil" if verdict.startswith("E") else ("true" if verdict == "1" else "false")
        print("        (%s, %s, %s)," % (swift_literal(source), swift_literal(text), value))
        emitted += 1
    print("    ]")


def emit_swift_ranges(pairs, v8, count, seed):
    """Pairs of every eighth pattern that compiles (no documented rewrite), up to `count`, with their
    flags and V8's first match (scalar offsets) or `nil`."""
    print("    // Benchmarks/regex_differential.py --seed %d --emit-swift-ranges %d (V8: node %s)" % (
        seed, count, subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()))
    print("    static let v8FirstMatches: [(String, String, String, Range<Int>?)] = [")
    emitted = 0
    chosen = every_eighth(pairs, lambda pair: (pair[0], pair[2]))
    for (source, text, flags), verdict in zip(pairs, v8):
        head = verdict.split(" ")[0]
        if (source, flags) not in chosen or head not in ("0", "1") or emitted >= count:
            continue
        parts = verdict.split(" ")
        value = "%s..<%s" % (parts[1], parts[2]) if head == "1" else "nil"
        print("        (%s, %s, \"%s\", %s)," % (swift_literal(source), swift_literal(text), flags, value))
        emitted += 1
    print("    ]")


def run_v8(script, folder, pairs, timeout):
    """V8's verdicts, in chunks of pairs, each node run given `timeout` seconds: V8 backtracks, and
    a chunk that does not finish is split in two until the patterns that hang it are found; their
    pairs get the verdict `T` (V8 did not answer) and the patterns are returned."""
    verdicts = [None] * len(pairs)
    slow = []
    chunks = [(start, min(start + 20_000, len(pairs))) for start in range(0, len(pairs), 20_000)]
    while chunks:
        start, end = chunks.pop()
        data = os.path.join(folder, "chunk.jsonl")
        with open(data, "w") as handle:
            for pair in pairs[start:end]:
                handle.write(json.dumps(list(pair)) + "\n")
        out = os.path.join(folder, "v8.txt")
        try:
            subprocess.run(["node", script, data, out], check=True, timeout=timeout)
            verdicts[start:end] = open(out).read().split("\n")[:-1]
        except subprocess.TimeoutExpired:
            patterns = sorted(set((source, flags) for source, _, flags in pairs[start:end]))
            if len(patterns) == 1:
                slow.append(patterns[0])
                verdicts[start:end] = ["T"] * (end - start)
            else:
                # Split between patterns (pairs of one pattern are consecutive).
                middle = start + (end - start) // 2
                while middle > start and pairs[middle][::2] == pairs[middle - 1][::2]:
                    middle -= 1
                if middle == start:
                    middle = start + 1
                    while pairs[middle][::2] == pairs[start][::2]:
                        middle += 1
                chunks += [(start, middle), (middle, end)]
    return verdicts, slow


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pairs", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--inputs", type=int, default=8, help="inputs per pattern")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument("--emit-swift", type=int, default=0, metavar="N",
                        help="print N of the pairs with V8's verdicts as Swift test cases, and stop")
    parser.add_argument("--emit-swift-ranges", type=int, default=0, metavar="N",
                        help="print N of the pairs with their flags and V8's first matches as Swift test cases, and stop")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds for V8 on a chunk of pairs")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    pairs = []
    while len(pairs) < arguments.pairs:
        source = pattern(rng)
        flags = rng.choice(FLAGS) if rng.random() < 0.3 else ""
        for _ in range(arguments.inputs):
            pairs.append((source, subject(rng), flags))
    with tempfile.TemporaryDirectory() as folder:
        data = os.path.join(folder, "pairs.jsonl")
        with open(data, "w") as handle:
            for pair in pairs:
                handle.write(json.dumps(list(pair)) + "\n")
        script = os.path.join(folder, "v8.js")
        open(script, "w").write(NODE)
        v8, slow = run_v8(script, folder, pairs, arguments.timeout)
        with open(data) as handle:
            assay = subprocess.run([os.path.join(arguments.bin, "ScalingProbe"), "regex"], stdin=handle,
                                   capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    assert len(v8) == len(assay) == len(pairs), (len(v8), len(assay), len(pairs))
    if arguments.emit_swift:
        emit_swift(pairs, v8, arguments.emit_swift, arguments.seed)
        return
    if arguments.emit_swift_ranges:
        emit_swift_ranges(pairs, v8, arguments.emit_swift_ranges, arguments.seed)
        return
    agree = 0
    kinds = collections.Counter()
    examples = collections.defaultdict(list)
    quirks = 0
    documented = 0
    for (source, text, flags), theirs, ours in zip(pairs, v8, assay):
        if theirs == "T":
            continue
        verdict, _, range_ = theirs.partition(" ")
        if verdict.endswith("r"):
            documented += 1
            verdict = verdict[:-1]
        if verdict.endswith("q"):
            # V8's search found a match, or none, only by starting inside a surrogate pair (see
            # NODE): the standard's verdict, which Assay must give, is the other.
            quirks += 1
            verdict = verdict[:-1]
        theirs = verdict + (" " + range_ if range_ else "")
        if theirs == ours or (theirs.startswith("E") and ours.startswith("E syntax")):
            agree += 1
            continue
        if ours.startswith("E"):
            kind = "Assay refuses (%s), V8 compiles" % ours[2:]
        elif theirs.startswith("E"):
            kind = "V8 refuses (%s), Assay compiles" % theirs[2:].split(":")[-1].strip()
        elif theirs[0] == ours[0] == "1":
            kind = "first matches differ"
        else:
            kind = "verdicts differ (V8 %s, Assay %s)" % (theirs, ours)
        kinds[kind] += 1
        if len(examples[kind]) < arguments.examples:
            examples[kind].append(("/%s/%s" % (source, flags), text, theirs, ours))
    patterns = len(set((source, flags) for source, _, flags in pairs))
    differ = len(pairs) - agree - sum(1 for verdict in v8 if verdict == "T")
    print("%d pairs (%d patterns, seed %d): %d agree, %d differ" % (len(pairs), patterns, arguments.seed, agree,
                                                                    differ))
    matched = sum(1 for verdict in v8 if verdict.startswith("1") or verdict.startswith("0q"))
    print("(%d pairs match, where the first match's range is compared too; %d pairs have flags)" % (
        matched, sum(1 for _, _, flags in pairs if flags)))
    print("(compared with the standard's verdict; in %d pairs V8's own search differs from it by starting inside"
          " a surrogate pair)" % quirks)
    print("(%d pairs escape & or %% as \\& or \\%%, which `u` mode refuses and Assay reads as the character by choice:"
          " V8 ran them spelled plainly)" % documented)
    unanswered = sum(1 for verdict in v8 if verdict == "T")
    if slow:
        print("V8 did not answer %d pairs of %d patterns within %d s (backtracking; Assay answered them):"
              % (unanswered, len(slow), arguments.timeout))
        for source, flags in slow:
            print("    /%s/%s" % (json.dumps(source, ensure_ascii=False)[1:-1], flags))
    for kind, count in kinds.most_common():
        print("\n%s: %d" % (kind, count))
        for source, text, theirs, ours in examples[kind]:
            print("    %s    on %s    (V8 %s, Assay %s)" % (source, json.dumps(text, ensure_ascii=False), theirs, ours))
    sys.exit(0 if differ == 0 else 1)


if __name__ == "__main__":
    main()
