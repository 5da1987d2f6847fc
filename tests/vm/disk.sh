#!/bin/sh
# VM test of the storage models (disk=): direct sequential reads and writes
# on the scratch disk stay within the emmc profile's limits (250 MB/s read,
# 125 MB/s write, with 5% for the throttle's bucket), and the throttle
# bites: the unthrottled host disk is faster, where TCG lets it be. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
cat > "$res/disk.scn" <<'SCN'
[global]
kernel=vanilla
setup=none
memory=512M
scratch=2G
fio=disk-check.fio
fio-size=512M
fio-runtime=5s
timeout=5m

[host]
disk=host

[emmc]
disk=emmc
SCN
"$CMABENCH" run --results "$res" "$res/disk.scn"
rc=$?
dir=$(first "$res"/disk-*)
check "cmabench run of the disk check succeeded (exit $rc)" [ "$rc" -eq 0 ]
# MB/s (10^6) of a section's job from the data set's fio.csv
bw() { # section job column
	csv_rows "$dir/data/fio.csv" "section == \"$1\" && job == \"$2\"" "sprintf(\"%.0f\", $3 / 1e6)" |
		head -n 1
}
er=$(bw emmc seqread read_bw_bytes); ew=$(bw emmc seqwrite write_bw_bytes)
hr=$(bw host seqread read_bw_bytes); hw=$(bw host seqwrite write_bw_bytes)
echo "# MB/s: emmc read ${er:-?} write ${ew:-?}; host read ${hr:-?} write ${hw:-?}"
check "emmc: reads at most 250 MB/s +5% (got ${er:-none})" awk -v x="${er:-999999}" 'BEGIN { exit !(x > 0 && x <= 262.5) }'
check "emmc: writes at most 125 MB/s +5% (got ${ew:-none})" awk -v x="${ew:-999999}" 'BEGIN { exit !(x > 0 && x <= 131.25) }'
if [ "${hr:-0}" -gt 300 ]; then
	check "the throttle bites: host reads ($hr) beat emmc's ($er)" [ "$hr" -gt "${er:-999999}" ]
else
	echo "ok $((n + 1)) # SKIP host reads at ${hr:-?} MB/s under TCG: no faster than the profile"
	n=$((n + 1))
fi
if [ "${hw:-0}" -gt 150 ]; then
	check "the throttle bites: host writes ($hw) beat emmc's ($ew)" [ "$hw" -gt "${ew:-999999}" ]
else
	echo "ok $((n + 1)) # SKIP host writes at ${hw:-?} MB/s under TCG: no faster than the profile"
	n=$((n + 1))
fi
