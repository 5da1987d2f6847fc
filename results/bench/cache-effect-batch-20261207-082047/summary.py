#!/usr/bin/env python3
"""Per set-up summary of a cache-effect-like set, from its runs.tar.xz:
read MiB/s (runs' mean, 95% Student t), fio's CPU utilisation (perf stat),
cleancache hit rate, hits and stores per run (counter snapshots).
The figures this README and ../evict-20261207-091012/README.md quote.
Usage: summary.py SET_DIR   (the directory holding runs.tar.xz)"""
import json, re, statistics as st, sys, tarfile
from math import sqrt

T975 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776}


def text(tar, name):
    try:
        return tar.extractfile(name).read().decode()
    except KeyError:
        return None


def counter(tar, run, when, key):
    v = text(tar, f"runs/{run}/snapshots/{when}/cleancache/{key}")
    return int(v) if v else None


def main(base):
    rows = {}
    with tarfile.open(f"{base}/runs.tar.xz") as tar:
        runs = sorted({m.name.split("/")[1] for m in tar.getmembers()
                       if m.name.count("/") >= 2})
        for run in runs:
            fio = text(tar, f"runs/{run}/fio-reread.json")
            if not fio:
                continue
            bw = json.loads(fio)["jobs"][0]["read"]["bw_bytes"] / 2**20
            perf = text(tar, f"runs/{run}/fio-reread.perf") or ""
            util = next((float(l.split(",")[5]) for l in perf.splitlines()
                         if "task-clock" in l), float("nan"))
            d = {k: (counter(tar, run, "after", k) or 0) - (counter(tar, run, "before", k) or 0)
                 for k in ("hits", "misses", "stores")}
            rows.setdefault(re.sub(r"-r\d+$", "", run), []).append((bw, util, d))
    for sec, v in rows.items():
        bws = [x[0] for x in v]
        m = st.mean(bws)
        h = T975.get(len(bws), 2.5) * st.stdev(bws) / sqrt(len(bws)) if len(bws) > 1 else 0
        line = f"{sec:20s} n={len(v)} MiB/s {m:7.1f} [{m - h:.1f}-{m + h:.1f}] util {st.mean(x[1] for x in v):.3f}"
        hits = [x[2] for x in v if x[2]["hits"]]
        if hits:
            rate = st.mean(x["hits"] / (x["hits"] + x["misses"]) for x in hits)
            line += (f" hit {100 * rate:.1f}% hits/run {st.mean(x['hits'] for x in hits):.0f}"
                     f" stores/run {st.mean(x['stores'] for x in hits):.0f}")
        print(line)
        print("   ", " ".join(f"{x[0]:.0f}" for x in v))


if __name__ == "__main__":
    main(sys.argv[1])
