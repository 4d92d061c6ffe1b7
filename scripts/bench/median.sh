# Sourced by the benchmark scripts: median, the median of the numbers on standard input (one
# per line, or separated by spaces); fails on none.
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) exit 1; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
