//! Benchmark of the language server: replays a scripted edit session against
//! `noalloc-ls` over stdio and prints edit → diagnostics latency (p50/p95/max) and
//! the server's peak RSS. A benchmark that prints figures, not a test.
//!
//! ```sh
//! cargo build --release --workspace --bins --examples
//! $CARGO_TARGET_DIR/release/examples/lsp_bench [FIXTURE=example] [EDITS=100] [items|items=NAME|types|methods|imports|traits|derives|traitdefs|text=ITEM] \
//!     [--root PATTERN]... [--open FILE] [--loads K] [--build-scripts]
//! ```
//!
//! `--loads K`: before the edit session, K - 1 more cold loads, each with a cache
//! directory of its own, empty; the first-diagnostics times are then also given as
//! the median (and range) of the K loads, steadier than one on a shared machine.
//!
//! `--build-scripts`: the server runs build scripts and proc macros, as it does by
//! default (a new user's editor), and so does the in-process load of rust-analyzer
//! it is compared with; without it, neither does (the figures of the fixtures,
//! which have none). cargo builds them into `CARGO_TARGET_DIR` when set, else the
//! copy's `target/`, which a load pays for: check the workspace once first.
//!
//! `--root` gives roots as the `roots` setting does (a crate from the registry has no
//! `// noalloc:root` lines); the edited file is then `--open` (relative to the
//! workspace), and the edits go in the body of its first `fn` named as the first
//! pattern's last segment.
//!
//! The server is the `noalloc-ls` next to this example's directory (or `NOALLOC_LS`);
//! its stderr goes to `NOALLOC_BENCH_STDERR` if set (with `NOALLOC_LOG=info`, where
//! the time went).
//! The fixture (`test-data/<name>`, or a workspace directory) is copied to a temporary directory. Each edit is
//! a `didChange` in the body of the first root of the first file under `src/` that
//! has one, alternating: add an allocating line, type inside a
//! comment, remove the line. Latency runs from sending the edit to the server saying
//! it is quiescent (rust-analyzer's `experimental/serverStatus`), which it says only
//! once the diagnostics of that text are published. Before the edits: the time from
//! `initialize` to the first analysis published whole, and to the edited (open)
//! file's first diagnostics, which the server publishes as soon as they are complete;
//! and how much of that was loading (until its `$/progress` says it analyzes).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The item edits a mode names: the mode, the item added and removed, and how
/// the report says it.
const ITEM_MODES: &[(&str, &str, &str)] = &[
    ("types", "pub struct BenchType(pub u32);", "a struct"),
    (
        "methods",
        "pub struct BenchType(pub u32); impl BenchType { pub fn bench_method(&self) -> u32 { self.0 } }",
        "a struct with a method",
    ),
    ("imports", "use std::collections::BTreeSet;", "an import"),
    (
        "traits",
        "pub struct BenchType(pub u32); impl Default for BenchType { fn default() -> Self { BenchType(0) } }",
        "a struct with a trait impl",
    ),
    (
        "derives",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)] pub struct BenchType(pub u32);",
        "a struct with derives",
    ),
    ("traitdefs", "pub trait BenchTrait { fn bench_method(&self) -> u32 { 0 } }", "a trait"),
];

fn main() {
    let (mut positional, mut roots, mut open, mut loads) = (Vec::new(), Vec::new(), None, 1);
    let mut build_scripts = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--root" => roots.push(args.next().expect("--root PATTERN")),
            "--open" => open = Some(args.next().expect("--open FILE")),
            "--loads" => {
                loads = args.next().and_then(|k| k.parse::<usize>().ok()).filter(|&k| k > 0).expect("--loads K (K > 0)")
            }
            "--build-scripts" => build_scripts = true,
            _ => positional.push(arg),
        }
    }
    let mut args = positional.into_iter();
    let fixture = args.next().unwrap_or_else(|| "example".to_owned());
    let edits: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    // `items`: add and remove a whole fn at the end of the file instead (an edit
    // that changes the file's item tree, not only a body).
    // `items=NAME`: the fn is named NAME. Named as other code spells it where a
    // path can be (`items=len` on `specifics`: a field `len`), the server cannot
    // prove the edit leaves other bodies alone and asks salsa whether each reused
    // outcome's walks still hold.
    // `types`: add and remove a struct instead, which changes the item level every
    // kept outcome is checked against; `methods`: a struct with an inherent impl
    // holding a method; `imports`: an import (of a struct no file names); `traits`:
    // a struct with an impl of a std trait (`Default`); `derives`: a struct with
    // the compiler's derives; `traitdefs`: a trait; `text=ITEM`: any item text.
    let mode = args.next().unwrap_or_default();
    let item_name = mode.strip_prefix("items=").unwrap_or("bench_item").to_owned();
    let named = ITEM_MODES.iter().find(|(name, ..)| *name == mode);
    let (item_text, item_what) = match (named, mode.strip_prefix("text=")) {
        (Some((_, text, what)), _) => (format!("{text}\n"), (*what).to_owned()),
        (None, Some(text)) => (format!("{text}\n"), format!("`{text}`")),
        (None, None) => (format!("fn {item_name}() -> u32 {{ 1 }}\n"), format!("a fn `{item_name}`")),
    };
    let items = mode == "items" || mode.starts_with("items=") || mode.starts_with("text=") || named.is_some();
    let server = std::env::var_os("NOALLOC_LS").map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("own path");
        exe.parent().and_then(Path::parent).expect("target dir").join("noalloc-ls")
    });
    // A fixture name under test-data/, or a workspace directory.
    let source = if Path::new(&fixture).is_dir() {
        PathBuf::from(&fixture)
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-data").join(&fixture)
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_dir(&source, tmp.path());
    let root = tmp.path().canonicalize().unwrap();
    // The edited file: `--open`, else the first of src/ (by name) that holds a root.
    let lib = match &open {
        Some(file) => root.join(file),
        None => {
            let mut sources: Vec<PathBuf> =
                std::fs::read_dir(root.join("src")).expect("src/").map(|e| e.unwrap().path()).collect();
            sources.sort();
            sources
                .into_iter()
                .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.trim() == "// noalloc:root")))
                .expect("a file with a root")
        }
    };
    let text = std::fs::read_to_string(&lib).unwrap_or_else(|e| panic!("{}: {e}", lib.display()));
    // The line the edited root starts at: its directive, or its `fn`.
    let is_root_start = |line: &str| match roots.first() {
        Some(pattern) => {
            let name = pattern.rsplit("::").next().unwrap_or(pattern);
            line.contains(&format!("fn {name}(")) || line.contains(&format!("fn {name}<"))
        }
        None => line.trim() == "// noalloc:root",
    };
    let options = json!({ "buildScripts": build_scripts, "roots": roots });

    // The extra cold loads, each with an empty cache directory of its own.
    let mut cold_loads: Vec<(Duration, Option<Duration>)> = (1..loads)
        .map(|_| {
            let cache = tempfile::tempdir().expect("temp dir");
            let (mut child, mut session, all, open_file, _) =
                Session::open_with(&server, &root, &lib, &text, &options, Some(cache.path()));
            session.shutdown(&mut child);
            (all, open_file)
        })
        .collect();
    let (mut child, mut session, first, open_file_first, loaded) = Session::open(&server, &root, &lib, &text, &options);
    cold_loads.push((first, open_file_first));
    let pid = child.id();
    let rss_loaded = rss_kib(pid, "VmRSS");

    // The edit site: the first line of the first root's body.
    let lines: Vec<&str> = text.lines().collect();
    let root_line = lines.iter().position(|l| is_root_start(l)).expect("the edited root in the file");
    let body_line = (root_line..lines.len()).find(|&i| lines[i].trim_end().ends_with('{')).expect("a body") + 1;
    let alloc = "    let _bench: Vec<u64> = Vec::with_capacity(16);\n";
    let mut latencies = Vec::with_capacity(edits);
    let mut version = 1;
    let cpu_before = cpu_ticks(pid);
    for i in 0..edits {
        version += 1;
        let end = lines.len();
        let change = match i % 3 {
            _ if items && i % 2 == 0 => {
                json!({ "range": range(end, 0, end, 0), "text": item_text })
            }
            _ if items => json!({ "range": range(end, 0, end + 1, 0), "text": "" }),
            0 => json!({ "range": range(body_line, 0, body_line, 0), "text": alloc }),
            1 => json!({ "range": range(body_line, 4, body_line, 4), "text": "/* typing */ " }),
            _ => json!({ "range": range(body_line, 0, body_line + 1, 0), "text": "" }),
        };
        let sent = Instant::now();
        session.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri(&lib), "version": version }, "contentChanges": [change] }),
        );
        session.wait_quiescent();
        latencies.push(sent.elapsed());
    }
    let cpu_per_edit_ms = (cpu_ticks(pid) - cpu_before) as f64 * 1000.0 / ticks_per_second() / edits.max(1) as f64;
    let rss_peak = rss_kib(pid, "VmHWM");
    let rss_end = rss_kib(pid, "VmRSS");
    let exit_took = session.shutdown(&mut child);

    // Reopened on the same files, unchanged on disk: the analysis the first session
    // stored is published before the server has analyzed anything (when a cache
    // directory is in use, as by default).
    let (mut child, mut reopened, _, reopened_first, _) = Session::open(&server, &root, &lib, &text, &options);
    reopened.shutdown(&mut child);

    // Reopened after the root's body was edited while no server ran: the stored
    // analysis no longer answers, the summaries the first session wrote answer
    // std and the dependencies.
    let mut edited = lines.iter().map(|line| format!("{line}\n")).collect::<Vec<_>>();
    edited.insert(body_line, alloc.to_owned());
    let edited = edited.concat();
    std::fs::write(&lib, &edited).expect("the edited file is written");
    let (mut child, mut reopened_edited, edited_all, edited_first, _) =
        Session::open(&server, &root, &lib, &edited, &options);
    reopened_edited.shutdown(&mut child);
    std::fs::write(&lib, &text).expect("the file is written back");

    // What rust-analyzer itself holds for this workspace once it has indexed it: load
    // it here and prime the caches as rust-analyzer does at start-up (def maps, import
    // maps and symbols of every crate, std included); see how much this process grew.
    let before_load = rss_kib(std::process::id(), "VmRSS");
    // As rust-analyzer loads it: std's intrinsics all in (`deferred_intrinsics`), and
    // what proc macros depend on; build scripts and proc macros as the server ran.
    let options = noalloc_ls::engine::LoadOptions {
        build_scripts,
        defer_intrinsics: false,
        leave_out_proc_macro_dependencies: false,
        ..Default::default()
    };
    let ws = noalloc_ls::engine::Workspace::load(&root, &options, &|_| {}).expect("the workspace loads");
    let crates = ra_ap_ide_db::base_db::all_crates(&ws.db);
    ra_ap_ide_db::prime_caches::parallel_prime_caches(&ws.db, &crates, 1, &|_| {});
    let db_only = rss_kib(std::process::id(), "VmRSS").saturating_sub(before_load);
    drop(ws);

    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let edited = lib.strip_prefix(&root).unwrap().display();
    println!(
        "fixture: {fixture}, editing {edited} ({} lines{}), build scripts {}, server: {}",
        lines.len(),
        match items {
            true => format!(", adding and removing {item_what}"),
            false => ", in a root's body".to_owned(),
        },
        if build_scripts { "on" } else { "off" },
        server.display()
    );
    println!("load + first analysis + publish: {:.0} ms", ms(first));
    if loads > 1 {
        let spread = |mut times: Vec<Duration>| {
            times.sort();
            format!(
                "median {:.0} ms (from {:.0} to {:.0} ms)",
                ms(times[times.len() / 2]),
                ms(times[0]),
                ms(times[times.len() - 1])
            )
        };
        println!(
            "over {loads} cold loads: load + first analysis + publish: {}",
            spread(cold_loads.iter().map(|&(all, _)| all).collect())
        );
        let open_file: Vec<Duration> = cold_loads.iter().filter_map(|&(_, open_file)| open_file).collect();
        if open_file.len() == loads {
            println!("over {loads} cold loads: load + the open file's first diagnostics: {}", spread(open_file));
        }
    }
    if let (Some(loaded), Some(at)) = (loaded, open_file_first) {
        println!("load: {:.0} ms; after it, the open file's first diagnostics: {:.0} ms", ms(loaded), ms(at - loaded));
    }
    for (what, at) in [
        ("", open_file_first),
        ("reopened, files unchanged: ", reopened_first),
        ("reopened after a root's body was edited on disk: ", edited_first),
    ] {
        match at {
            Some(at) => println!("{what}load + the open file's first diagnostics: {:.0} ms", ms(at)),
            None => println!("{what}load + the open file's first diagnostics: none published (no findings there)"),
        }
    }
    println!(
        "reopened after a root's body was edited on disk: load + first analysis + publish: {:.0} ms",
        ms(edited_all)
    );
    println!(
        "edit -> diagnostics over {} edits: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms ({} publishes); server CPU {cpu_per_edit_ms:.1} ms per edit",
        latencies.len(),
        ms(pct(0.5)),
        ms(pct(0.95)),
        ms(*latencies.last().unwrap()),
        session.publishes
    );
    println!(
        "server RSS: {:.0} MiB after loading, {:.0} MiB at the end, peak {:.0} MiB",
        rss_loaded as f64 / 1024.0,
        rss_end as f64 / 1024.0,
        rss_peak as f64 / 1024.0
    );
    println!("exit -> process gone: {:.0} ms", ms(exit_took));
    println!(
        "rust-analyzer's own indexing of the workspace (load + prime caches, in-process): {:.0} MiB; server peak / that = {:.2}",
        db_only as f64 / 1024.0,
        rss_peak as f64 / db_only.max(1) as f64
    );
}

struct Session {
    stdin: std::process::ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    quiescent: bool,
    publishes: usize,
    /// The edited (open) file, and when its diagnostics were first published.
    watched: String,
    watched_published: Option<Instant>,
    /// When the server said the workspace was loaded (its `$/progress` report
    /// "analyzing the roots").
    loaded: Option<Instant>,
}

impl Session {
    /// Starts the server on `root` and opens `lib`; returns once it is quiescent,
    /// with the time that took and the time to `lib`'s first diagnostics.
    fn open(
        server: &Path,
        root: &Path,
        lib: &Path,
        text: &str,
        options: &Value,
    ) -> (Child, Session, Duration, Option<Duration>, Option<Duration>) {
        Session::open_with(server, root, lib, text, options, None)
    }

    /// `open`, with the server's cache directory `cache_dir` when given (else the
    /// one this process's environment names).
    fn open_with(
        server: &Path,
        root: &Path,
        lib: &Path,
        text: &str,
        options: &Value,
        cache_dir: Option<&Path>,
    ) -> (Child, Session, Duration, Option<Duration>, Option<Duration>) {
        let mut command = Command::new(server);
        if let Some(dir) = cache_dir {
            command.env("NOALLOC_CACHE_DIR", dir);
        }
        let mut child = command
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match std::env::var_os("NOALLOC_BENCH_STDERR") {
                // Appended to: both sessions' logs.
                Some(path) => {
                    Stdio::from(std::fs::OpenOptions::new().create(true).append(true).open(path).expect("stderr file"))
                }
                None => Stdio::null(),
            })
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", server.display()));
        let stdin = child.stdin.take().unwrap();
        let incoming = reader(child.stdout.take().unwrap());
        let mut session = Session {
            stdin,
            incoming,
            next_id: 0,
            quiescent: false,
            publishes: 0,
            watched: uri(lib),
            watched_published: None,
            loaded: None,
        };
        let started = Instant::now();
        session.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": {
                    "experimental": { "serverStatusNotification": true },
                    "window": { "workDoneProgress": true },
                },
                "initializationOptions": options,
            }),
        );
        session.notify("initialized", json!({}));
        session.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(lib), "languageId": "rust", "version": 1, "text": text } }),
        );
        session.wait_quiescent();
        let first = started.elapsed();
        let open_file_first = session.watched_published.map(|at| at.duration_since(started));
        let loaded = session.loaded.map(|at| at.duration_since(started));
        (child, session, first, open_file_first, loaded)
    }

    /// `shutdown`, then `exit`: how long the process took to go after `exit`.
    fn shutdown(&mut self, child: &mut Child) -> Duration {
        self.request("shutdown", Value::Null);
        let sent = Instant::now();
        self.notify("exit", Value::Null);
        let _ = child.wait();
        sent.elapsed()
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.next();
            if message.get("method").is_none() && message["id"] == id {
                return message;
            }
        }
    }

    fn next(&mut self) -> Value {
        let message = self.incoming.recv_timeout(Duration::from_secs(600)).expect("the server answers");
        match message["method"].as_str() {
            Some("experimental/serverStatus") => self.quiescent = message["params"]["quiescent"] == true,
            Some("$/progress") if message["params"]["value"]["message"] == "analyzing the roots" => {
                self.loaded.get_or_insert_with(Instant::now);
            }
            Some("textDocument/publishDiagnostics") => {
                self.publishes += 1;
                if self.watched_published.is_none() && message["params"]["uri"] == self.watched.as_str() {
                    self.watched_published = Some(Instant::now());
                }
            }
            Some(_) if message.get("id").is_some() => {
                let id = message["id"].clone();
                self.send(json!({ "jsonrpc": "2.0", "id": id, "result": null }));
            }
            _ => {}
        }
        message
    }

    /// A request answered after everything sent so far; then the first quiescent status.
    fn wait_quiescent(&mut self) {
        self.request("noalloc/sync", Value::Null);
        while !self.quiescent {
            self.next();
        }
    }
}

fn reader(stdout: impl Read + Send + 'static) -> Receiver<Value> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    length = v.parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            if let Ok(value) = serde_json::from_slice(&body) {
                if tx.send(value).is_err() {
                    return;
                }
            }
        }
    });
    rx
}

fn rss_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field}:")))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The CPU time (user and system, all threads) a process has used, in clock ticks:
/// less noisy than latency on a shared machine, for comparing builds.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields 14 and 15 (utime, stime), counted after the command name's ')'.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    fields.get(11..13).map_or(0, |f| f.iter().filter_map(|v| v.parse::<u64>().ok()).sum())
}

fn ticks_per_second() -> f64 {
    // `getconf CLK_TCK`; 100 on Linux everywhere this runs.
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok()?.trim().parse().ok())
        .unwrap_or(100.0)
}

fn uri(path: &Path) -> String {
    noalloc_ls::uri::file_uri(path)
}

fn range(sl: usize, sc: usize, el: usize, ec: usize) -> Value {
    json!({ "start": { "line": sl, "character": sc }, "end": { "line": el, "character": ec } })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == "target" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}
