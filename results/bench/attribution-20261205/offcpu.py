#!/usr/bin/env python3
"""Independent check (no harness code): from `trace-cmd report -t` text of a
trace with cma_alloc_start/finish and every sched_switch, the share of each
request's cma_alloc_start..cma_alloc_finish window during which its task was
not on a CPU. Prints pages, kernel ms, switched-out % per request, slowest first."""
import re, sys

ev = re.compile(r'^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s+(.*)$')
sw = re.compile(r'(.+):(\d+) \[\d+\] (\S+) ==> (.+):(\d+) \[\d+\]')
open_req, done = {}, []
out_since = {}          # pid -> time it was switched out (None: on CPU)
for line in open(sys.argv[1]):
    m = ev.match(line)
    if not m:
        continue
    pid, ts, name, rest = int(m.group(2)), int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, '0')), m.group(6), m.group(7)
    if name == 'cma_alloc_start':
        pages = int(re.search(r'count=(\d+)', rest).group(1))
        open_req[pid] = [ts, pages, 0]
    elif name == 'cma_alloc_finish' and pid in open_req:
        t0, pages, off = open_req.pop(pid)
        done.append((ts - t0, pages, off))
    elif name == 'sched_switch':
        s = sw.search(rest)
        prev, nxt = int(s.group(2)), int(s.group(5))
        if prev in open_req:
            out_since[prev] = ts
        if nxt in open_req and out_since.get(nxt) is not None:
            open_req[nxt][2] += ts - out_since[nxt]
            out_since[nxt] = None
        if nxt in out_since and nxt not in open_req:
            out_since[nxt] = None
done.sort(key=lambda r: -r[0])
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
for k, pages, off in done[:n]:
    print(f"{pages:6d} {k/1e6:10.3f} ms  switched out {100*off/k:5.1f}%")
top = done[:n]
print(f"slowest {len(top)} of {len(done)}: switched out {100*sum(o for _,_,o in top)/sum(k for k,_,_ in top):.1f}% of their summed time, "
      f"median share {sorted(100*o/k for k,_,o in top)[len(top)//2]:.1f}%")
