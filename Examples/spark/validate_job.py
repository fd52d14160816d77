"""Validates an NDJSON data set on Apache Spark with `assay` as the map step.

    spark-submit Examples/spark/validate_job.py --assay PATH --schema SCHEMA --input DATA --output OUT

The `assay` binary (self-contained: scripts/build-assay.sh) and the schema's folder are shipped to
the executors (`SparkContext.addFile`). Each partition's lines are piped through `assay validate`
on its executor; the valid lines go to OUT/valid, the invalid ones to OUT/quarantine (one file per
partition, verbatim), and the driver collects the totals — documents, invalid documents, errors per
keyword and per instance path — into OUT/totals.json and prints them. Each partition's run also writes
its summary (`assay validate --summary`); the driver merges them (`assay report merge`) into
OUT/summary.json and draws that as OUT/report.html (`assay report`): the failing paths, keywords and
examples of the whole data set on one page.

A partition is all or nothing: a task whose `assay` could not start, failed (exit status 2 with a
message: a schema that does not compile, an unreadable input) or was killed fails, Spark runs it
again (up to spark.task.maxFailures), and its output is committed only once, from the attempt that
finished. Exit status 1 (invalid records found) and 2 without a message (a record over a limit,
reported in the totals) are results, not failures.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from pyspark import SparkContext, SparkFiles, StorageLevel, TaskContext
from pyspark.sql import SparkSession


def keyword_of(error):
    """The keyword an error is about: the last segment of its keyword location; `(not JSON)` for a
    line that is not JSON or crossed a limit."""
    location = error.get("keywordLocation", "")
    if not location:
        return "(not JSON)"
    return location.rsplit("/", 1)[-1]


def validate_partition(index, lines, settings):
    """Runs `assay validate` over one partition's lines; yields ("valid", line), ("invalid", line)
    and one ("totals", {...}) record."""
    assay = SparkFiles.get(settings["assay_name"])
    if not os.access(assay, os.X_OK):
        os.chmod(assay, 0o755)
    schema = os.path.join(SparkFiles.get(settings["schema_folder"]), settings["schema_name"])
    work = tempfile.mkdtemp(prefix=f"assay-part-{index}-")
    valid_path = os.path.join(work, "valid.ndjson")
    invalid_path = os.path.join(work, "quarantine.ndjson")
    summary_path = os.path.join(work, "summary.json")
    command = [
        assay, "validate", "--schema", schema, "--format", "json", "--jobs", "1", "--quiet",
        "--max-document-bytes", str(settings["max_document_bytes"]),
        "--valid-out", valid_path, "--quarantine", invalid_path, "--summary", summary_path, "-",
    ]
    try:
        yield from run_assay(index, lines, settings, command, assay, valid_path, invalid_path, summary_path)
    finally:
        # The task's files go, whether it finished, failed or was stopped.
        shutil.rmtree(work, ignore_errors=True)


def run_assay(index, lines, settings, command, assay, valid_path, invalid_path, summary_path):
    """Pipes one partition's lines through one `assay validate` (`command`) and yields its results."""
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        raise RuntimeError(f"partition {index}: assay could not start ({assay}): {error}") from error

    fed = {"lines": 0, "failure": None}
    pause = settings.get("pause_partition")
    context = TaskContext.get()
    first_attempt = context is None or context.attemptNumber() == 0

    def feed():
        # Lines go in on their own thread while the report is read, so neither pipe fills up.
        try:
            for number, line in enumerate(lines):
                if pause is not None and index == pause and first_attempt and number == 50:
                    # For the kill test: announce the child, then wait with its input open.
                    marker = os.path.join(settings["pause_folder"], f"paused-{process.pid}")
                    open(marker, "w").close()
                    while process.poll() is None:
                        time.sleep(0.05)
                    return
                if line.strip(" \t\r"):
                    fed["lines"] += 1
                process.stdin.write(line.encode("utf-8") + b"\n")
        except BrokenPipeError:
            pass
        except Exception as error:  # noqa: BLE001 - reported with the partition
            fed["failure"] = error
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    documents = invalid = 0
    per_keyword = {}
    per_path = {}
    for raw in process.stdout:
        report = json.loads(raw)
        documents += 1
        if not report["valid"]:
            invalid += 1
            for error in report["errors"]:
                keyword = keyword_of(error)
                per_keyword[keyword] = per_keyword.get(keyword, 0) + 1
                path = error.get("instanceLocation", "")
                per_path[path] = per_path.get(path, 0) + 1
    errors = process.stderr.read().decode("utf-8", "replace")
    status = process.wait()
    feeder.join()
    if fed["failure"] is not None:
        raise RuntimeError(f"partition {index}: feeding assay failed: {fed['failure']}")
    if status < 0:
        raise RuntimeError(f"partition {index}: assay was killed by signal {-status}")
    # 0 all valid, 1 invalid records; 2 is a result only when assay printed no error (a record over
    # a limit, which the report counts); with a message it is a failure of the task.
    if status not in (0, 1, 2) or (status == 2 and "assay:" in errors):
        raise RuntimeError(f"partition {index}: assay exited {status}: {errors.strip()}")
    if documents != fed["lines"]:
        raise RuntimeError(
            f"partition {index}: assay reported {documents} documents for {fed['lines']} lines")
    for kind, path in (("valid", valid_path), ("invalid", invalid_path)):
        with open(path, "rb") as stream:
            for line in stream:
                yield kind, line.rstrip(b"\n").decode("utf-8")
    with open(summary_path, encoding="utf-8") as stream:
        yield "summary", stream.read()
    yield "totals", {
        "documents": documents, "invalid": invalid, "errors": sum(per_keyword.values()),
        "emptyPartitions": 1 if documents == 0 else 0, "perKeyword": per_keyword, "perInstancePath": per_path,
    }




def merge(left, right):
    merged = {key: left[key] + right[key] for key in ("documents", "invalid", "errors", "emptyPartitions")}
    for field in ("perKeyword", "perInstancePath"):
        counts = dict(left[field])
        for key, value in right[field].items():
            counts[key] = counts.get(key, 0) + value
        merged[field] = counts
    return merged


def merge_summaries(assay, summaries, output):
    """Writes each partition's summary to OUT/summaries/, merges them into OUT/summary.json and
    draws that as OUT/report.html, with the driver's assay. Each summary is bounded (its paths and
    examples), so collecting them costs at most a few megabytes per partition."""
    folder = os.path.join(output, "summaries")
    os.makedirs(folder)
    parts = []
    for number, text in enumerate(summaries.toLocalIterator()):
        path = os.path.join(folder, f"part-{number:05d}.json")
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
        parts.append(path)
    merged = os.path.join(output, "summary.json")
    for command in ([assay, "report", "merge", *parts, "-o", merged],
                    [assay, "report", merged, "-o", os.path.join(output, "report.html")]):
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command[1:3])} exited {result.returncode}: "
                               f"{result.stderr.decode('utf-8', 'replace').strip()}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assay", required=True, help="the self-contained assay binary")
    parser.add_argument("--schema", required=True, help="the JSON Schema; its folder is shipped too")
    parser.add_argument("--input", required=True, help="NDJSON files: a file, a folder or a glob")
    parser.add_argument("--output", required=True, help="a folder that does not exist yet")
    parser.add_argument("--partitions", type=int, default=None, help="at least this many partitions")
    parser.add_argument("--max-document-bytes", type=int, default=1 << 20)
    parser.add_argument("--pause-partition", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--pause-folder", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    spark = SparkSession.builder.appName("assay-validate").getOrCreate()
    context: SparkContext = spark.sparkContext
    context.setLogLevel("WARN")
    schema = os.path.abspath(args.schema)
    context.addFile(os.path.abspath(args.assay))
    context.addFile(os.path.dirname(schema), recursive=True)
    settings = {
        "assay_name": os.path.basename(args.assay),
        "schema_folder": os.path.basename(os.path.dirname(schema)),
        "schema_name": os.path.basename(schema),
        "max_document_bytes": args.max_document_bytes,
        "pause_partition": args.pause_partition,
        "pause_folder": args.pause_folder,
    }
    lines = context.textFile(args.input, args.partitions) if args.partitions else context.textFile(args.input)
    tagged = lines.mapPartitionsWithIndex(
        lambda index, part: validate_partition(index, part, settings), preservesPartitioning=True)
    # Kept, so that assay runs once per partition for the three outputs below.
    tagged.persist(StorageLevel.MEMORY_AND_DISK)
    tagged.filter(lambda record: record[0] == "valid").map(lambda record: record[1]).saveAsTextFile(
        os.path.join(args.output, "valid"))
    tagged.filter(lambda record: record[0] == "invalid").map(lambda record: record[1]).saveAsTextFile(
        os.path.join(args.output, "quarantine"))
    totals = tagged.filter(lambda record: record[0] == "totals").map(lambda record: record[1]).fold(
        {"documents": 0, "invalid": 0, "errors": 0, "emptyPartitions": 0, "perKeyword": {}, "perInstancePath": {}},
        merge)
    totals["partitions"] = lines.getNumPartitions()
    with open(os.path.join(args.output, "totals.json"), "w") as stream:
        json.dump(totals, stream, indent=1, sort_keys=True)
    merge_summaries(args.assay, tagged.filter(lambda record: record[0] == "summary").map(lambda record: record[1]),
                    args.output)
    print(
        f"{totals['documents']} documents, {totals['invalid']} invalid, {totals['errors']} errors "
        f"in {totals['partitions']} partitions; valid lines in {args.output}/valid, invalid ones in "
        f"{args.output}/quarantine, totals in {args.output}/totals.json, the report in {args.output}/report.html")
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
