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
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CodeLensOptions, CodeLensParams, Diagnostic,
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWatchedFilesRegistrationOptions, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, FileChangeType, FileSystemWatcher,
    GlobPattern, Hover, HoverContents, HoverParams, HoverProviderCapability, InitializeParams,
    InitializeResult, MarkupContent, MarkupKind, MessageType, NumberOrString, ProgressParams,
    ProgressParamsValue, PublishDiagnosticsParams, Range, Registration, RegistrationParams,
    SaveOptions, ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
    WorkDoneProgress, WorkDoneProgressBegin, WorkDoneProgressCreateParams, WorkDoneProgressEnd,
    WorkDoneProgressReport, WorkspaceEdit,
};
use serde::de::DeserializeOwned;

use super::{actions, adoption};
use super::documents::{path_to_uri, uri_to_path, Documents};
use super::settings::Settings;
use super::to_proto::{self, Texts, SOURCE};
use super::transport::{Incoming, Outgoing};
use crate::engine::edit::{AnalysisFailure, LiveWorkspace, Returned};
use crate::engine::{Analysis, AnalysisStore, FindingKind, LoadError, Watch, Workspace};

/// Results of work done off the main loop.
enum Task {
    LoadProgress {
        load: u64,
        message: String,
    },
    Loaded {
        load: u64,
        result: Result<Box<Workspace>, LoadError>,
        ms: u128,
    },
    /// One more root of an analysis judged.
    RootJudged {
        load: u64,
        generation: u64,
        judged: usize,
        total: usize,
    },
    /// The answer for `files` (the files open when the analysis started) is
    /// complete, before the rest of the analysis.
    FilesComplete {
        load: u64,
        generation: u64,
        files: Vec<PathBuf>,
        partial: Box<Analysis>,
    },
    Analyzed {
        load: u64,
        generation: u64,
        result: Result<Analysis, AnalysisFailure>,
        returned: Box<Returned>,
        ms: u128,
    },
    /// The analysis a run stored for exactly what the analysis of `generation`
    /// reads: published while that analysis runs.
    Stored {
        load: u64,
        generation: u64,
        analysis: Box<Analysis>,
    },
    /// The names of a new load are resolved (or an edit cancelled that): the
    /// syntax they parsed can go before the first analysis.
    NamesResolved {
        load: u64,
        returned: Box<Returned>,
        /// The analysis store that step opened, for the analysis that follows.
        store: Option<Box<OpenedStore>>,
    },
}

/// An analysis store opened (its fingerprint worked out) by the names step of a
/// load, kept for the first analysis while nothing changed in between: the same
/// generation (an edit or a settings change makes a new one) and configuration.
struct OpenedStore {
    load: u64,
    generation: u64,
    config: String,
    store: AnalysisStore,
}

/// What the analysis thread tells the main loop while it runs: the open files are
/// judged first, their diagnostics published as soon as they are complete, and
/// each root judged counts in `$/progress`.
struct AnalysisWatch {
    tasks: Sender<Task>,
    load: u64,
    generation: u64,
    open_files: Vec<PathBuf>,
    /// Whether `$/progress` is open (the first analysis after a load), so that the
    /// roots judged are worth telling the loop.
    count_roots: bool,
}

impl Watch for AnalysisWatch {
    fn first_files(&self) -> &[PathBuf] {
        &self.open_files
    }

    fn root_judged(&mut self, judged: usize, total: usize) {
        if !self.count_roots {
            return;
        }
        let (load, generation) = (self.load, self.generation);
        let _ = self.tasks.send(Task::RootJudged { load, generation, judged, total });
    }

    fn files_complete(&mut self, files: &[PathBuf], partial: &Analysis) {
        let (load, generation) = (self.load, self.generation);
        let files = files.to_vec();
        let partial = Box::new(partial.clone());
        let _ = self.tasks.send(Task::FilesComplete { load, generation, files, partial });
    }
}

enum Phase {
    /// Nothing to analyze, and why.
    NoWorkspace(String),
    Loading,
    Loaded(Box<LiveWorkspace>),
}

/// What the client can do, from `initialize`.
#[derive(Default)]
struct ClientCaps {
    work_done_progress: bool,
    configuration: bool,
    code_lens_refresh: bool,
    watch_files: bool,
    server_status: bool,
}

/// Requests this server sent, by id, to know what their responses answer.
enum Pending {
    Configuration,
    Ignore,
}

const PROGRESS_TOKEN: &str = "noalloc/analysis";

struct Server {
    out: Sender<Outgoing>,
    tasks: (Sender<Task>, Receiver<Task>),
    caps: ClientCaps,
    settings: Settings,
    root: Option<PathBuf>,
    docs: Documents,
    phase: Phase,
    load: u64,
    reload_wanted: bool,
    generation: u64,
    /// The generation whose analysis ended (published, or panicked).
    analyzed: Option<u64>,
    running: Option<(u64, Instant)>,
    /// The load whose first analysis looked for a stored one (`stored_analysis`).
    store_tried: Option<u64>,
    /// The load whose names are resolved, before its first analysis.
    names_resolved: Option<u64>,
    /// The load whose first analysis is over and the syntax it parsed dropped
    /// (`LiveWorkspace::drop_syntax`).
    syntax_dropped: Option<u64>,
    /// The store the names step opened, until the first analysis takes it.
    opened_store: Option<Box<OpenedStore>>,
    /// The last settings error shown to the user, so it is shown once, not per edit.
    settings_error: Option<String>,
    analysis: Option<Arc<Analysis>>,
    published: HashMap<PathBuf, Vec<Diagnostic>>,
    progress_open: bool,
    panic_message: Option<String>,
    next_id: i32,
    pending: HashMap<RequestId, Pending>,
    shutdown: bool,
    last_status: Option<serde_json::Value>,
}

/// Runs the server until `exit`; returns the exit status. The process exits next
/// (`lsp::run`): the loaded workspace, rust-analyzer's database, is left to the
/// exit rather than freed, which took an editor's shutdown 0.1–0.5 s.
pub fn serve(out: Sender<Outgoing>, incoming: Receiver<Incoming>) -> i32 {
    let Some(params) = initialize(&out, &incoming) else {
        return 1;
    };
    let mut server = Server::new(out, params);
    let code = server.run(&incoming);
    if let Phase::Loaded(live) = std::mem::replace(&mut server.phase, Phase::Loading) {
        std::mem::forget(live);
    }
    code
}

/// The `initialize` handshake. Requests before it get `ServerNotInitialized`.
fn initialize(out: &Sender<Outgoing>, incoming: &Receiver<Incoming>) -> Option<InitializeParams> {
    for message in incoming {
        match message {
            Incoming::Message(Message::Request(req)) if req.method == "initialize" => {
                match serde_json::from_value::<InitializeParams>(req.params) {
                    Ok(params) => {
                        let result = InitializeResult {
                            capabilities: capabilities(),
                            server_info: Some(ServerInfo {
                                name: "noalloc-ls".to_owned(),
                                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
                            }),
                        };
                        send(out, Response::new_ok(req.id, result));
                        return Some(params);
                    }
                    Err(err) => send(
                        out,
                        Response::new_err(req.id, ErrorCode::InvalidParams as i32, err.to_string()),
                    ),
                }
            }
            Incoming::Message(Message::Request(req)) => send(
                out,
                Response::new_err(
                    req.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized".into(),
                ),
            ),
            Incoming::Message(Message::Notification(n)) if n.method == "exit" => return None,
            Incoming::Message(_) => {}
            Incoming::Malformed { id, code, message } => answer_malformed(out, id, code, message),
        }
    }
    None
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(lsp_types::PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::SOURCE]),
            work_done_progress_options: Default::default(),
            resolve_provider: None,
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        ..ServerCapabilities::default()
    }
}

fn send(out: &Sender<Outgoing>, message: impl Into<Message>) {
    // The writer only goes away when stdout is closed; nothing is left to tell then.
    let _ = out.send(Outgoing::Message(message.into()));
}

fn answer_malformed(
    out: &Sender<Outgoing>,
    id: Option<RequestId>,
    code: ErrorCode,
    message: String,
) {
    tracing::warn!("malformed message: {message}");
    match id {
        Some(id) => send(out, Response::new_err(id, code as i32, message)),
        None => {
            let _ = out.send(Outgoing::ErrorWithoutId { code, message });
        }
    }
}

/// What a handler could not do: becomes an error response.
struct HandlerError {
    code: ErrorCode,
    message: String,
}

fn invalid_params(message: impl Into<String>) -> HandlerError {
    HandlerError {
        code: ErrorCode::InvalidParams,
        message: message.into(),
    }
}

fn parse_params<P: DeserializeOwned>(params: serde_json::Value) -> Result<P, HandlerError> {
    serde_json::from_value(params).map_err(|err| invalid_params(format!("invalid params: {err}")))
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
        let root =
            workspace_folder(&params).map(|folder| find_cargo_root(&folder).unwrap_or(folder));
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
            store_tried: None,
            names_resolved: None,
            syntax_dropped: None,
            opened_store: None,
            settings_error: None,
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
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.dispatch(event)));
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
                        Response::new_err(
                            id,
                            ErrorCode::InternalError as i32,
                            format!("internal error: {message}"),
                        ),
                    );
                }
                None
            }
        }
    }

    fn dispatch(&mut self, event: Event) -> Option<i32> {
        match event {
            Event::Lsp(Incoming::Message(Message::Request(req))) => self.on_request(req),
            Event::Lsp(Incoming::Message(Message::Notification(n))) => {
                return self.on_notification(n)
            }
            Event::Lsp(Incoming::Message(Message::Response(resp))) => self.on_response(resp),
            Event::Lsp(Incoming::Malformed { id, code, message }) => {
                answer_malformed(&self.out, id, code, message)
            }
            Event::Task(task) => self.on_task(task),
        }
        None
    }

    // ---- requests ----

    fn on_request(&mut self, req: Request) {
        let id = req.id.clone();
        if self.shutdown {
            self.respond_err(
                id,
                ErrorCode::InvalidRequest,
                "the server is shutting down".into(),
            );
            return;
        }
        let result: Result<serde_json::Value, HandlerError> = match req.method.as_str() {
            "shutdown" => {
                self.shutdown = true;
                Ok(serde_json::Value::Null)
            }
            "initialize" => Err(HandlerError {
                code: ErrorCode::InvalidRequest,
                message: "initialize was already sent".into(),
            }),
            "textDocument/hover" => parse_params(req.params)
                .and_then(|p| self.hover(p))
                .map(to_json),
            "textDocument/codeAction" => parse_params(req.params)
                .and_then(|p| self.code_actions(p))
                .map(to_json),
            "textDocument/codeLens" => parse_params(req.params)
                .and_then(|p| self.code_lenses(p))
                .map(to_json),
            other => Err(HandlerError {
                code: ErrorCode::MethodNotFound,
                message: format!("unknown method {other}"),
            }),
        };
        match result {
            Ok(value) => send(
                &self.out,
                Response {
                    id,
                    result: Some(value),
                    error: None,
                },
            ),
            Err(err) => self.respond_err(id, err.code, err.message),
        }
    }

    fn respond_err(&self, id: RequestId, code: ErrorCode, message: String) {
        send(&self.out, Response::new_err(id, code as i32, message));
    }

    /// The path and current text of a file the client asks about.
    fn file_of(&self, uri: &Uri) -> Result<(PathBuf, String), HandlerError> {
        let path = uri_to_path(uri)
            .ok_or_else(|| invalid_params(format!("not a file URI: {}", uri.as_str())))?;
        let text = match self.docs.get(&path) {
            Some(doc) => doc.text.clone(),
            None => std::fs::read_to_string(&path)
                .map_err(|err| invalid_params(format!("unknown file {}: {err}", path.display())))?,
        };
        Ok((path, text))
    }

    fn hover(&self, params: HoverParams) -> Result<Option<Hover>, HandlerError> {
        let position = params.text_document_position_params;
        let (path, _) = self.file_of(&position.text_document.uri)?;
        let Some(analysis) = &self.analysis else {
            return Ok(None);
        };
        let lookup = |p: &Path| self.text_of(p);
        let mut texts = Texts::new(&lookup, self.root.as_deref());
        Ok(
            to_proto::hover(analysis, &path, position.position, &mut texts).map(
                |(markdown, range)| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: markdown,
                    }),
                    range: Some(range),
                },
            ),
        )
    }

    fn code_lenses(
        &self,
        params: CodeLensParams,
    ) -> Result<Vec<lsp_types::CodeLens>, HandlerError> {
        let (path, _) = self.file_of(&params.text_document.uri)?;
        let Some(analysis) = &self.analysis else {
            return Ok(Vec::new());
        };
        let lookup = |p: &Path| self.text_of(p);
        let mut texts = Texts::new(&lookup, self.root.as_deref());
        Ok(to_proto::code_lenses(analysis, &path, &mut texts))
    }

    fn code_actions(
        &self,
        params: CodeActionParams,
    ) -> Result<Vec<CodeActionOrCommand>, HandlerError> {
        let uri = params.text_document.uri.clone();
        let (path, text) = self.file_of(&uri)?;
        let wanted = |kind: &CodeActionKind| match &params.context.only {
            None => true,
            Some(only) => only.iter().any(|o| {
                kind.as_str() == o.as_str()
                    || kind.as_str().starts_with(&format!("{}.", o.as_str()))
            }),
        };
        let mut out = Vec::new();
        let edit_action = |title: String,
                           kind: CodeActionKind,
                           edits: Vec<lsp_types::TextEdit>,
                           diagnostic: Option<&Diagnostic>| {
            CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(kind),
                diagnostics: diagnostic.map(|d| vec![d.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(std::iter::once((uri.clone(), edits)).collect()),
                    ..Default::default()
                }),
                command: None,
                is_preferred: None,
                disabled: None,
                data: None,
            })
        };
        // Our diagnostics in the range: those the client passes, else those published.
        let mut findings: Vec<Diagnostic> = params
            .context
            .diagnostics
            .iter()
            .filter(|d| d.source.as_deref() == Some(SOURCE))
            .cloned()
            .collect();
        if findings.is_empty() {
            if let Some(published) = self.published.get(&path) {
                findings.extend(
                    published
                        .iter()
                        .filter(|d| overlaps(d.range, params.range))
                        .cloned(),
                );
            }
        }
        let file = actions::parse(&text);
        if wanted(&CodeActionKind::QUICKFIX) {
            for diagnostic in &findings {
                let code = match &diagnostic.code {
                    Some(NumberOrString::String(code)) => code.as_str(),
                    _ => continue,
                };
                let is_finding = FindingKind::ALL.iter().any(|kind| kind.code() == code);
                if diagnostic.severity == Some(lsp_types::DiagnosticSeverity::ERROR) && !is_finding {
                    continue; // error findings are fixed by editing the directive
                }
                if let Some(edit) = actions::exemption_edit(&text, diagnostic.range.start.line) {
                    out.push(edit_action(
                        actions::EXEMPTION_TITLE.to_owned(),
                        CodeActionKind::QUICKFIX,
                        vec![edit],
                        Some(diagnostic),
                    ));
                }
                if code == "may-grow" {
                    if let Some(edit) = actions::capacity_guard_edit(&file, &text, diagnostic.range)
                    {
                        out.push(edit_action(
                            "Reserve capacity: grow only when there is room".into(),
                            CodeActionKind::QUICKFIX,
                            vec![edit],
                            Some(diagnostic),
                        ));
                    }
                    if let Some((field, edit)) =
                        actions::with_capacity_edit(&file, &text, diagnostic.range)
                    {
                        out.push(edit_action(
                            format!("Reserve capacity: create `{field}` with `with_capacity`"),
                            CodeActionKind::QUICKFIX,
                            vec![edit],
                            Some(diagnostic),
                        ));
                    }
                }
            }
        }
        if wanted(&CodeActionKind::SOURCE) {
            if let Some(func) = actions::fn_at(&file, &text, params.range.start) {
                let already_root =
                    actions::is_marked_root(&func) || self.is_root_at(&path, &text, &func);
                if !already_root {
                    let name = actions::fn_display_name(&func);
                    let edit = actions::mark_root_edit(&text, &func);
                    out.push(edit_action(
                        format!("Mark `{name}` as a noalloc root"),
                        CodeActionKind::SOURCE,
                        vec![edit],
                        None,
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Whether the analysis has a root (from an impl or mod directive, or a setting)
    /// named on the line of `func`'s name.
    fn is_root_at(&self, path: &Path, text: &str, func: &ra_ap_syntax::ast::Fn) -> bool {
        use ra_ap_syntax::AstNode;
        let Some(analysis) = &self.analysis else {
            return false;
        };
        let Some(name) = ra_ap_syntax::ast::HasName::name(func) else {
            return false;
        };
        let line =
            super::documents::position(text, name.syntax().text_range().start().into()).line + 1;
        analysis
            .roots
            .iter()
            .any(|r| r.location.file == path && r.location.line == line)
    }

    // ---- notifications ----

    fn on_notification(&mut self, n: Notification) -> Option<i32> {
        let method = n.method.clone();
        let outcome: Result<(), HandlerError> = match method.as_str() {
            "exit" => return Some(if self.shutdown { 0 } else { 1 }),
            "initialized" => {
                self.on_initialized();
                Ok(())
            }
            "textDocument/didOpen" => parse_params(n.params).map(|p| self.did_open(p)),
            "textDocument/didChange" => parse_params(n.params).map(|p| self.did_change(p)),
            "textDocument/didSave" => parse_params(n.params).map(|p| self.did_save(p)),
            "textDocument/didClose" => parse_params(n.params).map(|p| self.did_close(p)),
            "workspace/didChangeConfiguration" => {
                parse_params(n.params).map(|p| self.did_change_configuration(p))
            }
            "workspace/didChangeWatchedFiles" => {
                parse_params(n.params).map(|p| self.did_change_watched_files(p))
            }
            _ => Ok(()), // `$/cancelRequest` (requests are answered at once), `$/setTrace`, unknown
        };
        if let Err(err) = outcome {
            tracing::warn!("{method}: {}", err.message);
        }
        None
    }

    fn on_initialized(&mut self) {
        if self.caps.watch_files {
            let watchers = ["**/Cargo.toml", "**/Cargo.lock", "**/*.rs"]
                .into_iter()
                .map(|glob| FileSystemWatcher {
                    glob_pattern: GlobPattern::String(glob.to_owned()),
                    kind: None,
                })
                .collect();
            let options = DidChangeWatchedFilesRegistrationOptions { watchers };
            let registration = Registration {
                id: "noalloc-watch".to_owned(),
                method: "workspace/didChangeWatchedFiles".to_owned(),
                register_options: Some(to_json(options)),
            };
            self.request(
                "client/registerCapability",
                RegistrationParams {
                    registrations: vec![registration],
                },
                Pending::Ignore,
            );
        }
        self.pull_configuration();
    }

    fn pull_configuration(&mut self) {
        if self.caps.configuration {
            let params = lsp_types::ConfigurationParams {
                items: vec![lsp_types::ConfigurationItem {
                    scope_uri: None,
                    section: Some("noalloc".to_owned()),
                }],
            };
            self.request("workspace/configuration", params, Pending::Configuration);
        }
    }

    fn did_open(&mut self, params: DidOpenTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        self.docs.open(
            path.clone(),
            params.text_document.text.clone(),
            params.text_document.version,
        );
        self.push_text(&path, &params.text_document.text, true);
    }

    fn did_change(&mut self, params: DidChangeTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let text =
            match self
                .docs
                .change(&path, params.text_document.version, params.content_changes)
            {
                Ok(doc) => doc.text.clone(),
                Err(err) => {
                    tracing::warn!("didChange: {err}");
                    return;
                }
            };
        self.push_text(&path, &text, false);
    }

    fn did_save(&mut self, params: DidSaveTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        if is_manifest(&path) {
            self.reload_wanted = true;
        }
    }

    fn did_close(&mut self, params: DidCloseTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        self.docs.close(&path);
        // The database goes back to what is on disk.
        if let Ok(text) = std::fs::read_to_string(&path) {
            self.push_text(&path, &text, false);
        }
    }

    /// Puts a file's text into the database; a change bumps the generation (which
    /// also makes any running analysis stale: salsa cancels it).
    fn push_text(&mut self, path: &Path, text: &str, opened: bool) {
        let Phase::Loaded(live) = &mut self.phase else {
            return;
        };
        match live.set_file_text(path, text) {
            Ok(true) => self.generation += 1,
            Ok(false) => {}
            Err(err) => {
                // A new .rs file of the workspace: only a reload puts it in the database.
                let ours = path.extension().is_some_and(|e| e == "rs")
                    && path.starts_with(live.root())
                    && !path.components().any(|c| c.as_os_str() == "target");
                if opened && ours {
                    tracing::info!("{err}; reloading the workspace");
                    self.reload_wanted = true;
                }
            }
        }
    }

    fn did_change_configuration(&mut self, params: DidChangeConfigurationParams) {
        match Settings::from_json(&params.settings) {
            Some((settings, bad)) => {
                if !bad.is_empty() {
                    self.show_message(
                        MessageType::WARNING,
                        format!("noalloc: could not read the settings {}", bad.join(", ")),
                    );
                }
                self.apply_settings(settings);
            }
            None => self.pull_configuration(),
        }
    }

    fn apply_settings(&mut self, settings: Settings) {
        if settings == self.settings {
            return;
        }
        let reload = self.settings.needs_reload(&settings);
        self.settings = settings;
        if reload {
            self.reload_wanted = true;
        } else {
            self.generation += 1;
        }
    }

    fn did_change_watched_files(&mut self, params: DidChangeWatchedFilesParams) {
        for change in params.changes {
            let Some(path) = uri_to_path(&change.uri) else {
                continue;
            };
            if is_manifest(&path) {
                self.reload_wanted = true;
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || self.docs.get(&path).is_some() {
                continue; // open files follow the editor, not the disk
            }
            match change.typ {
                FileChangeType::CHANGED => {
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        self.push_text(&path, &text, false);
                    }
                }
                _ => {
                    let known = matches!(&self.phase, Phase::Loaded(live) if live.knows(&path));
                    let created = change.typ == FileChangeType::CREATED;
                    if created != known
                        && path.starts_with(self.root.as_deref().unwrap_or(Path::new("/")))
                    {
                        self.reload_wanted = true;
                    }
                }
            }
        }
    }

    fn on_response(&mut self, resp: Response) {
        match self.pending.remove(&resp.id) {
            Some(Pending::Configuration) => {
                let first = resp
                    .result
                    .as_ref()
                    .and_then(|r| r.as_array())
                    .and_then(|a| a.first())
                    .cloned();
                if let Some((settings, _)) = first.as_ref().and_then(Settings::from_json) {
                    self.apply_settings(settings);
                }
            }
            Some(Pending::Ignore) | None => {}
        }
    }

    fn request(&mut self, method: &str, params: impl serde::Serialize, pending: Pending) {
        self.next_id += 1;
        let id = RequestId::from(format!("noalloc-{}", self.next_id));
        self.pending.insert(id.clone(), pending);
        send(&self.out, Request::new(id, method.to_owned(), params));
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        send(&self.out, Notification::new(method.to_owned(), params));
    }

    fn show_message(&self, typ: MessageType, message: String) {
        self.notify("window/showMessage", ShowMessageParams { typ, message });
    }

    // ---- tasks ----

    fn on_task(&mut self, task: Task) {
        match task {
            Task::LoadProgress { load, message } => {
                if load == self.load {
                    self.progress_report(message);
                }
            }
            Task::Loaded { load, result, ms } => {
                if load != self.load {
                    return;
                }
                match result {
                    Ok(ws) => {
                        tracing::info!("workspace loaded in {ms} ms");
                        let mut live = LiveWorkspace::new(*ws);
                        let open: Vec<(PathBuf, String)> = self
                            .docs
                            .paths()
                            .map(|p| (p.to_path_buf(), self.docs.get(p).unwrap().text.clone()))
                            .collect();
                        for (path, text) in open {
                            let _ = live.set_file_text(&path, &text);
                        }
                        self.phase = Phase::Loaded(Box::new(live));
                        self.generation += 1;
                        self.progress_report("analyzing the roots".to_owned());
                    }
                    Err(err) => {
                        let message = err.to_string();
                        tracing::error!("{message}");
                        self.show_message(MessageType::ERROR, format!("noalloc: {message}"));
                        self.phase = Phase::NoWorkspace(message);
                        self.progress_end("could not load the workspace".to_owned());
                    }
                }
            }
            Task::RootJudged { load, generation, judged, total } => {
                if load == self.load && generation == self.generation {
                    self.progress_report(format!("{judged}/{total} roots"));
                }
            }
            Task::FilesComplete { load, generation, files, partial } => {
                if load == self.load && generation == self.generation {
                    let fresh = self.diagnostics_of(&partial);
                    self.publish_changed(fresh, Some(&files));
                }
            }
            Task::Stored { load, generation, analysis } => {
                if load == self.load && generation == self.generation && self.analyzed != Some(generation) {
                    tracing::info!("published the stored analysis of unchanged files");
                    self.progress_report("diagnostics of the last check (nothing changed since); confirming".to_owned());
                    self.publish(*analysis);
                }
            }
            Task::NamesResolved { load, returned, store } => {
                if load != self.load {
                    return; // a workspace since replaced by a reload
                }
                self.running = None;
                self.names_resolved = Some(load);
                self.opened_store = store;
                if let Phase::Loaded(live) = &mut self.phase {
                    live.give_back(*returned);
                }
            }
            Task::Analyzed {
                load,
                generation,
                result,
                returned,
                ms,
            } => {
                if load != self.load {
                    return; // a workspace since replaced by a reload
                }
                self.running = None;
                if let Phase::Loaded(live) = &mut self.phase {
                    live.give_back(*returned);
                    if self.syntax_dropped != Some(load) {
                        self.syntax_dropped = Some(load);
                        live.drop_syntax();
                    }
                }
                match result {
                    Ok(analysis) if generation == self.generation => {
                        tracing::info!(
                            "analysis of generation {generation} in {ms} ms ({} bodies walked, {} functions checked)",
                            analysis.timings.bodies_walked,
                            analysis.functions_checked
                        );
                        tracing::debug!("timings of generation {generation}: {:?}", analysis.timings);
                        self.analyzed = Some(generation);
                        self.panic_message = None;
                        self.publish(analysis);
                        self.progress_end("done".to_owned());
                    }
                    Ok(_) => {
                        tracing::debug!("dropped the stale analysis of generation {generation}")
                    }
                    Err(AnalysisFailure::Cancelled) => {
                        tracing::debug!("analysis of generation {generation} cancelled")
                    }
                    Err(AnalysisFailure::Panicked(message)) => {
                        tracing::error!("analysis panicked: {message}");
                        if generation == self.generation {
                            // Not retried until the next change: it would panic again.
                            self.analyzed = Some(generation);
                            self.panic_message = Some(message);
                            self.progress_end("the analysis failed".to_owned());
                        }
                    }
                }
            }
        }
    }

    /// Reloads, starts an analysis, and tells the client where things stand.
    fn after_events(&mut self) {
        if self.reload_wanted {
            self.reload_wanted = false;
            self.start_load();
        }
        self.maybe_start_analysis();
        self.send_status();
    }

    fn start_load(&mut self) {
        let Some(root) = self.root.clone() else {
            self.phase = Phase::NoWorkspace("no workspace folder with a Cargo.toml".to_owned());
            return;
        };
        self.load += 1;
        self.phase = Phase::Loading;
        self.running = None;
        let load = self.load;
        let options = self.settings.load_options();
        let tasks = self.tasks.0.clone();
        self.progress_begin("loading the workspace".to_owned());
        let spawned = crate::engine::analysis_thread("noalloc-load")
            .spawn(move || {
                let started = Instant::now();
                let progress_tasks = tasks.clone();
                let progress = move |message: String| {
                    let _ = progress_tasks.send(Task::LoadProgress { load, message });
                };
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    Workspace::load(&root, &options, &progress)
                }))
                .unwrap_or_else(|_| Err(LoadError::Failed("loading panicked".to_owned())))
                .map(Box::new);
                let _ = tasks.send(Task::Loaded {
                    load,
                    result,
                    ms: started.elapsed().as_millis(),
                });
            });
        if let Err(err) = spawned {
            self.phase = Phase::NoWorkspace(format!("could not start loading: {err}"));
        }
    }

    fn maybe_start_analysis(&mut self) {
        if self.running.is_some() || self.analyzed == Some(self.generation) {
            return;
        }
        let Phase::Loaded(live) = &mut self.phase else {
            return;
        };
        let Some(mut snapshot) = live.snapshot() else {
            return;
        };
        let generation = self.generation;
        let load = self.load;
        let config = match self.settings.check_config_for(live.root()) {
            Ok(config) => config,
            Err(err) => {
                // A manifest or allowlist that does not parse: say so, and check
                // with the editor's settings alone meanwhile.
                tracing::warn!("{err}");
                if self.settings_error.as_ref() != Some(&err) {
                    self.show_message(MessageType::ERROR, format!("noalloc: {err}"));
                    self.settings_error = Some(err);
                }
                self.settings.check_config()
            }
        };
        let tasks = self.tasks.0.clone();
        let mut watch = AnalysisWatch {
            tasks: tasks.clone(),
            load,
            generation,
            // The open files first only in the first analysis after a load (the one
            // that takes seconds, under `$/progress`): after an edit the whole
            // analysis takes a fraction of a second, and judging the open files
            // first would build most reaches twice.
            open_files: match self.progress_open {
                true => self.docs.paths().map(Path::to_path_buf).collect(),
                false => Vec::new(),
            },
            count_roots: self.progress_open,
        };
        self.running = Some((generation, Instant::now()));
        // The first analysis of a load first looks for one a run stored (the
        // editor reopened on files the last check saw): its diagnostics go out at
        // once, and the analysis then confirms them. It stores its own for the next.
        let use_store = self.store_tried != Some(load);
        // A new load first publishes the stored analysis, then resolves names on
        // every core and hands the workspace back (an edit meanwhile starts the
        // analysis at its generation).
        let names_first = self.names_resolved != Some(load);
        if !names_first {
            self.store_tried = Some(load);
        }
        // The store the names step opened, if nothing changed since.
        let opened = self.opened_store.take().filter(|opened| {
            opened.load == load && opened.generation == generation && opened.config == format!("{config:?}")
        });
        let config_shown = names_first.then(|| format!("{config:?}"));
        let spawned = crate::engine::analysis_thread("noalloc-analysis")
            .spawn(move || {
                let started = Instant::now();
                let store = match opened {
                    Some(opened) => Some(opened.store),
                    None if use_store => snapshot.analysis_store(&config),
                    None => None,
                };
                if names_first {
                    if let Some(analysis) = store.as_ref().and_then(|store| snapshot.stored_analysis(store)) {
                        let _ = tasks.send(Task::Stored { load, generation, analysis: Box::new(analysis) });
                    }
                    if !snapshot.resolve_names(&config) {
                        tracing::debug!("an edit cancelled name resolution; the analysis resolves them");
                    }
                    let returned = Box::new(snapshot.release());
                    let store = store
                        .zip(config_shown)
                        .map(|(store, config)| Box::new(OpenedStore { load, generation, config, store }));
                    let _ = tasks.send(Task::NamesResolved { load, returned, store });
                    return;
                }
                let result = snapshot.analyze_watched(&config, &mut watch);
                if let (Some(store), Ok(analysis)) = (&store, &result) {
                    if let Err(err) = snapshot.store_analysis(store, analysis) {
                        tracing::warn!("could not store the analysis in {}: {err}", store.path().display());
                    }
                }
                let returned = Box::new(snapshot.release());
                let _ = tasks.send(Task::Analyzed {
                    load,
                    generation,
                    result,
                    returned,
                    ms: started.elapsed().as_millis(),
                });
            });
        if let Err(err) = spawned {
            // The snapshot went down with the closure; the workspace is lost. Reload.
            tracing::error!("could not start an analysis thread: {err}");
            self.running = None;
            self.reload_wanted = true;
        }
    }

    /// The text the analysis saw for a file: open document, database, disk.
    fn text_of(&self, path: &Path) -> Option<String> {
        if let Some(doc) = self.docs.get(path) {
            return Some(doc.text.clone());
        }
        if let Phase::Loaded(live) = &self.phase {
            if let Some(text) = live.file_text(path) {
                return Some(text);
            }
        }
        std::fs::read_to_string(path).ok()
    }

    /// Publishes the diagnostics of each file whose diagnostics changed.
    fn publish(&mut self, analysis: Analysis) {
        // A `roots` setting that matches no function checks nothing: say so, once
        // per change of the unmatched set (as `--check` exits 2 naming them).
        let unmatched_before = self.analysis.as_ref().map(|old| old.unmatched_root_patterns.as_slice()).unwrap_or_default();
        if !analysis.unmatched_root_patterns.is_empty() && analysis.unmatched_root_patterns != unmatched_before {
            let patterns: Vec<String> = analysis.unmatched_root_patterns.iter().map(|p| format!("`{p}`")).collect();
            self.show_message(
                MessageType::ERROR,
                format!("noalloc: the roots setting {} matches no function: nothing is checked for it", patterns.join(", ")),
            );
        }
        let bad_before = self.analysis.as_ref().map(|old| old.bad_root_arguments.as_slice()).unwrap_or_default();
        if !analysis.bad_root_arguments.is_empty() && analysis.bad_root_arguments != bad_before {
            let messages = analysis.bad_root_arguments.join("; ");
            self.show_message(MessageType::ERROR, format!("noalloc: {messages}: nothing is checked for it"));
        }
        let fresh = self.diagnostics_of(&analysis);
        self.publish_changed(fresh, None);
        let lenses_changed = self
            .analysis
            .as_ref()
            .is_none_or(|old| old.roots != analysis.roots);
        self.analysis = Some(Arc::new(analysis));
        if lenses_changed && self.caps.code_lens_refresh {
            self.request(
                "workspace/codeLens/refresh",
                serde_json::Value::Null,
                Pending::Ignore,
            );
        }
    }

    /// The diagnostics of an analysis by file, the adoption files applied.
    fn diagnostics_of(&self, analysis: &Analysis) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
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
    fn publish_changed(&mut self, fresh: BTreeMap<PathBuf, Vec<Diagnostic>>, only: Option<&[PathBuf]>) {
        let only: Option<std::collections::HashSet<PathBuf>> = only.map(|files| {
            files.iter().cloned().chain(files.iter().filter_map(|f| std::fs::canonicalize(f).ok())).collect()
        });
        let wanted = |path: &Path| only.as_ref().is_none_or(|only| only.contains(path));
        let mut paths: Vec<PathBuf> = fresh.keys().filter(|p| wanted(p)).cloned().collect();
        paths.extend(
            self.published
                .keys()
                .filter(|p| !fresh.contains_key(*p) && wanted(p))
                .cloned(),
        );
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
                PublishDiagnosticsParams {
                    uri: path_to_uri(&path),
                    diagnostics: diagnostics.clone(),
                    version,
                },
            );
            if diagnostics.is_empty() {
                self.published.remove(&path);
            } else {
                self.published.insert(path, diagnostics);
            }
        }
    }

    // ---- progress and status ----

    fn progress_begin(&mut self, message: String) {
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
            WorkDoneProgressCreateParams {
                token: NumberOrString::String(PROGRESS_TOKEN.to_owned()),
            },
            Pending::Ignore,
        );
        self.notify_progress(WorkDoneProgress::Begin(WorkDoneProgressBegin {
            title: "noalloc".to_owned(),
            cancellable: Some(false),
            message: Some(message),
            percentage: None,
        }));
    }

    fn progress_report(&mut self, message: String) {
        if !self.progress_open {
            return;
        }
        self.notify_progress(WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: None,
            message: Some(message),
            percentage: None,
        }));
    }

    fn progress_end(&mut self, message: String) {
        if !self.progress_open {
            return;
        }
        self.progress_open = false;
        self.notify_progress(WorkDoneProgress::End(WorkDoneProgressEnd {
            message: Some(message),
        }));
    }

    /// One `$/progress` notification on the server's progress token.
    fn notify_progress(&self, progress: WorkDoneProgress) {
        let token = NumberOrString::String(PROGRESS_TOKEN.to_owned());
        self.notify(
            "$/progress",
            ProgressParams {
                token,
                value: ProgressParamsValue::WorkDone(progress),
            },
        );
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
            Phase::Loaded(_) => {
                let quiescent = !self.reload_wanted
                    && self.running.is_none()
                    && self.analyzed == Some(self.generation);
                match &self.panic_message {
                    Some(panic) => (
                        "warning",
                        quiescent,
                        Some(format!("the analysis panicked: {panic}")),
                    ),
                    None => ("ok", quiescent, None),
                }
            }
        };
        let status =
            serde_json::json!({ "health": health, "quiescent": quiescent, "message": message });
        if self.last_status.as_ref() != Some(&status) {
            self.notify("experimental/serverStatus", &status);
            self.last_status = Some(status);
        }
    }
}

enum Event {
    Lsp(Incoming),
    Task(Task),
}

fn to_json(value: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

fn overlaps(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn is_manifest(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "Cargo.toml" || n == "Cargo.lock")
}

fn client_caps(params: &InitializeParams) -> ClientCaps {
    let caps = &params.capabilities;
    let workspace = caps.workspace.as_ref();
    ClientCaps {
        work_done_progress: caps
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false),
        configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
        code_lens_refresh: workspace
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false),
        watch_files: workspace
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false),
        server_status: caps
            .experimental
            .as_ref()
            .and_then(|e| e.get("serverStatusNotification"))
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
    }
}

/// The first workspace folder, else the (deprecated) root URI or path.
#[allow(deprecated)]
fn workspace_folder(params: &InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = params.workspace_folders.as_ref().and_then(|f| f.first()) {
        return uri_to_path(&folder.uri);
    }
    if let Some(uri) = &params.root_uri {
        return uri_to_path(uri);
    }
    params
        .root_path
        .as_ref()
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
}

/// The folder itself when it holds a Cargo.toml, else the nearest ancestor that does.
fn find_cargo_root(folder: &Path) -> Option<PathBuf> {
    folder
        .ancestors()
        .find(|dir| dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
}
