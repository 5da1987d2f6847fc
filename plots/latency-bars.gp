# Median allocation latency per request size and set-up, whiskers from the
# minimum to the maximum; log y axis. One figure per side (user, kernel).
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/latency-bars.gp
# common.inc sits beside this script
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
set logscale y
set ylabel "allocation latency (µs, log scale): bar p50, whiskers min..max"
set xlabel "set-up / request size (pages)"
set style fill solid 0.5 border -1
set boxwidth 0.6
set xtics rotate by -30
set key top left
set offsets 0.5, 0.5, 0, 0
do for [side in "user kernel"] {
	f = sprintf("%s/plot-bars-%s.dat", datadir, side)
	# no figure for a side without samples (stats fails on an empty file)
	if (strstrt(latency_sets, side."-") > 0) {
		set title sprintf("%s: %s-side allocation latency per size", run_id, side)
		do for [t in "png svg"] {
			eval(t eq "png" ? png_term : svg_term)
			set output sprintf("%s/latency-bars-%s.%s", outdir, side, t)
			# each bar in its set-up's colour (common.inc)
			plot f using 0:4:(sec_rgb(strcol(2))):xticlabels(sprintf("%s / %d", strcol(2), $1)) \
				with boxes lc rgb variable title "p50", \
			     f using 0:4:3:5 with yerrorbars lc rgb "black" pt 0 title "min..max"
			unset output
		}
	}
}
