/*
 * The scenario keys: one row per key (as fio's option table) with its
 * default, its values and its help, and what reads and writes values by
 * the row: parsing a value, a section's defaults, copying and freeing a
 * section, a key's text, the guest's environment, the key table of
 * 'cmabench help scenario'. scenario.c (the file) and scenario-check.c (the
 * checks) use it through scenario-internal.h; it calls neither.
 */
#include "scenario/scenario-internal.h"
#include "scenario/disk.h"
#include "scenario/job.h"
#include "scenario/variants.h"

#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define OFF(f) .off = offsetof(struct run_spec, f)
#define VALUES(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const char *const setup_names[] = {
	[SETUP_NONE] = "none", [SETUP_CARVEOUT] = "carveout",
	[SETUP_CMA] = "cma", [SETUP_GCMA] = "gcma", NULL,
};

static void kernel_values(struct strlist *out)
{
	for (unsigned int i = 0; i < kvariants_count(); i++)
		sl_add(out, kvariant_at(i)->name);
}

static void arch_values(struct strlist *out)
{
	for (unsigned int i = 0; i < cmb_arches_count; i++)
		sl_add(out, cmb_arches[i].name);
}

static const struct key_def keys[] = {
	{ "description", K_DESCRIPTION, T_STRING, OFF(description),
	  .help = "one line saying what the run is for (kept in its metadata)" },
	{ "kernel", K_KERNEL, T_CHOICE, OFF(kernel), .def = "vanilla", .values = kernel_values,
	  .what = "a kernel variant",
	  /* not the list of files: one's own variant files leave the docs as they are */
	  .form = "`vanilla` \\| `gcma` \\| `gcma-debug` \\| a file of one's own",
	  .help = "kernel variant: a file of `kernel-patches/variants/` (`cmabench build --list`); "
		  "`gcma` applies `kernel-patches/series`; `gcma-debug` is `gcma` "
		  "plus `configs/debug.config` (KASAN, lockdep, DEBUG_VM: functional runs only, "
		  "never measured; x86_64 only)" },
	{ "arch", K_ARCH, T_ARCH, OFF(arch), .def = "x86_64", .values = arch_values,
	  .what = "an architecture",
	  .help = "guest architecture: `arm64` is QEMU's virt machine, where the `cma` and `gcma` "
		  "areas come from the device tree's reserved-memory node (`guarantee` for gcma), "
		  "not from `cma=`/`gcma=`" },
	{ "setup", K_SETUP, T_ENUM, OFF(setup), .def = "cma", .posval = setup_names,
	  .what = "a set-up",
	  .help = "`none`: no reservation; `carveout`: the area is withheld from the guest (its RAM "
		  "is `memory - area`); `cma`: `cma=<area>` (area named `reserved`); `gcma`: "
		  "`gcma=<area>` (area named `gcma`, needs a kernel that offers it: `kernel=gcma`)" },
	{ "area", K_AREA, T_SIZE, OFF(area), .def = "64M",
	  .help = "size of the reserved area" },
	{ "memory", K_MEMORY, T_SIZE, OFF(memory), .def = "512M",
	  .help = "guest RAM" },
	{ "cpus", K_CPUS, T_LONG, OFF(cpus), .def = "1", .min = 1, .max = 16,
	  .help = "guest vCPUs; under TCG one vCPU is started as `-smp 1,maxcpus=2` (QEMU's bound "
		  "only: the guest still counts one CPU, nr_cpu_ids=1) so that QEMU before 8.1 keeps the guest's memory "
		  "barriers (below: issue 42's hang)" },
	{ "timeout", K_TIMEOUT, T_DURATION0, OFF(timeout_key), .def = "0",
	  .help = "wall-clock limit of one VM run, a safety net for a hung guest: on expiry the "
		  "harness first reads through QEMU's QMP socket where each vCPU is (five samples of "
		  "its program counter, then, with the guest stopped at a moment it is in kernel "
		  "text, the kernel text words on its stack, named from the kernel's System.map, "
		  "into the run's `hang.txt`; the summary, the function most samples found each "
		  "vCPU in, goes to the log and `hang` in `metadata.json`), then the VM is killed, "
		  "the run marked `timeout` and "
		  "`partial`, and the rows it completed kept; "
		  "`0`: derived from the plan so that a healthy run never meets it (every phase at its "
		  "bound: 60 s of boot and snapshots, `fill-timeout`, `warmup`, fio's layout at 10 "
		  "MiB/s and its runtime, each request at its `alloc-timeout` (60 s if none) with its "
		  "interval and hold, 10 min for a `job` or `script`; plus 25% and 60 s). "
		  "`cmabench plan` prints it" },
	{ "hang-silence", K_HANG_SILENCE, T_DURATION0, OFF(hang_silence), .def = "60s",
	  .help = "the progress watchdog's bound: a guest whose programs show no progress this "
		  "long (no line of our init, no heartbeat whose CPU or I/O numbers moved, no row "
		  "on the share; kernel messages do not count) is asked from the host what its "
		  "tasks wait on (a break on the serial line, sysrq 9, t and w, with the kernel's "
		  "jiffies read through QMP before and after: do timers run?), its vCPUs sampled "
		  "as at `timeout`, and the run ends as `hang`, `partial`, rows kept, within 2 "
		  "minutes of its last progress; what the watchdog did is in the run's "
		  "`watchdog.txt` (with each virtio-blk queue's state from both sides, QEMU's "
		  "and the guest's ring indexes, and the vCPU's local APIC; a queue QEMU has "
		  "emptied whose interrupt the guest still awaits is named in the summary as a "
		  "lost virtio interrupt), the stacks in its "
		  "`console.log`. Each step beats every 20 s "
		  "(`workloads/guest/heartbeat.c`, one sleeping process, the same in every "
		  "set-up). `0`: no watchdog, only `timeout`" },
	{ "scratch-stall", K_SCRATCH_STALL, T_STRING, OFF(scratch_stall), .form = "text",
	  .help = "a fault to inject (the watchdog's test): when a console line contains this "
		  "text, the scratch disk is throttled to 1 byte/s through QMP, so that a read "
		  "from it never completes; empty: none" },
	{ "baseline", K_BASELINE, T_STRING, OFF(baseline), .form = "section",
	  .help = "the section the report compares the others with (`cmabench report --baseline` "
		  "overrides it); default: the first section that allocated, else the first "
		  "section" },
	{ "primary", K_PRIMARY, T_STRING, OFF(primary), .form = "list of `METRIC[@PAGES]:A/B`",
	  .help = "the comparisons the scenario is about, declared before its runs: each a metric "
		  "of section B against section A, at a request size for the allocation metrics "
		  "(`@all`: every size of `alloc-pages`): `user-` or `kernel-` + `p50`, `p99`, "
		  "`mean`, `success`, `retries` (allocation latency and success per run); "
		  "`burst-p50`, `burst-ok`; `job-elapsed`, `job-user`, `job-sys`; `launch-p50`, "
		  "`launch-cold-p50` (app-switch's launches: every one, the cold ones); `read-bw`, "
		  "`write-bw` (the foreground fio job); `bg-read-bw`, `bg-write-bw` (the one "
		  "background fio job, over the whole run); `hit-rate`, `occupancy` (cleancache). The "
		  "report tests them exactly, with a Hodges-Lehmann interval, and adjusts their "
		  "p-values together (Benjamini-Hochberg); every other row is a secondary family, "
		  "adjusted on its own. The same in every section (set it in `[global]`)" },
	{ "order-seed", K_ORDER_SEED, T_LONG, OFF(order_seed), .def = "1", .min = 0,
	  .max = 1L << 30, .form = "integer",
	  .help = "the sections run in a shuffled order within each repetition (a drift of the "
		  "host, or a neighbour's load, then lands on no set-up more than another), "
		  "from this seed and the repetition's number, so the same seed gives the same "
		  "order; each run's metadata records the seed and its place "
		  "(`order_seed`, `order_in_repetition`); `0`: the file's order in every "
		  "repetition. The same in every section (set it in `[global]`)" },
	{ "parallel", K_PARALLEL, T_BOOL, OFF(parallel), .def = "yes",
	  .help = "whether the run may share the host with other VMs under `cmabench run --jobs N` "
		  "(each VM pinned to cores of its own); `no` makes the whole scenario run one VM "
		  "at a time (latency tails feel a neighbour)" },
	{ "repeat", K_REPEAT, T_LONG, OFF(repeat), .def = "1", .min = 1, .max = 1000,
	  .help = "repetitions, each in a fresh VM; the run is the unit of replication, and with "
		  "fewer than 5 per set-up no difference can be significant (5 against 5 "
		  "completely separated gives p = 0.0079, exact): every comparison scenario that comes "
		  "with cmabench repeats 5 times" },
	{ "scratch", K_SCRATCH, T_SIZE, OFF(scratch), .def = "1G",
	  .help = "the scratch disk (ext4, mounted at `/mnt/scratch` in the guest); sparse on the "
		  "host. build-sim's tree and app-switch's files are written into it on the host, "
		  "by the same programs, before the guest boots (the run's `plan/layout`)" },
	{ "fio", K_FIO, T_STRING, OFF(fio), .form = "file name",
	  .help = "fio job file in `workloads/fio/`, run on the scratch disk" },
	{ "fio-runtime", K_FIO_RUNTIME, T_DURATION, OFF(fio_runtime), .def = "10s",
	  .help = "passed to the job file as `${FIO_RUNTIME}` (seconds)" },
	{ "fio-size", K_FIO_SIZE, T_SIZE, OFF(fio_size), .def = "256M",
	  .help = "passed to the job file as `${FIO_SIZE}`" },
	{ "alloc-count", K_ALLOC_COUNT, T_LONG, OFF(alloc_count), .guest = true, .def = "10", .min = 0,
	  .max = 100000,
	  .help = "allocations per size, each through `alloc-path`" },
	{ "alloc-pages", K_ALLOC_PAGES, T_LONG_LIST, OFF(alloc_pages), .guest = true, .def = "1024", .min = 1,
	  .max = 1L << 22,
	  .help = "request sizes in pages, comma-separated, e.g. `1,512,1024`" },
	{ "append", K_APPEND, T_STRING, OFF(append),
	  .help = "extra kernel command line" },
	{ "background", K_BACKGROUND, T_BACKGROUND, OFF(bg),
	  .help = "workloads started before the foreground and stopped after it, each keeping its "
		  "own results: `fio:JOB` (a job file in `workloads/fio/`, time-based until "
		  "stopped, output `bg-fio-JOB.json`), `hog` (anonymous memory kept filled and "
		  "touched), `pin-io` (pages of its own that landed in the area kept referenced, "
		  "so CMA cannot migrate them), `build` (build-sim building in a loop), `alloc` "
		  "(the allocation plan in a loop beside a foreground `job`, untraced), `sampler` "
		  "(1 s samples of cleancache, CMA and page-cache counters into `samples.csv`)" },
	{ "hog-percent", K_HOG_PERCENT, T_LONG, OFF(hog_percent), .def = "50", .min = 1,
	  .max = 95,
	  .help = "share of `MemAvailable` the hog keeps" },
	{ "pin-buffer", K_PIN_BUFFER, T_SIZE, OFF(pin_buffer), .def = "64M",
	  .help = "memory pin-io faults in to find pages inside the area" },
	{ "pin-mode", K_PIN_MODE, T_CHOICE, OFF(pin_mode), .def = "vmsplice",
	  .posval = VALUES("vmsplice", "dio"), .what = "a pin mode",
	  .help = "`vmsplice`: the pages sit in pipes nobody reads for 1 s, then 0.1 s free, "
		  "repeatedly; `dio`: O_DIRECT reads in flight into them from 4 threads" },
	{ "warmup", K_WARMUP, T_DURATION0, OFF(warmup), .def = "5s",
	  .help = "how long backgrounds run before the foreground" },
	{ "alloc-path", K_ALLOC_PATH, T_CHOICE, OFF(alloc_path), .guest = true, .def = "debugfs",
	  .posval = VALUES("heap", "dma", "debugfs"), .what = "an allocation path",
	  .help = "how each request asks for its buffer: `heap`, the DMA-BUF heap of the area "
		  "(`/dev/dma_heap/<area>`, as Android's camera and video HALs allocate; the buffer "
		  "mapped and each page touched once, then closed); `dma`, `dma_alloc_coherent()` "
		  "from our module `cmabench_dma.ko` as a driver calls it (a pfn outside the area is "
		  "the buddy allocator's fallback, recorded as a CMA failure; one-page requests "
		  "never reach CMA and are refused); `debugfs`, `cma_alloc()` through "
		  "`/sys/kernel/debug/cma/<area>/alloc` at `alloc-align` (a path no driver takes). "
		  "Both device paths ask `cma_alloc()` for alignment min(get_order(size), 8) and "
		  "zero the buffer, and need the area to be the default one: `cma=` makes it so, "
		  "and a gcma set-up boots with `gcma=<area>,default`. Sections without an area "
		  "(`none`, `carveout`) make no requests: the key has no effect there" },
	{ "alloc-align", K_ALLOC_ALIGN, T_STRING, OFF(alloc_align), .guest = true, .def = "0",
	  .form = "order or `dma`",
	  .help = "with `alloc-path=debugfs`: the alignment order `cma_alloc()` gets (written to "
		  "the area's debugfs `alloc_align`, a file of our series' traced head: kernels "
		  "`gcma` and `vanilla-traced`, not `vanilla`); `0`, the debugfs default, is the worst "
		  "case; `1` is the GCMA authors' evaluation module's `cma_alloc(cma, n, 1)`; `dma`: "
		  "as the device paths, min(get_order(size), 8)" },
	{ "alloc-burst", K_ALLOC_BURST, T_LONG, OFF(alloc_burst), .guest = true, .def = "1", .min = 1,
	  .max = 256,
	  .help = "allocations made back to back, held and freed together (a camera pipeline's "
		  "buffers)" },
	{ "alloc-hold", K_ALLOC_HOLD, T_DURATION0, OFF(alloc_hold), .guest = true, .def = "0",
	  .help = "how long a burst is held before it is freed" },
	{ "alloc-interval", K_ALLOC_INTERVAL, T_DURATION0, OFF(alloc_interval), .guest = true, .def = "0",
	  .help = "time between bursts" },
	{ "alloc-jitter", K_ALLOC_JITTER, T_DURATION0, OFF(alloc_jitter), .guest = true, .def = "0",
	  .help = "uniform ± jitter on the interval (at most the interval)" },
	{ "alloc-refill", K_ALLOC_REFILL, T_DURATION0, OFF(alloc_refill), .guest = true, .def = "0",
	  .help = "before each burst, wait up to this long for the area's tenants to be back at "
		  "`fill`% (a request took part of the area back), and stop the fill's keeper "
		  "from then to the burst's free, so that each request meets the condition the "
		  "experiment is about and no reader of ours runs in its timed window; the time "
		  "waited is `refill_wait_ns` in `alloc.csv`, and a burst that met less than `fill` "
		  "still runs (its occupancy says so); `0`: no wait, the keeper runs on. Needs "
		  "`fill`" },
	{ "alloc-passes", K_ALLOC_PASSES, T_LONG, OFF(alloc_passes), .guest = true, .def = "1", .min = 1,
	  .max = 10000,
	  .help = "times the plan is made: every size in turn (`alloc-count` each), then again; "
		  "with a `job`, a fixed plan that runs beside it, so that every set-up serves the "
		  "same requests" },
	{ "alloc-start", K_ALLOC_START, T_DURATION0, OFF(alloc_start), .guest = true, .def = "0",
	  .help = "with a `job`: how long after the job starts the plan's first request comes "
		  "(the plan then runs beside the job, traced, and the run waits for the job "
		  "after it); without a job: a wait before the first request" },
	{ "alloc-timeout", K_ALLOC_TIMEOUT, T_DURATION0, OFF(alloc_timeout), .guest = true, .def = "60s",
	  .help = "a request's deadline: one still running then is aborted (a fatal signal makes "
		  "`alloc_contig_range()` give up), recorded as timed out (`timed_out=1`, errno "
		  "ETIMEDOUT) with its latency censored at the deadline, and the plan goes on; `0`: "
		  "none. A minute is past what a device waiting on its buffer (a camera, a decoder) "
		  "would tolerate, and it bounds a run (the derived `timeout` counts every request "
		  "at its deadline); CMA's slow regime has taken 52-95 s for 8192-32000-page "
		  "requests under TCG (`latency-sweep`, `rfc-v2-background`, 2026-12-04): such "
		  "requests now record as more than 60 s instead of stretching a run past its VM "
		  "timeout" },
	{ "seed", K_SEED, T_LONG, OFF(seed), .guest = true, .def = "1", .min = 0, .max = 1L << 30,
	  .form = "integer",
	  .help = "seed of the jitter generator: the same seed replays the same arrival times" },
	{ "script", K_SCRIPT, T_STRING, OFF(script), .form = "file name",
	  .help = "a shell script in `workloads/guest/scripts/` run as the last foreground step, "
		  "between the snapshots (environment: `R` results directory, `AREA`); its "
		  "`alloc-<tag>.csv` files (alloc.csv's columns) and `cleancache-<phase>/` counter "
		  "copies join the data set" },
	{ "job", K_JOB, T_CHOICE, OFF(job), .values = job_names, .may_be_empty = true,
	  .what = "a job",
	  .help = "a foreground job (a row of `harness/scenario/job.c`) that runs to completion "
		  "and is timed (elapsed, user, sys into `jobtime.csv`): `build` is build-sim, a "
		  "kernel-build-like job (J workers read sources, churn an 8 MiB heap each, write "
		  "objects, then link); `apps` is app-switch, a phone user switching between apps "
		  "(`app-*` keys; each launch's time to ready and major faults into `launches.csv`)" },
	{ "build-files", K_BUILD_FILES, T_LONG, OFF(build_files), .def = "1000", .min = 1,
	  .max = 100000,
	  .help = "build-sim's source files (4–64 KiB each)" },
	{ "build-jobs", K_BUILD_JOBS, T_LONG, OFF(build_jobs), .def = "2", .min = 1, .max = 64,
	  .help = "build-sim's parallel workers" },
	{ "build-work", K_BUILD_WORK, T_LONG, OFF(build_work), .def = "32", .min = 1,
	  .max = 10000,
	  .help = "passes over each worker's heap per file: the CPU per \"compilation\"" },
	{ "build-headers", K_BUILD_HEADERS, T_SIZE, OFF(build_headers),
	  .help = "shared headers (64 KiB each) build-sim lays out beside the sources; every "
		  "compilation reads `build-includes` of them, the popular ones far more often, so "
		  "that their pages are re-read (the workingset cleancache keeps) while the "
		  "sources stream past once; unset: none" },
	{ "build-includes", K_BUILD_INCLUDES, T_LONG, OFF(build_includes), .def = "8", .min = 1,
	  .max = 1000,
	  .help = "headers each compilation reads (with `build-headers`)" },
	{ "app-count", K_APP_COUNT, T_LONG, OFF(app_count), .def = "20", .min = 1, .max = 256,
	  .help = "app-switch's apps, launched in a Zipf-like order (app i weighs 1 / (i + 1))" },
	{ "app-code", K_APP_CODE, T_SIZE, OFF(app_code), .def = "16M",
	  .help = "each app's code file, mapped and read whole at a cold launch (a phone's "
		  "dex/oat and libraries)" },
	{ "app-assets", K_APP_ASSETS, T_SIZE, OFF(app_assets), .def = "8M",
	  .help = "each app's assets file, half of it read at a cold launch" },
	{ "app-heap", K_APP_HEAP, T_SIZE, OFF(app_heap), .def = "32M",
	  .help = "each app's anonymous heap, written at launch and touched at each switch" },
	{ "app-launches", K_APP_LAUNCHES, T_LONG, OFF(app_launches), .def = "100", .min = 1,
	  .max = 100000,
	  .help = "launches in a run (cold: the app was not alive; warm: switched to)" },
	{ "app-keep", K_APP_KEEP, T_LONG, OFF(app_keep), .def = "4", .min = 1, .max = 256,
	  .help = "apps kept alive: launching one more kills the least recently used, as a "
		  "low-memory killer does" },
	{ "app-dwell", K_APP_DWELL, T_DURATION0, OFF(app_dwell), .def = "1s",
	  .help = "time spent in an app before the next switch" },
	{ "trace", K_TRACE, T_STRING, OFF(trace), .def = "cma", .form = "list",
	  .help = "trace events (systems or `system:event`) that `trace-cmd` collects around the "
		  "allocations into `trace.dat` (16 MiB per CPU: 2 MiB for each request's start and "
		  "finish, 14 MiB for busy retries and the attribution's events; a full buffer "
		  "drops and counts new events, see `trace-loss.csv`); systems the kernel lacks "
		  "are skipped; empty: no "
		  "tracing. The data set reads the `cma` events only; `gcma` and `cleancache` "
		  "events come by the thousand per second under a full cleancache and can fill the "
		  "buffer: ask for them (`trace=cma,gcma,cleancache`) only for a look at single "
		  "events. `attribution` (alone or in the list): the events of the allocating task "
		  "only that attribute each request's time (`trace-attr.csv`, "
		  "`data/attribution.csv`, docs/attribution.md)" },
	{ "fill", K_FILL, T_LONG, OFF(fill), .guest = true, .def = "0", .min = 0, .max = 100,
	  .help = "the area's occupancy by its natural tenants, in %, that a fill phase reaches "
		  "before the first allocation and keeps while the allocations run (below); `0`: "
		  "an idle area. Every allocation scenario that comes with cmabench fills to 90" },
	{ "fill-timeout", K_FILL_TIMEOUT, T_DURATION, OFF(fill_timeout), .def = "2m",
	  .help = "how long the fill may take; a run that does not reach its fill in time is "
		  "`not-filled` (`fill.csv`), left out of every comparison and named in the "
		  "report" },
	{ "fill-keep", K_FILL_KEEP, T_ENUM, OFF(fill_keep), .def = "stream",
	  .posval = VALUES("stream", "paced"), .what = "a way of keeping the area full",
	  .help = "how a filled area is kept full while the work runs (below): its readers read "
		  "on, or only while the area is short" },
	{ "clock", K_CLOCK, T_ENUM, OFF(clock), .def = "host",
	  .posval = VALUES("host", "instructions"), .what = "a guest clock",
	  .help = "what the guest's time counts. `host`: multi-threaded TCG, one host thread "
		  "per vCPU; guest time follows the host's clock and so the host's speed, which "
		  "drifts over minutes (a build's time spread 11% over 5 runs within 30 minutes, "
		  "results/bench/none-spread-20261207). `instructions`: QEMU's `-icount "
		  "shift=0,sleep=on`: one host thread runs every vCPU in turn, each guest "
		  "instruction is 1 ns of guest time, and time idle (a throttled disk's wait) "
		  "follows the host's clock; that build's spread fell to 0.8%, but every "
		  "instruction costs the same: arithmetic is slower than under the host's clock "
		  "(the build's user time 3.3x), memory copies faster (the guest copies pages "
		  "2.3x slower than the host, against 4.75x under the host's clock), so "
		  "copy-heavy kernel work (migration, cleancache) weighs less against the rest; "
		  "its runs take 2.3x as long, and vCPUs run in turn, not at once. TCG only: such runs never use KVM; `disk-scale=cpu` is measured under "
		  "the same clock" },
	{ "swap", K_SWAP, T_SIZE, OFF(swap),
	  .help = "swap space the guest turns on before anything else runs (`swap-device`); unset "
		  "or `0M`: none. The kernels have swap compiled in, so without it anonymous memory "
		  "cannot be reclaimed, as before. The RFC v2's build machine had 128 MiB; "
		  "phones swap to zram" },
	{ "swap-device", K_SWAP_DEVICE, T_CHOICE, OFF(swap_device), .def = "disk",
	  .posval = VALUES("disk", "zram"), .what = "a swap device",
	  .help = "`disk`: a swap file of `swap` bytes on the scratch disk (its storage model "
		  "applies); `zram`: a compressed block device in the guest's memory (lzo-rle) of "
		  "`swap` bytes, uncompressed" },
	{ "disk", K_DISK, T_CHOICE, OFF(disk), .def = "host", .values = disk_list,
	  .what = "a storage model",
	  .help = "the scratch disk's storage model: QEMU's block throttling "
		  "(`throttling.bps-read/-write`, `throttling.iops-read/-write` on its `-drive`) at "
		  "the figures below; `host`: unthrottled, i.e. the host's page cache, faster than "
		  "cleancache under TCG" },
	{ "disk-scale", K_DISK_SCALE, T_DISK_SCALE, OFF(disk_scale), .def = "1",
	  .form = "number 1-10000 \\| `cpu`",
	  .help = "divide every limit of the disk model by this; `cpu`: by how much slower the "
		  "guest copies 4 KiB pages than the host: the median of 5 rounds, kept in the "
		  "cache (below; `cmabench run --recalibrate` measures it again)" },
};

const char *setup_name(enum setup s)
{
	return setup_names[s];
}

const char *setup_area_name(enum setup s)
{
	if (s == SETUP_CMA)
		return "reserved";
	if (s == SETUP_GCMA)
		return "gcma";
	return NULL;
}

/* The values a T_CHOICE, T_ENUM or T_ARCH row takes. */
static void key_values(const struct key_def *k, struct strlist *out)
{
	if (k->values)
		k->values(out);
	for (size_t i = 0; k->posval && k->posval[i]; i++)
		sl_add(out, k->posval[i]);
}

static ssize_t value_index(const struct key_def *k, const char *val)
{
	struct strlist l = { 0 };
	ssize_t found = -1;

	key_values(k, &l);
	for (size_t i = 0; i < l.n && found < 0; i++)
		if (!strcmp(l.v[i], val))
			found = (ssize_t)i;
	sl_free(&l);
	return found;
}

/* "is not a set-up (none, carveout, cma, gcma)", in a buffer of the caller's. */
static const char *not_a_value(const struct key_def *k, char *buf, size_t size)
{
	struct strlist l = { 0 };
	size_t len;

	key_values(k, &l);
	len = (size_t)snprintf(buf, size, "is not %s (", k->what);
	for (size_t i = 0; i < l.n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", l.v[i]);
	if (len < size)
		snprintf(buf + len, size - len, ")");
	sl_free(&l);
	return buf;
}

/* How a row's values are written: its column "type" in docs/scenarios.md. */
static char *key_form(const struct key_def *k, bool md)
{
	struct strbuf sb = { 0 };
	struct strlist l = { 0 };

	sb_init(&sb);
	if (k->form) {
		sb_add(&sb, k->form);
		goto out;
	}
	switch (k->type) {
	case T_STRING: sb_add(&sb, "text"); break;
	case T_SIZE: sb_add(&sb, "size"); break;
	case T_DURATION: sb_add(&sb, "duration"); break;
	case T_DURATION0: sb_add(&sb, "duration or `0`"); break;
	case T_LONG: sb_addf(&sb, "%ld–%ld", k->min, k->max); break;
	case T_LONG_LIST:
	case T_BACKGROUND: sb_add(&sb, "list"); break;
	case T_BOOL: sb_add(&sb, "`yes` \\| `no`"); break;
	case T_CHOICE:
	case T_ENUM:
	case T_ARCH:
	case T_DISK_SCALE:
		key_values(k, &l);
		for (size_t i = 0; i < l.n; i++)
			sb_addf(&sb, "%s`%s`", i ? " \\| " : "", l.v[i]);
		sl_free(&l);
		break;
	}
out:
	if (!md) {
		/* the terminal's form: "a | b", no backquotes */
		char *t = sb.buf, *d = sb.buf;

		for (; *t; t++)
			if (*t != '`' && *t != '\\')
				*d++ = *t;
		*d = '\0';
	}
	return sb_detach(&sb);
}

void scenario_print_keys(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *form = key_form(&keys[i], false);

		fprintf(f, "  %-14s %s (default: %s)\n  %-14s %s\n", keys[i].name, form,
			keys[i].def ? keys[i].def : "none", "", keys[i].help);
		free(form);
	}
	fprintf(f, "\nbackground workloads:\n");
	workload_print_help(f);
}

void scenario_print_keys_md(FILE *f)
{
	fprintf(f, "| key | type | default | meaning |\n|---|---|---|---|\n");
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *form = key_form(&keys[i], true);

		fprintf(f, "| `%s` | %s | %s%s%s | %s |\n", keys[i].name, form,
			keys[i].def ? "`" : "", keys[i].def ? keys[i].def : "—",
			keys[i].def ? "`" : "", keys[i].help);
		free(form);
	}
}

const char *key_name_of(enum scn_key id)
{
	/* The table is ordered for help output, not by id. */
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i].id == id)
			return keys[i].name;
	return "?";
}

const struct key_def *key_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

int parse_long(const char *s, long *out, const char **why)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno) {
		*why = "is not a whole number";
		return -1;
	}
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out, const char **why)
{
	char *end;
	unsigned long long v;
	uint64_t mult;

	if (!isdigit((unsigned char)*s)) {
		*why = "is not a size (expected a number and a unit, e.g. 64M)";
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno) {
		*why = "is too large";
		return -1;
	}
	switch (toupper((unsigned char)*end)) {
	case 'K': mult = 1ull << 10; break;
	case 'M': mult = 1ull << 20; break;
	case 'G': mult = 1ull << 30; break;
	case 'T': mult = 1ull << 40; break;
	case '\0':
		*why = "needs a unit: K, M, G or T (binary), e.g. 64M";
		return -1;
	default:
		*why = "has an unknown unit (use K, M, G or T)";
		return -1;
	}
	end++;
	if (!strcmp(end, "iB") || !strcmp(end, "B"))
		end += strlen(end);
	if (*end) {
		*why = "has trailing characters after the unit";
		return -1;
	}
	if (v > UINT64_MAX / mult) {
		*why = "is too large";
		return -1;
	}
	*out = v * mult;
	return 0;
}

int parse_duration(const char *s, double *out, const char **why)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s)) {
		*why = "is not a duration (expected e.g. 10s, 500ms, 5m)";
		return -1;
	}
	v = strtod(s, &end);
	if (!strcmp(end, "ms"))
		v /= 1000;
	else if (!strcmp(end, "s"))
		;
	else if (!strcmp(end, "m"))
		v *= 60;
	else if (!strcmp(end, "h"))
		v *= 3600;
	else {
		*why = *end ? "has an unknown unit (use ms, s, m or h)"
			    : "needs a unit: ms, s, m or h, e.g. 10s";
		return -1;
	}
	if (v <= 0) {
		*why = "must be above zero";
		return -1;
	}
	*out = v;
	return 0;
}

/* disk-scale: "cpu" (0: measured) or a divisor from 1 to 10000. */
static int parse_disk_scale(const char *val, double *out, const char **why)
{
	char *end;
	double v;

	if (!strcmp(val, "cpu")) {
		*out = 0;
		return 0;
	}
	v = strtod(val, &end);
	if (end == val || *end || !(v >= 1) || v > 1e4) {
		*why = "is not 'cpu' or a number from 1 to 10000";
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_bool(const char *val, bool *out, const char **why)
{
	if (!strcmp(val, "yes") || !strcmp(val, "1"))
		*out = true;
	else if (!strcmp(val, "no") || !strcmp(val, "0"))
		*out = false;
	else {
		*why = "is not yes or no";
		return -1;
	}
	return 0;
}

/* A comma-separated list of whole numbers in k's range (alloc-pages). */
static int parse_long_list(struct run_spec *r, const struct key_def *k, const char *val,
			   const char **why)
{
	char *copy = xstrdup(val), *save = NULL;
	long vals[MAX_ALLOC_SIZES];
	size_t n = 0;
	int ret = -1;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tok = trim(tok);
		if (n == MAX_ALLOC_SIZES) {
			*why = "has too many values (at most 32)";
			goto out;
		}
		if (parse_long(tok, &vals[n], why)) {
			*why = "has a value that is not a whole number";
			goto out;
		}
		if (vals[n] < k->min || vals[n] > k->max) {
			*why = "has a value out of range";
			goto out;
		}
		n++;
	}
	if (!n) {
		*why = "is empty";
		goto out;
	}
	memcpy(r->alloc_pages, vals, n * sizeof(vals[0]));
	r->nalloc_pages = n;
	ret = 0;
out:
	free(copy);
	return ret;
}

int set_value(struct run_spec *r, const struct key_def *k, const char *val,
		     const char **why)
{
	/* a buffer for messages that name the values: one parse at a time */
	static char msg[256];
	char *field = (char *)r + k->off;

	switch (k->type) {
	case T_STRING:
	case T_CHOICE: {
		char **p = (char **)field;

		if (k->type == T_CHOICE && !(val[0] ? value_index(k, val) >= 0 : k->may_be_empty)) {
			*why = not_a_value(k, msg, sizeof(msg));
			return -1;
		}
		free(*p);
		*p = val[0] ? xstrdup(val) : NULL;
		return 0;
	}
	case T_ENUM: {
		ssize_t i = value_index(k, val);

		if (i < 0) {
			*why = not_a_value(k, msg, sizeof(msg));
			return -1;
		}
		*(int *)field = (int)i;
		return 0;
	}
	case T_ARCH: {
		const struct cmb_arch *a = arch_find(val);

		if (!a) {
			*why = not_a_value(k, msg, sizeof(msg));
			return -1;
		}
		*(const struct cmb_arch **)field = a;
		return 0;
	}
	case T_SIZE:
		return parse_size(val, (uint64_t *)field, why);
	case T_DURATION:
		return parse_duration(val, (double *)field, why);
	case T_DURATION0:
		if (!strcmp(val, "0")) {
			*(double *)field = 0;
			return 0;
		}
		return parse_duration(val, (double *)field, why);
	case T_BACKGROUND:
		return bg_list_parse((struct bg_list *)field, val, why);
	case T_DISK_SCALE:
		return parse_disk_scale(val, (double *)field, why);
	case T_BOOL:
		return parse_bool(val, (bool *)field, why);
	case T_LONG: {
		long v;

		if (parse_long(val, &v, why))
			return -1;
		if (v < k->min || v > k->max) {
			*why = "is out of range";
			return -1;
		}
		*(long *)field = v;
		return 0;
	}
	case T_LONG_LIST:
		return parse_long_list(r, k, val, why);
	}
	return -1;
}

/* Every key at its row's default. */
void spec_defaults(struct run_spec *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *why = NULL;

		if (keys[i].def && set_value(r, &keys[i], keys[i].def, &why))
			{
			err_msg("scenario key %s: default '%s' %s", keys[i].name, keys[i].def, why);
			abort();
		}
	}
}

static bool owns_string(const struct key_def *k)
{
	return k->type == T_STRING || k->type == T_CHOICE;
}

void spec_copy(struct run_spec *dst, const struct run_spec *src)
{
	*dst = *src;
	dst->section = src->section ? xstrdup(src->section) : NULL;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char **d = (char **)((char *)dst + keys[i].off);

		if (owns_string(&keys[i]))
			*d = *d ? xstrdup(*d) : NULL;
	}
	bg_list_copy(&dst->bg, &src->bg);
}

void spec_free(struct run_spec *r)
{
	free(r->section);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (owns_string(&keys[i]))
			free(*(char **)((char *)r + keys[i].off));
	bg_list_free(&r->bg);
}

/*
 * A row's value as a scenario file would spell it, in base units where the
 * type has some (sizes in bytes, durations in seconds): what the guest gets.
 */
static char *key_text(const struct run_spec *r, const struct key_def *k)
{
	const char *field = (const char *)r + k->off;
	struct strbuf sb = { 0 };

	sb_init(&sb);
	switch (k->type) {
	case T_STRING:
	case T_CHOICE:
		sb_add(&sb, *(char *const *)field ? *(char *const *)field : "");
		break;
	case T_ENUM:
		sb_add(&sb, k->posval[*(const int *)field]);
		break;
	case T_ARCH:
		sb_add(&sb, (*(const struct cmb_arch *const *)field)->name);
		break;
	case T_SIZE:
		sb_addf(&sb, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case T_LONG:
		sb_addf(&sb, "%ld", *(const long *)field);
		break;
	case T_DURATION:
	case T_DURATION0:
	case T_DISK_SCALE:
		sb_addf(&sb, "%g", *(const double *)field);
		break;
	case T_BOOL:
		sb_add(&sb, *(const bool *)field ? "yes" : "no");
		break;
	case T_LONG_LIST:
		for (size_t i = 0; i < r->nalloc_pages; i++)
			sb_addf(&sb, "%s%ld", i ? "," : "", r->alloc_pages[i]);
		break;
	case T_BACKGROUND: {
		char *s = bg_list_string(&r->bg);

		sb_add(&sb, s);
		free(s);
		break;
	}
	}
	return sb_detach(&sb);
}

void scenario_guest_env(const struct run_spec *r, struct strbuf *steps)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *v, *name;

		if (!keys[i].guest)
			continue;
		v = key_text(r, &keys[i]);
		name = xasprintf("CMB_%s", keys[i].name);
		for (char *c = name; *c; c++)
			*c = *c == '-' ? '_' : (char)toupper((unsigned char)*c);
		sb_addf(steps, "env %s %s\n", name, v);
		free(name);
		free(v);
	}
}
