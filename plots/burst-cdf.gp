# Burst latency CDF (camera-like plans: a burst lasts from its first
# request's start to its last request's end), one line per set-up.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/burst-cdf.gp
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
if (words(burst_sections) == 0) exit
set logscale x
set xlabel "burst latency (ms, log scale)"
set ylabel "fraction of bursts ≤ latency"
set yrange [0:1.02]
set key bottom right
set title sprintf("%s: burst latency CDF (every burst, failed ones too)", run_id)
f = datadir."/plot-bursts.dat"
do for [t in "png svg"] {
	eval(t eq "png" ? png_term : svg_term)
	set output sprintf("%s/burst-cdf.%s", outdir, t)
	plot for [i=1:words(burst_sections)] f index (i - 1) using 1:2 with steps lw 2 \
		lc rgb sec_rgb(word(burst_sections, i)) title word(burst_sections, i)
	unset output
}
