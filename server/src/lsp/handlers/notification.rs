//! The handlers of the client's notifications: `initialized`, the text documents'
//! open, change, save and close, configuration changes and watched files. They put
//! text into the loaded workspace and say when to reload or analyze again (a new
//! generation); the main loop does the rest.

use std::path::Path;

use lsp_types::{
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWatchedFilesRegistrationOptions, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, FileChangeType, FileSystemWatcher, GlobPattern, MessageType, Registration,
    RegistrationParams,
};

use super::to_json;
use crate::lsp::documents::uri_to_path;
use crate::lsp::main_loop::{Pending, Phase, Server};
use crate::lsp::settings::Settings;

pub(crate) fn on_initialized(server: &mut Server) {
    if server.caps.watch_files {
        let watchers = ["**/Cargo.toml", "**/Cargo.lock", "**/*.rs"]
            .into_iter()
            .map(|glob| FileSystemWatcher { glob_pattern: GlobPattern::String(glob.to_owned()), kind: None })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "noalloc-watch".to_owned(),
            method: "workspace/didChangeWatchedFiles".to_owned(),
            register_options: Some(to_json(options)),
        };
        server.request(
            "client/registerCapability",
            RegistrationParams { registrations: vec![registration] },
            Pending::Ignore,
        );
    }
    pull_configuration(server);
}

fn pull_configuration(server: &mut Server) {
    if server.caps.configuration {
        let params = lsp_types::ConfigurationParams {
            items: vec![lsp_types::ConfigurationItem { scope_uri: None, section: Some("noalloc".to_owned()) }],
        };
        server.request("workspace/configuration", params, Pending::Configuration);
    }
}

pub(crate) fn did_open(server: &mut Server, params: DidOpenTextDocumentParams) {
    let Some(path) = uri_to_path(&params.text_document.uri) else {
        return;
    };
    server.docs.open(path.clone(), params.text_document.text.clone(), params.text_document.version);
    push_text(server, &path, &params.text_document.text, true);
}

pub(crate) fn did_change(server: &mut Server, params: DidChangeTextDocumentParams) {
    let Some(path) = uri_to_path(&params.text_document.uri) else {
        return;
    };
    let text = match server.docs.change(&path, params.text_document.version, params.content_changes) {
        Ok(doc) => doc.text.clone(),
        Err(err) => {
            tracing::warn!("didChange: {err}");
            return;
        }
    };
    push_text(server, &path, &text, false);
}

pub(crate) fn did_save(server: &mut Server, params: DidSaveTextDocumentParams) {
    let Some(path) = uri_to_path(&params.text_document.uri) else {
        return;
    };
    if is_manifest(&path) {
        server.reload_wanted = true;
    }
}

pub(crate) fn did_close(server: &mut Server, params: DidCloseTextDocumentParams) {
    let Some(path) = uri_to_path(&params.text_document.uri) else {
        return;
    };
    server.docs.close(&path);
    // The database goes back to what is on disk.
    if let Ok(text) = std::fs::read_to_string(&path) {
        push_text(server, &path, &text, false);
    }
}

/// Puts a file's text into the database; a change bumps the generation (which
/// also makes any running analysis stale: salsa cancels it).
fn push_text(server: &mut Server, path: &Path, text: &str, opened: bool) {
    let Phase::Loaded { live, .. } = &mut server.phase else {
        return;
    };
    match live.set_file_text(path, text) {
        Ok(true) => server.generation += 1,
        Ok(false) => {}
        Err(err) => {
            // A new .rs file of the workspace: only a reload puts it in the database.
            let ours = path.extension().is_some_and(|e| e == "rs")
                && path.starts_with(live.root())
                && !path.components().any(|c| c.as_os_str() == "target");
            if opened && ours {
                tracing::info!("{err}; reloading the workspace");
                server.reload_wanted = true;
            }
        }
    }
}

pub(crate) fn did_change_configuration(server: &mut Server, params: DidChangeConfigurationParams) {
    match Settings::from_json(&params.settings) {
        Some((settings, bad)) => {
            if !bad.is_empty() {
                server.show_message(
                    MessageType::WARNING,
                    format!("noalloc: could not read the settings {}", bad.join(", ")),
                );
            }
            apply_settings(server, settings);
        }
        None => pull_configuration(server),
    }
}

/// Takes new settings: a reload when they change what is loaded, else a new
/// generation.
pub(crate) fn apply_settings(server: &mut Server, settings: Settings) {
    if settings == server.settings {
        return;
    }
    let reload = server.settings.needs_reload(&settings);
    server.settings = settings;
    if reload {
        server.reload_wanted = true;
    } else {
        server.generation += 1;
    }
}

pub(crate) fn did_change_watched_files(server: &mut Server, params: DidChangeWatchedFilesParams) {
    for change in params.changes {
        let Some(path) = uri_to_path(&change.uri) else {
            continue;
        };
        if is_manifest(&path) {
            server.reload_wanted = true;
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") || server.docs.get(&path).is_some() {
            continue; // open files follow the editor, not the disk
        }
        match change.typ {
            FileChangeType::CHANGED => {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    push_text(server, &path, &text, false);
                }
            }
            _ => {
                let known = matches!(&server.phase, Phase::Loaded { live, .. } if live.knows(&path));
                let created = change.typ == FileChangeType::CREATED;
                if created != known && path.starts_with(server.root.as_deref().unwrap_or(Path::new("/"))) {
                    server.reload_wanted = true;
                }
            }
        }
    }
}

fn is_manifest(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "Cargo.toml" || n == "Cargo.lock")
}
