#!/usr/bin/env python3
"""Summary of bench/profile --profiler async: async-profiler's collapsed CPU stacks of svc (Java,
native and kernel frames) for /heartbeat and a tool call, split by layer and by system call.

Usage: profile-native.py WORK HEARTBEAT TARGET DURATION
Reads WORK/<kind>.collapsed (one "frame;frame;…;leaf count" line per stack) and WORK/<kind>.cpu
("kind requests utime stime ticks", svc's CPU from /proc) for both kinds; prints Markdown.

Every sample goes to the layer of the nearest frame from the leaf that names one (a JDK, Jackson
or kernel frame counts for the svc or Jetty code that called it), so the kernel's time for the
response's writev counts for HTTP, SQLite's locks for the statement. µs per request = share of
the samples × svc's CPU per request (user + kernel).
"""
import sys
from collections import Counter

LAYERS = [  # (layer, prefixes of a frame), nearest to the leaf wins
    ("HTTP (Jetty)", ("org/eclipse/jetty/",)),
    ("JSON-RPC", ("dev/svc/protocol/jsonrpc/",)),
    ("MCP", ("dev/svc/protocol/mcp/",)),
    ("statement (svc's JDBC code, driver, SQLite)", ("dev/svc/connector/", "org/sqlite/", "java/sql/")),
    ("scripts (V8 bridge)", ("dev/svc/script/", "com/caoccao/")),
    ("tool pipeline", ("dev/svc/runtime/", "dev/svc/call/", "dev/svc/cache/", "dev/svc/ratelimit/")),
    ("server (svc)", ("dev/svc/server/",)),
    ("other svc", ("dev/svc/",)),
    ("virtual threads", ("java/lang/VirtualThread", "jdk/internal/vm/", "java/util/concurrent/ForkJoin")),
]
SYSCALLS = [  # (name, a kernel frame under the system call's entry)
    ("writev (the response; on loopback also the client's receive path)", ("do_writev_",)),
    ("read", ("ksys_read_",)),
    ("futex (thread wake-ups and waits)", ("__x64_sys_futex_", "do_futex_")),
    ("fcntl (SQLite's file locks)", ("__x64_sys_fcntl_", "do_fcntl_")),
    ("fstat (SQLite's file-size check)", ("__do_sys_newfstat_", "vfs_fstat_")),
    ("epoll_wait / epoll_ctl", ("do_epoll_wait_", "do_epoll_ctl_", "__x64_sys_epoll")),
    ("scheduling on return to user space", ("exit_to_user_mode_loop_",)),
]


def kind_of(leaf):
    if leaf.endswith("_[k]"):
        return "kernel"
    if "/" in leaf and not leaf.startswith("/"):
        return "Java"
    return "native"


def layer(frames):
    for frame in reversed(frames):
        for name, prefixes in LAYERS:
            if frame.startswith(prefixes):
                return name
    text = ";".join(frames)
    if "sun/nio/ch/" in text:
        return "JDK's poller and selector"
    if "CompileBroker" in text or "Compiler" in text:
        return "JIT compilers"
    if "GC" in text or "Heap" in text or "VMThread" in text:
        return "GC and VM threads"
    return "other (JVM, libc)"


def syscall(frames):
    if not frames[-1].endswith("_[k]"):
        return None
    for name, keys in SYSCALLS:
        if any(f.startswith(keys) for f in frames):
            return name
    if any(f.startswith("entry_SYSCALL_64") for f in frames):
        return "other system calls"
    return "interrupts, IPIs, faults"


def read(work, kind):
    samples = []
    with open(f"{work}/{kind}.collapsed") as stacks:
        for line in stacks:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if stack:
                samples.append((stack.split(";"), int(count)))
    _, requests, utime, stime, ticks = open(f"{work}/{kind}.cpu").read().split()
    return samples, int(requests), int(utime), int(stime), int(ticks)


def main():
    work, heartbeat, target, duration = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    runs = {kind: read(work, kind) for kind in (heartbeat, target)}
    print(f"## bench/profile --target {target} --profiler async: {duration:.0f} s per target, "
          "CPU samples every 200 µs\n")
    print("| | requests/s | svc CPU per request, user + kernel (µs) |")
    print("|---|---|---|")
    for kind, (_, requests, utime, stime, ticks) in runs.items():
        per = lambda t: 1e6 * t / ticks / max(1, requests)
        print(f"| {kind} | {requests / duration:,.0f} | "
              f"{per(utime):.1f} + {per(stime):.1f} = {per(utime + stime):.1f} |")
    rate = runs[target][1] / max(1, runs[heartbeat][1])
    print(f"\n{target} at {100 * rate:.0f}% of /heartbeat's rate.\n")
    for kind, (samples, requests, utime, stime, ticks) in runs.items():
        total = sum(n for _, n in samples) or 1
        cpu_us = 1e6 * (utime + stime) / ticks / max(1, requests)
        kinds, layers, kernel_by_layer, calls, leaves = Counter(), Counter(), Counter(), Counter(), Counter()
        for frames, n in samples:
            k = kind_of(frames[-1])
            kinds[k] += n
            name = layer(frames)
            layers[name] += n
            if k == "kernel":
                kernel_by_layer[name] += n
                calls[syscall(frames)] += n
            leaves[frames[-1]] += n
        share = lambda n: f"{100 * n / total:.1f}%"
        us = lambda n: f"{cpu_us * n / total:.1f}"
        print(f"### {kind}: {total} samples; Java {share(kinds['Java'])}, native "
              f"{share(kinds['native'])}, kernel {share(kinds['kernel'])}\n")
        print("| layer | share | ≈ µs per request | of which in the kernel |")
        print("|---|---|---|---|")
        for name, n in layers.most_common():
            print(f"| {name} | {share(n)} | {us(n)} | {us(kernel_by_layer[name])} |")
        print("\n| kernel time by system call | share | ≈ µs per request |")
        print("|---|---|---|")
        for name, n in calls.most_common():
            print(f"| {name} | {share(n)} | {us(n)} |")
        print("\n| hottest frames (self) | share |")
        print("|---|---|")
        for frame, n in leaves.most_common(12):
            shown = "SQLite (libsqlitejdbc)" if "libsqlitejdbc" in frame else frame
            print(f"| `{shown[:90]}` | {share(n)} |")
        print()


if __name__ == "__main__":
    main()
