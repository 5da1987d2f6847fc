# Where the kernel-side time of attributed requests went (trace=attribution,
# docs/attribution.md): one stacked bar per request size and set-up, the
# mean share of each phase (left figure) and of each state of the
# allocating task (right figure); each bar sums to 100%.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/attribution-split.gp
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
if (!exists("have_attr") || !have_attr) exit
f = datadir."/plot-attr-split.dat"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:100]
set ylabel "share of kernel-side time (%, mean over attributed requests)"
set xlabel "set-up / request size (pages)"
set xtics rotate by -30
set key outside right top
phases = "search-and-entry isolation-and-draining migration cleancache-take-back taking-the-free-range unattributed"
states = "on-CPU runnable-switched-out blocked"
do for [t in "png svg"] {
	eval(t eq "png" ? png_term : svg_term)
	set output sprintf("%s/attribution-phases.%s", outdir, t)
	set title sprintf("%s: kernel-side time by phase", run_id)
	plot for [i = 1:6] f using (column(i + 2)):xticlabels(sprintf("%s / %d", strcol(2), $1)) \
		title word(phases, i)
	unset output
	set output sprintf("%s/attribution-states.%s", outdir, t)
	set title sprintf("%s: kernel-side time by state of the allocating task", run_id)
	plot for [i = 1:3] f using (column(i + 8)):xticlabels(sprintf("%s / %d", strcol(2), $1)) \
		title word(states, i)
	unset output
}
