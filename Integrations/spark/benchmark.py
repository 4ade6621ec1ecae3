#!/usr/bin/env python3
"""Throughput of inkrec_spark: the same inks on Spark local[1] and local[2], and ``inkrec recognize --batch``
alone on the machine's cores (reading the same inks as a JSON Lines file), each timed end to end on a warm
session. Spark reads the inks from Parquet (columns ``id`` and ``ink``, the ink a JSON string; one file,
so one partition, per ``--partition-inks`` inks) and drops every result with its ``noop`` writer
after computing it. Prints a Markdown table.

    python3 Integrations/spark/benchmark.py --inkrec PATH/inkrec [--inks 20000] [--storage DIR]

The inks are tests/sample_inks.py's (real held-out sample words and lines, moved, scaled and
jittered; one in 500 malformed). Not a test: timings depend on the machine."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "tests"))
os.environ["PYTHONPATH"] = os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")])
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

from sample_inks import make_inks, write_jsonl  # noqa: E402


def write_parquet(folder: str, inks, partition_inks: int) -> None:
    """One Parquet file per ``partition_inks`` inks, which Spark reads as one partition each."""
    import pandas as pd
    os.makedirs(folder, exist_ok=True)
    for k in range(0, len(inks), partition_inks):
        part = inks[k:k + partition_inks]
        pd.DataFrame({"id": [i for i, _ in part], "ink": [line for _, line in part]}).to_parquet(
            os.path.join(folder, f"part-{k // partition_inks:05d}.parquet"), index=False)


def spark_run(master: str, path: str, args) -> float:
    from pyspark.sql import SparkSession
    from inkrec_spark import recognize
    spark = (SparkSession.builder.master(master).appName("inkrec_spark benchmark")
             .config("spark.ui.enabled", "false").config("spark.driver.memory", "2g")
             .config("spark.sql.files.maxPartitionBytes", "256m").config("spark.sql.files.openCostInBytes", "256m")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    def job(p):
        out = recognize(spark.read.parquet(p), language="en-US", inkrec=args.inkrec, storage=args.storage)
        out.write.format("noop").mode("overwrite").save()

    warm = os.path.join(os.path.dirname(path), "warm.parquet")
    write_parquet(warm, make_inks(200, seed=1), 100)
    job(warm)  # the JVM's code, the Python workers, the model installed
    partitions = spark.read.parquet(path).rdd.getNumPartitions()
    t = time.perf_counter()
    job(path)
    seconds = time.perf_counter() - t
    spark.stop()
    return seconds, partitions


def alone(path: str, args) -> float:
    t = time.perf_counter()
    subprocess.run([args.inkrec, "recognize", "--batch", path, "--language", "en-US", "--storage", args.storage,
                    "--no-segments"],  # the answers recognize() asks for
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inkrec", required=True)
    ap.add_argument("--inks", type=int, default=20000)
    ap.add_argument("--storage", default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--partition-inks", type=int, default=1000, help="inks per Parquet file (= partition)")
    args = ap.parse_args()
    work = tempfile.mkdtemp()
    args.storage = args.storage or os.path.join(work, "store")
    inks = make_inks(args.inks, seed=20)
    path = os.path.join(work, "inks.jsonl")
    write_jsonl(path, inks)
    parquet = os.path.join(work, "inks.parquet")
    write_parquet(parquet, inks, args.partition_inks)
    mb = os.path.getsize(path) / 1e6
    alone(path, args)  # install the model, warm the page cache
    runs = {"alone": [], "local[1]": [], "local[2]": []}
    partitions = 0
    for _ in range(args.rounds):  # interleaved: this machine's speed drifts
        runs["alone"].append(alone(path, args))
        for cores in (1, 2):
            seconds, partitions = spark_run(f"local[{cores}]", parquet, args)
            runs[f"local[{cores}]"].append(seconds)
    med = {k: sorted(v)[len(v) // 2] for k, v in runs.items()}
    print(f"{args.inks} inks ({mb:.0f} MB as JSON Lines, "
          f"{sum(os.path.getsize(os.path.join(parquet, f)) for f in os.listdir(parquet)) / 1e6:.0f} MB as Parquet), "
          f"{os.cpu_count()} cores, {partitions} partitions; median of {args.rounds} interleaved rounds\n")
    print("| run | cores | seconds (each round) | inks per second | inks per core-second |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for key, name, cores in (("alone", "`inkrec recognize --batch --no-segments` alone", os.cpu_count()),
                             ("local[1]", "Spark `local[1]`", 1), ("local[2]", "Spark `local[2]`", 2)):
        each = ", ".join(f"{x:.1f}" for x in runs[key])
        print(f"| {name} | {cores} | {med[key]:.1f} ({each}) | {args.inks / med[key]:.0f} | {args.inks / med[key] / cores:.0f} |")
    print(f"\nlocal[2] / local[1]: {med['local[1]'] / med['local[2]']:.2f}x; local[2] takes "
          f"{100 * (med['local[2]'] / med['alone'] - 1):+.1f}% more time than inkrec alone")


if __name__ == "__main__":
    main()
