/*
 * Censored latencies: a request aborted at its deadline says only that its
 * latency is more than the deadline. Quantiles that rest on such a value
 * are lower bounds, and the distribution is a Kaplan-Meier survival curve,
 * S(t) = P(latency > t), rather than a CDF that would put the censored
 * requests at the deadline (or drop them).
 */
#ifndef CMB_SURVIVAL_H
#define CMB_SURVIVAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Type-7 quantile (stats.h) of x[0..n-1], where cens[i] means x[i] is a
 * lower bound. Ties sort uncensored first. True values are at least the
 * observed ones, so every order statistic is a lower bound, and an exact
 * one below the first censored value: *lower says whether the quantile
 * interpolates at or past it. NAN when n == 0.
 */
double surv_quantile(const double *x, const bool *cens, size_t n, double p, bool *lower);

/* One step of a Kaplan-Meier curve, at a time where something ended. */
struct km_step {
	double t;
	double s;                   /* S(t): share still running just after t */
	double se;                  /* Greenwood's standard error of s; 0 where s is 0 */
	size_t at_risk;             /* still running just before t */
	size_t events, censored;    /* ended at t; censored at t */
};

/*
 * Kaplan-Meier estimate of S(t) from x (event times, or censoring times
 * where cens[i]): at each distinct time, S *= 1 - events / at_risk, with
 * the censored at that time still at risk (the usual convention). Writes
 * the steps into *out (caller frees) and returns how many.
 */
size_t surv_kaplan_meier(const double *x, const bool *cens, size_t n, struct km_step **out);

#endif
