# The reserved area's occupancy over time, one colour per set-up: its
# tenants (CMA: movable pages; GCMA: cleancache's cached pages) as points,
# the area's size as a line of the same colour. Runs without area samples
# show cleancache's cached pages against its pool.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/occupancy.gp
# common.inc sits beside this script
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
if (!exists("occupancy_name")) occupancy_name = "cleancache.cached_pages"
if (!exists("occupancy_total")) occupancy_total = "cleancache.pool_pages"
f = datadir."/samples.csv"
set datafile separator ","
set title sprintf("%s: area occupancy over time (%s; line: %s)", run_id, occupancy_name, occupancy_total)
set xlabel "time since the run's first sample (s)"
set ylabel "pages"
set yrange [0:*]
set key outside right
do for [t in "png svg"] {
	eval(t eq "png" ? png_term : svg_term)
	set output sprintf("%s/occupancy.%s", outdir, t)
	plot for [i=1:nsections] f skip 1 using 4:(strcol(2) eq word(sections, i) && \
		strcol(5) eq occupancy_name ? $6 : NaN) with points pt 7 ps 0.5 lc rgb sec_rgb(word(sections, i)) \
		title word(sections, i), \
	     for [i=1:nsections] f skip 1 using 4:(strcol(2) eq word(sections, i) && \
		strcol(5) eq occupancy_total ? $6 : NaN) with lines lw 1 dt 2 lc rgb sec_rgb(word(sections, i)) \
		title sprintf("%s size", word(sections, i))
	unset output
}
