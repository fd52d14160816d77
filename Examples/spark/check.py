"""The Spark example's integration test (run by .ci/run through Examples/spark/test.sh).

    python3 Examples/spark/check.py --spark-submit PATH --assay PATH --work DIR [--records N]

1. Builds a data set: N generated client records (../shared/bench/gen_data.py) split into four
   files, one of them empty (an empty partition), one holding a line that is not JSON and a record
   over --max-document-bytes besides generated records.
2. Runs the Spark job on local[2] and, on the same lines, one `assay validate` run: the valid lines,
   the quarantined lines (as multisets) and the totals (documents, invalid, errors per keyword and
   per instance path) must be the same; the invalid records must include the generator's.
3. Runs it again on local[2,2] (a failed task is retried once), kills the `assay` of one partition's
   first attempt in the middle of its input, and checks that the outputs are the same again: no
   partition written twice, none lost.
4. A schema that does not compile, and an `assay` that cannot start: the job fails, and its output
   names the reason.
Exits 1 with the first difference.
"""

import argparse
import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(REPOSITORY, "..", "shared", "bench")
MAX_DOCUMENT_BYTES = 100_000


def fail(message):
    print(f"check.py: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def lines_of(folder):
    """Every line of every part file in a Spark output folder, as a multiset."""
    counts = collections.Counter()
    for name in sorted(os.listdir(folder)):
        if name.startswith("part-"):
            with open(os.path.join(folder, name), encoding="utf-8") as stream:
                counts.update(line.rstrip("\n") for line in stream)
    return counts


def keyword_of(error):
    location = error.get("keywordLocation", "")
    return location.rsplit("/", 1)[-1] if location else "(not JSON)"


def make_data(work, records):
    generated = os.path.join(work, "generated")
    subprocess.run(
        [sys.executable, os.path.join(BENCH, "gen_data.py"), "--records", str(records), "--out", generated],
        check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(generated, f"clients-{records}.ndjson"), encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    truth = set()
    with open(os.path.join(generated, f"clients-{records}.invalid.tsv"), encoding="utf-8") as stream:
        for row in stream.read().splitlines():  # a 0-based line index, a tab, the violation
            truth.add(lines[int(row.split("\t")[0])])
    data = os.path.join(work, "data")
    os.makedirs(data)
    half = len(lines) // 2
    odd = lines[half:half + 10] + ["this line is not JSON"] + [
        json.dumps({"id": "big", "name": "x" * (2 * MAX_DOCUMENT_BYTES)})] + lines[half + 10:half + 20]
    parts = [lines[:half], [], odd, lines[half + 20:]]
    for number, part in enumerate(parts):
        with open(os.path.join(data, f"part-{number}.ndjson"), "w", encoding="utf-8") as stream:
            stream.writelines(line + "\n" for line in part)
    return data, [line for part in parts for line in part], truth


def single_run(assay, schema, all_lines, work):
    """One `assay validate` over every line: the reference."""
    joined = os.path.join(work, "all.ndjson")
    with open(joined, "w", encoding="utf-8") as stream:
        stream.writelines(line + "\n" for line in all_lines)
    valid = os.path.join(work, "single-valid.ndjson")
    invalid = os.path.join(work, "single-invalid.ndjson")
    result = subprocess.run(
        [assay, "validate", "--schema", schema, "--format", "json", "--quiet", "--max-document-bytes",
         str(MAX_DOCUMENT_BYTES), "--valid-out", valid, "--quarantine", invalid, "--summary",
         os.path.join(work, "single-summary.json"), joined],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if result.returncode != 2 or result.stderr:
        fail(f"the single run exited {result.returncode} (expected 2: a record over the limit): {result.stderr!r}")
    totals = {"documents": 0, "invalid": 0, "errors": 0, "perKeyword": collections.Counter(),
              "perInstancePath": collections.Counter()}
    for raw in result.stdout.splitlines():
        report = json.loads(raw)
        totals["documents"] += 1
        if not report["valid"]:
            totals["invalid"] += 1
            for error in report["errors"]:
                totals["errors"] += 1
                totals["perKeyword"][keyword_of(error)] += 1
                totals["perInstancePath"][error.get("instanceLocation", "")] += 1
    with open(valid, encoding="utf-8") as stream:
        valid_lines = collections.Counter(stream.read().splitlines())
    with open(invalid, encoding="utf-8") as stream:
        invalid_lines = collections.Counter(stream.read().splitlines())
    return totals, valid_lines, invalid_lines


def spark_job(spark_submit, master, assay, schema, data, output, extra=()):
    # spark-submit finds Spark through the `python` on PATH: the virtual environment's.
    spark_submit = os.path.abspath(spark_submit)
    bin_folder = os.path.dirname(spark_submit)
    env = dict(os.environ, PATH=bin_folder + os.pathsep + os.environ.get("PATH", ""),
               PYSPARK_PYTHON=os.path.join(bin_folder, "python"))
    command = [
        spark_submit, "--master", master, "--conf", "spark.ui.enabled=false",
        # The empty file stays an (empty) partition of its own.
        "--conf", "spark.hadoopRDD.ignoreEmptySplits=false",
        os.path.join(HERE, "validate_job.py"), "--assay", assay, "--schema", schema, "--input", data,
        "--output", output, "--max-document-bytes", str(MAX_DOCUMENT_BYTES), *extra]
    started = time.time()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, check=False)
    return result.returncode, result.stdout.decode("utf-8", "replace"), time.time() - started


def compare(label, output, reference):
    totals, valid_lines, invalid_lines = reference
    with open(os.path.join(output, "totals.json"), encoding="utf-8") as stream:
        spark = json.load(stream)
    for key in ("documents", "invalid", "errors"):
        if spark[key] != totals[key]:
            fail(f"{label}: {key} {spark[key]} on Spark, {totals[key]} in one run")
    for key in ("perKeyword", "perInstancePath"):
        if collections.Counter(spark[key]) != totals[key]:
            fail(f"{label}: {key} differs: {dict(collections.Counter(spark[key]) - totals[key])} / "
                 f"{dict(totals[key] - collections.Counter(spark[key]))}")
    if spark["emptyPartitions"] < 1:
        fail(f"{label}: no empty partition was validated")
    if lines_of(os.path.join(output, "valid")) != valid_lines:
        fail(f"{label}: the valid lines differ from the single run's")
    if lines_of(os.path.join(output, "quarantine")) != invalid_lines:
        fail(f"{label}: the quarantined lines differ from the single run's")
    compare_summaries(label, output)
    print(f"{label}: {spark['documents']} documents, {spark['invalid']} invalid, {spark['errors']} errors in "
          f"{spark['partitions']} partitions ({spark['emptyPartitions']} empty) — the same as one assay run")


def compare_summaries(label, output):
    """The partitions' merged summary counts what the single run's summary counts, and the report
    drawn from it shows its totals."""
    with open(os.path.join(output, "summary.json"), encoding="utf-8") as stream:
        merged = json.load(stream)
    with open(os.path.join(os.path.dirname(output), "single-summary.json"), encoding="utf-8") as stream:
        single = json.load(stream)
    for key in ("documents", "invalid", "errors", "notValidated"):
        if merged["totals"][key] != single["totals"][key]:
            fail(f"{label}: the merged summary's {key} is {merged['totals'][key]}, one run's {single['totals'][key]}")

    def counts(entries, name):
        return {entry[name]: entry["errors"] for entry in entries}

    for field, name in (("keywords", "keyword"), ("codes", "code"), ("paths", "path")):
        if counts(merged[field], name) != counts(single[field], name):
            fail(f"{label}: the merged summary's {field} differ from one run's")
    if merged["errorsPerDocument"] != single["errorsPerDocument"] or merged["approximate"]:
        fail(f"{label}: the merged histogram differs, or the merge is approximate")
    if merged["shards"] < 2:
        fail(f"{label}: the merged summary combines {merged['shards']} part(s)")
    with open(os.path.join(output, "report.html"), encoding="utf-8") as stream:
        page = stream.read()
    if f'data-metric="documents" data-value="{single["totals"]["documents"]}"' not in page:
        fail(f"{label}: the report does not show the number of documents")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spark-submit", required=True)
    parser.add_argument("--assay", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--records", type=int, default=200_000)
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    schema_folder = os.path.join(work, "schema")
    os.makedirs(schema_folder)
    schema = os.path.join(schema_folder, "client.schema.json")
    shutil.copy(os.path.join(BENCH, "client.schema.json"), schema)

    data, all_lines, truth = make_data(work, args.records)
    reference = single_run(args.assay, schema, all_lines, work)
    missing = truth - set(reference[2])
    if missing:
        fail(f"{len(missing)} of the generator's invalid records were not quarantined by assay")
    for odd in ("this line is not JSON",):
        if odd not in reference[2]:
            fail("the line that is not JSON was not quarantined")

    # 1. The job on local[2], against the single run.
    status, log, seconds = spark_job(args.spark_submit, "local[2]", args.assay, schema, data,
                                     os.path.join(work, "out"))
    if status != 0:
        fail(f"the Spark job exited {status}:\n{log[-4000:]}")
    compare(f"local[2] ({seconds:.0f} s)", os.path.join(work, "out"), reference)

    # 2. One assay killed mid-partition on local[2,2]: Spark runs the task again, outputs unchanged.
    pause = os.path.join(work, "pause")
    os.makedirs(pause)
    killed = []

    def killer():
        deadline = time.time() + 600
        while time.time() < deadline and not killed:
            for name in os.listdir(pause):
                if name.startswith("paused-"):
                    pid = int(name.split("-")[1])
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return
            time.sleep(0.05)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    status, log, seconds = spark_job(
        args.spark_submit, "local[2,2]", args.assay, schema, data, os.path.join(work, "out-killed"),
        extra=("--pause-partition", "0", "--pause-folder", pause))
    thread.join(timeout=5)
    if not killed:
        fail(f"no assay was killed: the test did not test a retry\n{log[-4000:]}")
    if status != 0:
        fail(f"the job with a killed assay exited {status}:\n{log[-4000:]}")
    if "killed by signal 9" not in log:
        fail("the killed attempt's failure is not in the job's log")
    compare(f"local[2,2], assay {killed[0]} killed mid-partition and retried ({seconds:.0f} s)",
            os.path.join(work, "out-killed"), reference)

    # 3. A schema that does not compile on the executors: the job fails and says why.
    broken_folder = os.path.join(work, "broken")
    os.makedirs(broken_folder)
    broken = os.path.join(broken_folder, "broken.schema.json")
    with open(broken, "w", encoding="utf-8") as stream:
        json.dump({"properties": {"name": {"pattern": "("}}}, stream)
    status, log, _ = spark_job(args.spark_submit, "local[2]", args.assay, broken, data,
                               os.path.join(work, "out-broken"))
    if status == 0 or "the schema" not in log or "assay exited 2" not in log:
        fail(f"a schema that does not compile: exit {status}, and the log does not say why:\n{log[-3000:]}")
    print("a schema that does not compile: the job fails with assay's message")

    # 4. An assay that cannot start (not an executable): the job fails and says why.
    fake = os.path.join(work, "not-assay")
    with open(fake, "w", encoding="utf-8") as stream:
        stream.write("this is not a program\n")
    status, log, _ = spark_job(args.spark_submit, "local[2]", fake, schema, data, os.path.join(work, "out-fake"))
    if status == 0 or "assay could not start" not in log:
        fail(f"an assay that cannot start: exit {status}, and the log does not say why:\n{log[-3000:]}")
    print("an assay that cannot start: the job fails with the reason")
    print("spark check: passed")


if __name__ == "__main__":
    main()
