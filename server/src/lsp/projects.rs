//! The projects an editor session serves: one language server (`main_loop`, with its
//! own loaded workspace) per cargo project that `discovery` finds in the workspace
//! folders, each on its own thread, and the client's messages routed to them by
//! file. Owns the set of projects as folders and settings change, and what the
//! client sees of several servers as one: a request that names no file goes to
//! every project and is answered once all have; request ids, progress tokens and
//! watcher registrations are kept apart; `experimental/serverStatus` is merged;
//! the `noalloc.servedProjects` command lists the projects.
//! Decides nothing about allocation, and nothing a project's server decides.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crossbeam_channel::{select, unbounded, Receiver, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    DidChangeTextDocumentParams, DidChangeWorkspaceFoldersParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, InitializeParams, MessageType, ShowMessageParams, WorkspaceFolder,
};
use serde_json::{json, Value};

use super::discovery::{discover, Discovery};
use super::documents::{path_to_uri, uri_to_path, Documents};
use super::initialize::{client_caps, initialize, workspace_folder, ClientCaps, SERVED_PROJECTS_COMMAND};
use super::main_loop::{answer_malformed, send};
use super::settings::Settings;
use super::transport::{Incoming, Outgoing};

/// The id of the `initialize` request each project's server gets, and of the
/// `shutdown` it gets when its project goes: their answers are the session's.
const PROJECT_INIT_ID: &str = "noalloc-project-init";
const PROJECT_SHUTDOWN_ID: &str = "noalloc-project-shutdown";
/// Prefixes of the ids the session itself uses towards the client and the projects.
const SESSION_REQUEST_PREFIX: &str = "noalloc-session-";
const FAN_OUT_PREFIX: &str = "noalloc-fan-";

/// Runs the session until `exit`; returns the exit status.
pub fn serve(out: Sender<Outgoing>, incoming: Receiver<Incoming>) -> i32 {
    let Some(params) = initialize(&out, &incoming) else {
        return 1;
    };
    let mut session = Session::new(out, params);
    session.reconcile();
    session.run(&incoming)
}

/// One project's server, as the session sees it.
struct Project {
    /// Given in the order projects start; the first's ids and tokens are the ones a
    /// single server uses, the others' carry it (`@2`, `/2`).
    number: usize,
    root: PathBuf,
    to_server: Sender<Incoming>,
    status: Option<Value>,
    /// The files it published diagnostics for, cleared when it goes.
    published: HashSet<String>,
}

/// A request sent to every project, answered once each has.
struct FanOut {
    client_id: RequestId,
    waiting: HashSet<usize>,
    answer: Option<Response>,
}

struct Session {
    out: Sender<Outgoing>,
    /// The client's `initialize`, from which each project's is made.
    params: InitializeParams,
    caps: ClientCaps,
    folders: Vec<PathBuf>,
    linked: Vec<PathBuf>,
    projects: Vec<Project>,
    next_number: usize,
    from_projects: (Sender<(usize, Outgoing)>, Receiver<(usize, Outgoing)>),
    /// The open files, replayed to a project that starts after they were opened.
    docs: Documents,
    initialized: bool,
    shutdown: bool,
    /// Set at the client's `exit`: the projects' servers leave their workspaces to
    /// the process's exit.
    exiting: Arc<AtomicBool>,
    fan_outs: HashMap<String, FanOut>,
    next_id: u64,
    last_status: Option<Value>,
    /// What the last search that found nothing said, shown once.
    nothing_found: Option<String>,
}

impl Session {
    fn new(out: Sender<Outgoing>, params: InitializeParams) -> Session {
        let caps = client_caps(&params);
        let mut folders: Vec<PathBuf> =
            params.workspace_folders.iter().flatten().filter_map(|folder| uri_to_path(&folder.uri)).collect();
        if folders.is_empty() {
            folders.extend(workspace_folder(&params));
        }
        let linked = params
            .initialization_options
            .as_ref()
            .and_then(Settings::from_json)
            .map(|(settings, _)| settings.linked_projects)
            .unwrap_or_default();
        Session {
            out,
            params,
            caps,
            folders,
            linked,
            projects: Vec::new(),
            next_number: 0,
            from_projects: unbounded(),
            docs: Documents::default(),
            initialized: false,
            shutdown: false,
            exiting: Arc::new(AtomicBool::new(false)),
            fan_outs: HashMap::new(),
            next_id: 0,
            last_status: None,
            nothing_found: None,
        }
    }

    fn run(&mut self, incoming: &Receiver<Incoming>) -> i32 {
        let from_projects = self.from_projects.1.clone();
        loop {
            select! {
                recv(incoming) -> message => match message {
                    Ok(message) => {
                        if let Some(code) = self.on_client_message(message) {
                            return code;
                        }
                    }
                    Err(_) => return 1, // the client went away without `exit`
                },
                recv(from_projects) -> message => {
                    if let Ok((number, message)) = message {
                        self.on_project_message(number, message);
                    }
                }
            }
        }
    }

    // ---- the projects ----

    /// Starts the projects the folders and settings now name and stops the others;
    /// says so when there are none.
    fn reconcile(&mut self) {
        let found = discover(&self.folders, &self.linked);
        let gone: Vec<usize> =
            self.projects.iter().filter(|p| !found.projects.contains(&p.root)).map(|p| p.number).collect();
        for number in gone {
            self.stop(number);
        }
        for root in &found.projects {
            if !self.projects.iter().any(|p| &p.root == root) {
                self.start(root.clone());
            }
        }
        self.tell_nothing_found(&found);
        self.send_status();
    }

    fn tell_nothing_found(&mut self, found: &Discovery) {
        let message =
            (found.projects.is_empty() || !found.missing_links.is_empty()).then(|| found.nothing_found_message());
        if message.is_some() && message != self.nothing_found {
            let text = message.clone().unwrap_or_default();
            tracing::warn!("{text}");
            self.notify("window/showMessage", ShowMessageParams { typ: MessageType::ERROR, message: text });
        }
        self.nothing_found = message;
    }

    fn start(&mut self, root: PathBuf) {
        let number = self.next_number;
        self.next_number += 1;
        let (to_server, server_incoming) = unbounded::<Incoming>();
        let (server_out, from_server) = unbounded::<Outgoing>();
        let exiting = self.exiting.clone();
        let spawned = std::thread::Builder::new().name(format!("noalloc-project-{number}")).spawn(move || {
            let (_, workspace) = super::main_loop::serve(server_out, server_incoming);
            // After the client's `exit` the process ends next: the database is left
            // to it (docs/decisions.md). A project that goes earlier frees its own.
            if exiting.load(Ordering::Relaxed) {
                std::mem::forget(workspace);
            }
        });
        if let Err(err) = spawned {
            tracing::error!("could not start the server of {}: {err}", root.display());
            return;
        }
        let merged = self.from_projects.0.clone();
        let _ = std::thread::Builder::new().name(format!("noalloc-project-{number}-out")).spawn(move || {
            for message in from_server {
                if merged.send((number, message)).is_err() {
                    return;
                }
            }
        });
        let mut params = self.params.clone();
        let uri = path_to_uri(&root);
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        params.workspace_folders = Some(vec![WorkspaceFolder { uri: uri.clone(), name }]);
        #[allow(deprecated)]
        {
            params.root_uri = Some(uri);
            params.root_path = None;
        }
        let project = Project { number, root, to_server, status: None, published: HashSet::new() };
        let init = Request::new(RequestId::from(PROJECT_INIT_ID.to_owned()), "initialize".to_owned(), params);
        forward(&project, init);
        if self.initialized {
            forward(&project, Notification::new("initialized".to_owned(), json!({})));
            for path in self.docs.paths() {
                if !path.starts_with(&project.root) {
                    continue;
                }
                let Some(doc) = self.docs.get(path) else { continue };
                let open = json!({ "textDocument": {
                    "uri": path_to_uri(path), "languageId": "rust", "version": doc.version, "text": doc.text,
                }});
                forward(&project, Notification::new("textDocument/didOpen".to_owned(), open));
            }
        }
        tracing::info!("serving the cargo project at {}", project.root.display());
        self.projects.push(project);
    }

    /// Shuts a project's server down and takes back what it published.
    fn stop(&mut self, number: usize) {
        let Some(at) = self.projects.iter().position(|p| p.number == number) else { return };
        let project = self.projects.remove(at);
        tracing::info!("no longer serving the cargo project at {}", project.root.display());
        let shutdown =
            Request::new(RequestId::from(PROJECT_SHUTDOWN_ID.to_owned()), "shutdown".to_owned(), Value::Null);
        forward(&project, shutdown);
        forward(&project, Notification::new("exit".to_owned(), Value::Null));
        for uri in &project.published {
            self.notify("textDocument/publishDiagnostics", json!({ "uri": uri, "diagnostics": [] }));
        }
        let finished: Vec<String> = self
            .fan_outs
            .iter_mut()
            .filter_map(|(id, fan)| (fan.waiting.remove(&number) && fan.waiting.is_empty()).then(|| id.clone()))
            .collect();
        for id in finished {
            self.finish_fan_out(&id);
        }
    }

    /// The project whose root holds `path` (the deepest, when roots nest).
    fn project_of(&self, path: &Path) -> Option<&Project> {
        self.projects.iter().filter(|p| path.starts_with(&p.root)).max_by_key(|p| p.root.components().count())
    }

    fn project_of_uri(&self, params: &Value) -> Option<&Project> {
        let uri = params.get("textDocument")?.get("uri")?.as_str()?;
        let path = uri_to_path(&uri.parse().ok()?)?;
        self.project_of(&path)
    }

    // ---- from the client ----

    fn on_client_message(&mut self, message: Incoming) -> Option<i32> {
        match message {
            Incoming::Message(Message::Request(req)) => self.client_request(req),
            Incoming::Message(Message::Notification(n)) => return self.client_notification(n),
            Incoming::Message(Message::Response(resp)) => self.client_response(resp),
            Incoming::Malformed { id, code, message } => answer_malformed(&self.out, id, code, message),
        }
        None
    }

    fn client_request(&mut self, req: Request) {
        if req.method == "shutdown" {
            self.shutdown = true;
        }
        if req.params.get("textDocument").is_some() {
            match self.project_of_uri(&req.params) {
                Some(project) => forward(project, req),
                None => send(
                    &self.out,
                    Response::new_err(
                        req.id,
                        ErrorCode::InvalidParams as i32,
                        "not a file of a cargo project this server serves".to_owned(),
                    ),
                ),
            }
            return;
        }
        if req.method == "workspace/executeCommand" && req.params["command"] == SERVED_PROJECTS_COMMAND {
            let roots: Vec<Value> = self.projects.iter().map(|p| json!({ "root": p.root })).collect();
            send(&self.out, Response::new_ok(req.id, roots));
            return;
        }
        if self.projects.is_empty() {
            let response = match req.method.as_str() {
                "shutdown" => Response::new_ok(req.id, Value::Null),
                other => Response::new_err(
                    req.id,
                    ErrorCode::MethodNotFound as i32,
                    format!("unknown method {other} (no cargo project is served)"),
                ),
            };
            send(&self.out, response);
            return;
        }
        self.next_id += 1;
        let id = format!("{FAN_OUT_PREFIX}{}", self.next_id);
        let waiting = self.projects.iter().map(|p| p.number).collect();
        self.fan_outs.insert(id.clone(), FanOut { client_id: req.id, waiting, answer: None });
        for project in &self.projects {
            forward(project, Request::new(RequestId::from(id.clone()), req.method.clone(), req.params.clone()));
        }
    }

    fn client_notification(&mut self, n: Notification) -> Option<i32> {
        match n.method.as_str() {
            "exit" => {
                self.exiting.store(true, Ordering::Relaxed);
                for project in &self.projects {
                    forward(project, Notification::new("exit".to_owned(), Value::Null));
                }
                return Some(if self.shutdown { 0 } else { 1 });
            }
            "initialized" => {
                self.initialized = true;
                self.to_every_project(&n);
                self.watch_manifests();
                self.pull_configuration();
            }
            "textDocument/didOpen" | "textDocument/didChange" | "textDocument/didClose" => {
                self.note_document(&n);
                if let Some(project) = self.project_of_uri(&n.params) {
                    forward(project, n);
                }
            }
            "workspace/didChangeConfiguration" => {
                self.to_every_project(&n);
                match n.params.get("settings").and_then(Settings::from_json) {
                    Some((settings, _)) => self.take_linked(settings.linked_projects),
                    None => self.pull_configuration(),
                }
            }
            "workspace/didChangeWorkspaceFolders" => {
                if let Ok(params) = serde_json::from_value::<DidChangeWorkspaceFoldersParams>(n.params) {
                    let removed: Vec<PathBuf> =
                        params.event.removed.iter().filter_map(|f| uri_to_path(&f.uri)).collect();
                    self.folders.retain(|folder| !removed.contains(folder));
                    for folder in params.event.added.iter().filter_map(|f| uri_to_path(&f.uri)) {
                        if !self.folders.contains(&folder) {
                            self.folders.push(folder);
                        }
                    }
                    self.reconcile();
                }
            }
            "workspace/didChangeWatchedFiles" => self.watched_files(n),
            _ if n.params.get("textDocument").is_some() => {
                if let Some(project) = self.project_of_uri(&n.params) {
                    forward(project, n);
                }
            }
            _ => self.to_every_project(&n),
        }
        None
    }

    /// Keeps the open files' text, for projects that start later.
    fn note_document(&mut self, n: &Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params.clone()) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        self.docs.open(path, p.text_document.text, p.text_document.version);
                    }
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params.clone()) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        let _ = self.docs.change(&path, p.text_document.version, p.content_changes);
                    }
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params.clone()) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        self.docs.close(&path);
                    }
                }
            }
            _ => {}
        }
    }

    /// Each project gets the changes under its root; a Cargo.toml that comes or
    /// goes may make or end a project.
    fn watched_files(&mut self, n: Notification) {
        let changes = n.params.get("changes").and_then(Value::as_array).cloned().unwrap_or_default();
        let mut by_project: HashMap<usize, Vec<Value>> = HashMap::new();
        let mut manifests = false;
        for change in changes {
            let path = change.get("uri").and_then(Value::as_str).and_then(|uri| uri_to_path(&uri.parse().ok()?));
            let Some(path) = path else { continue };
            manifests |= path.file_name().is_some_and(|name| name == "Cargo.toml");
            if let Some(project) = self.project_of(&path) {
                by_project.entry(project.number).or_default().push(change);
            }
        }
        for project in &self.projects {
            if let Some(changes) = by_project.remove(&project.number) {
                let params = json!({ "changes": changes });
                forward(project, Notification::new(n.method.clone(), params));
            }
        }
        if manifests {
            self.reconcile();
        }
    }

    fn take_linked(&mut self, linked: Vec<PathBuf>) {
        if linked != self.linked {
            self.linked = linked;
            self.reconcile();
        }
    }

    /// Asks a client that can watch files for the Cargo.toml files that come and go:
    /// a project made after the session started (or in a folder with none yet) is
    /// then served.
    fn watch_manifests(&mut self) {
        if !self.caps.watch_files {
            return;
        }
        self.next_id += 1;
        let id = RequestId::from(format!("{SESSION_REQUEST_PREFIX}{}", self.next_id));
        let registration = json!({
            "id": "noalloc-projects-watch",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": { "watchers": [{ "globPattern": "**/Cargo.toml" }] },
        });
        send(
            &self.out,
            Request::new(id, "client/registerCapability".to_owned(), json!({ "registrations": [registration] })),
        );
    }

    /// Asks the client for the `noalloc` settings (for `linkedProjects`).
    fn pull_configuration(&mut self) {
        if !self.caps.configuration {
            return;
        }
        self.next_id += 1;
        let id = RequestId::from(format!("{SESSION_REQUEST_PREFIX}{}", self.next_id));
        let params = json!({ "items": [{ "section": "noalloc" }] });
        send(&self.out, Request::new(id, "workspace/configuration".to_owned(), params));
    }

    fn client_response(&mut self, mut resp: Response) {
        let Some(id) = id_text(&resp.id) else { return };
        if id.starts_with(SESSION_REQUEST_PREFIX) {
            let first = resp.result.as_ref().and_then(Value::as_array).and_then(|a| a.first());
            if let Some((settings, _)) = first.and_then(Settings::from_json) {
                self.take_linked(settings.linked_projects);
            }
            return;
        }
        // A project's request: the first project's ids are its own, the others'
        // carry `@number`.
        let (own, number) = match id.rsplit_once('@') {
            Some((own, number)) => (own.to_owned(), number.parse().unwrap_or(usize::MAX)),
            None => (id, 0),
        };
        if let Some(project) = self.projects.iter().find(|p| p.number == number) {
            resp.id = RequestId::from(own);
            forward(project, resp);
        }
    }

    fn to_every_project(&self, n: &Notification) {
        for project in &self.projects {
            forward(project, n.clone());
        }
    }

    // ---- from the projects ----

    fn on_project_message(&mut self, number: usize, message: Outgoing) {
        if !self.projects.iter().any(|p| p.number == number) {
            return; // a project since stopped
        }
        let message = match message {
            Outgoing::Message(message) => message,
            error @ Outgoing::ErrorWithoutId { .. } => {
                let _ = self.out.send(error);
                return;
            }
        };
        match message {
            Message::Response(resp) => self.project_response(number, resp),
            Message::Request(mut req) => {
                if number > 0 {
                    if let Some(id) = id_text(&req.id) {
                        req.id = RequestId::from(format!("{id}@{number}"));
                    }
                    apart(number, &req.method, &mut req.params);
                }
                send(&self.out, req);
            }
            Message::Notification(mut n) => {
                match n.method.as_str() {
                    "experimental/serverStatus" => {
                        if let Some(project) = self.projects.iter_mut().find(|p| p.number == number) {
                            project.status = Some(n.params);
                        }
                        self.send_status();
                        return;
                    }
                    "textDocument/publishDiagnostics" => {
                        let uri = n.params.get("uri").and_then(Value::as_str).unwrap_or_default().to_owned();
                        let empty = n.params.get("diagnostics").and_then(Value::as_array).is_none_or(Vec::is_empty);
                        if let Some(project) = self.projects.iter_mut().find(|p| p.number == number) {
                            if empty {
                                project.published.remove(&uri);
                            } else {
                                project.published.insert(uri);
                            }
                        }
                    }
                    _ => {}
                }
                if number > 0 {
                    apart(number, &n.method, &mut n.params);
                }
                send(&self.out, n);
            }
        }
    }

    fn project_response(&mut self, number: usize, resp: Response) {
        let Some(id) = id_text(&resp.id) else {
            send(&self.out, resp);
            return;
        };
        if id == PROJECT_INIT_ID || id == PROJECT_SHUTDOWN_ID {
            return;
        }
        if let Some(fan) = self.fan_outs.get_mut(&id) {
            fan.waiting.remove(&number);
            if fan.answer.is_none() || number == 0 {
                fan.answer = Some(resp);
            }
            if fan.waiting.is_empty() {
                self.finish_fan_out(&id);
            }
            return;
        }
        send(&self.out, resp);
    }

    fn finish_fan_out(&mut self, id: &str) {
        let Some(fan) = self.fan_outs.remove(id) else { return };
        let mut answer = fan.answer.unwrap_or_else(|| Response::new_ok(fan.client_id.clone(), Value::Null));
        answer.id = fan.client_id;
        send(&self.out, answer);
    }

    /// rust-analyzer's `experimental/serverStatus` for the session: a single
    /// project's as it is; several merged (the worst health, quiescent when every
    /// one is, their messages by folder); none: the search's message.
    fn send_status(&mut self) {
        if !self.caps.server_status {
            return;
        }
        let statuses: Vec<(&Path, Option<&Value>)> =
            self.projects.iter().map(|p| (p.root.as_path(), p.status.as_ref())).collect();
        let Some(status) = merged_status(&statuses, self.nothing_found.as_deref()) else { return };
        if self.last_status.as_ref() != Some(&status) {
            self.notify("experimental/serverStatus", &status);
            self.last_status = Some(status);
        }
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        send(&self.out, Notification::new(method.to_owned(), params));
    }
}

/// The session's `experimental/serverStatus` from its projects' (root, latest
/// status): none, an error with the search's message; one, its status as it is
/// (`None` until it sends one); several, the worst health, quiescent when every
/// one is, and their messages by root.
fn merged_status(projects: &[(&Path, Option<&Value>)], nothing_found: Option<&str>) -> Option<Value> {
    match projects {
        [] => Some(json!({ "health": "error", "quiescent": true, "message": nothing_found })),
        [(_, only)] => only.cloned(),
        several => {
            let healths: Vec<&str> =
                several.iter().map(|(_, s)| s.and_then(|s| s["health"].as_str()).unwrap_or("ok")).collect();
            let health = ["error", "warning"].into_iter().find(|h| healths.contains(h)).unwrap_or("ok");
            let quiescent = several.iter().all(|(_, s)| s.is_some_and(|s| s["quiescent"] == true));
            let messages: Vec<String> = several
                .iter()
                .filter_map(|(root, s)| Some(format!("{}: {}", root.display(), (*s)?.get("message")?.as_str()?)))
                .collect();
            let message = (!messages.is_empty()).then(|| messages.join("; "));
            Some(json!({ "health": health, "quiescent": quiescent, "message": message }))
        }
    }
}

fn forward(project: &Project, message: impl Into<Message>) {
    // A server that ended (after `exit`) takes nothing more; nothing to do then.
    let _ = project.to_server.send(Incoming::Message(message.into()));
}

/// Keeps what project `number` (not the first) names towards the client apart from
/// the other projects': its progress token and its watcher registrations.
fn apart(number: usize, method: &str, params: &mut Value) {
    match method {
        "$/progress" | "window/workDoneProgress/create" => {
            if let Some(token) = params.get("token").and_then(Value::as_str) {
                params["token"] = Value::String(format!("{token}/{number}"));
            }
        }
        "client/registerCapability" => {
            if let Some(registrations) = params.get_mut("registrations").and_then(Value::as_array_mut) {
                for registration in registrations {
                    if let Some(id) = registration.get("id").and_then(Value::as_str) {
                        registration["id"] = Value::String(format!("{id}@{number}"));
                    }
                }
            }
        }
        _ => {}
    }
}

/// A string request id's text (ids the session and the servers make are strings).
fn id_text(id: &RequestId) -> Option<String> {
    match serde_json::to_value(id).ok()? {
        Value::String(text) => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_project_s_status_is_its_own_and_several_are_merged() {
        let (a, b) = (Path::new("/w/a"), Path::new("/w/b"));
        let busy = json!({ "health": "ok", "quiescent": false, "message": null });
        let done = json!({ "health": "ok", "quiescent": true, "message": null });
        let broken = json!({ "health": "error", "quiescent": true, "message": "no std source" });
        assert_eq!(merged_status(&[(a, None)], None), None);
        assert_eq!(merged_status(&[(a, Some(&busy))], None), Some(busy.clone()));
        assert_eq!(
            merged_status(&[(a, Some(&done)), (b, None)], None),
            Some(json!({ "health": "ok", "quiescent": false, "message": null }))
        );
        assert_eq!(
            merged_status(&[(a, Some(&done)), (b, Some(&broken))], None),
            Some(json!({ "health": "error", "quiescent": true, "message": "/w/b: no std source" }))
        );
        assert_eq!(
            merged_status(&[], Some("no Cargo.toml in /w")),
            Some(json!({ "health": "error", "quiescent": true, "message": "no Cargo.toml in /w" }))
        );
    }

    #[test]
    fn a_later_project_s_token_ids_and_registrations_are_its_own() {
        let mut progress = json!({ "token": "noalloc/analysis", "value": { "kind": "begin" } });
        apart(2, "$/progress", &mut progress);
        assert_eq!(progress["token"], "noalloc/analysis/2");
        let mut registration = json!({ "registrations": [{ "id": "noalloc-watch", "method": "m" }] });
        apart(2, "client/registerCapability", &mut registration);
        assert_eq!(registration["registrations"][0]["id"], "noalloc-watch@2");
        assert_eq!(id_text(&RequestId::from("noalloc-3".to_owned())).as_deref(), Some("noalloc-3"));
        assert_eq!(id_text(&RequestId::from(3)), None);
    }
}
