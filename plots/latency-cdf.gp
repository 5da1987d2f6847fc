# Allocation latency CDF per request size and side (user/kernel), one line
# per set-up (section); log x axis.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/latency-cdf.gp
# common.inc sits beside this script
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
set logscale x
set xlabel "allocation latency (µs, log scale)"
set ylabel "fraction of requests that succeeded within latency"
set yrange [0:1.02]
set key bottom right
do for [set in latency_sets] {
	side = set[1:strstrt(set, "-") - 1]
	pages = set[strstrt(set, "-") + 1:]
	f = sprintf("%s/plot-latency-%s.dat", datadir, set)
	secs = value(sprintf("secs_%s_%s", side, pages))
	fails = value(sprintf("fail_%s_%s", side, pages))
	set title sprintf("%s: %s-side latency CDF, %s-page allocations", run_id, side, pages)
	do for [t in "png svg"] {
		eval(t eq "png" ? png_term : svg_term)
		set output sprintf("%s/latency-cdf-%s.%s", outdir, set, t)
		# Failed requests are their own mass: a curve stops at its success share.
		plot for [i=1:words(secs)] f index (i - 1) using 1:2 with steps lw 2 \
			lc rgb sec_rgb(word(secs, i)) \
			title sprintf("%s (%s%% failed)", word(secs, i), word(fails, i))
		unset output
	}
}
