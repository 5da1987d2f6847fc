/*
 * How much the emulation slows a page copy (workloads/guest/copy-rate.h):
 * the host's copy rate over the guest's, which disk-scale=cpu divides a
 * disk model's speed by, so that a cache hit and a disk read keep the
 * ratio they have on the device the model stands for.
 */
#ifndef CMB_CALIBRATE_H
#define CMB_CALIBRATE_H

#include "run/runner.h"

/*
 * ctx->copy_slowdown[arch] and copy_calib[arch] for the plan's runs that ask
 * for it (disk-scale=cpu), each arch with a guest of its own: from the
 * cache's history (per accelerator and QEMU version) unless ctx->recalibrate,
 * else the median of ctx->calib_rounds rounds in one short VM. Warns when
 * the rounds disagree or the host was loaded. 0, or -1 when not measured.
 */
int calibrate_for_plan(struct run_ctx *ctx, const struct plan *plan);
/*
 * Whether calibrate_for_plan will measure arch a (its rate is not in the
 * history). Before runner_accel, with the accelerator it will likely choose.
 */
bool calibrate_needed(const struct run_ctx *ctx, const struct plan *plan,
		      const struct cmb_arch *a);
/* One short boot (its progress estimate) and the host's 2 s loop. */
#define CALIBRATE_ESTIMATE_S 22.0

#endif
