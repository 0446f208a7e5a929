"""Parses wrk outputs written by bench/run and prints the comparison table."""
import json
import re
import sys


def seconds(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[unit]


def parse(path):
    out = open(path).read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = seconds(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = seconds(re.search(r"\s99%\s+(\S+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: (.*)", out)
    return {"rps": rps, "p50_ms": p50 * 1000, "p99_ms": p99 * 1000,
            "non2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket.group(1) if socket else ""}


SCRIPT_BUCKET = re.compile(
    r'^svc_script_call_duration_seconds_bucket\{gen_ai_tool_name="([^"]*)",'
    r'svc_script_stage="([^"]*)",le="([^"]*)"\} (\S+)$')


def script_buckets(path):
    """{(tool, stage): {le: count}} of the successful script calls in a /metrics scrape."""
    buckets = {}
    try:
        text = open(path).read()
    except OSError:
        return buckets
    for line in text.splitlines():
        m = SCRIPT_BUCKET.match(line)
        if m:
            tool, stage, le, count = m.groups()
            buckets.setdefault((tool, stage), {})[float(le)] = float(count)
    return buckets


def quantile(q, cumulative):
    """Prometheus' histogram_quantile over {upper bound: cumulative count}, in seconds."""
    bounds = sorted(cumulative)
    total = cumulative[bounds[-1]]
    if total <= 0:
        return None
    rank, lower, below = q * total, 0.0, 0.0
    for bound in bounds:
        count = cumulative[bound]
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * (rank - below) / max(count - below, 1e-9)
        lower, below = bound, count
    return lower


def script_times(run):
    """Per (tool, stage): calls, p50 and p99 of svc's script time during the measured run."""
    base = run.get("metrics") or ""
    if not base:
        return {}
    before, after = script_buckets(base + ".before"), script_buckets(base + ".after")
    times = {}
    for key, counts in after.items():
        delta = {le: n - before.get(key, {}).get(le, 0.0) for le, n in counts.items()}
        calls = delta[max(delta)]
        if calls > 0:
            times[key] = (calls, quantile(0.5, delta), quantile(0.99, delta))
    return times


def main():
    runs = json.load(open(sys.argv[1]))  # [{"db","target","c","file","metrics"?}]
    results = {}
    for run in runs:
        results[(run["db"], run["target"], run["c"])] = parse(run["file"])
        results[(run["db"], run["target"], run["c"])]["scripts"] = script_times(run)
    lines = ["| database | c | svc rps | svc p50 / p99 ms | Toolbox rps | Toolbox p50 / p99 ms | svc/Toolbox |",
             "|---|---|---|---|---|---|---|"]
    for db in ["sqlite", "postgres", "heartbeat"]:
        for c in sorted({r["c"] for r in runs if r["db"] == db}):
            s = results.get((db, "svc", c))
            t = results.get((db, "toolbox", c))
            if s is None:
                continue
            row = f"| {db} | {c} | {s['rps']:.0f} | {s['p50_ms']:.2f} / {s['p99_ms']:.2f} |"
            if t:
                row += f" {t['rps']:.0f} | {t['p50_ms']:.2f} / {t['p99_ms']:.2f} | **{s['rps'] / t['rps']:.2f}×** |"
            else:
                row += " – | – | – |"
            lines.append(row)
    for key, r in results.items():
        if r["non2xx"] or r["socket_errors"]:
            lines.append(f"\nwarning: {key}: non-2xx={r['non2xx']} socket errors: {r['socket_errors']}")
    for db in ["sqlite", "postgres"]:
        for c in [16, 64]:
            s, h = results.get((db, "svc", c)), results.get(("heartbeat", "svc", c))
            if s and h:
                lines.append(f"\n{db} tool call / heartbeat at c={c}: {100 * s['rps'] / h['rps']:.0f}%")
    lines += scripts(results)
    print("\n".join(lines))


def scripts(results):
    """The TypeScript tools against the plain SQLite tool and the tool-call floor."""
    if results.get(("handler", "svc", 16)) is None:
        return []
    rows = [("floor", "tool-call floor (refused by input validation)"),
            ("sqlite", "SQL tool (get_item, SQLite)"),
            ("handler", "handler tool (hello)"),
            ("hybrid", "hybrid tool (input.ts -> SQL -> output.ts)")]
    out = ["", "| svc | c | rps | p50 / p99 ms | rps vs SQL tool | p50 over floor | p50 over SQL tool |",
           "|---|---|---|---|---|---|---|"]
    for c in [1, 16]:
        sql, floor = results.get(("sqlite", "svc", c)), results.get(("floor", "svc", c))
        for key, label in rows:
            r = results.get((key, "svc", c))
            if r is None:
                continue
            row = f"| {label} | {c} | {r['rps']:.0f} | {r['p50_ms']:.2f} / {r['p99_ms']:.2f} |"
            row += f" {100 * r['rps'] / sql['rps']:.0f}% |" if sql else " – |"
            row += f" {1000 * (r['p50_ms'] - floor['p50_ms']):+.0f} µs |" if floor else " – |"
            row += f" {1000 * (r['p50_ms'] - sql['p50_ms']):+.0f} µs |" if sql else " – |"
            out.append(row)
    timed = [(key, c, results[(key, "svc", c)]["scripts"]) for c in [1, 16] for key in ["handler", "hybrid"]
             if results.get((key, "svc", c)) and results[(key, "svc", c)]["scripts"]]
    if timed:
        out += ["", "Time in the scripts themselves, from svc's `svc_script_call_duration_seconds` over each"
                " measured run (call to result, waiting for an isolate included; estimated from the"
                " histogram's buckets: 10, 25, 50, 100, 250 µs, …):", "",
                "| tool | c | stage | calls | p50 | p99 |", "|---|---|---|---|---|---|"]
        for key, c, times in timed:
            for (tool, stage), (calls, p50, p99) in sorted(times.items()):
                out.append(f"| {key} ({tool}) | {c} | {stage} | {calls:.0f} | {p50 * 1e6:.0f} µs | {p99 * 1e6:.0f} µs |")
    heartbeat = results.get(("heartbeat", "svc", 16))
    if heartbeat:
        out.append(f"\n/heartbeat at c=16: {heartbeat['rps']:.0f} rps, p50 {heartbeat['p50_ms']:.2f} ms")
    return out

main()
