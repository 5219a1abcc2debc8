//! The `initialize` handshake: what the server can do (its capabilities), what the
//! client can do (`ClientCaps`), and which folder holds the workspace. The session
//! (`projects`) answers the client's; each project's server gets its own, naming its
//! project's folder. Owns nothing after the handshake.

use std::path::{Path, PathBuf};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{ErrorCode, Message, Response};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions, ExecuteCommandOptions,
    HoverProviderCapability, InitializeParams, InitializeResult, OneOf, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};

use super::documents::uri_to_path;
use super::main_loop::{answer_malformed, send};
use super::transport::{Incoming, Outgoing};

/// The `workspace/executeCommand` that answers with the cargo projects the session
/// serves, `[{ "root": "/abs/dir" }, ...]`: an editor's "check the workspace" runs
/// the checker on each.
pub(super) const SERVED_PROJECTS_COMMAND: &str = "noalloc.servedProjects";

/// What the client can do, from `initialize`.
#[derive(Default)]
pub(super) struct ClientCaps {
    pub(super) work_done_progress: bool,
    pub(super) configuration: bool,
    pub(super) code_lens_refresh: bool,
    pub(super) watch_files: bool,
    pub(super) server_status: bool,
}

/// The `initialize` handshake. Requests before it get `ServerNotInitialized`.
pub(super) fn initialize(out: &Sender<Outgoing>, incoming: &Receiver<Incoming>) -> Option<InitializeParams> {
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
                    Err(err) => send(out, Response::new_err(req.id, ErrorCode::InvalidParams as i32, err.to_string())),
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
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            will_save: None,
            will_save_wait_until: None,
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::SOURCE]),
            work_done_progress_options: Default::default(),
            resolve_provider: None,
        })),
        code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![SERVED_PROJECTS_COMMAND.to_owned()],
            work_done_progress_options: Default::default(),
        }),
        // Every folder of a multi-root workspace is served (`projects`), and its
        // changes followed.
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

pub(super) fn client_caps(params: &InitializeParams) -> ClientCaps {
    let caps = &params.capabilities;
    let workspace = caps.workspace.as_ref();
    ClientCaps {
        work_done_progress: caps.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false),
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
pub(super) fn workspace_folder(params: &InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = params.workspace_folders.as_ref().and_then(|f| f.first()) {
        return uri_to_path(&folder.uri);
    }
    if let Some(uri) = &params.root_uri {
        return uri_to_path(uri);
    }
    params.root_path.as_ref().map(PathBuf::from).or_else(|| std::env::current_dir().ok())
}

/// The folder itself when it holds a Cargo.toml, else the nearest ancestor that does.
pub(super) fn find_cargo_root(folder: &Path) -> Option<PathBuf> {
    folder.ancestors().find(|dir| dir.join("Cargo.toml").is_file()).map(Path::to_path_buf)
}
