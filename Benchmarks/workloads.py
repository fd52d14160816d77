#!/usr/bin/env python3
"""Assay against its peers on six workloads of different shapes, in one run on one machine.

    Benchmarks/workloads.py [--records N] [--only a,b] [--runs 3] [--bin DIR] [--assay PATH] [--blaze PATH]
                            [--venv DIR] [--parse-only]

Workloads (each generated here, deterministically, about 5% of records invalid in ways each schema
catches), with the schema written beside the data in ${TMPDIR:-/tmp}/assay-workloads:

  clients   the shared benchmark's client records (../shared/bench/gen_data.py, client.schema.json)
  geo       a GeoJSON-like Feature whose geometry is a `oneOf` of Point, LineString, Polygon, MultiPoint
  tree      a recursive `$ref` tree of nodes (name, size, tags, children), up to 6 levels
  events    a log event with 15 `pattern`s and the uri, ipv4, uuid, date-time, email and hostname formats
  numeric   long numeric arrays with `multipleOf`, bounds and `uniqueItems`
  config    a configuration with `if`/`then`/`else`, `dependentSchemas` and `unevaluatedProperties`

Measured per workload, formats asserted everywhere (Assay's CLI default, jsonschema-rs
`validate_formats=True`, Blaze `--format-assertion`), all on one core:

  assay         the release `assay validate --jobs 1 --format json` end to end from the file (median
                of --runs runs, peak RSS)
  assay-valid.  AssayBench schema-validate-document: validation alone of pre-parsed documents, all errors
  rs-iter       orjson.loads + jsonschema-rs `iter_errors` (all errors collected), per line, in process
  rs-valid      orjson.loads + jsonschema-rs `is_valid`
  rs-only       jsonschema-rs `iter_errors` on pre-parsed objects (validation alone)
  blaze         Blaze's CLI `jsonschema validate --fast --continue --format-assertion` on the JSONL
                file, end to end (its process start and schema compile included, as assay's are)
  blaze-valid.  Blaze's own validation time (`--benchmark --loop 3`: per instance, parsed, then
                evaluated three times in a row; the sum of the means it reports), where it prints one
  assay-each    AssayBench schema-is-valid-each: Assay's validation timed the same way (per record,
                parsed, then `isValid` three times in a row, the sum of the means), the verdict alone
                as Blaze's `--fast` gives it: the like-for-like figure for Blaze's own validation

Prints one markdown table per run (records/s and Assay's ratio to each peer) for docs/performance.md.
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
PIN = ["taskset", "-c", "1"] if subprocess.run(["which", "taskset"], capture_output=True).returncode == 0 else []

# ---------------------------------------------------------------------------------------------- data

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma".split()


def word(r):
    return r.choice(WORDS)


GEO_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["type", "id", "geometry", "properties"],
    "additionalProperties": False,
    "properties": {
        "type": {"const": "Feature"},
        "id": {"type": "integer", "minimum": 0},
        "geometry": {"oneOf": [{"$ref": "#/$defs/point"}, {"$ref": "#/$defs/line"},
                               {"$ref": "#/$defs/polygon"}, {"$ref": "#/$defs/multipoint"}]},
        "properties": {"type": "object", "required": ["name"],
                       "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 64},
                                      "population": {"type": "integer", "minimum": 0},
                                      "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 8}}},
    },
    "$defs": {
        "position": {"type": "array", "minItems": 2, "maxItems": 3,
                     "prefixItems": [{"type": "number", "minimum": -180, "maximum": 180},
                                     {"type": "number", "minimum": -90, "maximum": 90}],
                     "items": {"type": "number"}},
        "point": {"type": "object", "required": ["type", "coordinates"], "additionalProperties": False,
                  "properties": {"type": {"const": "Point"}, "coordinates": {"$ref": "#/$defs/position"}}},
        "line": {"type": "object", "required": ["type", "coordinates"], "additionalProperties": False,
                 "properties": {"type": {"const": "LineString"},
                                "coordinates": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/position"}}}},
        "ring": {"type": "array", "minItems": 4, "items": {"$ref": "#/$defs/position"}},
        "polygon": {"type": "object", "required": ["type", "coordinates"], "additionalProperties": False,
                    "properties": {"type": {"const": "Polygon"},
                                   "coordinates": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/ring"}}}},
        "multipoint": {"type": "object", "required": ["type", "coordinates"], "additionalProperties": False,
                       "properties": {"type": {"const": "MultiPoint"},
                                      "coordinates": {"type": "array", "items": {"$ref": "#/$defs/position"}}}},
    },
}


def geo_record(r, i, bad):
    def pos():
        return [round(r.uniform(-180, 180), 6), round(r.uniform(-90, 90), 6)]
    kind = r.choice(["Point", "LineString", "Polygon", "MultiPoint"])
    if kind == "Point":
        geometry = {"type": "Point", "coordinates": pos()}
    elif kind == "LineString":
        geometry = {"type": "LineString", "coordinates": [pos() for _ in range(r.randint(2, 12))]}
    elif kind == "Polygon":
        ring = [pos() for _ in range(r.randint(3, 10))]
        geometry = {"type": "Polygon", "coordinates": [ring + [ring[0]]]}
    else:
        geometry = {"type": "MultiPoint", "coordinates": [pos() for _ in range(r.randint(1, 8))]}
    record = {"type": "Feature", "id": i, "geometry": geometry,
              "properties": {"name": word(r) + " " + word(r), "population": r.randint(0, 10**7),
                             "tags": [word(r) for _ in range(r.randint(0, 4))]}}
    if bad:
        flaw = r.randrange(4)
        if flaw == 0:
            geometry["type"] = "Circle"
        elif flaw == 1:
            (geometry["coordinates"] if kind == "Point" else geometry["coordinates"][0] if kind != "Polygon"
             else geometry["coordinates"][0][0])[1] = 123.5
        elif flaw == 2:
            del record["properties"]["name"]
        else:
            record["extra"] = True
    return record


TREE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$ref": "#/$defs/node",
    "$defs": {
        "node": {"type": "object", "required": ["name", "size"], "additionalProperties": False,
                 "properties": {"name": {"type": "string", "pattern": "^[a-z]+(-[0-9]+)?$", "maxLength": 32},
                                "size": {"type": "integer", "minimum": 0},
                                "tags": {"type": "array", "items": {"enum": WORDS}, "uniqueItems": True},
                                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}},
    },
}


def tree_node(r, depth, bad_at):
    node = {"name": word(r) + "-" + str(r.randint(0, 99)), "size": r.randint(0, 5000)}
    if r.random() < 0.5:
        node["tags"] = r.sample(WORDS, r.randint(1, 3))
    if depth < 5 and r.random() < 0.8:
        node["children"] = [tree_node(r, depth + 1, bad_at) for _ in range(r.randint(1, 3 if depth < 3 else 2))]
    return node


def tree_record(r, i, bad):
    root = tree_node(r, 0, None)
    if bad:
        target = root
        while "children" in target and r.random() < 0.7:
            target = r.choice(target["children"])
        flaw = r.randrange(3)
        if flaw == 0:
            target["size"] = -1
        elif flaw == 1:
            target["name"] = "Bad Name"
        else:
            target["colour"] = "red"
    return root


EVENT_PATTERNS = {
    "service": "^[a-z][a-z0-9-]{2,30}$",
    "region": "^(us|eu|ap)-(north|south|east|west|central)-[1-9]$",
    "version": "^v?(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$",
    "trace_id": "^[0-9a-f]{32}$",
    "span_id": "^[0-9a-f]{16}$",
    "level": "^(DEBUG|INFO|WARN|ERROR|FATAL)$",
    "method": "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$",
    "path": "^(/[A-Za-z0-9._~-]+)+/?$",
    "status_class": "^[1-5]xx$",
    "user_agent": "^[A-Za-z]+/[0-9.]+( \\([^)]*\\))?",
    "code": "^[A-Z]{3}-[0-9]{4}$",
    "tenant": "^t_[a-z0-9]{8}$",
    "session": "^[A-Za-z0-9_-]{22}$",
    "mime": "^[a-z]+/[a-z0-9.+-]+$",
    "locale": "^[a-z]{2}(-[A-Z]{2})?$",
}


def events_schema():
    properties = {name: {"type": "string", "pattern": pattern} for name, pattern in EVENT_PATTERNS.items()}
    properties.update({
        "timestamp": {"type": "string", "format": "date-time"},
        "url": {"type": "string", "format": "uri"},
        "client_ip": {"type": "string", "format": "ipv4"},
        "request_id": {"type": "string", "format": "uuid"},
        "user_email": {"type": "string", "format": "email"},
        "host": {"type": "string", "format": "hostname"},
        "status": {"type": "integer", "minimum": 100, "maximum": 599},
        "latency_ms": {"type": "number", "minimum": 0},
    })
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "required": sorted(properties), "additionalProperties": False, "properties": properties}


def hexs(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def event_record(r, i, bad):
    status = r.choice([200, 200, 200, 201, 204, 301, 404, 500])
    record = {
        "service": r.choice(["checkout", "search-api", "auth", "billing-worker"]),
        "region": r.choice(["us", "eu", "ap"]) + "-" + r.choice(["north", "east", "west"]) + "-" + str(r.randint(1, 3)),
        "version": f"{r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}" + r.choice(["", "-rc.1"]),
        "trace_id": hexs(r, 32), "span_id": hexs(r, 16),
        "level": r.choice(["INFO", "INFO", "WARN", "ERROR", "DEBUG"]),
        "method": r.choice(["GET", "POST", "PUT", "DELETE"]),
        "path": "/" + "/".join(word(r) for _ in range(r.randint(1, 4))),
        "status_class": f"{status // 100}xx",
        "user_agent": r.choice(["Mozilla/5.0 (X11; Linux x86_64)", "curl/8.4.0", "okhttp/4.12.0"]),
        "code": "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(3)) + f"-{r.randint(0, 9999):04d}",
        "tenant": "t_" + hexs(r, 8),
        "session": "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(22)),
        "mime": r.choice(["application/json", "text/html", "image/png"]),
        "locale": r.choice(["en", "en-US", "fr-FR", "ja"]),
        "timestamp": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d}Z",
        "url": f"https://{word(r)}.example.com/{word(r)}?q={word(r)}&page={r.randint(1, 9)}",
        "client_ip": ".".join(str(r.randint(1, 254)) for _ in range(4)),
        "request_id": f"{hexs(r, 8)}-{hexs(r, 4)}-4{hexs(r, 3)}-a{hexs(r, 3)}-{hexs(r, 12)}",
        "user_email": f"{word(r)}.{word(r)}{r.randint(1, 99)}@{word(r)}.example.org",
        "host": f"{word(r)}-{r.randint(1, 40)}.{r.choice(['prod', 'stage'])}.example.net",
        "status": status, "latency_ms": round(r.expovariate(1 / 40), 3),
    }
    if bad:
        field, value = r.choice([("client_ip", "300.1.2.3"), ("timestamp", "2026-02-30T10:00:00Z"),
                                 ("trace_id", hexs(r, 31)), ("region", "mars-east-1"), ("url", "not a uri"),
                                 ("request_id", "1234"), ("status", 700), ("level", "NOTICE")])
        record[field] = value
    return record


NUMERIC_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "required": ["sensor", "readings", "ids", "weights"], "additionalProperties": False,
    "properties": {
        "sensor": {"type": "string", "maxLength": 16},
        "readings": {"type": "array", "minItems": 1, "maxItems": 500,
                     "items": {"type": "number", "multipleOf": 0.01, "minimum": -1000, "maximum": 1000}},
        "ids": {"type": "array", "uniqueItems": True, "items": {"type": "integer", "minimum": 0}},
        "weights": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}},
    },
}


def numeric_record(r, i, bad):
    record = {"sensor": f"s-{i % 1000}",
              "readings": [round(r.uniform(-999, 999), 2) for _ in range(r.randint(100, 300))],
              "ids": r.sample(range(10**6), r.randint(20, 80)),
              "weights": [round(r.uniform(0.001, 1), 4) for _ in range(r.randint(10, 40))]}
    if bad:
        flaw = r.randrange(3)
        if flaw == 0:
            record["readings"][r.randrange(len(record["readings"]))] = 12.345
        elif flaw == 1:
            record["ids"].append(record["ids"][0])
        else:
            record["weights"][0] = 0
    return record


CONFIG_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "required": ["name", "kind"],
    "properties": {"name": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                   "kind": {"enum": ["database", "cache", "queue"]},
                   "replicas": {"type": "integer", "minimum": 1, "maximum": 64},
                   "tls": {"type": "boolean"}},
    "allOf": [
        {"if": {"properties": {"kind": {"const": "database"}}},
         "then": {"required": ["engine", "pool"],
                  "properties": {"engine": {"enum": ["postgres", "mysql", "sqlite"]},
                                 "pool": {"type": "object", "required": ["min", "max"],
                                          "properties": {"min": {"type": "integer", "minimum": 0},
                                                         "max": {"type": "integer", "minimum": 1}},
                                          "unevaluatedProperties": False}}},
         "else": {"if": {"properties": {"kind": {"const": "cache"}}},
                  "then": {"required": ["ttl"], "properties": {"ttl": {"type": "integer", "minimum": 1},
                                                               "eviction": {"enum": ["lru", "lfu"]}}},
                  "else": {"required": ["topic"], "properties": {"topic": {"type": "string", "minLength": 1},
                                                                 "partitions": {"type": "integer"}}}}},
    ],
    "dependentSchemas": {"tls": {"required": ["certificate"],
                                 "properties": {"certificate": {"type": "string", "minLength": 10},
                                                "key_file": {"type": "string"}}}},
    "unevaluatedProperties": False,
}


def config_record(r, i, bad):
    kind = r.choice(["database", "cache", "queue"])
    record = {"name": f"{word(r)}_{i}", "kind": kind, "replicas": r.randint(1, 8)}
    if kind == "database":
        record.update({"engine": r.choice(["postgres", "mysql"]), "pool": {"min": 1, "max": r.randint(2, 50)}})
    elif kind == "cache":
        record.update({"ttl": r.randint(1, 3600), "eviction": r.choice(["lru", "lfu"])})
    else:
        record.update({"topic": word(r) + ".events", "partitions": r.randint(1, 32)})
    if r.random() < 0.5:
        record.update({"tls": True, "certificate": "/etc/ssl/" + word(r) + ".pem"})
    if bad:
        flaw = r.randrange(4)
        if flaw == 0:
            record["unexpected"] = 1
        elif flaw == 1:
            record["tls"] = True
            record.pop("certificate", None)
        elif flaw == 2 and kind == "database":
            record["pool"]["idle"] = 3
        else:
            record["kind"] = "stream"
    return record


WORKLOADS = {
    "geo": (GEO_SCHEMA, geo_record),
    "tree": (TREE_SCHEMA, tree_record),
    "events": (events_schema(), event_record),
    "numeric": (NUMERIC_SCHEMA, numeric_record),
    "config": (CONFIG_SCHEMA, config_record),
}


def generate(name, records, folder):
    """(schema path, data path) of a workload, generated once per size."""
    data = os.path.join(folder, f"{name}-{records}.ndjson")
    schema = os.path.join(folder, f"{name}.schema.json")
    if name == "clients":
        source = os.path.join(folder, f"clients-{records}.ndjson")
        if not os.path.exists(source):
            subprocess.run([sys.executable, os.path.join(SHARED, "bench", "gen_data.py"), "--records", str(records),
                            "--out", folder], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(SHARED, "bench", "client.schema.json")) as f, open(schema, "w") as out:
            out.write(f.read())
        return schema, source
    shape, make = WORKLOADS[name]
    with open(schema, "w") as f:
        json.dump(shape, f)
    if not os.path.exists(data):
        r = random.Random(f"{name}-{records}")
        with open(data, "w") as f:
            for i in range(records):
                f.write(json.dumps(make(r, i, r.random() < 0.05), separators=(",", ":")) + "\n")
    return schema, data


# ----------------------------------------------------------------------------------------- runners

PEER = r'''
import sys, time, statistics, orjson, jsonschema_rs
schema_path, data_path, runs, formats = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "assert"
with open(schema_path, "rb") as f: schema = orjson.loads(f.read())
with open(data_path, "rb") as f: lines = f.read().splitlines()
validator = jsonschema_rs.validator_for(schema, validate_formats=formats)
parsed = [orjson.loads(line) for line in lines]
def iter_errors():
    invalid = 0
    for line in lines:
        if list(validator.iter_errors(orjson.loads(line))): invalid += 1
    return invalid
def is_valid():
    return sum(1 for line in lines if not validator.is_valid(orjson.loads(line)))
def only():
    return sum(1 for value in parsed if list(validator.iter_errors(value)))
for name, case in (("rs-iter", iter_errors), ("rs-valid", is_valid), ("rs-only", only)):
    case()
    times = []
    for _ in range(runs):
        start = time.perf_counter(); invalid = case(); times.append(time.perf_counter() - start)
    print(name, statistics.median(times), invalid)
'''


PARSE_ONLY = r'''
import orjson, statistics, sys, time
path, runs = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(runs):
    start = time.perf_counter()
    with open(path, "rb") as lines:
        for line in lines:
            orjson.loads(line)
    times.append(time.perf_counter() - start)
print(statistics.median(times))
'''


def measure(command, runs):
    """Median seconds and the largest peak RSS (MB) of `command` over `runs` runs."""
    times, peaks = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile() as rss:
            start = time.perf_counter()
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + PIN + command,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
            peaks.append(int(open(rss.name).read().split()[-1]) / 1024)
    return statistics.median(times), max(peaks)


def blaze_jsonl(data):
    """The data under a `.jsonl` name (a hard link): Blaze reads JSONL only by that extension."""
    path = data[:-len(".ndjson")] + ".jsonl"
    if not os.path.exists(path):
        os.link(data, path)
    return path


def blaze_formats(formats):
    return ["--format-assertion"] if formats == "assert" else []


def blaze_invalid(blaze, schema, data, formats):
    """How many instances Blaze finds invalid (its `N validated, P passed, F failed` line)."""
    run = subprocess.run([blaze, "validate", "--fast", "--continue"] + blaze_formats(formats) + [schema, data],
                         capture_output=True, text=True)
    match = re.search(r"(\d+) validated, (\d+) passed, (\d+) failed", run.stdout + run.stderr)
    return int(match.group(3)) if match else None


def blaze_validation(blaze, schema, data, formats):
    """Blaze's own validation time: the sum over instances of the mean it reports per instance in
    `--benchmark` mode (`PASS 0.751 +- 0.313 us`), or None."""
    run = subprocess.run(PIN + [blaze, "validate", "--fast", "--continue"] + blaze_formats(formats)
                         + ["--benchmark", "--loop", "3", schema, data], capture_output=True, text=True)
    total = 0.0
    found = 0
    for line in (run.stdout + run.stderr).splitlines():
        match = re.search(r"(?:PASS|FAIL) ([0-9.]+) \+- [0-9.]+ (s|ms|us|ns)\b", line)
        if match:
            total += float(match.group(1)) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[match.group(2)]
            found += 1
    return total if found else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--only", default="clients,geo,tree,events,numeric,config")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--assay", help="the assay binary to run (default: BIN/assay; scripts/build-assay.sh "
                        "builds the self-contained one the figures in docs/performance.md come from)")
    parser.add_argument("--blaze", default=os.path.join(tempfile.gettempdir(), "blaze", "lib", "python3.11",
                                                         "site-packages", "sourcemeta_jsonschema",
                                                         "jsonschema-linux-x86_64"))
    parser.add_argument("--venv", default=os.path.join(tempfile.gettempdir(), "assay-bench-venv"))
    parser.add_argument("--generate-only", action="store_true")
    parser.add_argument("--parse-only", action="store_true",
                        help="instead: parsing alone, `assay validate` with the schema `true` (process start and "
                        "its report of each line included) against orjson reading and loading each line in "
                        "process, medians of --runs")
    parser.add_argument("--jsb", help="instead of the workloads: the cases of a jsonschema-benchmark `schemas` "
                        "folder (each SCHEMA/schema.json with SCHEMA/instances.jsonl), formats as annotations as "
                        "that benchmark has them")
    arguments = parser.parse_args()
    folder = os.path.join(tempfile.gettempdir(), "assay-workloads")
    os.makedirs(folder, exist_ok=True)
    python = os.path.join(arguments.venv, "bin", "python")
    have_blaze = os.path.exists(arguments.blaze)
    rows = []
    cases = []
    if arguments.jsb:
        for name in sorted(os.listdir(arguments.jsb)):
            instances = os.path.join(arguments.jsb, name, "instances.jsonl")
            if os.path.exists(instances):
                data = os.path.join(folder, "jsb-%s.ndjson" % name)
                if not os.path.exists(data):
                    os.link(instances, data)
                cases.append((name, os.path.join(arguments.jsb, name, "schema.json"), data, "annotate"))
    else:
        for name in arguments.only.split(","):
            schema, data = generate(name, arguments.records, folder)
            cases.append((name, schema, data, "assert"))
    if arguments.parse_only:
        accept_all = os.path.join(folder, "true.schema.json")
        with open(accept_all, "w") as out:
            out.write("true")
        print("| workload | MB | assay, ms | orjson read + loads, ms | ratio |")
        print("|---|---:|---:|---:|---:|")
        for name, _, data, _ in cases:
            ours, _ = measure([arguments.assay or os.path.join(arguments.bin, "assay"), "validate", "--jobs", "1",
                               "--quiet", "--format", "json", "--schema", accept_all, data], arguments.runs)
            theirs = float(subprocess.run(PIN + [python, "-c", PARSE_ONLY, data, str(arguments.runs)],
                                          capture_output=True, text=True, check=True).stdout)
            print(f"| {name} | {os.path.getsize(data) / 1e6:.1f} | {ours * 1000:.1f} | {theirs * 1000:.1f} | "
                  f"{theirs / ours:.2f}× |", flush=True)
        return
    for name, schema, data, formats in cases:
        if arguments.generate_only:
            print(name, schema, data)
            continue
        records = sum(1 for _ in open(data))
        size = os.path.getsize(data) / 1e6
        result = {"name": name, "records": records, "mb": size}
        result["assay"], result["assay_rss"] = measure(
            [arguments.assay or os.path.join(arguments.bin, "assay"), "validate", "--jobs", "1", "--quiet", "--format", "json",
             "--formats", formats, "--schema", schema, data], arguments.runs)
        bench = subprocess.run(PIN + [os.path.join(arguments.bin, "AssayBench"), "schema-validate-document", data,
                                      schema], capture_output=True, text=True,
                               env=dict(os.environ, ASSAY_BENCH_FORMATS=formats))
        match = re.search(r"loop_seconds=([0-9.]+).*failures=([0-9]+)", bench.stdout)
        result["assay_only"] = float(match.group(1)) if match else None
        result["assay_invalid"] = int(match.group(2)) if match else None
        each = subprocess.run(PIN + [os.path.join(arguments.bin, "AssayBench"), "schema-is-valid-each", data,
                                     schema], capture_output=True, text=True,
                              env=dict(os.environ, ASSAY_BENCH_FORMATS=formats, ASSAY_BENCH_LOOP="3"))
        match = re.search(r"loop_seconds=([0-9.]+)", each.stdout)
        result["assay_each"] = float(match.group(1)) if match else None
        if result["assay_invalid"] is None:
            # Without AssayBench: the CLI's own count, from its summary line (one more run, untimed).
            counted = subprocess.run(
                [arguments.assay or os.path.join(arguments.bin, "assay"), "validate", "--jobs", "1", "--format",
                 "json", "--results", os.devnull, "--formats", formats, "--schema", schema, data],
                capture_output=True, text=True)
            summary = re.search(r"([0-9]+) documents?, ([0-9]+) invalid", counted.stderr)
            result["assay_invalid"] = int(summary.group(2)) if summary else None
        peer = subprocess.run(PIN + [python, "-c", PEER, schema, data, str(arguments.runs), formats],
                              capture_output=True, text=True)
        for line in peer.stdout.splitlines():
            case, seconds, invalid = line.split()
            result[case] = float(seconds)
            result[case + "_invalid"] = int(invalid)
        if peer.returncode != 0:
            print(f"{name}: the Python peer failed: {peer.stderr.strip()[-300:]}", file=sys.stderr)
        if have_blaze:
            jsonl = blaze_jsonl(data)
            result["blaze"], result["blaze_rss"] = measure(
                [arguments.blaze, "validate", "--fast", "--continue"] + blaze_formats(formats) + [schema, jsonl],
                arguments.runs)
            result["blaze_invalid"] = blaze_invalid(arguments.blaze, schema, jsonl, formats)
            result["blaze_only"] = blaze_validation(arguments.blaze, schema, jsonl, formats)
        rows.append(result)
        print(json.dumps(result), file=sys.stderr)
    if not rows:
        return

    def rate(row, key):
        return row["records"] / row[key] if row.get(key) else None

    def cell(value):
        return f"{value:,.0f}" if value else "–"

    def ratio(row, ours, theirs):
        return f"{row[theirs] / row[ours]:.2f}×" if row.get(ours) and row.get(theirs) else "–"

    print("| workload | records (MB) | assay end to end, rec/s (peak MB) | vs rs iter_errors | vs rs is_valid "
          "| vs Blaze --fast | assay validation alone, rec/s | vs rs alone | assay timed as Blaze times, rec/s "
          "| vs Blaze's own validation | invalid (assay / rs / Blaze) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        print(f"| {row['name']} | {row['records']:,} ({row['mb']:.1f}) | {cell(rate(row, 'assay'))} "
              f"({row['assay_rss']:.0f}) | {ratio(row, 'assay', 'rs-iter')} | {ratio(row, 'assay', 'rs-valid')} | "
              f"{ratio(row, 'assay', 'blaze')} | {cell(rate(row, 'assay_only'))} | "
              f"{ratio(row, 'assay_only', 'rs-only')} | {cell(rate(row, 'assay_each'))} | "
              f"{ratio(row, 'assay_each', 'blaze_only')} | "
              f"{row.get('assay_invalid', '–')} / {row.get('rs-iter_invalid', '–')} / "
              f"{row.get('blaze_invalid', '–')} |")


if __name__ == "__main__":
    main()
