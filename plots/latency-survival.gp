# Kaplan-Meier survival of allocation latency, S(t) = P(a request is still
# running after t), per request size where some request was aborted at its
# deadline (alloc-timeout), one line per set-up with its 95% band; log x.
# A CDF would count the aborted requests as failures (stopping at the
# success share) or pile them at the deadline: this curve ends at the share
# still running at the deadline, which is what a waiting driver meets.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/latency-survival.gp
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
set logscale x
set xlabel "allocation latency (µs, log scale)"
set ylabel "share of requests still running (Kaplan-Meier)"
set yrange [0:1.02]
set key top right
do for [pages in survival_sets] {
	f = sprintf("%s/plot-survival-%s.dat", datadir, pages)
	secs = value(sprintf("survsecs_%s", pages))
	set title sprintf("%s: user-side latency survival, %s-page allocations (aborted requests censored at the deadline)", run_id, pages)
	do for [t in "png svg"] {
		eval(t eq "png" ? png_term : svg_term)
		set output sprintf("%s/latency-survival-%s.%s", outdir, pages, t)
		# the 95% band (Greenwood) as thin dashed steps around each curve
		plot for [i=1:words(secs)] f index (i - 1) using 1:2 with steps lw 2 lc rgb sec_rgb(word(secs, i)) \
			title word(secs, i), \
		     for [i=1:words(secs)] f index (i - 1) using 1:3 with steps dt 2 lw 1 lc rgb sec_rgb(word(secs, i)) notitle, \
		     for [i=1:words(secs)] f index (i - 1) using 1:4 with steps dt 2 lw 1 lc rgb sec_rgb(word(secs, i)) notitle
		unset output
	}
}
