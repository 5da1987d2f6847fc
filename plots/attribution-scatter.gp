# Kernel-side latency of each attributed request (trace=attribution,
# docs/attribution.md) against the pages it had to move out of its range
# (migrated, reclaimed in place, or dropped from cleancache), one colour
# per set-up; log y.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/attribution-scatter.gp
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
if (!exists("have_attr") || !have_attr) exit
f = datadir."/plot-attr-scatter.dat"
set logscale y
set xlabel "pages migrated, reclaimed or dropped from cleancache"
set ylabel "kernel-side latency (ms, log scale)"
set key top left
do for [t in "png svg"] {
	eval(t eq "png" ? png_term : svg_term)
	set output sprintf("%s/attribution-scatter.%s", outdir, t)
	set title sprintf("%s: kernel-side latency against pages moved", run_id)
	plot for [i = 1:words(attr_sections)] f index (i - 1) using 1:2 with points pt 7 ps 0.8 \
		lc rgb sec_rgb(word(attr_sections, i)) title word(attr_sections, i)
	unset output
}
