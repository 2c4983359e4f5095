# SPDX-License-Identifier: GPL-3.0-or-later
# The plot of docs/guide/migration.md "The application": measured seconds per
# adaptation interval (points) and the model's T_k (dashed) from the CSV
# that examples/mpi_adapt writes with --csv.
#   gnuplot -e "csv='docs/examples/mpi_adapt_2ranks.csv'; out='docs/img/mpi_adapt.png'" scripts/plot_mpi_adapt.gp
if (!exists("csv")) csv = 'docs/examples/mpi_adapt_2ranks.csv'
if (!exists("out")) out = 'docs/img/mpi_adapt.png'
set terminal pngcairo size 820,460 font ",10"
set output out
set datafile separator ","
set title "mpi\\_adapt, 2 ranks (the second at half speed), k = 20 iterations per adaptation"
set xlabel "adaptation"
set ylabel "measured seconds per interval (points)"
set y2label "model T_k, weight units (dashed; 1 s = 2.2x10^6)"
set yrange [0:3.5]
set y2range [0:3.5*2.2e6]
set ytics nomirror
set y2tics 1e6 format "%.0tx10^{%T}"
set xtics 1
set key bottom right
set grid
# rows: per adaptation the ways none, blocking, lt (in that order)
plot csv skip 1 every 3::0 using 1:4 with linespoints pt 7 lw 2 title "no repartitioning", \
     csv skip 1 every 3::1 using 1:4 with linespoints pt 5 lw 2 title "MinEX, blocking migration", \
     csv skip 1 every 3::2 using 1:4 with linespoints pt 9 lw 2 title "MinEX, split-phase migration", \
     csv skip 1 every 3::0 using 1:7 axes x1y2 with lines dt 2 lw 2 title "model T_k, no repartitioning", \
     csv skip 1 every 3::1 using 1:7 axes x1y2 with lines dt 2 lw 2 title "model T_k, MinEX"
