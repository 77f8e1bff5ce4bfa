#!/usr/bin/python3
"""The vector benchmark's reference: the same data in the field's libraries, in process.

Run by `bin/stator-bench vectors` (io.stator.bench.VectorReference) with Debian's python3 and its
python3-hnswlib and python3-faiss, once per library, so that each process's resident memory is
that library's alone. It reads the data set the bench wrote (base.npy, queries.npy float32;
truth.npy int32, the exact neighbours of each query by Euclidean distance, nearest first), builds
the index, then searches every query once per setting, one query per call on one thread, and
prints one JSON object per line:

  {"kind": "build", "library": ..., "vectors": N, "dimensions": D, "seconds": ..., "threads": T,
   "parameters": "...", "version": "...", "rss_before_mb": ..., "rss_after_mb": ...}
  {"kind": "search", "library": ..., "ef": ..., "recall": ..., "qps": ..., "p50_ms": ..., "p99_ms": ...}
  {"kind": "end", "library": ..., "cpu_seconds": ...}  (this process's CPU time, all threads)
  {"kind": "unavailable", "library": ..., "reason": ...}

hnswlib and faiss's HNSW search with ef = 10, 16, 24, ... (efSearch), stopping at the first that
reaches --target-recall; faiss's flat index is exact and searched once (ef 0).
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

LIBRARIES = ("hnswlib", "faiss-flat", "faiss-hnsw")
EF_SWEEP = (10, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048)
M = 16
EF_CONSTRUCTION = 200


def emit(record):
    print(json.dumps(record), flush=True)


def rss_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def version(library):
    """The Debian package's version (the library's own metadata lags it), else the metadata's."""
    package = "python3-hnswlib" if library == "hnswlib" else "python3-faiss"
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True)
        if out.returncode == 0 and out.stdout:
            return "%s %s" % (package, out.stdout)
    except OSError:
        pass
    import importlib.metadata
    return "%s %s" % (library.split("-")[0], importlib.metadata.version(library.split("-")[0]))


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    # Nearest rank, as HdrHistogram reports Stator's.
    i = min(len(sorted_values) - 1, max(0, math.ceil(p / 100.0 * len(sorted_values)) - 1))
    return sorted_values[i]


def measure(library, ef, search, queries, truth):
    """Every query once, one per call; recall@k against the exact neighbours, queries/s, latency."""
    k = truth.shape[1]
    latencies = []
    hits = 0
    for i in range(queries.shape[0]):
        q = queries[i:i + 1]
        t0 = time.perf_counter_ns()
        found = search(q, k)
        latencies.append(time.perf_counter_ns() - t0)
        hits += len(set(int(x) for x in found[:k]) & set(int(x) for x in truth[i]))
    total = sum(latencies) / 1e9
    latencies.sort()
    record = {"kind": "search", "library": library, "ef": ef, "recall": hits / float(truth.size),
              "qps": len(latencies) / total if total > 0 else float("nan"),
              "p50_ms": percentile(latencies, 50) / 1e6, "p99_ms": percentile(latencies, 99) / 1e6}
    emit(record)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", choices=LIBRARIES, required=True)
    parser.add_argument("--data", required=True, help="directory of base.npy, queries.npy, truth.npy")
    parser.add_argument("--target-recall", type=float, default=0.95)
    parser.add_argument("--build-threads", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    library = args.library
    try:
        import numpy as np
        if library == "hnswlib":
            import hnswlib
        else:
            import faiss
    except ImportError as e:
        emit({"kind": "unavailable", "library": library,
              "reason": "%s (apt-get install -y python3-hnswlib python3-faiss)" % e})
        return 0

    base = np.load(os.path.join(args.data, "base.npy"))
    queries = np.load(os.path.join(args.data, "queries.npy"))
    truth = np.load(os.path.join(args.data, "truth.npy"))
    n, d = base.shape
    rss_before = rss_mb()

    if library == "hnswlib":
        index = hnswlib.Index(space="l2", dim=d)
        index.init_index(max_elements=n, M=M, ef_construction=EF_CONSTRUCTION, random_seed=100)
        index.set_num_threads(args.build_threads)
        t0 = time.perf_counter()
        index.add_items(base, np.arange(n))
        seconds = time.perf_counter() - t0
        index.set_num_threads(1)
        parameters = "space l2, M %d, ef_construction %d" % (M, EF_CONSTRUCTION)

        def search_at(ef):
            index.set_ef(max(ef, truth.shape[1]))
            return lambda q, k: index.knn_query(q, k=k)[0][0]
    else:
        faiss.omp_set_num_threads(args.build_threads)
        if library == "faiss-flat":
            index = faiss.IndexFlatL2(d)
            parameters = "IndexFlatL2"
        else:
            index = faiss.IndexHNSWFlat(d, M)
            index.hnsw.efConstruction = EF_CONSTRUCTION
            parameters = "IndexHNSWFlat, M %d, efConstruction %d" % (M, EF_CONSTRUCTION)
        t0 = time.perf_counter()
        index.add(base)
        seconds = time.perf_counter() - t0
        faiss.omp_set_num_threads(1)

        def search_at(ef):
            if library == "faiss-hnsw":
                index.hnsw.efSearch = ef
            return lambda q, k: index.search(q, k)[1][0]

    rss_after = rss_mb()
    emit({"kind": "build", "library": library, "vectors": n, "dimensions": d, "seconds": seconds,
          "threads": args.build_threads, "parameters": parameters, "version": version(library),
          "rss_before_mb": rss_before, "rss_after_mb": rss_after})
    if library == "faiss-flat":
        measure(library, 0, search_at(0), queries, truth)
    else:
        for ef in EF_SWEEP:
            if ef > max(n, truth.shape[1]):
                break
            record = measure(library, ef, search_at(ef), queries, truth)
            if record["recall"] >= args.target_recall:
                break
    emit({"kind": "end", "library": library, "cpu_seconds": time.process_time()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
