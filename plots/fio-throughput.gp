# fio read throughput per set-up and job: bar the mean over repetitions,
# whiskers min..max over repetitions.
# gnuplot -e "datadir='R/data'; outdir='R/plots'" plots/fio-throughput.gp
# common.inc sits beside this script
plotdir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plotdir = ARG0[1:i] } }
load plotdir."common.inc"
if (have_fio) {
	f = datadir."/plot-fio.dat"
	set title sprintf("%s: fio read IOPS per set-up (mean, min..max over repetitions)", run_id)
	set ylabel "read IOPS (operations/s)"
	set xlabel "set-up / fio job"
	set yrange [0:*]
	set style fill solid 0.5 border -1
	set boxwidth 0.6
	# long section names would run into each other
	set xtics rotate by 25 right
	set offsets 0.5, 0.5, 0, 0
	set key top right
	do for [t in "png svg"] {
		eval(t eq "png" ? png_term : svg_term)
		set output sprintf("%s/fio-throughput.%s", outdir, t)
		# each bar in its set-up's colour (common.inc)
		plot f using 0:3:(sec_rgb(strcol(1))):xticlabels(sprintf("%s / %s", strcol(1), strcol(2))) \
			with boxes lc rgb variable title "mean", \
		     f using 0:3:4:5 with yerrorbars lc rgb "black" pt 0 title "min..max"
		unset output
	}
}
