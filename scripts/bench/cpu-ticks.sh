# Sourced by the benchmarks that read a server's CPU time from /proc (bench-ab.sh,
# bench-imagery.sh).

# cpu_ticks PID...: the clock ticks (`getconf CLK_TCK` a second) processes PID... have run in
# user space and in the kernel, summed: "user system". Ticks are taken by sampling, so over a
# run of seconds they give a share, not a count. A PID that is gone counts 0.
cpu_ticks() {
    local pid user=0 system=0
    local -a fields
    for pid in "$@"; do
        [[ -r /proc/$pid/stat ]] || continue
        # After the command's name (in parentheses, which may hold spaces): utime and stime are
        # fields 14 and 15 of proc_pid_stat(5), the 12th and 13th here.
        read -r -a fields < <(sed 's/.*) //' "/proc/$pid/stat")
        (( user += ${fields[11]:-0}, system += ${fields[12]:-0} ))
    done
    echo "$user $system"
}
