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
