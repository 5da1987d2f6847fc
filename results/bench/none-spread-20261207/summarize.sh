#!/bin/sh
# per arm: the build's elapsed, user and sys seconds of each run, and the
# arm's spread (highest - lowest over median) and sd/mean of elapsed
cd "${1:-/work/main/results/bench/none-spread-20261207}" || exit 1
for f in default-*/rfc-v2-background-*/data/jobs.csv icount-*/rfc-v2-background-*/data/jobs.csv; do
	arm=${f%%/*}
	echo "${arm%-*} ${arm##*-} $(tail -1 "$f" | cut -d, -f8-10 | tr , ' ')"
done | sort -k1,1 -k2,2n | awk '
{ print; a = $1; n[a]++; e[a, n[a]] = $3; s[a] += $3; ss[a] += $3 * $3 }
END {
	for (a in n) {
		m = s[a] / n[a]; sd = n[a] > 1 ? sqrt((ss[a] - n[a] * m * m) / (n[a] - 1)) : 0
		lo = hi = e[a, 1]; for (i = 2; i <= n[a]; i++) { if (e[a, i] < lo) lo = e[a, i]; if (e[a, i] > hi) hi = e[a, i] }
		# median
		for (i = 1; i <= n[a]; i++) v[i] = e[a, i]
		for (i = 1; i <= n[a]; i++) for (j = i + 1; j <= n[a]; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		med = n[a] % 2 ? v[(n[a] + 1) / 2] : (v[n[a] / 2] + v[n[a] / 2 + 1]) / 2
		printf "arm %s: n %d, elapsed median %.1f s, range %.1f-%.1f, spread %.1f%%, sd/mean %.2f%%\n", a, n[a], med, lo, hi, (hi - lo) / med * 100, sd / m * 100
	}
}'
