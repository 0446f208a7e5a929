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


def main():
    runs = json.load(open(sys.argv[1]))  # [{"db","target","c","file"}]
    results = {}
    for run in runs:
        results[(run["db"], run["target"], run["c"])] = parse(run["file"])
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
    heartbeat = results.get(("heartbeat", "svc", 16))
    if heartbeat:
        out.append(f"\n/heartbeat at c=16: {heartbeat['rps']:.0f} rps, p50 {heartbeat['p50_ms']:.2f} ms")
    return out

main()
