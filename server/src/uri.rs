//! `file://` URIs of paths, spelled one way for every front end: the language
//! server names files with them, the CLI's SARIF log too, and clients (tests,
//! benchmarks) build theirs with them. Knows nothing of LSP or the engine.

use std::path::Path;

/// The text of the `file://` URI of an absolute path, percent-encoding every byte
/// outside the unreserved set. Clients (tests, benchmarks) build URIs with it too,
/// so they name files exactly as the server does.
pub fn file_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}
