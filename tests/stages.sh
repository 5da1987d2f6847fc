# shellcheck shell=sh
# The harness's stages in the order the code depends on them, one place for
# the checks of includes (test-layers.sh) and of calls (test-calls.sh):
# a file may use its own stage and earlier ones, never a later one.
order="lib scenario kbuild dataset report reproduce run ."

# rank STAGE: its place in the order, -1 when it is none of them
rank() {
	i=0
	for o in $order; do
		[ "$o" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo -1
}
