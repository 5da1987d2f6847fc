#!/usr/bin/env python3
"""Summarize the 0015 benchmark: user-side (alloc.csv latency_ns) and
kernel-side (trace-cma.csv cma_alloc_start..finish) latency per size,
first request of each size in a run separately from the later ones,
per kernel label.  usage: summarize.py RESULTS_DIR...  (each a cmabench
results directory whose runs/gcma-r1 was run on one kernel; the label is
read from LABEL in the directory, written by run-bench.sh)."""
import csv, os, statistics, sys
from collections import defaultdict

def pairs(path):
    out, start = [], None
    for r in csv.DictReader(open(path)):
        if r['event'] == 'start':
            start = r
        elif r['event'] == 'finish' and start is not None:
            out.append((int(start['value']), int(r['ts_ns']) - int(start['ts_ns'])))
            start = None
    return out

data = defaultdict(list)   # (label, size, 'first'|'later', 'user'|'kernel') -> [ns]
runs = defaultdict(int)
for d in sys.argv[1:]:
    label = open(os.path.join(d, 'LABEL')).read().strip()
    for run in sorted(os.listdir(os.path.join(d, 'runs'))):
        if not run.startswith('gcma'):
            continue
        rd = os.path.join(d, 'runs', run)
        rows = list(csv.DictReader(open(os.path.join(rd, 'alloc.csv'))))
        kp = pairs(os.path.join(rd, 'trace-cma.csv'))
        if len(kp) != len(rows):
            print(f'# {rd}: {len(rows)} requests, {len(kp)} traced pairs: kernel side skipped', file=sys.stderr)
            kp = None
        runs[label] += 1
        # The trace clock (sched_clock, TSC) and the driver's CLOCK_MONOTONIC
        # disagree when the guest's TSC calibration went wrong under host
        # load ("tsc: PIT calibration deviates from HPET"): scale the
        # traced durations by the ratio of the run's request spans.
        ts = [int(x['ts_ns']) for x in csv.DictReader(open(os.path.join(rd, 'trace-cma.csv')))
              if x['event'] == 'start']
        span = (ts[-1] - ts[0]) / (int(rows[-1]['start_ns']) - int(rows[0]['start_ns']))
        if abs(span - 1) > 0.01:
            print(f'# {rd}: trace clock runs {span:.3f}x CLOCK_MONOTONIC: kernel side divided by it',
                  file=sys.stderr)
            kp = [(n, v / span) for n, v in kp] if kp else kp
        seen = set()
        for i, r in enumerate(rows):
            size = int(r['pages'])
            which = 'later' if size in seen else 'first'
            seen.add(size)
            if r['success'] != '1':
                continue
            data[(label, size, which, 'user')].append(int(r['latency_ns']))
            if kp:
                assert kp[i][0] == size, (rd, i)
                data[(label, size, which, 'kernel')].append(kp[i][1])

def fmt(v):
    if not v:
        return '-'
    m = statistics.median(v) / 1e3
    return f'{m:,.0f} us' if m >= 100 else f'{m:,.1f} us'

labels = sorted(runs)
print('runs: ' + ', '.join(f'{l} {runs[l]}' for l in labels))
print()
print('| pages | request | side | ' + ' | '.join(f'{l} median (n)' for l in labels) + ' | ' +
      ' | '.join(f'{l} min-max' for l in labels) + ' |')
print('|---|---|---|' + '---|' * (2 * len(labels)))
for size in sorted({k[1] for k in data}):
    for which in ('first', 'later'):
        for side in ('user', 'kernel'):
            vals = [data.get((l, size, which, side), []) for l in labels]
            cells = [f'{fmt(v)} ({len(v)})' for v in vals]
            rng = [f'{min(v)/1e3:,.1f}-{max(v)/1e3:,.1f} us' if v else '-' for v in vals]
            print(f'| {size} | {which} | {side} | ' + ' | '.join(cells) + ' | ' + ' | '.join(rng) + ' |')
