#!/usr/bin/env python3
"""Issue 23's scaling benchmark: each hostile input doubled four times, run end to end through the
release `assay` binary (and ScalingProbe for nested models), instructions counted by callgrind
(stable on this shared host, unlike seconds) and peak memory by /usr/bin/time.

    Benchmarks/scaling.py [--bin DIR] [--cases a,b|redos|first-match] [--quick]

DIR holds `assay` and `ScalingProbe` (default .build/release, built first). For each case it prints
the instructions above an empty input's at each size, the growth exponent of the last doubling and
of a least-squares fit over all five sizes (1.0 = linear, 2.0 = quadratic), instructions per input
byte at the largest size, and the peak RSS there. A case that exceeds --limit seconds natively at a
size stops there (the old code's quadratic cases), and the row says so.
"""
import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def json_keys(n):
    """An object of n distinct keys k000001… that share length and first and last bytes in tens."""
    return "{" + ",".join('"k%07d":1' % i for i in range(n)) + "}\n"


def json_duplicates(n):
    return "{" + ",".join('"a":%d' % i for i in range(n)) + "}\n"


def error_excerpt(n):
    # One NDJSON line of n bytes of two-byte letters, not closed: the error's excerpt is built at the end.
    return '["' + "é" * (n // 2) + "\n"


def regex_class(n):
    # A `format: "regex"` instance: a class of n/12 ranges (\\uXXXX-\\uXXXX each, as JSON text).
    count = max(1, n // 28)
    ranges = "".join("\\\\u%04X-\\\\u%04X" % (0x4E00 + 4 * i, 0x4E01 + 4 * i) for i in range(count))
    return '"[' + ranges + ']"\n'


def counted_match(n):
    return '"' + "a" * n + 'y"\n'


def yaml_long_line(n):
    # One document of one plain scalar n bytes long: the stream reader searches it for a line break
    # as it arrives (issue 27), once.
    return "k: " + "x" * n + "\n"


def yaml_documents(n):
    # n/12 small documents, each cut from the stream and parsed on its own.
    return "".join("---\nk: %05d\n" % (i % 100000) for i in range(max(1, n // 14)))


def yaml_merge(n):
    # n/12 one-key mappings under anchors, all merged into one mapping by one `<<` of a sequence of
    # aliases: the document expands to twice its values, while each merged key was searched for
    # among every key merged before it.
    count = max(1, n // 24)
    lines = ["defs:"]
    lines += ["  - &a%d {k%d: %d}" % (i, i, i) for i in range(count)]
    lines.append("merged:")
    lines.append("  <<: [" + ", ".join("*a%d" % i for i in range(count)) + "]")
    return "\n".join(lines) + "\n"


# Issue 24's corpus of known ReDoS patterns (nested quantifiers, overlapping alternations, with and
# without lookarounds), each against a subject that makes a backtracking engine try every way to
# split it before failing: (name, pattern, the subject's repeated part, its end).
REDOS = [
    ("redos-nested-plus", "^(a+)+$", "a", "!"),
    ("redos-overlapping-alternation", "^(a|aa)+$", "a", "!"),
    ("redos-words", "^(\\w+\\s?)*$", "a", "!"),
    ("redos-dot-star-a", "^(.*a){12}$", "a", "!"),
    ("redos-email-owasp", "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}"
     "(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$", "a", "!"),
    ("redos-x-plus-x-plus", "(x+x+)+y", "x", ""),
    ("redos-lookahead-inside-loop", "^(?:(?=a)(a|aa))+$", "a", "!"),
    ("redos-lookahead-of-nested", "^(?=(a+)+b)", "a", ""),
    ("redos-lookbehind-in-loop", "^(?:a(?<=(a|aa)+))+$", "a", "!"),
    ("redos-negative-lookahead-star", "^(?:(?!x)(a|a?))*$", "a", "x"),
]


# The first match's range (LinearRegex.firstMatch, on the priority-ordered Pike VM): patterns whose
# quantifiers nest over bodies that can match nothing, lazy counted ones, lookarounds around loops.
FIRST_MATCH = [
    ("first-match-nested-nullable", "(?:(?:a?)*)*b", "a", "b"),
    ("first-match-lazy-counted", "(?:a|aa){0,40}?b", "a", "b"),
    ("first-match-lookarounds", "(?<=a)(?:a+)+?(?=b)", "a", "b"),
]


def first_match_subject(pattern, repeated, end):
    def generate(n):
        return json.dumps([pattern, repeated * (n - len(end)) + end]) + "\n"
    return generate


def redos_subject(repeated, end):
    def generate(n):
        return json.dumps(repeated * (n - len(end)) + end) + "\n"
    return generate


def backslash_run(n):
    # One string of n/2 escaped backslashes: the structural index's escape carry, the escapes' decoding.
    return '["' + "\\\\" * (n // 2) + '"]\n'


def escaped_quotes(n):
    # n/6 strings that are one escaped quote each: every quote in the text is escaped or ends a string.
    return "[" + ",".join(['"\\""'] * max(1, n // 6)) + "]\n"


def deep_arrays(n):
    # n/800 arrays 400 deep, side by side: the walk's open containers at their most, again and again.
    return "[" + ",".join(["[" * 400 + "]" * 400] * max(1, n // 801)) + "]\n"


def invalid_at_end(n):
    # A valid array of n/28 small objects, then a stray byte: indexed and walked in full, then read
    # again by the main loop, which reports the byte.
    return "[" + ",".join(['{"a":"bc","d":[1,2.5,true]}'] * max(1, n // 28)) + "]x\n"


def nested_arrays(innermost):
    def generate(n):
        return "[" * n + innermost + "]" * n + "\n"
    return generate


# Issue 25's hostile schemas: both alternatives of an anyOf lead back to the schema (2^depth paths
# without reusing verdicts), and an anyOf whose every level fails with the causes of the level below
# (an error of megabytes without a bound on nested causes).
DOUBLING_SCHEMA = json.dumps({"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}],
                              "$defs": {"a": {"type": "array", "items": {"$ref": "#"}}}})
CAUSES_SCHEMA = json.dumps({"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]})

def named_object(n, missing=None):
    """An object of the n names n0000000…, in the reverse order, with `missing` left out."""
    return "{" + ",".join('"n%07d":1' % i for i in reversed(range(n)) if i != missing) + "}"


def names_required(n):
    # The object holding every name, then one without the first (its error listed).
    return named_object(n) + "\n" + named_object(n, missing=0) + "\n"


def names_dependent(n):
    # The same two objects; the last name triggers the others (n - 1 of them).
    return named_object(n) + "\n" + named_object(n, missing=0) + "\n"


def required_schema(n):
    return json.dumps({"required": ["n%07d" % i for i in range(n)]})


def dependent_schema(n):
    return json.dumps({"dependentRequired": {"n%07d" % (n - 1): ["n%07d" % i for i in range(n - 1)]}})


CASES = {
    # name: (what, generator, sizes in units, unit name, schema (text, or made from the size),
    # extension, assay arguments)
    "schema-doubling": ("anyOf of two $refs back to the schema, arrays n deep (2^n paths)", nested_arrays("1"),
                        [60, 120, 240, 480, 960], "levels", DOUBLING_SCHEMA, "ndjson", []),
    "schema-nested-causes": ("anyOf failing at every level with the causes of the next, arrays n deep",
                             nested_arrays('"x"'), [60, 120, 240, 480, 960], "levels", CAUSES_SCHEMA, "ndjson",
                             []),
    "json-many-keys": ("JSON parse: one object of n keys sharing fingerprints", json_keys,
                       [12_500, 25_000, 50_000, 100_000, 200_000], "keys", "{}", "json", []),
    "json-duplicates": ("JSON parse: n copies of one key (reported at the second)", json_duplicates,
                        [3_125, 6_250, 12_500, 25_000, 50_000], "copies", "{}", "json", []),
    "json-backslash-run": ("JSON parse: one string of n/2 escaped backslashes", backslash_run,
                           [65_536, 131_072, 262_144, 524_288, 1_048_000], "bytes", "{}", "ndjson", []),
    "json-escaped-quotes": ("JSON parse: n/6 strings of one escaped quote", escaped_quotes,
                            [65_536, 131_072, 262_144, 524_288, 1_048_000], "bytes", "{}", "ndjson", []),
    "json-deep-arrays": ("JSON parse: arrays 400 deep side by side, n bytes", deep_arrays,
                         [65_536, 131_072, 262_144, 524_288, 1_048_000], "bytes", "{}", "ndjson", []),
    "json-invalid-at-end": ("JSON parse: n bytes of objects, then a stray byte (walked, then read again)",
                            invalid_at_end, [65_536, 131_072, 262_144, 524_288, 1_048_000], "bytes", "{}",
                            "ndjson", []),
    "ndjson-error-excerpt": ("NDJSON: an unclosed line of n bytes (the error's excerpt)", error_excerpt,
                             [4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20], "bytes", "{}", "ndjson", []),
    "regex-class": ('format: "regex": a class of n bytes compiled', regex_class,
                    [750, 1_500, 3_000, 6_000, 12_000], "bytes", '{"format": "regex"}', "ndjson", []),
    "regex-counted": ("pattern [^x]{0,99999}y against n characters", counted_match,
                      [1_000, 2_000, 4_000, 8_000, 16_000], "chars", '{"pattern": "[^x]{0,99999}y"}', "ndjson", []),
    "yaml-merge": ("YAML: one merge key (<<) of n/24 aliased mappings", yaml_merge,
                   [19_000, 37_500, 75_000, 150_000, 300_000], "bytes", "{}", "yaml", []),
    "yaml-long-line": ("YAML: one line of n bytes, read a document at a time", yaml_long_line,
                       [250_000, 500_000, 1_000_000, 2_000_000, 4_000_000], "bytes", "{}", "yaml", []),
    "yaml-documents": ("YAML: a stream of n/14 small documents", yaml_documents,
                       [25_000, 50_000, 100_000, 200_000, 400_000], "bytes", "{}", "yaml", []),
    "schema-required-names": ("required of n names, an object of them in reverse order and one missing a name",
                              names_required, [2_500, 5_000, 10_000, 20_000, 40_000], "names", required_schema,
                              "ndjson", []),
    "schema-dependent-required": ("dependentRequired of n - 1 names, the same two objects", names_dependent,
                                  [2_500, 5_000, 10_000, 20_000, 40_000], "names", dependent_schema, "ndjson",
                                  []),
    "nested-models": ("Validatable models nested n deep, the innermost bad, issues()", None,
                      [4, 8, 16, 32, 64], "levels", None, None, []),
}
for _name, _pattern, _repeated, _end in REDOS:
    CASES[_name] = ("pattern `%s` against %s…%s (n characters)" % (_pattern, _repeated * 3, _end),
                    redos_subject(_repeated, _end), [62_500, 125_000, 250_000, 500_000, 1_000_000], "chars",
                    json.dumps({"pattern": _pattern}), "ndjson", [])

for _name, _pattern, _repeated, _end in FIRST_MATCH:
    CASES[_name] = ("first match of `%s` in %s…%s (n characters)" % (_pattern, _repeated * 3, _end),
                    first_match_subject(_pattern, _repeated, _end), [62_500, 125_000, 250_000, 500_000, 1_000_000],
                    "chars", None, "jsonl", [])


def command(bin_dir, case, path, schema_path, size):
    if case == "nested-models":
        return [os.path.join(bin_dir, "ScalingProbe"), "nested", str(size)]
    if case.startswith("first-match"):
        return [os.path.join(bin_dir, "ScalingProbe"), "regex", path]
    args = [os.path.join(bin_dir, "assay"), "validate", "--schema", schema_path, "--quiet", "--jobs", "1",
            "--format", "json", path]
    return args + CASES[case][6]


def callgrind(cmd):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as handle:
            for line in handle:
                if line.startswith("summary:") or line.startswith("totals:"):
                    return int(line.split()[1])
    return None


def native(cmd, limit):
    """Seconds and peak RSS (KB), or None when it ran past `limit` seconds."""
    with tempfile.NamedTemporaryFile() as rss:
        start = time.time()
        # In a session of its own, so that a timeout stops the command and not only /usr/bin/time.
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return None
        seconds = time.time() - start
        return seconds, int(open(rss.name).read().split()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--sizes", help="comma-separated sizes for every case named (e.g. the 1 GB error line: "
                        "--cases ndjson-error-excerpt --sizes 62500000,125000000,250000000,500000000,1000000000)")
    arguments = parser.parse_args()
    if not arguments.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "assay"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["swift", "build", "-c", "release", "--product", "ScalingProbe"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    # valgrind cannot read the debug information of Swift 6.3's binaries: count on stripped copies.
    stripped = tempfile.mkdtemp(prefix="assay-scaling-")
    for name in ["assay", "ScalingProbe"]:
        subprocess.run(["strip", "--strip-debug", "-o", os.path.join(stripped, name),
                        os.path.join(arguments.bin, name)], check=True)
    arguments.bin = stripped
    print("| entry point | sizes | instructions above empty input, by size | exponent (last doubling) | exponent (fit) | instructions / unit at the largest | peak RSS at the largest |")
    print("|---|---|---|---:|---:|---:|---:|")
    names = arguments.cases.split(",")
    if names == ["redos"]:
        names = [name for name, _, _, _ in REDOS]
    if names == ["first-match"]:
        names = [name for name, _, _, _ in FIRST_MATCH]
    for case in names:
        what, generate, sizes, unit, schema, extension, _ = CASES[case]
        if arguments.sizes:
            sizes = [int(size) for size in arguments.sizes.split(",")]
        with tempfile.TemporaryDirectory() as folder:
            schema_path = os.path.join(folder, "schema.json")

            def write_schema(size):
                # A schema made from the size grows with the input (its compile counted too).
                if schema is not None:
                    open(schema_path, "w").write(schema(max(size, 1)) if callable(schema) else schema)

            write_schema(0)

            def path_for(size):
                if generate is None:
                    return None
                path = os.path.join(folder, "input-%d.%s" % (size, extension))
                with open(path, "w") as handle:
                    if extension == "jsonl":
                        handle.write(generate(max(size, 1)))
                    else:
                        handle.write(generate(size) if size > 0 else "{}\n")
                return path

            base = callgrind(command(arguments.bin, case, path_for(0) if generate else None, schema_path,
                                     0 if case == "nested-models" else 0))
            counts = []
            note = ""
            rss = None
            for size in sizes:
                path = path_for(size)
                write_schema(size)
                cmd = command(arguments.bin, case, path, schema_path, size)
                timed = native(cmd, arguments.limit)
                if timed is None:
                    note = " (stopped: over %d s natively at %d %s)" % (arguments.limit, size, unit)
                    break
                rss = timed[1]
                total = callgrind(cmd)
                counts.append((size, max(1, total - base)))
                if path:
                    os.remove(path)
        if len(counts) >= 2:
            last = math.log(counts[-1][1] / counts[-2][1], counts[-1][0] / counts[-2][0])
            xs = [math.log(s) for s, _ in counts]
            ys = [math.log(c) for _, c in counts]
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            fit = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        else:
            last = fit = float("nan")
        per = counts[-1][1] / counts[-1][0] if counts else float("nan")
        shown = ", ".join("%s: %.1f M" % (format(s, ","), c / 1e6) for s, c in counts)
        print("| %s | %s–%s %s | %s%s | %.2f | %.2f | %.1f | %s |" % (
            what, format(sizes[0], ","), format(sizes[-1], ","), unit, shown, note, last, fit, per,
            "%.1f MB" % (rss / 1024) if rss else "–"))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
