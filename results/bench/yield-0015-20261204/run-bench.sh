#!/bin/sh
# Interleaved runs of rfc-v2-yield.scn (gcma section only) on two kernels.
# usage: run-bench.sh BEFORE_BZIMAGE AFTER_BZIMAGE ROUNDS
# Each run is one cmabench results directory under raw/, labelled in LABEL.
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
before=$1 after=$2 rounds=${3:-5}
mkdir -p "$here/raw"
i=1
while [ "$i" -le "$rounds" ]; do
	for label in before after; do
		if [ $label = before ]; then img=$before; else img=$after; fi
		echo "== round $i $label $(date -u +%H:%M:%S)"
		ls "$here/raw" > "$here/raw/.list-before"
		CMABENCH_BZIMAGE_GCMA=$img "$top/cmabench" run --only gcma \
			--results "$here/raw" "$here/rfc-v2-yield.scn" || echo "run failed"
		new=$(ls "$here/raw" | grep -vxF -f "$here/raw/.list-before" | tail -1)
		[ -n "$new" ] && { echo "$label" > "$here/raw/$new/LABEL"; echo "$img" > "$here/raw/$new/KERNEL"; }
	done
	i=$((i + 1))
done
rm -f "$here/raw/.list-before"
