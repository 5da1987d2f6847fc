#!/bin/sh
# The watchdog's test (tests/vm/watchdog.sh): lays out a file on the
# scratch disk, drops it from the page cache, prints the scenario's
# scratch-stall marker (the host then throttles the disk to 1 byte/s), and
# reads the file: the reader waits in the kernel for a read that never
# completes, every task sleeps, and the host's watchdog must find the guest
# silent and make it say why. Environment from init: R, P.
f=/mnt/scratch/stall.dat
dd if=/dev/zero of=$f bs=1M count=16 2> /dev/null && sync || exit 1
echo 3 > /proc/sys/vm/drop_caches
echo "cmabench-stall: stall the scratch disk now" > /dev/console
# the host acts on the line within milliseconds; a planned pause
sleep 2
echo "reading $f"
cat $f > /dev/null
echo "read $f: the disk was not stalled"
