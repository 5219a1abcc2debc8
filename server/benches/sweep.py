#!/usr/bin/env python3
"""The parsing and the table of server/benches/sweep.sh (stdlib only).

    sweep.py lib-name METADATA_JSON
        the library target's name from `cargo metadata --no-deps` output
    sweep.py record RESULTS NAME VERSION STATUS STDOUT STDERR TIME_FILE TIMEOUT [MEMORY_NOTE]
        reads one crate's run, appends a JSON line to RESULTS, prints its table row
        (MEMORY_NOTE: a file that says the sweep killed it over its memory limit)
    sweep.py setup-failed RESULTS NAME VERSION WHAT
        a crate whose source or lock file could not be had: appends, prints its row
    sweep.py failed-logs RESULTS
        the stderr logs of the crates that were not clean, one a line
    sweep.py finish RESULTS TOP
        after the table: the slowest crate's roots reaching the most functions (when
        the checker says them), totals; exit status 1 when any crate crashed, timed
        out, had an internal error or could not be set up, else 0
"""

import json
import re
import sys

HEADER = (
    "| crate | version | exit | wall s | peak MiB | roots | functions checked "
    "| findings | errors | internal errors | note |\n"
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
)


def lib_name(path):
    with open(path, encoding="utf-8") as f:
        meta = json.load(f)
    for package in meta.get("packages", []):
        for target in package.get("targets", []):
            kinds = target.get("kind", [])
            if any(k in ("lib", "rlib", "dylib", "proc-macro") for k in kinds):
                return target["name"].replace("-", "_")
    return ""


def parse_time(path):
    """Wall seconds and peak RSS in KiB from `/usr/bin/time -v -o`."""
    wall, rss = None, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return wall, rss
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    if m:
        seconds = 0.0
        for part in m.group(1).split(":"):
            seconds = seconds * 60 + float(part)
        wall = seconds
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        rss = int(m.group(1))
    return wall, rss


def parse_json_lines(path):
    """The summary line, error codes counted, and per-root figures if any."""
    summary = None
    codes = {}
    roots = []
    bad_lines = 0
    internal = []
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError:
        return summary, codes, roots, bad_lines, internal
    with f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                value = json.loads(line)
            except ValueError:
                bad_lines += 1
                continue
            if not isinstance(value, dict):
                continue
            kind = value.get("kind")
            if kind == "summary":
                summary = value
            elif kind == "error":
                code = str(value.get("code", "?"))
                codes[code] = codes.get(code, 0) + 1
                if code == "internal-error":
                    internal.append(value)
            elif kind == "root":
                roots.append(value)
    return summary, codes, roots, bad_lines, internal


def root_figures(summary, root_lines):
    """(name, functions) for every root the checker gave a figure for, most first."""
    out = []

    def add(item):
        if isinstance(item, dict):
            name = item.get("root") or item.get("function") or item.get("name")
            n = item.get("functions_checked", item.get("functions"))
        elif isinstance(item, (list, tuple)) and len(item) >= 2:
            name, n = item[0], item[1]
        else:
            return
        if name is not None and isinstance(n, int):
            out.append((str(name), n))

    for item in root_lines:
        add(item)
    if not out and summary:
        most = summary.get("roots_reaching_most")
        if isinstance(most, dict):
            most = list(most.items())
        for item in most or []:
            add(item)
    out.sort(key=lambda pair: (-pair[1], pair[0]))
    return out


def first_match(path, patterns):
    """The first stderr line matching one of the patterns, shortened for the table."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    for pattern in patterns:
        for i, line in enumerate(lines):
            if re.search(pattern, line):
                text = line.strip()
                # A panic's message is often on the next line (newer std).
                if text.endswith(":") and i + 1 < len(lines):
                    text += " " + lines[i + 1].strip()
                return text
    return ""


def last_line(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        return ""
    return lines[-1] if lines else ""


def timings_line(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("timings:"):
                    return line.strip()
    except OSError:
        pass
    return ""


COSTLIEST = re.compile(r"^timings: root (.+) took (\d+) ms, reaching (\d+) functions$")


def costliest_roots(path):
    """The checker's `--timings` lines naming the roots that took longest."""
    roots = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = COSTLIEST.match(line.strip())
                if m:
                    roots.append((m.group(1), f"{m.group(3)} ({m.group(2)} ms)"))
    except OSError:
        pass
    return roots


def cell(text, limit=240):
    text = text.replace("|", "\\|").replace("\n", " ")
    # Registry paths are long and say little: keep the crate-version part.
    text = re.sub(r"/\S*/registry/src/[^/]+/", "", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def classify(status, stderr_path, timeout, wall):
    """(exit cell, bad?, note) for the checker's exit status."""
    # timeout(1) says 124, or 137 when the command outlived the grace period and was
    # killed (a 137 well before the time limit is a kill from elsewhere: the OOM killer).
    if status == 124 or (status == 137 and wall is not None and wall >= timeout - 1):
        last = last_line(stderr_path)
        return f"**timeout ({timeout} s)**", True, f"last on stderr: {last[:120]}" if last else ""
    if status == 101:
        note = first_match(stderr_path, [r"panicked at", r"^thread .* panicked"])
        return "**101 panic**", True, note
    if status == 134:
        note = first_match(stderr_path, [r"has overflowed its stack", r"panicked at", r"abort"])
        what = "stack overflow" if "overflowed its stack" in note else "abort"
        return f"**134 {what}**", True, note
    if status > 128:
        return f"**{status} signal {status - 128}**", True, first_match(stderr_path, [r"\S"])
    if status == 0:
        return "0", False, ""
    if status == 1:
        return "1", False, ""
    note = first_match(stderr_path, [r"^error", r"\S"])
    return f"{status}", False, note


def internal_note(count, lines):
    """`N internal errors (roots a, b, ...): message at location[; K other messages]`."""
    note = f"{count} internal error{'s' if count != 1 else ''}"
    if not lines:
        return note
    roots = []
    for line in lines:
        for root in line.get("roots") or [line.get("function")]:
            if root and root not in roots:
                roots.append(root)
    if roots:
        shown = ", ".join(f"`{r}`" for r in roots[:3])
        note += f" (on {shown}{', …' if len(roots) > 3 else ''})"
    messages = []
    for line in lines:
        panic = line.get("panic")
        if isinstance(panic, dict):
            text = f"{panic.get('message', '')} at {panic.get('location', '?')}"
        else:
            text = str(line.get("message", ""))
            text = text.removeprefix("internal error while checking this root: ")
            text = text.removesuffix("; the rest of the check went on")
        if text not in messages:
            messages.append(text)
    note += f": {messages[0]}"
    if len(messages) > 1:
        note += f" (and {len(messages) - 1} other message{'s' if len(messages) > 2 else ''})"
    return note


def fmt(n):
    return "–" if n is None else str(n)


def record(results, name, version, status, stdout, stderr, time_file, timeout, memory_note=""):
    status = int(status)
    timeout = int(timeout)
    wall, rss = parse_time(time_file)
    summary, codes, root_lines, bad_lines, internal_lines = parse_json_lines(stdout)
    killed = ""
    if memory_note:
        try:
            with open(memory_note, encoding="utf-8") as f:
                killed = f.read().strip()
        except OSError:
            pass
    m = re.match(r"(\d+) KiB resident, over (\d+)", killed)
    if m:
        # /usr/bin/time was killed with the group: the watcher's figure is the peak.
        rss = max(rss or 0, int(m.group(1)))
        exit_cell, bad = f"**over {int(m.group(2)) // 1024} MiB**", True
        note = "killed by the sweep's memory limit (SWEEP_MAX_MIB)"
    else:
        exit_cell, bad, note = classify(status, stderr, timeout, wall)
    internal = codes.get("internal-error", 0)
    if summary and isinstance(summary.get("internal_errors"), int):
        internal = max(internal, summary["internal_errors"])
    if internal:
        bad = True
        if not note:
            note = internal_note(internal, internal_lines)
    if summary is None and not bad and status in (0, 1):
        note = note or "no summary line on stdout"
        bad = True
    if bad_lines and not note:
        note = f"{bad_lines} stdout lines not JSON"
    row = {
        "name": name,
        "version": version,
        "status": status,
        "exit": exit_cell,
        "bad": bad,
        "wall": wall,
        "rss_kib": rss,
        "summary": summary,
        "error_codes": codes,
        "internal_errors": internal,
        "roots": root_figures(summary, root_lines) or costliest_roots(stderr),
        "note": note,
        "timings": timings_line(stderr),
        "stderr": stderr,
    }
    with open(results, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    print(table_row(row), flush=True)


def table_row(row):
    s = row.get("summary") or {}
    wall = "–" if row.get("wall") is None else f"{row['wall']:.1f}"
    rss = "–" if row.get("rss_kib") is None else f"{row['rss_kib'] / 1024:.0f}"
    errors = s.get("errors")
    internal = row.get("internal_errors")
    if not s and not internal:
        internal = None
    cells = [
        row["name"],
        row["version"],
        row["exit"],
        wall,
        rss,
        fmt(s.get("roots")),
        fmt(s.get("functions_checked")),
        fmt(s.get("findings")),
        fmt(errors),
        fmt(internal),
        cell(row.get("note") or ""),
    ]
    return "| " + " | ".join(cells) + " |"


def setup_failed(results, name, version, what):
    row = {
        "name": name,
        "version": version,
        "status": None,
        "exit": "**setup failed**",
        "bad": True,
        "wall": None,
        "rss_kib": None,
        "summary": None,
        "error_codes": {},
        "internal_errors": 0,
        "roots": [],
        "note": what,
        "timings": "",
        "stderr": "",
    }
    with open(results, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    print(table_row(row), flush=True)


def finish(results, top):
    top = int(top)
    rows = []
    try:
        with open(results, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except OSError:
        pass
    timed = [r for r in rows if r.get("wall") is not None]
    print()
    if timed:
        # The slowest that finished: one that timed out or crashed has no figures.
        finished = [r for r in timed if r.get("summary")] or timed
        slowest = max(finished, key=lambda r: r["wall"])
        s = slowest.get("summary") or {}
        print(
            f"Slowest: {slowest['name']} {slowest['version']}, {slowest['wall']:.1f} s"
            + (
                f", {s.get('functions_checked')} functions checked for {s.get('roots')} roots"
                if s
                else ""
            )
            + "."
        )
        if slowest.get("timings"):
            print(f"  {slowest['timings']}")
        if slowest.get("roots"):
            print(f"  Roots reaching the most functions ({len(slowest['roots'])} with figures):")
            print()
            print("  | root | functions checked |")
            print("  | --- | ---: |")
            for name, n in slowest["roots"][:top]:
                print(f"  | `{name}` | {n} |")
        else:
            print("  (the checker's JSON gives no per-root figures: no `\"kind\":\"root\"` lines, no summary `roots_reaching_most`)")
        # Where the functions come from: the most functions a root.
        ratios = []
        for r in rows:
            s = r.get("summary") or {}
            if s.get("roots") and s.get("functions_checked") is not None:
                ratios.append((s["functions_checked"] / s["roots"], r["name"], s["roots"], s["functions_checked"]))
        ratios.sort(reverse=True)
        if ratios:
            listed = ", ".join(f"{name} {fc}/{roots}" for _, name, roots, fc in ratios[:5])
            print(f"Most functions checked a root (functions/roots): {listed}.")
    bad = [r for r in rows if r.get("bad")]
    total_wall = sum(r["wall"] for r in timed)
    print(
        f"{len(rows)} crates, {len(bad)} crashed, timed out, had internal errors or could not be set up; "
        f"{total_wall / 60:.1f} min of checking."
    )
    if bad:
        def why(r):
            if r.get("internal_errors"):
                return f"{r['internal_errors']} internal error{'s' if r['internal_errors'] != 1 else ''}"
            if r["exit"] in ("0", "1"):
                return "no summary line"
            return r["exit"].strip("*")

        print("Not clean: " + ", ".join(f"{r['name']} ({why(r)})" for r in bad) + ".")
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    command, args = argv[1], argv[2:]
    if command == "header":
        print(HEADER)
        return 0
    if command == "lib-name":
        print(lib_name(args[0]))
        return 0
    if command == "record":
        record(*args)
        return 0
    if command == "setup-failed":
        setup_failed(*args)
        return 0
    if command == "finish":
        return finish(*args)
    if command == "failed-logs":
        with open(args[0], encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                if row.get("bad") and row.get("stderr"):
                    print(row["stderr"])
        return 0
    print(f"sweep.py: unknown command {command}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
