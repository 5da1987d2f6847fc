#!/usr/bin/env python3
"""Largest unattributed share of kernel-side time among attributed requests
of at least 1,024 pages, per set-up, from data/attribution.csv files."""
import csv, sys
for path in sys.argv[1:]:
    per = {}
    for r in csv.DictReader(open(path)):
        if int(r['pages']) < 1024:
            continue
        k = int(r['kernel_latency_ns'])
        u = sum(int(r['unattributed_' + s + '_ns']) for s in ('cpu', 'runnable', 'blocked'))
        d = per.setdefault(r['section'], [0, 0, 0.0, None])
        d[0] += 1
        d[1] += 100 * u / k > 20
        if 100 * u / k >= d[2]:
            d[2], d[3] = 100 * u / k, (r['run'], r['seq'], r['pages'], k)
    for s, (n, over, mx, who) in per.items():
        print(f"{path}: {s}: {n} requests >= 1024 pages, {over} above 20% unattributed, largest {mx:.1f}% ({who[0]} seq {who[1]}, {who[2]} pages, {who[3]/1e6:.3f} ms)")
