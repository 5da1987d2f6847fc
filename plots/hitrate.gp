# Cleancache hit rate over time: the share of lookups since the previous
# 1 s sample that hit (rows "cleancache.hit_rate_pct" that cmabench report
# derives from the sampler's hits and misses in datadir/samples.csv), one
# colour per set-up. The make target runs it only when samples.csv exists.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/hitrate.gp
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
f = datadir."/samples.csv"
set datafile separator ","
set title sprintf("%s: cleancache hit rate over time (lookups in each 1 s interval)", run_id)
# no figure when no run had a cache to sample
if (exists("have_hitrate") && !have_hitrate) exit
set xlabel "time since the run started (s)"
set ylabel "cleancache hit rate (%)"
set yrange [0:100]
set key top left
do for [t in "png svg"] {
	eval(t eq "png" ? png_term : svg_term)
	set output sprintf("%s/hitrate.%s", outdir, t)
	plot for [i=1:nsections] f skip 1 using 4:(strcol(2) eq word(sections, i) && \
		strcol(5) eq "cleancache.hit_rate_pct" ? $6 : NaN) with points pt 7 ps 0.5 \
		lc rgb sec_rgb(word(sections, i)) title word(sections, i)
	unset output
}
