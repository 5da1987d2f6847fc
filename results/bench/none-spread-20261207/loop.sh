#!/bin/bash
# none-spread study: rfc-v2-background's `none` section as committed at
# a8a83829 (20,000 sources), one run per invocation, default TCG and
# -icount shift=0 interleaved (ABBA), disk-scale fixed at the reference's
cd /work/main || exit 1
out=results/bench/none-spread-20261207
scn=/work/study/rfc-v2-background.scn
mkdir -p "$out"
arms=(icount default default icount icount default default icount)
i=1
for arm in "${arms[@]}"; do
	i=$((i + 1))
	echo "[study] $(date +%T) round $i arm $arm"
	if [ "$arm" = icount ]; then
		ICOUNT_SHIFT=0 CMABENCH_QEMU=/work/study/qemu-icount ./cmabench run --only none \
			--set repeat=1 --set disk-scale=4.75 --results "$out/$arm-$i" "$scn"
	else
		./cmabench run --only none --set repeat=1 --set disk-scale=4.75 \
			--results "$out/$arm-$i" "$scn"
	fi
	echo "[study] $(date +%T) round $i rc $?"
done
