#!/usr/bin/env python3
"""helpers.py: the parts of the benchmark harness that are easier in
Python than in bash. Called by bench/run; never a test, never fails on a
number (it exits non-zero only when it cannot measure at all).

  argv VARIANT            stdin: `sbexec -n` output; prints the bwrap argv,
                          NUL-separated, edited by VARIANT (see bwrap_argv)
  table BASE TIMINGS...   a Markdown table from timer output files
  get TIMINGS LABEL       the median (ns) of LABEL, or "" if it failed
  tail RAW LABEL MS       runs of LABEL slower than its median + MS ms
  peakrss RUNS -- CMD...  sbexec's own peak RSS (VmHWM, KiB), max of RUNS,
                          and the largest RssAnon sampled, by where it lies
                          (stack, data and bss, heap, other mappings)
  scale N ROUNDS DIR -- NATIVE... -- SBEXEC...   concurrency test
  strace-count FILE       `strace -c` output -> "name count" lines
  phases TOOL POLICY FILE...  phases of traced runs of sbexec alone
  forks CMD LABEL=TOP:FILE... phases of runs by their forks and execs
  perfstat FILE [EVENT]   EVENT's count (task-clock: msec) from `perf stat -x,`
"""
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import threading
import time


def die(msg):
    print("helpers.py: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- argv
def bwrap_argv(variant, dry_run_text):
    """The bwrap argv that sbexec would run, from `sbexec -n`'s "argv:"
    line (shell-quoted by sbexec, so shlex round-trips it), edited by
    VARIANT, a comma-separated list of:
      same      no change: exactly as sbexec runs it (--json-status-fd 3
                --seccomp 4: the caller must provide fds 3 and 4)
      nofd      without --json-status-fd N and --seccomp N
      sharenet  plus --share-net (no new network namespace)
      nosh      the command exec'd directly, not via binShell -c
      sh        the command through /bin/sh -c 'exec ...', the layer
                that sbexec's launcher replaced
      cmd       only the command itself (what runs natively)
      launch    through sbexec's launcher (the no-new-code layer), its
                binary on fd 5 and the command's environment on fd 6,
                which the caller provides (a file as sbexec's memfd)
    Otherwise bare bwrap execs the command itself: the launcher's own
    descriptors are sbexec's (its binary, a memfd).
    """
    line = next((l for l in dry_run_text.splitlines()
                 if l.startswith("argv:")), None)
    if line is None:
        die("no argv: line in sbexec -n output")
    argv = shlex.split(line[len("argv:"):])
    sep = argv.index("--")
    opts, cmd = argv[:sep], argv[sep + 1:]
    # cmd is [binShell, -c, "exec 'path' 'arg'..."] (or, for a very long
    # line, [binShell, -c, 'exec "$0" "$@"', path, args...]).
    launcher = None
    if len(cmd) > 6 and cmd[1] == "--sbexec-launch":
        launcher, cmd = cmd[:6], cmd[6:]  # its environment and hand-ins
    if len(cmd) < 3 or cmd[1] != "-c":
        inner = cmd		# no shell: the command itself
    elif len(cmd) > 3:
        inner = cmd[3:]
    else:
        inner = shlex.split(cmd[2])
        if inner and inner[0] == "exec":
            inner = inner[1:]
    for v in variant.split(","):
        if v == "same":
            pass
        elif v == "cmd":
            return inner
        elif v == "nofd":
            out, i = [], 0
            while i < len(opts):
                if opts[i] in ("--json-status-fd", "--seccomp"):
                    i += 2
                    continue
                out.append(opts[i])
                i += 1
            opts = out
        elif v == "sharenet":
            opts = opts + ["--share-net"]
        elif v == "nosh":
            cmd = inner
        elif v == "launch":
            if launcher is None or launcher[3:6] != ["-", "-", "-"]:
                die("no launcher without hand-ins in sbexec's argv")
            cmd = ["/proc/self/fd/5", "--sbexec-launch", "6", "-", "-",
                   "-"] + cmd
        elif v == "sh":
            cmd = ["/bin/sh", "-c",
                   "exec " + " ".join(shlex.quote(a) for a in inner)]
        else:
            die("unknown variant " + v)
    return opts + ["--"] + cmd


def cmd_argv(args):
    text = sys.stdin.read()
    out = bwrap_argv(args[0], text)
    sys.stdout.write("\0".join(out) + "\0")


# ---------------------------------------------------------------- timings
def read_timings(paths):
    rows = {}
    for p in paths:
        with open(p) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 7:
                    continue
                label, med, q1, q3, mn, runs, fails = parts
                rows[label] = dict(med=int(med), q1=int(q1), q3=int(q3),
                                   min=int(mn), runs=int(runs),
                                   fails=int(fails))
    return rows


def ms(ns):
    v = ns / 1e6
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    if v >= 1:
        return "%.2f" % v
    return "%.3f" % v


def cmd_get(args):
    rows = read_timings([args[0]])
    r = rows.get(args[1])
    print("" if r is None or r["fails"] else r["med"])


def cmd_tail(args):
    """tail RAW LABEL MS: how many runs of LABEL (in the timer's RAW file)
    took more than its median + MS milliseconds: "SLOW RUNS EXCESS_MS",
    EXCESS_MS the median excess of the slow ones."""
    v = []
    with open(args[0]) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 4 and parts[0] == args[1]:
                v.append(int(parts[2]))
    if not v:
        print("0 0 0")
        return
    v.sort()
    med = v[len(v) // 2]
    slow = sorted(x - med for x in v if x > med + float(args[2]) * 1e6)
    print(len(slow), len(v),
          "%.1f" % (slow[len(slow) // 2] / 1e6) if slow else "0")


def cmd_table(args):
    """table BASE [--vs LABEL] [--mibs BYTES] FILE... : one row per label
    in file order; ratio = median / median(BASE) (and / median(VS))."""
    base, vs, mibs, files = args[0], None, None, []
    i = 1
    while i < len(args):
        if args[i] == "--vs":
            vs = args[i + 1]
            i += 2
        elif args[i] == "--mibs":
            mibs = int(args[i + 1])
            i += 2
        else:
            files.append(args[i])
            i += 1
    order = []
    for p in files:
        with open(p) as f:
            order += [l.split("\t")[0] for l in f if l.count("\t") == 6]
    rows = read_timings(files)
    b = rows.get(base)
    v = rows.get(vs) if vs else None
    head = "| command | median ms | IQR ms | runs | / %s |" % base
    rule = "|---|---:|---:|---:|---:|"
    if v:
        head += " / %s |" % vs
        rule += "---:|"
    if mibs:
        head += " MiB/s |"
        rule += "---:|"
    print(head)
    print(rule)
    for label in order:
        r = rows[label]
        if r["fails"]:
            cells = ["failed %d/%d runs" % (r["fails"], r["runs"]),
                     "", str(r["runs"]), ""]
            if v:
                cells.append("")
            if mibs:
                cells.append("")
        else:
            cells = [ms(r["med"]), "%s-%s" % (ms(r["q1"]), ms(r["q3"])),
                     str(r["runs"]),
                     "%.2f" % (r["med"] / b["med"]) if b and not b["fails"]
                     else ""]
            if v:
                cells.append("%.2f" % (r["med"] / v["med"])
                             if not v["fails"] else "")
            if mibs:
                cells.append("%.0f" % (mibs / 2**20 / (r["med"] / 1e9)))
        print("| `%s` | %s |" % (label.replace("|", "\\|"),
                                 " | ".join(cells)))


# ---------------------------------------------------------------- memory
def hwm_kib(pid):
    """(VmHWM, RssAnon) of PID in KiB, or None once it is a zombie (no
    Vm lines). RssAnon is sbexec's own memory (heap, stack, data); the
    rest of its RSS is the binary's pages, shared through the page cache."""
    v = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(("VmHWM:", "RssAnon:")):
                    v[line.split(":")[0]] = int(line.split()[1])
    except OSError:
        pass
    return (v["VmHWM"], v.get("RssAnon", 0)) if "VmHWM" in v else None


def anon_parts(pid):
    """PID's own memory by where it lies, in KiB: its stack; the data and
    bss (the writable mapping of the binary and the anonymous one that
    follows it); the heap (brk); every other anonymous mapping (malloc's
    groups, thread stacks). From /proc/PID/smaps' Anonymous lines."""
    parts = {"stack": 0, "data": 0, "heap": 0, "maps": 0}
    prev = ""
    try:
        with open("/proc/%d/smaps" % pid) as f:
            for line in f:
                head = line.split()
                if "-" in head[0] and len(head) >= 5 and ":" not in head[0]:
                    name = head[5] if len(head) > 5 else ""
                    if name == "[stack]":
                        where = "stack"
                    elif name == "[heap]":
                        where = "heap"
                    elif name.startswith("/") or (name == "" and
                                                  prev.startswith("/")):
                        where = "data"
                    else:
                        where = "maps" if name == "" else None
                    prev = name
                elif head[0] == "Anonymous:" and where is not None:
                    parts[where] += int(head[1])
    except OSError:
        return None
    return parts


def peak_once(argv):
    """Run ARGV with stdout drained through a pipe; sample the VmHWM of
    that process (sbexec itself, not its children) every 2 ms until it
    has exited. VmHWM only grows, so the last sample is its peak."""
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    total = [0]

    def drain():
        while True:
            b = p.stdout.read1(1 << 20)
            if not b:
                break
            total[0] += len(b)

    t = threading.Thread(target=drain)
    t.start()
    peak, anon, samples, parts = 0, 0, 0, None
    while True:
        v = hwm_kib(p.pid)
        if v is None:
            break
        if v[1] > anon or parts is None:
            parts = anon_parts(p.pid) or parts
        peak, anon, samples = max(peak, v[0]), max(anon, v[1]), samples + 1
        if p.poll() is not None:
            break
        time.sleep(0.002)
    t.join()
    p.wait()
    return peak, samples, total[0], p.returncode, anon, parts


def cmd_peakrss(args):
    runs = int(args[0])
    argv = args[2:]
    peaks, anons, bytes_out, samples, rc, parts = [], [], 0, 0, 0, None
    for _ in range(runs):
        pk, n, b, rc1, an, pa = peak_once(argv)
        peaks.append(pk)
        if pa is not None and an >= max(anons, default=0):
            parts = pa
        anons.append(an)
        bytes_out, samples = b, min(samples or n, n)
        rc = rc or rc1
    parts = parts or {"stack": 0, "data": 0, "heap": 0, "maps": 0}
    print("%d %d %d %d %d %d %d %d %d %d" % (
        max(peaks), min(peaks), bytes_out, samples, rc, max(anons),
        parts["stack"], parts["data"], parts["heap"], parts["maps"]))


# ---------------------------------------------------------------- scale
def burst(argv, n, cwd):
    t0 = time.perf_counter_ns()
    ps = [subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
          for _ in range(n)]
    res = [(p.communicate(), p.returncode) for p in ps]
    return time.perf_counter_ns() - t0, res


def check_audit(path, n):
    """All lines valid JSON; n start and n end records, paired by id,
    every end with exit 0. Returns (lines, problems)."""
    problems, starts, ends, lines = [], {}, {}, 0
    with open(path, "rb") as f:
        for raw in f:
            lines += 1
            try:
                rec = json.loads(raw)
            except ValueError as e:
                problems.append("line %d: not JSON: %s" % (lines, e))
                continue
            d = starts if rec.get("type") == "start" else ends \
                if rec.get("type") == "end" else None
            if d is None:
                problems.append("line %d: type %r" % (lines,
                                                      rec.get("type")))
                continue
            if rec.get("id") in d:
                problems.append("line %d: id repeated" % lines)
            d[rec.get("id")] = rec
    if len(starts) != n or len(ends) != n:
        problems.append("%d start, %d end records (want %d each)" %
                        (len(starts), len(ends), n))
    if set(starts) != set(ends):
        problems.append("start and end ids do not pair up")
    bad = [r for r in ends.values() if r.get("exit") != 0]
    if bad:
        problems.append("%d end records with exit != 0" % len(bad))
    return lines, problems


def cmd_scale(args):
    """scale N ROUNDS DIR -- NATIVE... -- SBEXEC... : ROUNDS rounds of N
    concurrent NATIVE, then N concurrent SBEXEC (interleaved, the order
    alternating), each sbexec round with a fresh audit file DIR/audit-K.
    The SBEXEC argv's policy must audit to DIR/audit.jsonl, which is
    moved aside after each round. Prints a JSON summary."""
    n, rounds, d = int(args[0]), int(args[1]), args[2]
    rest = args[4:]
    k = rest.index("--")
    native, sb = rest[:k], rest[k + 1:]
    audit = os.path.join(d, "audit.jsonl")
    tn, ts, problems, lines_total, outputs_ok = [], [], [], 0, True
    ref = None
    for r in range(rounds):
        order = ("n", "s") if r % 2 == 0 else ("s", "n")
        for which in order:
            if which == "n":
                t, res = burst(native, n, d)
                tn.append(t)
                if ref is None:
                    ref = res[0][0][0]
                if any(rc != 0 for _, rc in res):
                    problems.append("native round %d: a run failed" % r)
            else:
                if os.path.exists(audit):
                    os.unlink(audit)
                t, res = burst(sb, n, d)
                ts.append(t)
                fails = [rc for _, rc in res if rc != 0]
                if fails:
                    problems.append("sbexec round %d: %d runs failed "
                                    "(first status %d)" % (r, len(fails),
                                                           fails[0]))
                if ref is not None and any(o[0] != ref for o, _ in res):
                    outputs_ok = False
                lines, p = check_audit(audit, n)
                lines_total += lines
                problems += ["audit round %d: %s" % (r, x) for x in p]
                os.rename(audit, os.path.join(d, "audit-%d.jsonl" % r))
    tn.sort()
    ts.sort()
    med = lambda v: v[len(v) // 2] if len(v) % 2 else \
        (v[len(v) // 2 - 1] + v[len(v) // 2]) // 2
    print(json.dumps(dict(n=n, rounds=rounds, native_ns=tn, sbexec_ns=ts,
                          native_med=med(tn), sbexec_med=med(ts),
                          ratio=med(ts) / med(tn),
                          audit_lines=lines_total,
                          outputs_identical=outputs_ok,
                          problems=problems)))


# ---------------------------------------------------------------- strace
def cmd_strace_count(args):
    """`strace -c` table -> "syscall calls" lines, most calls first."""
    rows = []
    with open(args[0]) as f:
        for line in f:
            m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(\d*)\s*(\w+)$",
                         line)
            if m and m.group(3) != "total":
                rows.append((int(m.group(1)), m.group(3)))
    for calls, name in sorted(rows, key=lambda x: -x[0]):
        print(name, calls)


def trace_events(path):
    """[(seconds, syscall, rest)] from `strace -ttt` or `perf trace`
    output of one process."""
    ev = []
    with open(path) as f:
        for line in f:
            m = re.match(r"(\d+\.\d+) (\w+)\((.*)", line)	# strace -ttt
            if m:
                ev.append((float(m.group(1)), m.group(2), m.group(3)))
                continue
            if "+++ exited" in line and re.match(r"\d+\.\d+ ", line):
                ev.append((float(line.split()[0]), "+exit", ""))
                continue
            m = re.match(r"\s*(\d+\.\d+) \([\s\d.]*(?:ms)?\): (\w+)\((.*)",
                         line)				# perf trace, ms
            if m:
                ev.append((float(m.group(1)) / 1e3, m.group(2), m.group(3)))
    return ev


def phases_of(path, policy):
    """[(phase, seconds or None, syscalls)] for one traced run. The
    boundaries are syscalls sbexec makes in a known order: the first
    open (the policy), getrandom (the audit id, after parsing), the first
    write after it (the start record), fork, the wait4 that reaps."""
    ev = trace_events(path)
    if len(ev) < 5:
        return None

    def first(pred, start=0):
        for i in range(start or 0, len(ev)):
            if pred(ev[i]):
                return i
        return None

    nxt = lambda i: None if i is None else i + 1
    i_pol = first(lambda e: e[1] in ("open", "openat") and
                  (policy in e[2] or "filename: 0x" in e[2]))
    i_rand = first(lambda e: e[1] == "getrandom")
    i_start = first(lambda e: e[1] == "write", i_rand)
    i_fork = first(lambda e: e[1] in ("fork", "vfork", "clone", "clone3"),
                   i_start)
    i_reap = None
    for i in range(len(ev)):
        if ev[i][1] == "wait4" and re.search(r"= [1-9]\d*( \(.*\))?$",
                                              ev[i][2].rstrip()):
            i_reap = i
    i_exit = len(ev) - 1
    marks = [("exec of sbexec, descriptors, signals", 0, i_pol),
             ("policy: open, read, parse, validate, sha256", i_pol, i_rand),
             ("audit open, decide, target check, cwd, realpath, bwrap argv",
              i_rand, i_start),
             ("audit start record", i_start, nxt(i_start)),
             ("seccomp pipe, signalfd, output pipes, fork", nxt(i_start),
              nxt(i_fork)),
             ("waiting: bwrap, sandbox set-up, the command, copy loop",
              nxt(i_fork), nxt(i_reap)),
             ("end record, exit", nxt(i_reap), i_exit)]
    out = []
    for name, a, b in marks:
        if a is None or b is None:
            out.append((name, None, None))
        else:
            out.append((name, ev[b][0] - ev[a][0], b - a))
    out.append(("**total**", ev[i_exit][0] - ev[0][0], len(ev)))
    return out


def cmd_phases(args):
    """phases TOOL POLICY FILE...: phases of sbexec runs traced alone
    (bwrap and the command run untraced), the median of each over the
    files. Every traced syscall is slowed, so sbexec's own phases are
    overstated; the syscalls column says by how much they are exposed."""
    tool, policy, files = args[0], args[1], args[2:]
    runs = [r for r in (phases_of(f, policy) for f in files) if r]
    if not runs:
        die("no trace events")
    med = lambda v: sorted(v)[len(v) // 2]
    rows = []
    for k, (name, _, _) in enumerate(runs[0]):
        v = [r[k][1] for r in runs if r[k][1] is not None]
        n = [r[k][2] for r in runs if r[k][2] is not None]
        rows.append((name, med(v) if v else None, med(n) if n else None))
    total = rows[-1][1]
    print("| phase (%s, sbexec traced alone; median of %d runs) "
          "| ms | share | syscalls |" % (tool, len(runs)))
    print("|---|---:|---:|---:|")
    for name, v, n in rows:
        if v is None:
            print("| %s | n/a | | |" % name)
        else:
            print("| %s | %.3f | %.0f%% | %d |" % (name, v * 1e3,
                                                  100 * v / total, n))


# ---------------------------------------------------------------- forks
FORK_PHASES = ("its exec -> the guard's fork",
               "the guard's fork -> the command's fork",
               "the command's fork -> its exec",
               "the command's exec -> its exit",
               "the command's exit -> the launcher's exit",
               "**total**")


def forks_of(path, top, cmd):
    """Each run in `perf script` output of sched_process_{exec,fork,exit}:
    from the exec of a program whose path ends in TOP, the times of its
    child's fork (the guard), the guard's child's fork (the command),
    the command's exec of a path ending in CMD, the command's exit and
    TOP's exit."""
    pat = re.compile(r"\s(\d+)\s+(?:\[\d+\]\s+)?([\d.]+):\s+"
                     r"sched:(sched_process_\w+):\s*(.*)")
    runs, cur = [], None
    for line in open(path, errors="replace"):
        m = pat.search(line)
        if not m:
            continue
        pid, t, ev, rest = int(m.group(1)), float(m.group(2)), \
            m.group(3), m.group(4)
        kv = dict(re.findall(r"(\w+)=(\S+)", rest))
        if ev == "sched_process_exec" and \
                kv.get("filename", "").endswith("/" + top):
            cur = {"top": pid, "t": [t]}
            runs.append(cur)
        elif cur is None:
            continue
        elif ev == "sched_process_fork":
            parent, child = int(kv["pid"]), int(kv["child_pid"])
            if parent == cur["top"] and "guard" not in cur:
                cur["guard"] = child
                cur["t"].append(t)
            elif parent == cur.get("guard") and "cmd" not in cur:
                cur["cmd"] = child
                cur["t"].append(t)
        elif ev == "sched_process_exec" and pid == cur.get("cmd") and \
                kv.get("filename", "").endswith("/" + cmd):
            cur["t"].append(t)
        elif ev == "sched_process_exit" and int(kv["pid"]) in \
                (cur.get("cmd"), cur["top"]) and len(cur["t"]) in (4, 5):
            cur["t"].append(t)
    return [r["t"] for r in runs if len(r["t"]) == 6]


def cmd_forks(args):
    """forks CMD LABEL=TOP:FILE...: a table of each FORK_PHASES' median
    (ms) for each column, from forks_of(FILE, TOP, CMD), and the
    difference of the first column from the second."""
    cmd, cols = args[0], []
    for a in args[1:]:
        label, rest = a.split("=", 1)
        top, path = rest.split(":", 1)
        runs = forks_of(path, top, cmd)
        if not runs:
            die("no complete run of %s in %s" % (top, path))
        ph = [[r[i + 1] - r[i] for r in runs] for i in range(5)]
        ph.append([r[5] - r[0] for r in runs])
        cols.append((label, [statistics.median(v) * 1e3 for v in ph],
                     len(runs)))
    print("| phase | " + " | ".join("%s ms (%d runs)" % (c[0], c[2])
                                    for c in cols) +
          (" | difference ms |" if len(cols) == 2 else " |"))
    print("|---|" + "---:|" * (len(cols) + (len(cols) == 2)))
    for i, name in enumerate(FORK_PHASES):
        v = [c[1][i] for c in cols]
        print("| %s | " % name + " | ".join("%.3f" % x for x in v) +
              (" | %+.3f |" % (v[0] - v[1]) if len(v) == 2 else " |"))


def cmd_perfstat(args):
    """`perf stat -x, -e EVENT,...` output -> EVENT's mean count (for
    task-clock, msec)."""
    event = args[1] if len(args) > 1 else "task-clock"
    with open(args[0]) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) > 2 and parts[2].startswith(event):
                print(parts[0])
                return
    print("")


# ---------------------------------------------------------------- profile
def read_profile(path):
    """prof.c's file: calls separated by an empty line, each line
    STEP<TAB>NS -> ordered steps and, for each, its ns per call."""
    steps, values = [], {}
    try:
        text = open(path).read()
    except OSError:
        return steps, values
    for call in text.split("\n\n"):
        for line in call.splitlines():
            step, _, ns = line.rpartition("\t")
            if not step:
                continue
            if step not in values:
                steps.append(step)
                values[step] = []
            values[step].append(int(ns))
    return steps, values


def cmd_profile(args):
    """LABEL=FILE...: a markdown table, a row per step (in the order the
    first file has them, then the others'), a column per LABEL: the
    median ms of the step over the calls, and the median total."""
    cols = [a.split("=", 1) for a in args]
    data = [read_profile(path) for _, path in cols]
    order = []
    for steps, _ in data:
        order += [s for s in steps if s not in order]
    print("| step (sbexec's own process) | " +
          " | ".join("%s ms" % label for label, _ in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for step in order:
        cells = []
        for _, values in data:
            v = values.get(step)
            cells.append("%.3f" % (statistics.median(v) / 1e6) if v else "")
        print("| %s | %s |" % (step, " | ".join(cells)))
    totals = []
    for steps, values in data:
        n = min((len(v) for v in values.values()), default=0)
        calls = [sum(values[s][i] for s in steps if i < len(values[s]))
                 for i in range(n)]
        totals.append("%.3f" % (statistics.median(calls) / 1e6)
                      if calls else "")
    print("| **total, median call** | %s |" % " | ".join(totals))


def cmd_profile_sum(args):
    """FILE STEP...: the sum of the median ms of the named steps (each
    matched by its first words) in prof.c's FILE."""
    _, values = read_profile(args[0])
    total = 0
    for want in args[1:]:
        for step, v in values.items():
            if step.startswith(want):
                total += statistics.median(v)
    print("%.3f" % (total / 1e6))


# A map's kept input sections: " .text.x  0xADDR  0xSIZE  FILE", the
# name on a line of its own when it is long. Discarded ones sit at 0.
MAP_LINE = re.compile(r"^ (\.\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$")
NOT_IN_FILE = (".bss", ".tbss", ".debug", ".comment", ".note")


def map_sizes(path):
    """FILE (an object or an archive member) -> bytes it puts in the
    binary, from an ld map."""
    sizes, section = {}, None
    for line in open(path):
        if line.startswith(" .") and len(line.split()) == 1:
            section = line.split()[0]
            continue
        m = MAP_LINE.match(line.rstrip("\n"))
        if not m:
            section = None
            continue
        name = m.group(1) or section
        section = None
        if not name or name.startswith(NOT_IN_FILE) or int(m.group(2), 16) == 0:
            continue
        sizes[m.group(4)] = sizes.get(m.group(4), 0) + int(m.group(3), 16)
    return sizes


def map_group(obj):
    """build/net/proxy.o -> src/net/, libc.a(vfprintf.lo) -> musl."""
    if "libc.a(" in obj or "/musl/" in obj:
        return "musl"
    if obj.endswith("cJSON.o"):
        return "cJSON"
    if obj.endswith("seccomp-bpf.o"):
        return "the seccomp programs"
    parts = obj.split("/")
    if len(parts) >= 2 and parts[0] == "build":
        return "src/" + ("/".join(parts[1:-1]) + "/" if len(parts) > 2 else "")
    return "other (crt, libgcc)"


def cmd_mapsize(args):
    """MAP: a markdown table of what each part of the source and of musl
    puts in the binary (code, read-only data and data), largest first,
    with musl's largest members named."""
    sizes = map_sizes(args[0])
    groups, members = {}, {}
    for obj, n in sizes.items():
        g = map_group(obj)
        groups[g] = groups.get(g, 0) + n
        if g == "musl":
            m = re.search(r"\(([^)]*)\)", obj)
            key = (m.group(1) if m else obj).rsplit(".", 1)[0]
            members[key] = members.get(key, 0) + n
    total = sum(groups.values())
    print("| part | KiB | share |")
    print("|---|---:|---:|")
    for g, n in sorted(groups.items(), key=lambda x: -x[1]):
        print("| %s | %.1f | %.0f%% |" % (g, n / 1024, 100.0 * n / total))
    top = sorted(members.items(), key=lambda x: -x[1])[:12]
    print("| **total** | %.1f | 100%% |" % (total / 1024))
    print("")
    print("musl's largest parts: " + ", ".join(
        "`%s` %.1f" % (k, v / 1024) for k, v in top) + " KiB.")


def main():
    if len(sys.argv) < 2:
        die("usage: helpers.py COMMAND ARGS...")
    cmds = {"argv": cmd_argv, "table": cmd_table, "get": cmd_get,
            "tail": cmd_tail,
            "peakrss": cmd_peakrss, "scale": cmd_scale,
            "strace-count": cmd_strace_count, "phases": cmd_phases,
            "forks": cmd_forks,
            "perfstat": cmd_perfstat, "profile": cmd_profile,
            "profile-sum": cmd_profile_sum, "mapsize": cmd_mapsize}
    fn = cmds.get(sys.argv[1])
    if fn is None:
        die("unknown command " + sys.argv[1])
    fn(sys.argv[2:])


if __name__ == "__main__":
    main()
