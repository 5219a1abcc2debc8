//! The language server at the protocol level: each test spawns `noalloc-ls`, speaks
//! JSON-RPC on its stdio, and asserts diagnostics, code actions, hover, code lens,
//! progress, settings, edits (rapid and randomized), malformed input and shutdown.
//!
//! "Done" is rust-analyzer's `experimental/serverStatus` with `quiescent: true`,
//! which the server sends when the published diagnostics are those of the current
//! text. Waits have generous deadlines only so that a broken server fails the test
//! instead of hanging it; nothing asserts on time.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::test_data;

const DEADLINE: Duration = Duration::from_secs(600);

/// A copy of a fixture workspace in a temporary directory.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn of(fixture: &str) -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&test_data(fixture), dir.path());
        Scratch { dir }
    }
    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }
    pub fn file(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

pub fn uri(path: &Path) -> String {
    noalloc_ls::uri::file_uri(path)
}

/// A running server and what it has said.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Latest diagnostics per URI, with the version they were published for.
    pub diagnostics: HashMap<String, (Option<i64>, Vec<Value>)>,
    /// Every notification, in order.
    pub notifications: Vec<Value>,
    /// The latest `experimental/serverStatus`.
    status: Option<Value>,
    /// The answer to `workspace/configuration`.
    pub configuration: Value,
    versions: HashMap<String, i64>,
}

impl Client {
    /// Starts the server on `root` and initializes it.
    pub fn start(root: &Path, init_options: Value) -> Client {
        Client::start_with_env(root, init_options, &[])
    }

    pub fn start_with_env(root: &Path, init_options: Value, env: &[(&str, &str)]) -> Client {
        let mut client = Client::spawn_with_env(env);
        let response = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{ "uri": uri(root), "name": "ws" }],
                "initializationOptions": init_options,
                "capabilities": {
                    "window": { "workDoneProgress": true },
                    "workspace": { "configuration": true, "codeLens": { "refreshSupport": true } },
                    "experimental": { "serverStatusNotification": true },
                },
            }),
        );
        assert!(response["result"]["capabilities"]["hoverProvider"].as_bool().unwrap(), "{response}");
        client.notify("initialized", json!({}));
        client
    }

    /// Spawns the server without initializing it.
    pub fn spawn() -> Client {
        Client::spawn_with_env(&[])
    }

    pub fn spawn_with_env(env: &[(&str, &str)]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_noalloc-ls"))
            .arg("--stdio")
            // Tests never touch the user's cache directory.
            .env("NOALLOC_CACHE_DIR", std::env::temp_dir().join("noalloc-it-cache"))
            .envs(env.iter().copied())
            .env_remove("NOALLOC_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("noalloc-ls starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = stderr.read_to_end(&mut sink);
            if std::env::var_os("NOALLOC_TEST_STDERR").is_some() {
                eprintln!("{}", String::from_utf8_lossy(&sink));
            }
        });
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming: rx,
            next_id: 0,
            diagnostics: HashMap::new(),
            notifications: Vec::new(),
            status: None,
            configuration: Value::Null,
            versions: HashMap::new(),
        }
    }

    pub fn send_raw(&mut self, body: &str) {
        self.send_framed(body.len(), body);
    }

    /// Sends `body` under a `Content-Length` of `length`, right or not.
    pub fn send_framed(&mut self, length: usize, body: &str) {
        write!(self.stdin, "Content-Length: {length}\r\n\r\n{body}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.response_to(&json!(id))
    }

    /// Waits for the response with `id`, handling everything that comes before it.
    pub fn response_to(&mut self, id: &Value) -> Value {
        loop {
            let message = self.next_message();
            if message.get("method").is_none() && message.get("id") == Some(id) {
                return message;
            }
        }
    }

    /// The next message, after bookkeeping: notifications are recorded, requests
    /// from the server answered.
    fn next_message(&mut self) -> Value {
        let message = match self.incoming.recv_timeout(DEADLINE) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("the server said nothing for {DEADLINE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its stdout"),
        };
        if let (Some(method), Some(id)) = (message.get("method").and_then(Value::as_str), message.get("id")) {
            let result = match method {
                "workspace/configuration" => json!([self.configuration.clone()]),
                _ => Value::Null,
            };
            let id = id.clone();
            self.send(json!({ "jsonrpc": "2.0", "id": id, "result": result }));
        } else if let Some(method) = message.get("method").and_then(Value::as_str) {
            match method {
                "textDocument/publishDiagnostics" => {
                    let params = &message["params"];
                    let uri = params["uri"].as_str().unwrap().to_owned();
                    let version = params["version"].as_i64();
                    let list = params["diagnostics"].as_array().unwrap().clone();
                    self.diagnostics.insert(uri, (version, list));
                }
                "experimental/serverStatus" => self.status = Some(message["params"].clone()),
                _ => {}
            }
            self.notifications.push(message.clone());
        }
        message
    }

    /// Waits until the published diagnostics are those of everything sent so far.
    pub fn wait_quiescent(&mut self) {
        // A request answered after everything sent so far: the latest status before its
        // response describes the state after those messages.
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": "noalloc/sync", "params": null }));
        self.response_to(&id);
        let started = Instant::now();
        while !self.status.as_ref().is_some_and(|s| s["quiescent"] == true) {
            assert!(started.elapsed() < DEADLINE, "never quiescent");
            self.next_message();
        }
    }

    pub fn open(&mut self, path: &Path) {
        let text = std::fs::read_to_string(path).unwrap();
        self.open_with(path, &text);
    }

    pub fn open_with(&mut self, path: &Path, text: &str) {
        let uri = uri(path);
        self.versions.insert(uri.clone(), 1);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": text } }),
        );
    }

    /// Sends `didChange` with the given content changes; returns the new version.
    pub fn change(&mut self, path: &Path, changes: Value) -> i64 {
        let uri = uri(path);
        let version = self.versions.get(&uri).copied().unwrap_or(0) + 1;
        self.versions.insert(uri.clone(), version);
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
        );
        version
    }

    pub fn diagnostics_of(&self, path: &Path) -> Vec<Value> {
        self.diagnostics.get(&uri(path)).map(|(_, d)| d.clone()).unwrap_or_default()
    }

    /// Shuts down and exits; returns the exit status.
    /// Every `$/progress` notification so far: its index in `notifications`, its
    /// kind (`begin`, `report`, `end`) and its message.
    pub fn progress(&self) -> Vec<(usize, String, String)> {
        let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
        self.notifications
            .iter()
            .enumerate()
            .filter(|(_, n)| n["method"] == "$/progress")
            .map(|(i, n)| (i, text(&n["params"]["value"]["kind"]), text(&n["params"]["value"]["message"])))
            .collect()
    }

    pub fn shutdown(mut self) -> i32 {
        let response = self.request("shutdown", Value::Null);
        assert_eq!(response["result"], Value::Null, "{response}");
        assert!(response.get("error").is_none(), "{response}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        status.code().expect("exited")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn position(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

fn range(sl: u32, sc: u32, el: u32, ec: u32) -> Value {
    json!({ "start": position(sl, sc), "end": position(el, ec) })
}

/// 0-based line of the first line of `path` containing `needle`.
fn line_of(path: &Path, needle: &str) -> u32 {
    std::fs::read_to_string(path).unwrap().lines().position(|l| l.contains(needle)).expect(needle) as u32
}

/// The published diagnostic on 0-based `line` of `path`.
fn finding_on(client: &Client, path: &Path, line: u32) -> Value {
    let diagnostics = client.diagnostics_of(path);
    diagnostics
        .iter()
        .find(|d| d["range"]["start"]["line"] == line)
        .cloned()
        .unwrap_or_else(|| panic!("none on line {line}: {diagnostics:#?}"))
}

/// A copy of `fixture` with `file` open in a started server, analyzed.
fn opened(fixture: &str, file: &str) -> (Scratch, PathBuf, Client) {
    let ws = Scratch::of(fixture);
    let path = ws.file(file);
    let mut client = Client::start(&ws.root(), fast());
    client.open(&path);
    client.wait_quiescent();
    (ws, path, client)
}

fn fast() -> Value {
    json!({ "buildScripts": false })
}

#[test]
fn diagnostics_with_progress_related_information_and_clean_shutdown() {
    let ws = Scratch::of("example");
    let lib = ws.file("src/lib.rs");
    let mut client = Client::start(&ws.root(), json!({}));
    client.open(&lib);
    client.wait_quiescent();

    let progress: Vec<&str> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "$/progress")
        .map(|n| n["params"]["value"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(progress.first(), Some(&"begin"), "{progress:?}");
    assert_eq!(progress.last(), Some(&"end"), "{progress:?}");
    assert!(progress.contains(&"report"), "{progress:?}");

    // One diagnostic per finding of a fresh check, and this one in detail.
    assert_eq!(published_rows(&client), fresh_check(&ws.root()));
    let format_line = line_of(&lib, "format!(");
    let d = &finding_on(&client, &lib, format_line);
    assert_eq!(d["source"], "noalloc");
    assert_eq!(d["severity"], 2, "warning by default");
    assert_eq!(d["code"], "allocation");
    assert!(d["codeDescription"]["href"].as_str().unwrap().contains("docs/finding-codes.md#allocation"));
    // The function, then the reasons (the first is the one the chain follows).
    let message = d["message"].as_str().unwrap();
    assert!(message.starts_with("`example::log_request` can allocate: calls alloc::fmt::format"), "{message}");
    let related = d["relatedInformation"].as_array().unwrap();
    assert_eq!(related[0]["message"], "root: example::handle");
    assert_eq!(related[0]["location"]["uri"], uri(&lib));
    assert_eq!(related[0]["location"]["range"]["start"]["line"], line_of(&lib, "pub fn handle"));
    assert_eq!(related[1]["message"], "calls alloc::fmt::format");
    assert_eq!(related[1]["location"]["range"]["start"]["line"], format_line);
    assert!(related.len() > 2, "the chain goes down to the allocator: {related:#?}");
    assert!(related.last().unwrap()["message"].as_str().unwrap().contains("__rust_"), "{related:#?}");
    assert!(related[2..].iter().all(|r| r["location"]["uri"].as_str().unwrap().starts_with("file:///")));

    assert_eq!(client.shutdown(), 0);
}

/// The open file first: its roots are judged first, then every other root is
/// reached, and those whose reach holds code of the open file are judged; the open
/// file's diagnostics go out then, once and complete (both roots that reach
/// `label`), before the roots that have no part in it are judged. `$/progress`
/// counts the roots judged.
#[test]
fn the_open_file_is_published_first_and_progress_counts_roots() {
    let ws = Scratch::of("clean");
    std::fs::write(ws.file("src/lib.rs"), "mod elsewhere;\nmod opened;\n").unwrap();
    let opened = ws.file("src/opened.rs");
    std::fs::write(
        &opened,
        r#"// noalloc:root
pub fn open_root() -> usize {
    label().len()
}

pub fn label() -> String {
    String::from("opened")
}
"#,
    )
    .unwrap();
    // Before `opened.rs` in the order of roots (by file), which judges them first.
    let elsewhere = ws.file("src/elsewhere.rs");
    std::fs::write(
        &elsewhere,
        r#"// noalloc:root
pub fn boxed() -> u8 {
    *Box::new(1u8)
}

// noalloc:root
pub fn summed(xs: &[u64]) -> u64 {
    xs.iter().sum()
}

// noalloc:root
pub fn through_the_open_file() -> usize {
    crate::opened::label().capacity()
}
"#,
    )
    .unwrap();
    let mut client = Client::start(&ws.root(), fast());
    client.open(&opened);
    client.wait_quiescent();

    let reports: Vec<(usize, String)> = client
        .progress()
        .into_iter()
        .filter(|(_, kind, message)| kind == "report" && message.ends_with(" roots") && message.contains('/'))
        .map(|(i, _, message)| (i, message))
        .collect();
    let counts: Vec<&str> = reports.iter().map(|(_, message)| message.as_str()).collect();
    assert_eq!(counts, ["1/4 roots", "2/4 roots", "3/4 roots", "4/4 roots"]);
    let published = |path: &Path| -> Vec<usize> {
        client
            .notifications
            .iter()
            .enumerate()
            .filter(|(_, n)| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri(path))
            .map(|(i, _)| i)
            .collect()
    };
    let (opened_at, elsewhere_at) = (published(&opened), published(&elsewhere));
    assert_eq!(opened_at.len(), 1, "published once, never retracted");
    assert_eq!(elsewhere_at.len(), 1);
    // After the open file's two roots, before the two that have no part in it.
    assert!(reports[1].0 < opened_at[0] && opened_at[0] < reports[2].0, "{reports:?}, published at {opened_at:?}");
    assert!(reports[3].0 < elsewhere_at[0]);

    let label = finding_on(&client, &opened, line_of(&opened, "String::from"));
    let roots: Vec<&str> = label["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["message"].as_str()?.strip_prefix("root: "))
        .collect();
    assert_eq!(roots, ["clean::elsewhere::through_the_open_file", "clean::opened::open_root"]);
    assert_eq!(published_rows(&client), fresh_check(&ws.root()));
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn hover_and_code_lens_on_roots_and_findings() {
    let (_ws, lib, mut client) = opened("example", "src/lib.rs");
    let at = |line: u32, character: u32| json!({ "textDocument": { "uri": uri(&lib) }, "position": position(line, character) });

    let hover = client.request("textDocument/hover", at(line_of(&lib, "format!("), 20));
    let text = hover["result"]["contents"]["value"].as_str().unwrap().to_owned();
    assert!(text.contains("allocates: calls alloc::fmt::format"), "{text}");
    assert!(text.contains("reached from `example::handle`"), "{text}");
    assert!(text.contains("call chain:") && text.contains("__rust_"), "{text}");

    let hover = client.request("textDocument/hover", at(line_of(&lib, "pub fn handle"), 8));
    let text = hover["result"]["contents"]["value"].as_str().unwrap().to_owned();
    assert!(text.starts_with("**noalloc root** `example::handle`: "), "{text}");
    assert!(text.contains(" allocation") && text.contains(" functions checked"), "{text}");
    assert!(text.contains("src/lib.rs:30 `example::log_request`: calls alloc::fmt::format"), "{text}");

    let hover = client.request("textDocument/hover", at(line_of(&lib, "pub fn checksum"), 8));
    let text = hover["result"]["contents"]["value"].as_str().unwrap().to_owned();
    assert!(text.starts_with("**noalloc root** `example::checksum`: no allocations · "), "{text}");

    let nothing = client.request("textDocument/hover", at(0, 0));
    assert_eq!(nothing["result"], Value::Null, "{nothing}");

    let lenses = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri(&lib) } }));
    let lenses = lenses["result"].as_array().unwrap().clone();
    let titles: Vec<(u64, String)> = lenses
        .iter()
        .map(|l| (l["range"]["start"]["line"].as_u64().unwrap(), l["command"]["title"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert_eq!(titles[0].0, line_of(&lib, "pub fn handle") as u64);
    assert!(titles[0].1.starts_with("noalloc: ") && titles[0].1.contains(" allocation"), "{titles:?}");
    assert!(titles[0].1.ends_with(" functions checked"), "{titles:?}");
    assert_eq!(titles[1].0, line_of(&lib, "pub fn checksum") as u64);
    assert!(titles[1].1.starts_with("noalloc: no allocations · "), "{titles:?}");
}

#[test]
fn code_actions_exempt_and_mark_roots_and_edits_update_diagnostics() {
    let (_ws, lib, mut client) = opened("example", "src/lib.rs");
    let line = line_of(&lib, "format!(");
    let finding = finding_on(&client, &lib, line);

    // The quick fix on the finding.
    let actions = quick_fixes(&mut client, &lib, &finding);
    assert_eq!(actions.len(), 1, "{actions:#?}");
    let fix = &actions[0];
    assert!(fix["title"].as_str().unwrap().starts_with("Insert a noalloc exemption"));
    assert_eq!(fix["kind"], "quickfix");
    let edits = &fix["edit"]["changes"][uri(&lib)];
    assert_eq!(edits[0]["range"]["start"]["line"], line);
    assert_eq!(edits[0]["newText"], " // noalloc:exempt measured: <reason>");

    // Mark a fn as a root: offered on any fn that is not one, not on a root.
    let source_actions = |client: &mut Client, line: u32| {
        let response = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri(&lib) },
                "range": range(line, 10, line, 10),
                "context": { "diagnostics": [], "only": ["source"] },
            }),
        );
        response["result"].as_array().unwrap().clone()
    };
    assert_eq!(source_actions(&mut client, line_of(&lib, "pub fn handle")), Vec::<Value>::new());
    let tags_line = line_of(&lib, "pub fn unmarked_tags");
    let mark = source_actions(&mut client, tags_line);
    assert_eq!(mark.len(), 1, "{mark:#?}");
    assert_eq!(mark[0]["title"], "Mark `unmarked_tags` as a noalloc root");
    assert_eq!(mark[0]["kind"], "source");
    let edit = mark[0]["edit"]["changes"][uri(&lib)][0].clone();
    assert_eq!(edit["newText"], "// noalloc:root\n");

    // Applying it (as the editor would: a didChange) makes a new root with a finding.
    let version = client.change(&lib, json!([{ "range": edit["range"], "text": edit["newText"] }]));
    client.wait_quiescent();
    let (published_version, diagnostics) = client.diagnostics[&uri(&lib)].clone();
    assert_eq!(published_version, Some(version));
    let lines: Vec<u64> = diagnostics.iter().map(|d| d["range"]["start"]["line"].as_u64().unwrap()).collect();
    assert!(lines.contains(&(line as u64)), "the first finding stays: {diagnostics:#?}");
    let tags = finding_on(&client, &lib, tags_line + 2);
    assert_eq!(tags["relatedInformation"][0]["message"], "root: example::unmarked_tags", "{tags:#?}");

    // Closing the file without saving puts the disk's text back: the new root goes.
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri(&lib) } }));
    client.wait_quiescent();
    let diagnostics = client.diagnostics_of(&lib);
    assert!(
        diagnostics.iter().all(|d| d["relatedInformation"][0]["message"] != "root: example::unmarked_tags"),
        "{diagnostics:#?}"
    );
    assert_eq!(client.diagnostics[&uri(&lib)].0, None, "a closed file has no version");
    client.open(&lib);

    // Applying the exemption quick fix.
    let exemption = fix["edit"]["changes"][uri(&lib)][0].clone();
    client.change(&lib, json!([{ "range": exemption["range"], "text": exemption["newText"] }]));
    client.wait_quiescent();
    // The exemption lets the allocation through: the diagnostic goes.
    let diagnostics = client.diagnostics_of(&lib);
    assert!(diagnostics.iter().all(|d| d["range"]["start"]["line"] != line), "{diagnostics:#?}");
    let text_after = std::fs::read_to_string(&lib).unwrap();
    assert!(!text_after.contains("noalloc:exempt"), "the server never writes files");
}

/// A root that grows a field is a `may-grow` finding (the engine's
/// `FindingKind::MayGrow`); its quick fixes guard the growth with a capacity check,
/// or create the field with `with_capacity` where it is initialised; after the guard
/// the finding is gone.
#[test]
fn reserve_capacity_quick_fixes_for_a_may_grow_finding() {
    let ws = Scratch::of("clean");
    let lib = ws.file("src/lib.rs");
    let text = r#"pub struct Log {
    buf: Vec<u8>,
}

impl Log {
    pub fn new() -> Log {
        Log { buf: Vec::new() }
    }

    // noalloc:root
    pub fn put(&mut self, b: u8) {
        self.buf.push(b);
    }
}
"#;
    let mut client = Client::start(&ws.root(), fast());
    client.open_with(&lib, text);
    client.wait_quiescent();
    let line = line_in(text, "self.buf.push(b)");
    let may_grow = finding_on(&client, &lib, line);
    assert_eq!(may_grow["code"], "may-grow", "{may_grow:#?}");
    assert!(may_grow["message"].as_str().unwrap().contains("may grow `self.buf`"), "{may_grow:#?}");
    assert_eq!(may_grow["range"], range(line, 8, line, 24));
    let actions = quick_fixes(&mut client, &lib, &may_grow);
    let titles: Vec<&str> = actions.iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        [
            "Insert a noalloc exemption",
            "Reserve capacity: grow only when there is room",
            "Reserve capacity: create `buf` with `with_capacity`",
        ],
        "{actions:#?}"
    );
    let edit = |i: usize| actions[i]["edit"]["changes"][uri(&lib)][0].clone();
    let guard = edit(1);
    assert_eq!(guard["range"], range(line, 8, line, 25));
    assert_eq!(guard["newText"], "if self.buf.len() < self.buf.capacity() { self.buf.push(b); }");
    let ctor = edit(2);
    let ctor_line = line_in(text, "Vec::new()");
    assert_eq!(ctor["range"], range(ctor_line, 19, ctor_line, 29));
    assert_eq!(ctor["newText"], "Vec::with_capacity(/* the most it will hold */ 0)");
    assert!(actions.iter().all(|a| a["kind"] == "quickfix" && a["diagnostics"][0]["code"] == "may-grow"));

    // Applying the guard proves room: the finding goes away.
    client.change(&lib, json!([{ "range": guard["range"], "text": guard["newText"] }]));
    client.wait_quiescent();
    assert_eq!(client.diagnostics_of(&lib), Vec::<Value>::new());
}

/// The quick fixes the server offers for `diagnostic`, passed back as a client does.
fn quick_fixes(client: &mut Client, path: &Path, diagnostic: &Value) -> Vec<Value> {
    let response = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri(path) },
            "range": diagnostic["range"],
            "context": { "diagnostics": [diagnostic], "only": ["quickfix"] },
        }),
    );
    response["result"].as_array().unwrap().clone()
}

fn line_in(text: &str, needle: &str) -> u32 {
    text.lines().position(|l| l.contains(needle)).unwrap() as u32
}

#[test]
fn rapid_edits_cancel_stale_work_and_publish_the_final_state() {
    let (_ws, lib, mut client) = opened("example", "src/lib.rs");
    let body_line = line_of(&lib, "bytes.iter().fold");
    // 60 edits without waiting: add and remove an allocation in `checksum`.
    let insert = "    let _v: Vec<u8> = Vec::with_capacity(8);\n";
    let mut last = 0;
    for i in 0..60 {
        last = if i % 2 == 0 {
            client.change(&lib, json!([{ "range": range(body_line, 0, body_line, 0), "text": insert }]))
        } else {
            client.change(&lib, json!([{ "range": range(body_line, 0, body_line + 1, 0), "text": "" }]))
        };
    }
    // One more: leave the allocation in.
    last = last.max(client.change(&lib, json!([{ "range": range(body_line, 0, body_line, 0), "text": insert }])));
    client.wait_quiescent();
    let (version, diagnostics) = client.diagnostics[&uri(&lib)].clone();
    assert_eq!(version, Some(last), "published for the last version");
    let lines: Vec<u64> = diagnostics.iter().map(|d| d["range"]["start"]["line"].as_u64().unwrap()).collect();
    assert!(lines.contains(&(body_line as u64)), "{diagnostics:#?}");
    // Every publication during the burst was for a version the client had sent at
    // that point, and versions never go backwards.
    let versions: Vec<i64> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "textDocument/publishDiagnostics")
        .filter_map(|n| n["params"]["version"].as_i64())
        .collect();
    assert!(versions.windows(2).all(|w| w[0] <= w[1]), "{versions:?}");
    assert_eq!(client.shutdown(), 0);
}

/// Diagnostics are published per file and only when they change: typing that moves
/// no finding publishes nothing, an edit that adds one publishes that file again.
#[test]
fn diagnostics_are_published_only_when_they_change() {
    let (_ws, lib, mut client) = opened("example", "src/lib.rs");
    let publishes = |client: &Client| {
        client
            .notifications
            .iter()
            .filter(|n| n["method"] == "textDocument/publishDiagnostics")
            .filter(|n| n["params"]["uri"] == uri(&lib))
            .count()
    };
    let first = publishes(&client);
    assert_eq!(first, 1);
    let before = client.diagnostics_of(&lib);

    // A comment after the last statement of `handle`'s first line: no range moves.
    let line = line_of(&lib, "response.status = 200;");
    let end = "    response.status = 200;".len() as u32;
    client.change(&lib, json!([{ "range": range(line, end, line, end), "text": " /* typing */" }]));
    client.wait_quiescent();
    assert_eq!(publishes(&client), first, "nothing changed, nothing published");
    assert_eq!(client.diagnostics_of(&lib), before);

    // A new allocation in the same body: published again, with the new finding.
    client.change(
        &lib,
        json!([{ "range": range(line + 1, 0, line + 1, 0), "text": "    let _v: Vec<u8> = Vec::with_capacity(8);\n" }]),
    );
    client.wait_quiescent();
    assert_eq!(publishes(&client), first + 1);
    assert_eq!(client.diagnostics_of(&lib).len(), before.len() + 1);
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn settings_from_initialization_options_and_did_change_configuration() {
    let ws = Scratch::of("example");
    let lib = ws.file("src/lib.rs");
    let mut client = Client::start(&ws.root(), json!({ "severity": "error", "buildScripts": false }));
    client.open(&lib);
    client.wait_quiescent();
    let before = client.diagnostics_of(&lib).len();
    assert!(before >= 1);
    assert!(client.diagnostics_of(&lib).iter().all(|d| d["severity"] == 1));

    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "noalloc": { "severity": "hint", "buildScripts": false, "roots": ["example::unmarked_*"] } } }),
    );
    client.wait_quiescent();
    let diagnostics = client.diagnostics_of(&lib);
    assert_eq!(diagnostics.len(), before + 1, "{diagnostics:#?}");
    assert!(diagnostics.iter().all(|d| d["severity"] == 4));
    assert!(diagnostics.iter().any(|d| d["relatedInformation"][0]["message"] == "root: example::unmarked_tags"));
    let unmatched_messages = |client: &Client| {
        client
            .notifications
            .iter()
            .filter(|n| {
                n["method"] == "window/showMessage"
                    && n["params"]["message"].as_str().unwrap().contains("matches no function")
            })
            .count()
    };
    assert_eq!(unmatched_messages(&client), 0);

    // A roots pattern that matches nothing is said, as `--check` exits 2 on it.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "noalloc": { "severity": "hint", "buildScripts": false, "roots": ["example::no_such_fn"] } } }),
    );
    client.wait_quiescent();
    assert_eq!(unmatched_messages(&client), 1, "{:#?}", client.notifications);
    let said = client.notifications.iter().rev().find(|n| n["method"] == "window/showMessage").unwrap();
    assert_eq!(said["params"]["type"], 1);
    assert!(said["params"]["message"].as_str().unwrap().contains("`example::no_such_fn`"), "{said}");

    // A notification without our section makes the server ask for it.
    client.configuration = json!({ "severity": "information", "buildScripts": false });
    client.notify("workspace/didChangeConfiguration", json!({ "settings": null }));
    client.wait_quiescent();
    client.wait_quiescent();
    let diagnostics = client.diagnostics_of(&lib);
    assert_eq!(diagnostics.len(), before, "{diagnostics:#?}");
    assert!(diagnostics.iter().all(|d| d["severity"] == 3));
}

#[test]
fn malformed_messages_and_unknown_requests_get_error_responses() {
    let ws = Scratch::of("clean");
    let mut early = Client::spawn();
    let response = early.request("textDocument/hover", json!({}));
    assert_eq!(response["error"]["code"], -32002, "before initialize: {response}");
    drop(early);

    let mut client = Client::start(&ws.root(), fast());
    client.send_raw("{this is not json");
    let response = client.response_to(&Value::Null);
    assert_eq!(response["error"]["code"], -32700, "{response}");
    client.send_raw(r#"{"jsonrpc":"2.0","id":"x7"}"#);
    let response = client.response_to(&json!("x7"));
    assert_eq!(response["error"]["code"], -32600, "{response}");

    let response = client.request("noalloc/unknownMethod", json!({}));
    assert_eq!(response["error"]["code"], -32601, "{response}");
    let response = client.request("textDocument/hover", json!({ "textDocument": 5 }));
    assert_eq!(response["error"]["code"], -32602, "{response}");
    let missing = ws.file("src/missing.rs");
    let response = client
        .request("textDocument/hover", json!({ "textDocument": { "uri": uri(&missing) }, "position": position(0, 0) }));
    assert_eq!(response["error"]["code"], -32602, "unknown file: {response}");
    let response = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": "untitled:1" } }));
    assert_eq!(response["error"]["code"], -32602, "not a file: {response}");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&missing), "version": 2 }, "contentChanges": [] }),
    );
    client.notify("noalloc/unknownNotification", json!([1, 2]));

    // Still answering, and the workspace is clean.
    client.wait_quiescent();
    assert!(client.diagnostics.values().all(|(_, d)| d.is_empty()), "{:?}", client.diagnostics);
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn a_wrong_content_length_does_not_desynchronise_the_stream() {
    let ws = Scratch::of("clean");
    let mut client = Client::start(&ws.root(), fast());
    // Too long by a few bytes: the frame takes in the start of the next one.
    let hover = json!({ "jsonrpc": "2.0", "id": "long", "method": "noalloc/unknownMethod", "params": {} }).to_string();
    client.send_framed(hover.len() + 6, &hover);
    client.send_raw(&json!({ "jsonrpc": "2.0", "id": "next", "method": "noalloc/unknownMethod" }).to_string());
    let response = client.response_to(&json!("long"));
    assert_eq!(response["error"]["code"], -32601, "{response}");
    let response = client.response_to(&json!("next"));
    assert_eq!(response["error"]["code"], -32601, "{response}");
    // Too short: that frame is lost, the next ones are not.
    let short = json!({ "jsonrpc": "2.0", "id": "short", "method": "noalloc/unknownMethod" }).to_string();
    client.send_framed(short.len() - 3, &short);
    let response = client.response_to(&Value::Null);
    assert_eq!(response["error"]["code"], -32700, "{response}");
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn requests_after_shutdown_fail_and_exit_without_shutdown_is_status_1() {
    let ws = Scratch::of("clean");
    let mut client = Client::start(&ws.root(), fast());
    let response = client.request("shutdown", Value::Null);
    assert_eq!(response["result"], Value::Null);
    let response =
        client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri(&ws.file("src/lib.rs")) } }));
    assert_eq!(response["error"]["code"], -32600, "{response}");
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));

    let mut rude = Client::start(&ws.root(), fast());
    rude.notify("exit", Value::Null);
    assert_eq!(rude.child.wait().unwrap().code(), Some(1));
}

#[test]
fn broken_code_and_a_huge_file_keep_the_server_answering() {
    let (_ws, lib, mut client) = opened("broken", "src/lib.rs");
    let diagnostics = client.diagnostics_of(&lib);
    assert!(
        diagnostics.iter().any(|d| d["message"].as_str().unwrap().contains("String::from")),
        "the parts that parse are checked: {diagnostics:#?}"
    );

    // 50 000 more lines, then edits at both ends.
    let original = std::fs::read_to_string(&lib).unwrap();
    let mut huge = original.clone();
    for i in 0..50_000 {
        huge.push_str(&format!("fn filler_{i}(x: u32) -> u32 {{ x + {i} }}\n"));
    }
    client.change(&lib, json!([{ "text": huge }]));
    client.change(&lib, json!([{ "range": range(50_000, 0, 50_000, 0), "text": "// more\n" }]));
    client.change(&lib, json!([{ "range": range(0, 0, 0, 0), "text": "// first\n" }]));
    client.wait_quiescent();
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&lib) }, "position": position(line_of(&lib, "String::from") + 1, 14) }),
    );
    assert!(hover.get("error").is_none(), "{hover}");
    assert!(!client.diagnostics_of(&lib).is_empty());
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn a_panic_in_analysis_is_caught_and_the_next_edit_recovers() {
    let ws = Scratch::of("example");
    let lib = ws.file("src/lib.rs");
    let env = [("NOALLOC_INJECT_ANALYSIS_PANICS", "1")];
    let mut client = Client::start_with_env(&ws.root(), fast(), &env);
    client.open(&lib);
    client.wait_quiescent();
    let status = client.status.clone().unwrap();
    assert_eq!(status["health"], "warning", "{status}");
    assert!(status["message"].as_str().unwrap().contains("panicked"), "{status}");
    assert!(client.diagnostics.is_empty(), "nothing published from a failed analysis");
    let lens = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri(&lib) } }));
    assert_eq!(lens["result"], json!([]), "still answering: {lens}");

    // The next change analyzes again (no more injected panics) and publishes.
    client.change(&lib, json!([{ "range": range(0, 0, 0, 0), "text": "// edited\n" }]));
    client.wait_quiescent();
    assert_eq!(client.status.clone().unwrap()["health"], "ok");
    assert!(!client.diagnostics_of(&lib).is_empty());
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn a_panic_on_one_root_is_an_error_on_it_and_an_edit_checks_it_again() {
    let ws = Scratch::of("example");
    let lib = ws.file("src/lib.rs");
    let env = [("NOALLOC_PANIC_ON_ROOT", "example::checksum:1")];
    let mut client = Client::start_with_env(&ws.root(), fast(), &env);
    client.open(&lib);
    client.wait_quiescent();
    let codes = |client: &Client| -> Vec<(u64, String)> {
        let mut codes: Vec<(u64, String)> = client
            .diagnostics_of(&lib)
            .iter()
            .map(|d| (d["range"]["start"]["line"].as_u64().unwrap(), d["code"].as_str().unwrap().to_owned()))
            .collect();
        codes.sort();
        codes
    };
    let with_panic = codes(&client);
    assert!(with_panic.contains(&(34, "internal-error".to_owned())), "{with_panic:?}");
    assert!(with_panic.contains(&(29, "allocation".to_owned())), "the other root's finding: {with_panic:?}");
    let lens = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri(&lib) } }));
    assert!(lens.get("error").is_none(), "still answering: {lens}");
    // The panic was injected once: the next analysis checks the root again.
    client.change(&lib, json!([{ "range": range(40, 0, 40, 0), "text": "// edited\n" }]));
    client.wait_quiescent();
    let after = codes(&client);
    assert!(!after.iter().any(|(_, code)| code == "internal-error"), "{after:?}");
    assert!(after.contains(&(29, "allocation".to_owned())), "{after:?}");
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn cargo_toml_change_reloads_the_workspace() {
    let (ws, lib, mut client) = opened("example", "src/lib.rs");
    let before = client.diagnostics_of(&lib);
    assert!(!before.is_empty());
    let begins = |c: &Client| c.notifications.iter().filter(|n| n["params"]["value"]["kind"] == "begin").count();
    assert_eq!(begins(&client), 1);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&ws.file("Cargo.toml")), "type": 2 }] }),
    );
    client.wait_quiescent();
    assert_eq!(begins(&client), 2, "a second load");
    assert_eq!(client.diagnostics_of(&lib), before);
}

/// A small seeded generator (xorshift), so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What `--check --message-format json` reports for a workspace, as
/// (file, 0-based line, code, message) rows.
fn fresh_check(root: &Path) -> Vec<(String, u64, String, String)> {
    let output = Command::new(env!("CARGO_BIN_EXE_noalloc-ls"))
        .args(["--check", root.to_str().unwrap(), "--message-format", "json", "--no-build-scripts"])
        .env_remove("NOALLOC_LOG")
        .output()
        .unwrap();
    let mut rows = Vec::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let file = root.join(v["file"].as_str().unwrap_or_default()).to_string_lossy().into_owned();
        let row_line = v["line"].as_u64().unwrap_or(1) - 1;
        match v["kind"].as_str() {
            Some("finding") => {
                let reasons: Vec<&str> = v["reasons"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
                let first = match v["allocates_in"].as_str() {
                    Some(first) => format!(" (first allocates in {first})"),
                    None => String::new(),
                };
                let message =
                    format!("`{}` can allocate: {}{first}", v["function"].as_str().unwrap(), reasons.join("; "));
                rows.push((file, row_line, "allocation".to_owned(), message));
            }
            Some("error") => {
                let code = v["code"].as_str().unwrap_or("malformed-directive").to_owned();
                rows.push((file, row_line, code, v["message"].as_str().unwrap().to_owned()));
            }
            _ => {}
        }
    }
    rows.sort();
    rows
}

fn published_rows(client: &Client) -> Vec<(String, u64, String, String)> {
    let mut rows = Vec::new();
    for (uri, (_, diagnostics)) in &client.diagnostics {
        let file = uri.strip_prefix("file://").unwrap().to_owned();
        for d in diagnostics {
            rows.push((
                file.clone(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["code"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            ));
        }
    }
    rows.sort();
    rows
}

/// Edits that matter to the analysis: allocations, directives (good and bad), and
/// plain typing that breaks the syntax for a while.
const SNIPPETS: &[&str] = &[
    "    let _s = String::from(\"x\");\n",
    "    let _b = Box::new(1u8);\n",
    "// noalloc:root\n",
    "// noalloc:rooot\n",
    "    let _ok = 1 + 2;\n",
    "fn extra() { let _v = vec![1u8]; }\n",
    "    {\n",
    "}\n",
    "x",
    "(",
];

#[test]
fn randomized_edit_sequences_publish_what_a_fresh_check_reports() {
    let ws = Scratch::of("example");
    let lib = ws.file("src/lib.rs");
    let mut client = Client::start(&ws.root(), fast());
    let mut text = std::fs::read_to_string(&lib).unwrap();
    client.open_with(&lib, &text);
    let seed = std::env::var("NOALLOC_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_a110c);
    let mut rng = Rng(seed);
    for round in 0..4 {
        let edits = 1 + rng.below(12);
        for _ in 0..edits {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let line = rng.below(lines.len() + 1) as u32;
            let change = match rng.below(3) {
                0 if (line as usize) < lines.len() => {
                    json!({ "range": range(line, 0, line + 1, 0), "text": "" })
                }
                _ => {
                    let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
                    json!({ "range": range(line, 0, line, 0), "text": snippet })
                }
            };
            let start = apply_offset(&text, change["range"]["start"]["line"].as_u64().unwrap() as usize);
            let end = apply_offset(&text, change["range"]["end"]["line"].as_u64().unwrap() as usize);
            text.replace_range(start..end, change["text"].as_str().unwrap());
            client.change(&lib, json!([change]));
        }
        client.wait_quiescent();
        std::fs::write(&lib, &text).unwrap();
        let expected = fresh_check(&ws.root());
        let got = published_rows(&client);
        assert_eq!(got, expected, "round {round} (seed {seed}), text:\n{text}");
    }
}

/// Byte offset of the start of 0-based `line` (the end of the text past the last line).
fn apply_offset(text: &str, line: usize) -> usize {
    if line == 0 {
        return 0;
    }
    text.match_indices('\n').nth(line - 1).map_or(text.len(), |(i, _)| i + 1)
}

/// `cargo.features` (rust-analyzer's name) reloads the workspace with the feature on,
/// and the root behind it is checked; roots written as `#[noalloc::root]` are read.
#[test]
fn cargo_features_setting_checks_the_code_behind_a_feature() {
    // In place: the fixture's path dependency on `attributes/` is relative.
    let root = test_data("features");
    let lib = root.join("src/lib.rs");
    let mut client = Client::start(&root, fast());
    client.open(&lib);
    client.wait_quiescent();
    finding_on(&client, &lib, line_of(&lib, "vec![0u8; count]"));
    let gated = line_of(&lib, "name.to_owned()");
    let on_gated = |client: &Client| client.diagnostics_of(&lib).iter().any(|d| d["range"]["start"]["line"] == gated);
    assert!(!on_gated(&client));

    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "noalloc": { "buildScripts": false, "cargo": { "features": ["gated"] } } } }),
    );
    client.wait_quiescent();
    assert!(on_gated(&client), "{:#?}", client.diagnostics_of(&lib));
    assert_eq!(client.shutdown(), 0);
}

/// The baseline CI checks against, applied in the editor: a listed finding is a hint,
/// a listed finding that is gone is an error on the baseline file.
#[test]
fn baselined_findings_are_hints_and_stale_entries_errors() {
    let ws = Scratch::of("example");
    let lib = ws.file("src/lib.rs");
    let baseline = ws.file("noalloc-baseline.toml");
    std::fs::write(
        &baseline,
        r#"[[finding]]
file = "src/lib.rs"
function = "example::log_request"
kind = "allocation"
reasons = ["calls alloc::fmt::format"]
source = 'let line = format!("GET {path}");'

[[finding]]
file = "src/lib.rs"
function = "example::gone"
kind = "allocation"
reasons = ["calls alloc::string::String::from"]
source = 'let s = String::from("gone");'
"#,
    )
    .unwrap();
    let mut client = Client::start(&ws.root(), json!({ "buildScripts": false, "baseline": "noalloc-baseline.toml" }));
    client.open(&lib);
    client.wait_quiescent();
    let d = finding_on(&client, &lib, line_of(&lib, "format!("));
    assert_eq!(d["severity"], 4, "{d:#}");
    assert!(d["message"].as_str().unwrap().ends_with("(in the baseline)"), "{d:#}");
    let stale = client.diagnostics_of(&baseline);
    assert_eq!(stale.len(), 1, "{stale:#?}");
    assert_eq!(stale[0]["code"], "stale-baseline-entry");
    assert_eq!(stale[0]["severity"], 1);

    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "noalloc": { "buildScripts": false, "baseline": "noalloc-baseline.toml", "baselined": "hide" } } }),
    );
    client.wait_quiescent();
    let format_line = line_of(&lib, "format!(");
    let on_format_line = |d: &&serde_json::Value| d["range"]["start"]["line"] == format_line;
    assert!(!client.diagnostics_of(&lib).iter().any(|d| on_format_line(&d)), "{:#?}", client.diagnostics_of(&lib));
    assert_eq!(client.shutdown(), 0);
}

/// Reopened on the files its last analysis saw, the server publishes the analysis
/// it stored then before the new one is done; the new one confirms it. Reopened
/// after an edit of a body some roots read, it publishes the other roots' stored
/// outcomes with those roots checked again.
#[test]
fn a_reopened_workspace_publishes_its_stored_analysis_before_analyzing() {
    const STORED: &str = "diagnostics of the last check";
    let ws = Scratch::of("example");
    let cache = tempfile::tempdir().unwrap();
    let env = [("NOALLOC_CACHE_DIR", cache.path().to_str().unwrap())];
    let lib = ws.file("src/lib.rs");
    let session = |expect_stored: bool| {
        let mut client = Client::start_with_env(&ws.root(), fast(), &env);
        client.open(&lib);
        client.wait_quiescent();
        let progress = client.progress();
        let stored_at = progress.iter().find(|(_, _, message)| message.contains(STORED)).map(|(i, ..)| *i);
        assert_eq!(stored_at.is_some(), expect_stored, "{progress:?}");
        if let Some(stored_at) = stored_at {
            // Its findings went out before the analysis ended.
            let end = progress.iter().rev().find(|(_, kind, _)| kind == "end").expect("an end").0;
            let published = client.notifications[stored_at..end].iter().any(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"] == uri(&lib)
                    && !n["params"]["diagnostics"].as_array().unwrap().is_empty()
            });
            assert!(published, "{:?}", &client.notifications[stored_at..]);
        }
        let rows = published_rows(&client);
        assert_eq!(client.shutdown(), 0);
        rows
    };
    let first = session(false);
    assert!(!first.is_empty());
    assert_eq!(session(true), first);
    // An edit on disk since, in nothing the analysis read (a comment at the end):
    // the stored analysis still holds.
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("{text}\n// edited\n")).unwrap();
    assert_eq!(session(true), first);
    // One in place in a body the root `checksum` reads, making it allocate: that
    // root is checked again and `handle`'s stored outcome kept, published before
    // the new analysis ends; the new one confirms it.
    let allocating = text.replacen("bytes.iter().fold", "bytes.to_vec().iter().fold", 1);
    std::fs::write(&lib, &allocating).unwrap();
    let edited = session(true);
    assert!(edited.iter().any(|(_, _, _, message)| message.contains("to_vec")), "{edited:?}");
    assert_eq!(edited.len(), first.len() + 1, "{edited:?}");
    std::fs::write(&lib, &text).unwrap();
    assert_eq!(session(true), first);
    // One that moves every line: nothing stored matches, and every finding moves.
    std::fs::write(&lib, format!("// edited\n{text}")).unwrap();
    let moved: Vec<_> = first
        .iter()
        .map(|(file, line, code, message)| (file.clone(), line + 1, code.clone(), message.clone()))
        .collect();
    assert_eq!(session(false), moved);
}

/// A folder whose cargo projects sit one level down (`a/Cargo.toml`,
/// `b/Cargo.toml`, as in a monorepo) is searched as rust-analyzer searches it: both
/// projects are found and served, each file's diagnostics from its own project.
#[test]
fn projects_one_level_down_are_each_served() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    copy_dir(&test_data("example"), &root.join("a"));
    copy_dir(&test_data("clean"), &root.join("b"));
    std::fs::create_dir_all(root.join("notes")).unwrap();
    // `b` gets a finding of its own.
    let b_lib = root.join("b/src/lib.rs");
    let allocating = "\n// noalloc:root\npub fn boxed() -> Box<u64> {\n    Box::new(7)\n}\n";
    std::fs::write(&b_lib, std::fs::read_to_string(&b_lib).unwrap() + allocating).unwrap();
    let a_lib = root.join("a/src/lib.rs");
    let mut client = Client::start(&root, fast());
    client.open(&a_lib);
    client.open(&b_lib);
    client.wait_quiescent();

    let lines = |path: &Path| -> Vec<u64> {
        client.diagnostics_of(path).iter().map(|d| d["range"]["start"]["line"].as_u64().unwrap()).collect()
    };
    assert_eq!(lines(&a_lib), [u64::from(line_of(&a_lib, "format!("))]);
    assert_eq!(lines(&b_lib), [u64::from(line_of(&b_lib, "Box::new(7)"))]);
    assert!(!client.notifications.iter().any(|n| n["method"] == "window/showMessage"), "{:#?}", client.notifications);
    assert_eq!(client.shutdown(), 0);
}

/// A folder with no cargo project says what was searched and which setting fixes
/// it; a workspace folder added later (`didChangeWorkspaceFolders`) is served, and
/// one removed is not.
#[test]
fn a_folder_without_projects_says_so_and_an_added_folder_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().canonicalize().unwrap().join("empty");
    std::fs::create_dir_all(empty.join("notes")).unwrap();
    let mut client = Client::start(&empty, fast());
    client.wait_quiescent();
    let said: Vec<&str> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "window/showMessage")
        .map(|n| n["params"]["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        said,
        [format!(
            "noalloc: no Cargo.toml in {} (nor in a folder above, nor in the folders directly below): nothing is checked. Open the folder of a cargo project, or list its Cargo.toml in the `noalloc.linkedProjects` setting",
            empty.display()
        )]
    );

    let ws = Scratch::of("example");
    let lib = ws.file("src/lib.rs");
    client.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({ "event": { "added": [{ "uri": uri(&ws.root()), "name": "example" }], "removed": [] } }),
    );
    client.open(&lib);
    client.wait_quiescent();
    finding_on(&client, &lib, line_of(&lib, "format!("));

    // A folder removed is no longer served: its diagnostics are taken back.
    client.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({ "event": { "added": [], "removed": [{ "uri": uri(&ws.root()), "name": "example" }] } }),
    );
    client.wait_quiescent();
    assert_eq!(client.diagnostics_of(&lib), Vec::<Value>::new());
    assert_eq!(client.shutdown(), 0);
}

/// A Cargo.toml that appears later (`didChangeWatchedFiles`) makes a project, and
/// it is served.
#[test]
fn a_project_made_after_the_start_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut client = Client::start(&root, fast());
    client.wait_quiescent();
    assert!(client.notifications.iter().any(|n| n["method"] == "window/showMessage"));

    copy_dir(&test_data("example"), &root.join("late"));
    let manifest = root.join("late/Cargo.toml");
    client.notify("workspace/didChangeWatchedFiles", json!({ "changes": [{ "uri": uri(&manifest), "type": 1 }] }));
    let lib = root.join("late/src/lib.rs");
    client.open(&lib);
    client.wait_quiescent();
    finding_on(&client, &lib, line_of(&lib, "format!("));
    assert_eq!(client.shutdown(), 0);
}

/// `linkedProjects` names projects the search would not find (two levels down),
/// as rust-analyzer's setting does.
#[test]
fn linked_projects_name_the_projects_to_serve() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    copy_dir(&test_data("example"), &root.join("crates/deep"));
    let lib = root.join("crates/deep/src/lib.rs");
    let mut client =
        Client::start(&root, json!({ "buildScripts": false, "linkedProjects": ["crates/deep/Cargo.toml"] }));
    client.open(&lib);
    client.wait_quiescent();
    finding_on(&client, &lib, line_of(&lib, "format!("));
    assert_eq!(client.shutdown(), 0);
}

/// "Check the workspace" in a folder whose projects sit one level down checks every
/// project the server serves: `noalloc.servedProjects` names both, and the
/// checker run on each (as the VS Code command runs it) reports each one's
/// finding, where the checker run on the folder itself finds no project.
#[test]
fn the_served_projects_command_names_every_project_to_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    copy_dir(&test_data("example"), &root.join("a"));
    copy_dir(&test_data("clean"), &root.join("b"));
    let b_lib = root.join("b/src/lib.rs");
    let allocating = "\n// noalloc:root\npub fn boxed() -> Box<u64> {\n    Box::new(7)\n}\n";
    std::fs::write(&b_lib, std::fs::read_to_string(&b_lib).unwrap() + allocating).unwrap();

    let mut client = Client::start(&root, fast());
    let command = json!({ "command": "noalloc.servedProjects", "arguments": [] });
    let response = client.request("workspace/executeCommand", command);
    let projects: Vec<PathBuf> = response["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{response}"))
        .iter()
        .map(|p| PathBuf::from(p["root"].as_str().unwrap()))
        .collect();
    assert_eq!(projects, [root.join("a"), root.join("b")]);
    assert_eq!(client.shutdown(), 0);

    let check = |dir: &Path| {
        let args = ["--check", dir.to_str().unwrap(), "--message-format", "short", "--no-build-scripts"];
        crate::cli::run(&mut crate::cli::noalloc(&args))
    };
    let (code, _, stderr) = check(&root);
    assert_eq!(code, 2, "{stderr}");
    let findings: Vec<(i32, String)> = projects
        .iter()
        .map(|project| {
            let (code, stdout, _) = check(project);
            (code, stdout)
        })
        .collect();
    assert_eq!(
        findings,
        [
            (1, "src/lib.rs:30: example::log_request: calls alloc::fmt::format\n".to_owned()),
            (
                1,
                format!(
                    "src/lib.rs:{}: clean::boxed: calls alloc::boxed::Box::<u64>::new\n",
                    line_of(&b_lib, "Box::new(7)") + 1
                )
            ),
        ]
    );
}

/// The command is declared, so a client (vscode-languageclient) offers it.
#[test]
fn the_served_projects_command_is_declared() {
    let mut client = Client::spawn();
    let root = test_data("clean");
    let response =
        client.request("initialize", json!({ "processId": null, "rootUri": uri(&root), "capabilities": {} }));
    assert_eq!(
        response["result"]["capabilities"]["executeCommandProvider"]["commands"],
        json!(["noalloc.servedProjects"])
    );
}
