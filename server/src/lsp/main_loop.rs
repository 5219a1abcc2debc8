//! The event loop, in rust-analyzer's style: one thread owns the state and handles
//! LSP messages and task results in order; loading and analysis run on their own
//! threads. Owns when to load, when to analyze, what is stale and what to publish.
//!
//! Every input change (text, settings) bumps `generation`. An analysis remembers the
//! generation it started at; an edit cancels it (salsa's `Cancelled`, raised when the
//! edit goes into the database), and a result whose generation is not the current
//! one is dropped, never published.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::{select, unbounded, Receiver, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    Diagnostic, InitializeParams, MessageType, NumberOrString, ProgressParams, ProgressParamsValue,
    PublishDiagnosticsParams, ShowMessageParams, WorkDoneProgress, WorkDoneProgressBegin, WorkDoneProgressCreateParams,
    WorkDoneProgressEnd, WorkDoneProgressReport,
};

use super::adoption;
use super::documents::{path_to_uri, Documents};
use super::handlers::{notification, parse_params, request, to_json, HandlerError};
use super::initialize::{client_caps, find_cargo_root, initialize, workspace_folder, ClientCaps};
use super::settings::Settings;
use super::tasks::{OpenedStore, Task};
use super::to_proto::{self, Texts};
use super::transport::{Incoming, Outgoing};
use crate::engine::edit::LiveWorkspace;
use crate::engine::Analysis;

/// Where the workspace stands.
pub(super) enum Phase {
    /// Nothing to analyze, and why.
    NoWorkspace(String),
    Loading,
    Loaded {
        live: Box<LiveWorkspace>,
        /// How far the load has come towards its first analysis.
        state: LoadState,
    },
}

/// How far a loaded workspace has come towards its first analysis. A load first
/// resolves names on every core (publishing the analysis a run stored meanwhile),
/// then analyzes once looking for that stored analysis, then drops the syntax that
/// analysis parsed. Each load starts over at `NamesUnresolved`.
pub(super) enum LoadState {
    /// The next analysis thread resolves the names instead of analyzing.
    NamesUnresolved,
    /// The names are resolved and the first analysis has not started; it takes
    /// the analysis store the names step opened, if any.
    NamesResolved(Option<Box<OpenedStore>>),
    /// The first analysis started (it looked for a stored one, `stored_analysis`)
    /// and has not ended.
    FirstAnalysis,
    /// An analysis ended and the syntax it parsed is dropped
    /// (`LiveWorkspace::drop_syntax`).
    SyntaxDropped,
}

/// Requests this server sent, by id, to know what their responses answer.
pub(super) enum Pending {
    Configuration,
    Ignore,
}

const PROGRESS_TOKEN: &str = "noalloc/analysis";

/// The state the main loop owns: the client, the open documents, the workspace
/// and its analyses, what was published.
pub(super) struct Server {
    pub(super) out: Sender<Outgoing>,
    pub(super) tasks: (Sender<Task>, Receiver<Task>),
    pub(super) caps: ClientCaps,
    pub(super) settings: Settings,
    pub(super) root: Option<PathBuf>,
    pub(super) docs: Documents,
    pub(super) phase: Phase,
    pub(super) load: u64,
    pub(super) reload_wanted: bool,
    pub(super) generation: u64,
    /// The generation whose analysis ended (published, or panicked).
    pub(super) analyzed: Option<u64>,
    pub(super) running: Option<(u64, Instant)>,
    /// The last settings error shown to the user, so it is shown once, not per edit.
    pub(super) settings_error: Option<String>,
    /// The warnings of loads shown to the user (`Workspace::load_warnings`), so a
    /// reload does not show one again.
    pub(super) load_warnings_shown: Vec<String>,
    pub(super) analysis: Option<Arc<Analysis>>,
    pub(super) published: HashMap<PathBuf, Vec<Diagnostic>>,
    pub(super) progress_open: bool,
    pub(super) panic_message: Option<String>,
    pub(super) next_id: i32,
    pub(super) pending: HashMap<RequestId, Pending>,
    pub(super) shutdown: bool,
    pub(super) last_status: Option<serde_json::Value>,
}

/// Runs one project's server until `exit`; returns the exit status and the loaded
/// workspace, rust-analyzer's database, for the caller to free or to leave to the
/// process's exit (`projects`: freeing it took an editor's shutdown 0.1–0.5 s).
pub(super) fn serve(out: Sender<Outgoing>, incoming: Receiver<Incoming>) -> (i32, Option<Box<LiveWorkspace>>) {
    let Some(params) = initialize(&out, &incoming) else {
        return (1, None);
    };
    let mut server = Server::new(out, params);
    let code = server.run(&incoming);
    match std::mem::replace(&mut server.phase, Phase::Loading) {
        Phase::Loaded { live, .. } => (code, Some(live)),
        _ => (code, None),
    }
}

pub(super) fn send(out: &Sender<Outgoing>, message: impl Into<Message>) {
    // The writer only goes away when stdout is closed; nothing is left to tell then.
    let _ = out.send(Outgoing::Message(message.into()));
}

pub(super) fn answer_malformed(out: &Sender<Outgoing>, id: Option<RequestId>, code: ErrorCode, message: String) {
    tracing::warn!("malformed message: {message}");
    match id {
        Some(id) => send(out, Response::new_err(id, code as i32, message)),
        None => {
            let _ = out.send(Outgoing::ErrorWithoutId { code, message });
        }
    }
}

impl Server {
    fn new(out: Sender<Outgoing>, params: InitializeParams) -> Server {
        let caps = client_caps(&params);
        let mut settings = Settings::default();
        if let Some(options) = &params.initialization_options {
            if let Some((read, bad)) = Settings::from_json(options) {
                settings = read;
                if !bad.is_empty() {
                    tracing::warn!("initializationOptions: could not read {}", bad.join(", "));
                }
            }
        }
        let root = workspace_folder(&params).map(|folder| find_cargo_root(&folder).unwrap_or(folder));
        Server {
            out,
            tasks: unbounded(),
            caps,
            settings,
            root,
            docs: Documents::default(),
            phase: Phase::NoWorkspace("not loaded yet".to_owned()),
            load: 0,
            reload_wanted: true,
            generation: 0,
            analyzed: None,
            running: None,
            settings_error: None,
            load_warnings_shown: Vec::new(),
            analysis: None,
            published: HashMap::new(),
            progress_open: false,
            panic_message: None,
            next_id: 0,
            pending: HashMap::new(),
            shutdown: false,
            last_status: None,
        }
    }

    fn run(&mut self, incoming: &Receiver<Incoming>) -> i32 {
        self.after_events();
        loop {
            let tasks = self.tasks.1.clone();
            let first = select! {
                recv(incoming) -> message => match message {
                    Ok(message) => Event::Lsp(message),
                    Err(_) => return 1, // the client went away without `exit`
                },
                recv(tasks) -> task => Event::Task(task.expect("the server holds a sender")),
            };
            if let Some(code) = self.handle_event(first) {
                return code;
            }
            // Coalesce a burst (fast typing): handle what is already queued before
            // starting an analysis.
            for _ in 0..10_000 {
                let next = match incoming.try_recv() {
                    Ok(message) => Event::Lsp(message),
                    Err(_) => match self.tasks.1.try_recv() {
                        Ok(task) => Event::Task(task),
                        Err(_) => break,
                    },
                };
                if let Some(code) = self.handle_event(next) {
                    return code;
                }
            }
            self.after_events();
        }
    }

    /// Handles one event; `Some(status)` on `exit`. A panic in a handler is logged,
    /// answered with an error if it was a request, and survived.
    fn handle_event(&mut self, event: Event) -> Option<i32> {
        let request_id = match &event {
            Event::Lsp(Incoming::Message(Message::Request(req))) => Some(req.id.clone()),
            _ => None,
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.dispatch(event)));
        // Before any later response: a client that syncs on a request sees the state
        // after the messages it sent before it.
        self.send_status();
        match outcome {
            Ok(flow) => flow,
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_owned());
                tracing::error!("handler panicked: {message}");
                if let Some(id) = request_id {
                    send(
                        &self.out,
                        Response::new_err(id, ErrorCode::InternalError as i32, format!("internal error: {message}")),
                    );
                }
                None
            }
        }
    }

    fn dispatch(&mut self, event: Event) -> Option<i32> {
        match event {
            Event::Lsp(Incoming::Message(Message::Request(req))) => self.on_request(req),
            Event::Lsp(Incoming::Message(Message::Notification(n))) => return self.on_notification(n),
            Event::Lsp(Incoming::Message(Message::Response(resp))) => self.on_response(resp),
            Event::Lsp(Incoming::Malformed { id, code, message }) => answer_malformed(&self.out, id, code, message),
            Event::Task(task) => self.on_task(task),
        }
        None
    }

    // ---- requests ----

    fn on_request(&mut self, req: Request) {
        let id = req.id.clone();
        if self.shutdown {
            self.respond_err(id, ErrorCode::InvalidRequest, "the server is shutting down".into());
            return;
        }
        let result: Result<serde_json::Value, HandlerError> = match req.method.as_str() {
            "shutdown" => {
                self.shutdown = true;
                Ok(serde_json::Value::Null)
            }
            "initialize" => {
                Err(HandlerError { code: ErrorCode::InvalidRequest, message: "initialize was already sent".into() })
            }
            "textDocument/hover" => parse_params(req.params).and_then(|p| request::hover(self, p)).map(to_json),
            "textDocument/codeAction" => {
                parse_params(req.params).and_then(|p| request::code_actions(self, p)).map(to_json)
            }
            "textDocument/codeLens" => {
                parse_params(req.params).and_then(|p| request::code_lenses(self, p)).map(to_json)
            }
            other => Err(HandlerError { code: ErrorCode::MethodNotFound, message: format!("unknown method {other}") }),
        };
        match result {
            Ok(value) => send(&self.out, Response { id, result: Some(value), error: None }),
            Err(err) => self.respond_err(id, err.code, err.message),
        }
    }

    fn respond_err(&self, id: RequestId, code: ErrorCode, message: String) {
        send(&self.out, Response::new_err(id, code as i32, message));
    }

    // ---- notifications ----

    fn on_notification(&mut self, n: Notification) -> Option<i32> {
        let method = n.method.clone();
        let outcome: Result<(), HandlerError> = match method.as_str() {
            "exit" => return Some(if self.shutdown { 0 } else { 1 }),
            "initialized" => {
                notification::on_initialized(self);
                Ok(())
            }
            "textDocument/didOpen" => parse_params(n.params).map(|p| notification::did_open(self, p)),
            "textDocument/didChange" => parse_params(n.params).map(|p| notification::did_change(self, p)),
            "textDocument/didSave" => parse_params(n.params).map(|p| notification::did_save(self, p)),
            "textDocument/didClose" => parse_params(n.params).map(|p| notification::did_close(self, p)),
            "workspace/didChangeConfiguration" => {
                parse_params(n.params).map(|p| notification::did_change_configuration(self, p))
            }
            "workspace/didChangeWatchedFiles" => {
                parse_params(n.params).map(|p| notification::did_change_watched_files(self, p))
            }
            _ => Ok(()), // `$/cancelRequest` (requests are answered at once), `$/setTrace`, unknown
        };
        if let Err(err) = outcome {
            tracing::warn!("{method}: {}", err.message);
        }
        None
    }

    fn on_response(&mut self, resp: Response) {
        match self.pending.remove(&resp.id) {
            Some(Pending::Configuration) => {
                let first = resp.result.as_ref().and_then(|r| r.as_array()).and_then(|a| a.first()).cloned();
                if let Some((settings, _)) = first.as_ref().and_then(Settings::from_json) {
                    notification::apply_settings(self, settings);
                }
            }
            Some(Pending::Ignore) | None => {}
        }
    }

    pub(super) fn request(&mut self, method: &str, params: impl serde::Serialize, pending: Pending) {
        self.next_id += 1;
        let id = RequestId::from(format!("noalloc-{}", self.next_id));
        self.pending.insert(id.clone(), pending);
        send(&self.out, Request::new(id, method.to_owned(), params));
    }

    pub(super) fn notify(&self, method: &str, params: impl serde::Serialize) {
        send(&self.out, Notification::new(method.to_owned(), params));
    }

    pub(super) fn show_message(&self, typ: MessageType, message: String) {
        self.notify("window/showMessage", ShowMessageParams { typ, message });
    }

    // ---- loading, analysis, publishing ----

    /// Reloads, starts an analysis, and tells the client where things stand.
    fn after_events(&mut self) {
        if self.reload_wanted {
            self.reload_wanted = false;
            self.start_load();
        }
        self.maybe_start_analysis();
        self.send_status();
    }

    /// The text the analysis saw for a file: open document, database, disk.
    pub(super) fn text_of(&self, path: &Path) -> Option<String> {
        if let Some(doc) = self.docs.get(path) {
            return Some(doc.text.clone());
        }
        if let Phase::Loaded { live, .. } = &self.phase {
            if let Some(text) = live.file_text(path) {
                return Some(text);
            }
        }
        std::fs::read_to_string(path).ok()
    }

    /// Publishes the diagnostics of each file whose diagnostics changed.
    pub(super) fn publish(&mut self, analysis: Analysis) {
        // A `roots` setting that matches no function checks nothing: say so, once
        // per change of the unmatched set (as `--check` exits 2 naming them).
        let unmatched_before =
            self.analysis.as_ref().map(|old| old.unmatched_root_patterns.as_slice()).unwrap_or_default();
        if !analysis.unmatched_root_patterns.is_empty() && analysis.unmatched_root_patterns != unmatched_before {
            let patterns: Vec<String> = analysis.unmatched_root_patterns.iter().map(|p| format!("`{p}`")).collect();
            self.show_message(
                MessageType::ERROR,
                format!(
                    "noalloc: the roots setting {} matches no function: nothing is checked for it",
                    patterns.join(", ")
                ),
            );
        }
        let bad_before = self.analysis.as_ref().map(|old| old.bad_root_arguments.as_slice()).unwrap_or_default();
        if !analysis.bad_root_arguments.is_empty() && analysis.bad_root_arguments != bad_before {
            let messages = analysis.bad_root_arguments.join("; ");
            self.show_message(MessageType::ERROR, format!("noalloc: {messages}: nothing is checked for it"));
        }
        let fresh = self.diagnostics_of(&analysis);
        self.publish_changed(fresh, None);
        let lenses_changed = self.analysis.as_ref().is_none_or(|old| old.roots != analysis.roots);
        self.analysis = Some(Arc::new(analysis));
        if lenses_changed && self.caps.code_lens_refresh {
            self.request("workspace/codeLens/refresh", serde_json::Value::Null, Pending::Ignore);
        }
    }

    /// The diagnostics of an analysis by file, the adoption files applied.
    pub(super) fn diagnostics_of(&self, analysis: &Analysis) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
        let lookup = |p: &Path| self.text_of(p);
        let mut texts = Texts::new(&lookup, self.root.as_deref());
        let mut diagnostics = to_proto::diagnostics(analysis, &self.settings, &mut texts);
        if let Some(root) = self.root.as_deref() {
            adoption::apply(root, &self.settings, analysis, &mut diagnostics, &mut texts);
        }
        diagnostics
    }

    /// Publishes the diagnostics of each file whose diagnostics changed: every file,
    /// or only those of `only` (files whose answer is complete before the rest).
    pub(super) fn publish_changed(&mut self, fresh: BTreeMap<PathBuf, Vec<Diagnostic>>, only: Option<&[PathBuf]>) {
        let only: Option<std::collections::HashSet<PathBuf>> = only.map(|files| {
            files.iter().cloned().chain(files.iter().filter_map(|f| std::fs::canonicalize(f).ok())).collect()
        });
        let wanted = |path: &Path| only.as_ref().is_none_or(|only| only.contains(path));
        let mut paths: Vec<PathBuf> = fresh.keys().filter(|p| wanted(p)).cloned().collect();
        paths.extend(self.published.keys().filter(|p| !fresh.contains_key(*p) && wanted(p)).cloned());
        paths.sort();
        for path in paths {
            let diagnostics = fresh.get(&path).cloned().unwrap_or_default();
            if self.published.get(&path) == Some(&diagnostics)
                || (diagnostics.is_empty() && !self.published.contains_key(&path))
            {
                continue;
            }
            let version = self.docs.get(&path).map(|d| d.version);
            self.notify(
                "textDocument/publishDiagnostics",
                PublishDiagnosticsParams { uri: path_to_uri(&path), diagnostics: diagnostics.clone(), version },
            );
            if diagnostics.is_empty() {
                self.published.remove(&path);
            } else {
                self.published.insert(path, diagnostics);
            }
        }
    }

    // ---- progress and status ----

    pub(super) fn progress_begin(&mut self, message: String) {
        if !self.caps.work_done_progress {
            return;
        }
        if self.progress_open {
            self.progress_report(message);
            return;
        }
        self.progress_open = true;
        self.request(
            "window/workDoneProgress/create",
            WorkDoneProgressCreateParams { token: NumberOrString::String(PROGRESS_TOKEN.to_owned()) },
            Pending::Ignore,
        );
        self.notify_progress(WorkDoneProgress::Begin(WorkDoneProgressBegin {
            title: "noalloc".to_owned(),
            cancellable: Some(false),
            message: Some(message),
            percentage: None,
        }));
    }

    pub(super) fn progress_report(&mut self, message: String) {
        if !self.progress_open {
            return;
        }
        self.notify_progress(WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: None,
            message: Some(message),
            percentage: None,
        }));
    }

    pub(super) fn progress_end(&mut self, message: String) {
        if !self.progress_open {
            return;
        }
        self.progress_open = false;
        self.notify_progress(WorkDoneProgress::End(WorkDoneProgressEnd { message: Some(message) }));
    }

    /// One `$/progress` notification on the server's progress token.
    fn notify_progress(&self, progress: WorkDoneProgress) {
        let token = NumberOrString::String(PROGRESS_TOKEN.to_owned());
        self.notify("$/progress", ProgressParams { token, value: ProgressParamsValue::WorkDone(progress) });
    }

    /// rust-analyzer's `experimental/serverStatus`, for clients that ask for it:
    /// `quiescent` once the published diagnostics are those of the current text.
    fn send_status(&mut self) {
        if !self.caps.server_status {
            return;
        }
        let (health, quiescent, message) = match &self.phase {
            Phase::NoWorkspace(why) => ("error", !self.reload_wanted, Some(why.clone())),
            Phase::Loading => ("ok", false, Some("loading the workspace".to_owned())),
            Phase::Loaded { .. } => {
                let quiescent = !self.reload_wanted && self.running.is_none() && self.analyzed == Some(self.generation);
                match &self.panic_message {
                    Some(panic) => ("warning", quiescent, Some(format!("the analysis panicked: {panic}"))),
                    None => ("ok", quiescent, None),
                }
            }
        };
        let status = serde_json::json!({ "health": health, "quiescent": quiescent, "message": message });
        if self.last_status.as_ref() != Some(&status) {
            self.notify("experimental/serverStatus", &status);
            self.last_status = Some(status);
        }
    }
}

/// What the main loop waits for: a message from the client or a task's result.
enum Event {
    Lsp(Incoming),
    Task(Task),
}
