# Independent hand check of one request from `trace-cmd report -t` text
# (both buffers: pipe it through sed 's/^detail: *//' first):
# the window of pid P from its cma_alloc_start to cma_alloc_finish, time
# off CPU from sched_switch/sched_wakeup, and the counts.
function ns(s) { sub(":", "", s); split(s, p, "."); return p[1] * 1000000000 + p[2] }
{
	t = ns($3); ev = $4
	if (ev == "cma_alloc_start:" && $1 == "cma-alloc-" P) { open = 1; t0 = t; next }
	if (!open) next
	if (ev == "sched_switch:") {
		# prev_comm:prev_pid [prio] STATE ==> next
		split($5, a, ":"); prev = a[2]; st = $7
		for (i = 1; i <= NF; i++) if ($i == "==>") { split($(i+1), b, ":"); nxt = b[2] }
		if (prev == P) { out = t; state = (st == "R" || st == "R+") ? "run" : "blk" }
		if (nxt == P && out) { if (state == "run") run += t - out; else blk += (woke ? woke : t) - out; if (state != "run" && woke) run += t - woke; out = 0; woke = 0 }
		next
	}
	if (ev == "sched_wakeup:" ) { split($5, a, ":"); if (a[2] == P && out && state == "blk") woke = t; next }
	if ($1 != "cma-alloc-" P) next
	if (ev == "cma_alloc_busy_retry:") retries++
	if (ev == "mm_migrate_pages:") { for (i = 5; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "nr_succeeded") ok += kv[2]; if (kv[1] == "nr_failed") bad += kv[2] } }
	if (ev == "mm_migrate_pages_fail:") { for (i = 5; i <= NF; i++) { split($i, kv, "="); if (kv[1] != "reason") kind[kv[1]] += kv[2] } }
	if (ev == "mm_compaction_isolate_migratepages:") { for (i = 5; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "nr_taken") taken += kv[2] } }
	if (ev == "cma_alloc_finish:") {
		printf "pid %s: %.0f ns, retries %d, taken %d, migrated %d, failed %d, switched out runnable %.0f ns, blocked %.0f ns\n", P, t - t0, retries, taken, ok, bad, run, blk
		for (k in kind) printf "  failed pages %s %d\n", k, kind[k]
		exit
	}
}
