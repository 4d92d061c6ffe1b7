"""The summary line the sequential clients print (seq-client.py, redis-seq-client.py), one format
for the scripts that read it."""


def print_summary(count, ok, seconds, latencies):
    """Prints "SEQ requests=N ok=N seconds=S rps=R p50_us=.. p99_us=.." from per-request seconds."""
    lat = sorted(latencies)
    pct = lambda q: int(lat[min(len(lat) - 1, int(q * len(lat)))] * 1e6)
    print(f"SEQ requests={count} ok={ok} seconds={seconds:.3f} rps={count / seconds:.1f} "
          f"p50_us={pct(0.5)} p99_us={pct(0.99)}")
