# Allocation latency histogram per request size and side, one line per
# set-up; logarithmic bins (20 per decade) on a log x axis.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/latency-hist.gp
# common.inc sits beside this script
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
binw = 0.05
bin(x) = 10 ** ((floor(log10(x) / binw) + 0.5) * binw)
set logscale x
set xlabel "allocation latency (µs, log scale, 20 bins per decade)"
set ylabel "allocations (count)"
set yrange [0:*]
set key top right
do for [set in latency_sets] {
	side = set[1:strstrt(set, "-") - 1]
	pages = set[strstrt(set, "-") + 1:]
	f = sprintf("%s/plot-latency-%s.dat", datadir, set)
	secs = value(sprintf("secs_%s_%s", side, pages))
	set title sprintf("%s: %s-side latency histogram, %s-page allocations", run_id, side, pages)
	do for [t in "png svg"] {
		eval(t eq "png" ? png_term : svg_term)
		set output sprintf("%s/latency-hist-%s.%s", outdir, set, t)
		plot for [i=1:words(secs)] f index (i - 1) using (bin($1)):(1.0) smooth frequency \
			with histeps lw 2 lc rgb sec_rgb(word(secs, i)) title word(secs, i)
		unset output
	}
}
