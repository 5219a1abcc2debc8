#!/usr/bin/env python3
"""noalloc's findings in rust-analyzer's own check, end to end.

Starts the real rust-analyzer (the rustup component) over LSP on a copy of a
fixture workspace, with `check.overrideCommand` set to
`[CARGO_NOALLOC, "noalloc", "--message-format", "json"]` (the absolute path of the
built `cargo-noalloc`, which cargo would find on PATH as `cargo noalloc`), opens
src/lib.rs, saves it once the workspace is loaded, and waits for a
`textDocument/publishDiagnostics` of rust-analyzer's that holds the finding: source
`noalloc`, code `allocation`, on the line the fixture's golden file names.

    rust_analyzer_check.py RUST_ANALYZER CARGO_NOALLOC FIXTURE_DIR LINE
        [--file REL] [--fix OLD=>NEW --save REL]

LINE is 1-based, in `--file` (src/lib.rs by default). With `--fix`,
rust-analyzer's `check.workspace` is false: a save checks for the saved file's
package, and rust-analyzer keeps each package's diagnostics until that package is
reported again. The file `--save` names (another package's) is the one saved;
once the finding is seen, OLD on its line becomes NEW on disk and that file is
saved again: the finding must go, which only the finding's package's
`compiler-artifact` tells rust-analyzer (the saved package is not its). Exits 0
when the diagnostic arrives (and, with `--fix`, goes), 1 otherwise (with what was
seen), within 240 s.
"""

import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TIMEOUT_S = 240


def frames(stream, inbox):
    """LSP messages from `stream` (Content-Length framing) into `inbox`."""
    while True:
        headers = {}
        while True:
            line = stream.readline()
            if not line:
                inbox.put(None)
                return
            line = line.decode("ascii").strip()
            if not line:
                break
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        body = stream.read(int(headers["content-length"]))
        inbox.put(json.loads(body))


def main():
    parser = argparse.ArgumentParser()
    for name in ["rust_analyzer", "cargo_noalloc", "fixture"]:
        parser.add_argument(name)
    parser.add_argument("line", type=int)
    parser.add_argument("--file", default="src/lib.rs")
    parser.add_argument("--fix")
    parser.add_argument("--save")
    args = parser.parse_args()
    ra, cargo_noalloc, line = args.rust_analyzer, args.cargo_noalloc, args.line
    fix = args.fix.split("=>", 1) if args.fix else None
    work = Path(tempfile.mkdtemp(prefix="noalloc-ra-check-"))
    ws = work / "ws"
    shutil.copytree(Path(args.fixture), ws, ignore=shutil.ignore_patterns("target"))
    ws = ws.resolve()
    lib = ws / args.file
    saved = ws / args.save if args.save else lib
    settings = {
        "check": {"overrideCommand": [cargo_noalloc, "noalloc", "--message-format", "json"], "workspace": fix is None},
        "checkOnSave": True,
        # Only the check is under test: no build scripts, proc macros or priming.
        "cargo": {"buildScripts": {"enable": False}},
        "procMacro": {"enable": False},
        "cachePriming": {"enable": False},
    }
    env = dict(os.environ, NOALLOC_CACHE_DIR=str(work / "cache"))
    env.pop("NOALLOC_LOG", None)
    stderr = open(work / "rust-analyzer.log", "wb")
    server = subprocess.Popen([ra], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, cwd=ws, env=env)
    inbox = queue.Queue()
    threading.Thread(target=frames, args=(server.stdout, inbox), daemon=True).start()

    def send(message):
        body = json.dumps(message).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    root_uri = ws.as_uri()
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(),
        "rootUri": root_uri,
        "workspaceFolders": [{"uri": root_uri, "name": "ws"}],
        "initializationOptions": settings,
        "capabilities": {
            "textDocument": {"publishDiagnostics": {"relatedInformation": True}, "synchronization": {"didSave": True}},
            "window": {"workDoneProgress": True},
            "workspace": {"configuration": True},
            "experimental": {"serverStatusNotification": True},
        },
    }})

    deadline = time.monotonic() + TIMEOUT_S
    saves = 0
    seen = []
    found = None
    # With --fix: whether the fix was saved, and whether the finding went.
    fixed = False
    gone = False

    def save():
        send({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": saved.as_uri()}}})

    while time.monotonic() < deadline and not (found is not None and (fix is None or gone)):
        try:
            message = inbox.get(timeout=1)
        except queue.Empty:
            continue
        if message is None:
            print("rust-analyzer exited", file=sys.stderr)
            break
        method = message.get("method")
        if "id" in message and method is None and message["id"] == 1:
            send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
            for opened in dict.fromkeys([lib, saved]):
                send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": opened.as_uri(), "languageId": "rust", "version": 1, "text": opened.read_text()}}})
        elif "id" in message and method is not None:
            # A request of the server's: its settings, or a plain acknowledgement.
            result = None
            if method == "workspace/configuration":
                result = [settings for _ in message["params"]["items"]]
            send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        elif method == "experimental/serverStatus" and message["params"].get("quiescent") and saves == 0:
            # Loaded: save, which runs the check.
            saves += 1
            save()
        elif method == "$/progress" and "flycheck" in str(message["params"].get("token")):
            value = message["params"]["value"]
            seen.append(f"check progress: {value.get('kind')} {value.get('title', '')} {value.get('message', '')}")
            if value.get("kind") == "end" and saves < 3:
                # A check that ended without the finding (one started before the
                # save, say): save again.
                saves += 1
                save()
        elif method == "textDocument/publishDiagnostics" and message["params"]["uri"] == lib.as_uri():
            diagnostics = message["params"]["diagnostics"]
            seen.append("diagnostics: " + json.dumps([(d.get("source"), d.get("code"), d["range"]["start"]["line"] + 1, d["message"].splitlines()[0]) for d in diagnostics]))
            ours = [d for d in diagnostics if d.get("source") == "noalloc"]
            for diagnostic in ours:
                if diagnostic.get("code") == "allocation" and diagnostic["range"]["start"]["line"] == line - 1:
                    found = diagnostic
            if fixed and not ours:
                gone = True
            if found is not None and fix is not None and not fixed:
                # Fix the line on disk, tell rust-analyzer, save the other package's file.
                fixed = True
                text = lib.read_text().replace(fix[0], fix[1], 1)
                lib.write_text(text)
                send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": lib.as_uri(), "version": 2}, "contentChanges": [{"text": text}]}})
                saves = 1
                save()

    try:
        send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
        send({"jsonrpc": "2.0", "method": "exit", "params": None})
        server.wait(timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        server.kill()
    for entry in seen:
        print(entry)
    if found is None or (fix is not None and not gone):
        what = f"no noalloc diagnostic at {args.file}:{line}" if found is None else "the fixed finding stayed"
        print(f"{what} from rust-analyzer within {TIMEOUT_S} s; its log:", file=sys.stderr)
        sys.stderr.write((work / "rust-analyzer.log").read_text(errors="replace")[-4000:])
        return 1
    print("rust-analyzer published:", json.dumps(found, indent=1))
    if fix is not None:
        print(f"and after the fix and a save of {args.save}, no noalloc diagnostic in {args.file}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
