# shellcheck shell=sh
# What the guest scripts share; the plan ships it beside every script, which
# sources it as ". $P/lib.sh". Environment from init: R (results), P (plan).
CC=/sys/kernel/debug/cleancache

# counters TAG: a copy of every cleancache counter into $R/cleancache-TAG/
# (the data set reads them as the script's phases); nothing without cleancache.
counters() {
	[ -d "$CC" ] || return 0
	mkdir -p "$R/cleancache-$1"
	for f in "$CC"/*; do
		[ -f "$f" ] && cat "$f" > "$R/cleancache-$1/${f##*/}"
	done
}

# Cleancache keeps workingset pages only, and the guest kernels have no
# MGLRU: a page read twice is active, not workingset, and drop_caches
# drops it unstored. Reclaim marks an active page workingset when it
# deactivates it, oldest first, once the active list outgrows the
# inactive one (dio-window.c does the same). cc_reclaim N reads a sparse
# file of 1.5 times the guest's memory with two readers at once, so that
# its pages go active and push the older active pages, the caller's,
# through reclaim; holes are not mapped to disk, so cleancache stores none
# of the pressure file's pages. Again until cleancache has stored N more
# pages (at most 4 passes); prints what it took. Returns 1 if it did not.
cc_reclaim() {
	_want=${1:-1}
	_pf=/mnt/scratch/cc-pressure
	[ -f "$_pf" ] || truncate -s $(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 3 / 2))K "$_pf"
	_s0=$(cat "$CC/stores")
	_n=0
	while :; do
		cat "$_pf" > /dev/null &
		cat "$_pf" > /dev/null
		wait $!
		_n=$((_n + 1))
		_got=$(($(cat "$CC/stores") - _s0))
		if [ "$_got" -ge "$_want" ] || [ $_n -ge 4 ]; then
			break
		fi
	done
	echo "cc_reclaim: $_n passes, $_got stores of $_want wanted"
	[ "$_got" -ge "$_want" ]
}
