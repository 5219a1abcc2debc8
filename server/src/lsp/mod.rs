//! The language server: LSP over stdio in front of the engine. Owns the protocol —
//! the main loop, open documents, settings, and the translation of the engine's
//! plain answers into diagnostics, hovers, code lenses and code actions. Decides
//! nothing about allocation; that is the engine's (`crate::engine`).
//!
//! Layout, in the manner of rust-analyzer's `rust-analyzer` crate:
//! - `transport`: framing on stdio that survives malformed input;
//! - `initialize`: the handshake, the server's and the client's capabilities;
//! - `discovery`: the cargo projects of the workspace folders (or `linkedProjects`);
//! - `projects`: one server per project, the client's messages routed to them;
//! - `main_loop`: one project's event loop, the server's state, publishing, progress;
//! - `handlers`: the requests' and notifications' handlers;
//! - `tasks`: loading and analysis off the loop, their results taken in turn;
//! - `documents`: open files, incremental edits, UTF-16 positions, URIs;
//! - `settings`: `initializationOptions` / `didChangeConfiguration`;
//! - `to_proto`: `Analysis` -> diagnostics, hover, code lens;
//! - `actions`: the code actions' text edits (syntax only);
//! - `adoption`: the baseline and exemptions list applied to the diagnostics.

mod actions;
mod adoption;
mod discovery;
mod documents;
mod handlers;
mod initialize;
mod main_loop;
mod projects;
mod settings;
mod tasks;
mod to_proto;
mod transport;

pub use settings::{Settings, Severity};

/// Serves LSP on stdin and stdout until the client sends `exit` or goes away.
/// Returns the process's exit status: 0 after `shutdown` then `exit`, 1 otherwise
/// (as the LSP specification asks).
pub fn run() -> i32 {
    crate::engine::note_panic_locations();
    let (sender, receiver, io) = transport::stdio();
    let code = projects::serve(sender, receiver);
    if let Err(err) = io.join_writer() {
        tracing::error!("writing to stdout: {err}");
    }
    code
}
