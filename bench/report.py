"""Parses the wrk outputs and /metrics scrapes written by bench/run and prints its tables.

bench/run measures every level in rounds: each target runs one slice per round, in turn. Figures
are medians over the rounds; a ratio is the median of the round-by-round ratios, so that a drift
in the machine's speed during a level touches both sides alike.
"""
import json
import re
import statistics
import sys


def seconds(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[unit]


def parse(path):
    out = open(path).read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = seconds(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = seconds(re.search(r"\s99%\s+(\S+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: (.*)", out)
    return {"rps": rps, "p50_ms": p50 * 1000, "p99_ms": p99 * 1000, "requests": requests,
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


def script_deltas(base):
    """{(tool, stage): {le: count}} recorded between the two scrapes around one slice."""
    if not base:
        return {}
    before, after = script_buckets(base + ".before"), script_buckets(base + ".after")
    return {key: {le: n - before.get(key, {}).get(le, 0.0) for le, n in counts.items()}
            for key, counts in after.items()}


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


class Level:
    """The slices of one (db, target, c), in round order."""

    def __init__(self):
        self.slices = []
        self.scripts = {}

    def add(self, run):
        measured = parse(run["file"])
        # the server's CPU time per call over the slice, when bench/run read it from /proc
        if run.get("cpu_seconds") and measured["requests"]:
            measured["cpu_us"] = 1e6 * run["cpu_seconds"] / measured["requests"]
        self.slices.append(measured)
        for key, counts in script_deltas(run.get("metrics") or "").items():
            total = self.scripts.setdefault(key, {})
            for le, n in counts.items():
                total[le] = total.get(le, 0.0) + n

    def median(self, field):
        return statistics.median(s[field] for s in self.slices)

    def per_round(self, field):
        return [s[field] for s in self.slices]


def paired(a, b, field, combine):
    """Median over rounds of combine(a's value, b's value), rounds paired by index."""
    return statistics.median(combine(x, y) for x, y in zip(a.per_round(field), b.per_round(field)))


def spread(values):
    return f"{min(values):.2f}–{max(values):.2f}"


def main():
    runs = json.load(open(sys.argv[1]))  # [{"db","target","c","round","file","metrics"}]
    levels = {}
    for run in sorted(runs, key=lambda r: r.get("round", 1)):
        levels.setdefault((run["db"], run["target"], run["c"]), Level()).add(run)
    rounds = max(len(level.slices) for level in levels.values())
    lines = [f"Medians of {rounds} rounds; svc/Toolbox is the median of the round-by-round ratios "
             "(their range in brackets).", "",
             "| database | c | svc rps | svc p50 / p99 ms | Toolbox rps | Toolbox p50 / p99 ms | svc/Toolbox |",
             "|---|---|---|---|---|---|---|"]
    for db in ["sqlite", "postgres", "heartbeat"]:
        for c in sorted({key[2] for key in levels if key[0] == db}):
            s, t = levels.get((db, "svc", c)), levels.get((db, "toolbox", c))
            if s is None:
                continue
            row = (f"| {db} | {c} | {s.median('rps'):.0f} |"
                   f" {s.median('p50_ms'):.2f} / {s.median('p99_ms'):.2f} |")
            if t:
                ratios = [x / y for x, y in zip(s.per_round("rps"), t.per_round("rps"))]
                row += (f" {t.median('rps'):.0f} | {t.median('p50_ms'):.2f} / {t.median('p99_ms'):.2f} |"
                        f" **{statistics.median(ratios):.2f}×** ({spread(ratios)}) |")
            else:
                row += " – | – | – |"
            lines.append(row)
    for key, level in sorted(levels.items(), key=str):
        for r in level.slices:
            if r["non2xx"] or r["socket_errors"]:
                lines.append(f"\nwarning: {key}: non-2xx={r['non2xx']} socket errors: {r['socket_errors']}")
    for db in ["sqlite", "postgres"]:
        for c in [16, 64]:
            s, h = levels.get((db, "svc", c)), levels.get(("heartbeat", "svc", c))
            if s and h:
                ratio = paired(s, h, "rps", lambda x, y: x / y)
                lines.append(f"\n{db} tool call / heartbeat at c={c}: {100 * ratio:.0f}%")
    lines += stateless(levels)
    lines += authenticated(levels)
    lines += scripts(levels)
    print("\n".join(lines))


def stateless(levels):
    """MCP 2026-07-28 (no session) against the 2025-11-25 session path and Toolbox, same rounds."""
    rows = []
    for c in sorted({key[2] for key in levels if key[:2] == ("sqlite", "stateless")}):
        m, s, t = (levels.get(("sqlite", target, c)) for target in ["stateless", "svc", "toolbox"])
        if m is None or s is None:
            continue
        vs_session = [x / y for x, y in zip(m.per_round("rps"), s.per_round("rps"))]
        row = (f"| {c} | {m.median('rps'):.0f} | {m.median('p50_ms'):.2f} / {m.median('p99_ms'):.2f} |"
               f" {s.median('rps'):.0f} | **{statistics.median(vs_session):.2f}×** ({spread(vs_session)}) |")
        if t:
            vs_toolbox = [x / y for x, y in zip(m.per_round("rps"), t.per_round("rps"))]
            row += f" {statistics.median(vs_toolbox):.2f}× ({spread(vs_toolbox)}) |"
        else:
            row += " – |"
        rows.append(row)
    if not rows:
        return []
    return ["", "MCP 2026-07-28 (stateless: revision and capabilities in every request, no session)"
            " against the 2025-11-25 session path, SQLite tool, same rounds:", "",
            "| c | stateless rps | p50 / p99 ms | session rps | stateless/session | stateless/Toolbox |",
            "|---|---|---|---|---|---|"] + rows


def authenticated(levels):
    """The SQLite tool on svc with server.auth and one cached token, against svc without, same rounds.

    The time auth adds to a call is taken from the rates by Little's law: c connections each wait
    c/rps per call, so it adds c * (1/rps_auth - 1/rps_plain) per call; at c=1 that is the
    latency added to one call. The p50 difference is printed beside it.
    """
    rows = []
    for c in sorted({key[2] for key in levels if key[:2] == ("sqlite", "auth")}):
        a, s = levels.get(("sqlite", "auth", c)), levels.get(("sqlite", "svc", c))
        if s is None:
            continue
        ratios = [x / y for x, y in zip(a.per_round("rps"), s.per_round("rps"))]
        added = paired(a, s, "rps", lambda x, y: c * (1 / x - 1 / y) * 1e6)
        p50 = paired(a, s, "p50_ms", lambda x, y: (x - y) * 1000)
        cpu = " – | – |"
        if all("cpu_us" in x for x in a.slices + s.slices):
            cpu = (f" {a.median('cpu_us'):.0f} / {s.median('cpu_us'):.0f} µs |"
                   f" {paired(a, s, 'cpu_us', lambda x, y: x - y):+.1f} µs |")
        rows.append(f"| {c} | {a.median('rps'):.0f} | {a.median('p50_ms'):.2f} / {a.median('p99_ms'):.2f} |"
                    f" {s.median('rps'):.0f} | {s.median('p50_ms'):.2f} / {s.median('p99_ms'):.2f} |"
                    f" **{statistics.median(ratios):.2f}×** ({spread(ratios)}) | {added:+.0f} µs | {p50:+.0f} µs |{cpu}")
    if not rows:
        return []
    return ["", "Whole-endpoint OAuth (server.auth, one token, verified once and then cached) against the"
            " same SQLite tool call without auth, same rounds:", "",
            "| c | auth rps | p50 / p99 ms | plain rps | p50 / p99 ms | auth/plain | added per call (from rps) | p50 added | server CPU per call, auth / plain | CPU added per call |",
            "|---|---|---|---|---|---|---|---|---|---|"] + rows


def scripts(levels):
    """The TypeScript tools against the plain SQLite tool and the tool-call floor, same rounds."""
    if levels.get(("handler", "svc", 16)) is None:
        return []
    rows = [("floor", "tool-call floor (refused by input validation)"),
            ("sql", "SQL tool (get_item, SQLite)"),
            ("handler", "handler tool (hello)"),
            ("hybrid", "hybrid tool (input.ts -> SQL -> output.ts)")]
    out = ["", "| svc | c | rps | p50 / p99 ms | rps vs SQL tool | p50 over floor | p50 over SQL tool |",
           "|---|---|---|---|---|---|---|"]
    for c in [1, 16]:
        sql, floor = levels.get(("sql", "svc", c)), levels.get(("floor", "svc", c))
        for key, label in rows:
            r = levels.get((key, "svc", c))
            if r is None:
                continue
            row = f"| {label} | {c} | {r.median('rps'):.0f} | {r.median('p50_ms'):.2f} / {r.median('p99_ms'):.2f} |"
            row += f" {100 * paired(r, sql, 'rps', lambda x, y: x / y):.0f}% |" if sql else " – |"
            row += f" {1000 * paired(r, floor, 'p50_ms', lambda x, y: x - y):+.0f} µs |" if floor else " – |"
            row += f" {1000 * paired(r, sql, 'p50_ms', lambda x, y: x - y):+.0f} µs |" if sql else " – |"
            out.append(row)
    timed = [(key, c, levels[(key, "svc", c)].scripts) for c in [1, 16] for key in ["handler", "hybrid"]
             if levels.get((key, "svc", c)) and levels[(key, "svc", c)].scripts]
    if timed:
        out += ["", "Time in the scripts themselves, from svc's `svc_script_call_duration_seconds` over"
                " the measured slices (call to result, waiting for an isolate included; estimated from"
                " the histogram's buckets: 10, 25, 50, 100, 250 µs, …):", "",
                "| tool | c | stage | calls | p50 | p99 |", "|---|---|---|---|---|---|"]
        for key, c, times in timed:
            for (tool, stage), counts in sorted(times.items()):
                calls = counts[max(counts)]
                if calls <= 0:
                    continue
                p50, p99 = quantile(0.5, counts), quantile(0.99, counts)
                out.append(f"| {key} ({tool}) | {c} | {stage} | {calls:.0f} | {p50 * 1e6:.0f} µs | {p99 * 1e6:.0f} µs |")
    heartbeat = levels.get(("heartbeat", "svc", 16))
    if heartbeat:
        out.append(f"\n/heartbeat at c=16: {heartbeat.median('rps'):.0f} rps, p50 {heartbeat.median('p50_ms'):.2f} ms")
    return out


main()
