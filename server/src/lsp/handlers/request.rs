//! The handlers of the client's requests: hover, code lenses and code actions, each
//! answered from the last published analysis and the current text. They read the
//! server's state and change none of it.

use std::path::{Path, PathBuf};

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeLensParams, Diagnostic, Hover,
    HoverContents, HoverParams, MarkupContent, MarkupKind, NumberOrString, Range, Uri, WorkspaceEdit,
};

use super::{invalid_params, HandlerError};
use crate::engine::FindingKind;
use crate::lsp::actions;
use crate::lsp::documents::{self, uri_to_path};
use crate::lsp::main_loop::Server;
use crate::lsp::to_proto::{self, Texts, SOURCE};

/// The path and current text of a file the client asks about.
fn file_of(server: &Server, uri: &Uri) -> Result<(PathBuf, String), HandlerError> {
    let path = uri_to_path(uri).ok_or_else(|| invalid_params(format!("not a file URI: {}", uri.as_str())))?;
    let text = match server.docs.get(&path) {
        Some(doc) => doc.text.clone(),
        None => std::fs::read_to_string(&path)
            .map_err(|err| invalid_params(format!("unknown file {}: {err}", path.display())))?,
    };
    Ok((path, text))
}

pub(crate) fn hover(server: &Server, params: HoverParams) -> Result<Option<Hover>, HandlerError> {
    let position = params.text_document_position_params;
    let (path, _) = file_of(server, &position.text_document.uri)?;
    let Some(analysis) = &server.analysis else {
        return Ok(None);
    };
    let lookup = |p: &Path| server.text_of(p);
    let mut texts = Texts::new(&lookup, server.root.as_deref());
    Ok(to_proto::hover(analysis, &path, position.position, &mut texts).map(|(markdown, range)| Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: markdown }),
        range: Some(range),
    }))
}

pub(crate) fn code_lenses(server: &Server, params: CodeLensParams) -> Result<Vec<lsp_types::CodeLens>, HandlerError> {
    let (path, _) = file_of(server, &params.text_document.uri)?;
    let Some(analysis) = &server.analysis else {
        return Ok(Vec::new());
    };
    let lookup = |p: &Path| server.text_of(p);
    let mut texts = Texts::new(&lookup, server.root.as_deref());
    Ok(to_proto::code_lenses(analysis, &path, &mut texts))
}

pub(crate) fn code_actions(
    server: &Server,
    params: CodeActionParams,
) -> Result<Vec<CodeActionOrCommand>, HandlerError> {
    let uri = params.text_document.uri.clone();
    let (path, text) = file_of(server, &uri)?;
    let wanted = |kind: &CodeActionKind| match &params.context.only {
        None => true,
        Some(only) => {
            only.iter().any(|o| kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str())))
        }
    };
    let mut out = Vec::new();
    let edit_action =
        |title: String, kind: CodeActionKind, edits: Vec<lsp_types::TextEdit>, diagnostic: Option<&Diagnostic>| {
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
    let mut findings: Vec<Diagnostic> =
        params.context.diagnostics.iter().filter(|d| d.source.as_deref() == Some(SOURCE)).cloned().collect();
    if findings.is_empty() {
        if let Some(published) = server.published.get(&path) {
            findings.extend(published.iter().filter(|d| overlaps(d.range, params.range)).cloned());
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
            if code == FindingKind::MayGrow.code() {
                if let Some(edit) = actions::capacity_guard_edit(&file, &text, diagnostic.range) {
                    out.push(edit_action(
                        "Reserve capacity: grow only when there is room".into(),
                        CodeActionKind::QUICKFIX,
                        vec![edit],
                        Some(diagnostic),
                    ));
                }
                if let Some((field, edit)) = actions::with_capacity_edit(&file, &text, diagnostic.range) {
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
            let already_root = actions::is_marked_root(&func) || is_root_at(server, &path, &text, &func);
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
fn is_root_at(server: &Server, path: &Path, text: &str, func: &ra_ap_syntax::ast::Fn) -> bool {
    use ra_ap_syntax::AstNode;
    let Some(analysis) = &server.analysis else {
        return false;
    };
    let Some(name) = ra_ap_syntax::ast::HasName::name(func) else {
        return false;
    };
    let line = documents::position(text, name.syntax().text_range().start().into()).line + 1;
    analysis.roots.iter().any(|r| r.location.file == path && r.location.line == line)
}

fn overlaps(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}
