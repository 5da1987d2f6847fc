# Cleancache occupancy over time, one colour per set-up. Needs
# datadir/samples.csv (the guest sampler's rows gathered by cmabench report),
# with the header run,section,rep,time_s,name,value; plots the rows whose
# name is occupancy_name (default "cleancache.cached_pages", pages). The make
# target runs this script only when samples.csv exists.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/occupancy.gp
# common.inc sits beside this script
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
if (!exists("occupancy_name")) occupancy_name = "cleancache.cached_pages"
f = datadir."/samples.csv"
set datafile separator ","
set title sprintf("%s: cleancache occupancy over time (%s)", run_id, occupancy_name)
set xlabel "time since the run started (s)"
set ylabel "cleancache occupancy (pages)"
set yrange [0:*]
set key top left
do for [t in "png svg"] {
	eval(t eq "png" ? png_term : svg_term)
	set output sprintf("%s/occupancy.%s", outdir, t)
	plot for [i=1:nsections] f skip 1 using 4:(strcol(2) eq word(sections, i) && \
		strcol(5) eq occupancy_name ? $6 : NaN) with points pt 7 ps 0.5 title word(sections, i)
	unset output
}
