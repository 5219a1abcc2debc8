//! The headless checker (`noalloc-ls --check`): loads a workspace, runs the engine,
//! weighs the findings against the team's adoption files (baseline, exemptions
//! list), and prints them as rustc-style text, one line each (`short`), cargo's
//! JSON stream, noalloc's JSON lines, SARIF or an HTML page, ending with an exit
//! status: 0 clean, 1 findings or errors, 2 could not run. `args` is the command
//! line both binaries share, `explain` the text of each finding code, `report` what
//! is printed, `render` how: one module a format (`human`, `short`, `cargo_json`,
//! `noalloc_json`, `sarif`, `html`); `progress` what a terminal sees meanwhile.

mod args;
mod cargo_json;
mod cargo_packages;
pub mod explain;
mod html;
mod human;
mod noalloc_json;
mod progress;
mod render;
mod report;
mod sarif;
mod short;

pub use args::{check_options, parse, parse_from, run_check, CargoSelection, CheckArgs, CheckFlags, OutputFlags};
pub use render::{render, render_report};
pub use report::Report;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::adoption::baseline::{self, Baseline};
use crate::adoption::exemptions_file::{self, ExemptionsList};
use crate::adoption::settings::AdoptionFiles;
use crate::adoption::{allowlist, SourceLines};
use crate::cross_check::{self, CrossCheck};
use crate::engine::stored_analysis::Stored;
use crate::engine::{self, AllowEntry, AllowSource, Analysis, CheckConfig, Finding, LoadOptions, Location, Workspace};
use render::plural;

/// The format a report is printed in. On the command line (`--message-format`)
/// each has its name, and the bare `json` is the binary's own JSON: see `Frontend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MessageFormat {
    /// `human`: rustc-style text, the source line underlined.
    #[default]
    Human,
    /// `short`: one line a finding, `path:line: function: reasons`.
    Short,
    /// `noalloc-json`: noalloc's own JSON lines, findings with their chains, errors,
    /// then a summary (`noalloc-ls --check --message-format json`).
    NoallocJson,
    /// `cargo-json`: cargo's JSON stream, `compiler-message` lines with rustc's
    /// diagnostics and a `compiler-artifact` per checked target, then
    /// `build-finished` (`cargo noalloc --message-format json`):
    /// what rust-analyzer's `check.overrideCommand` reads.
    CargoJson,
    /// `sarif`: SARIF 2.1.0, for code scanning (GitHub, GitLab, Azure DevOps).
    Sarif,
    /// `html`: one self-contained HTML page, a summary by crate and module, each
    /// root's verdict, each finding with its chain, the exemptions.
    Html,
}

/// Which binary reads the command line: `noalloc-ls --check` or `cargo noalloc`.
/// They take the same flags, and differ in one thing only: what the bare
/// `--message-format json` means, each binary's own family's JSON. For
/// `noalloc-ls` it is noalloc's JSON lines (`noalloc-json`), as the product spec
/// has it; for `cargo noalloc` it is cargo's stream (`cargo-json`), as
/// `cargo check --message-format json` prints it, so that rust-analyzer's
/// `check.overrideCommand: ["cargo", "noalloc", "--message-format", "json"]`
/// works. Each binary names its frontend when it parses (`cli::parse`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frontend {
    /// `noalloc-ls --check`.
    NoallocLs,
    /// `cargo noalloc` (`cargo-noalloc noalloc ...`).
    CargoNoalloc,
}

/// How much the checker says on stderr (`-q`, `-v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Verbosity {
    /// Errors only.
    Quiet,
    /// Warnings and what `--start`/`--prune`/`--write-exemptions` wrote.
    #[default]
    Normal,
    /// Also the workspace's loading, step by step.
    Verbose,
}

/// How findings are printed.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    pub format: MessageFormat,
    /// Under each finding, the chain of calls down to the allocation.
    pub report: bool,
    pub color: bool,
}

/// Everything `--check` takes.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub path: PathBuf,
    pub render: RenderOptions,
    /// `--html FILE`: also write the HTML report there (atomically).
    pub html_report: Option<PathBuf>,
    pub timings: bool,
    pub verbosity: Verbosity,
    /// `-p NAME`: report only the findings in these packages; all when empty.
    pub packages: Vec<String>,
    pub load: LoadOptions,
    pub config: CheckConfig,
    pub adoption: AdoptionOptions,
    /// `--cross-check`: also hold each root's verdict against the compiled program
    /// (`cross-check = true` in the metadata turns it on too).
    pub cross_check: bool,
    /// The process exits once `run` returns (the binaries): the loaded workspace
    /// is left to the exit rather than freed, which takes 4 % of a cold check.
    pub exit_after: bool,
}

/// The workspace a check loaded, freed when dropped unless the process is about to
/// exit (`CheckOptions::exit_after`).
struct Loaded {
    ws: Option<Workspace>,
    exit_after: bool,
}

impl std::ops::Deref for Loaded {
    type Target = Workspace;
    fn deref(&self) -> &Workspace {
        self.ws.as_ref().expect("taken only when dropped")
    }
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if self.exit_after {
            std::mem::forget(self.ws.take());
        }
    }
}

/// The adoption files a check uses, and whether it (re)writes them instead of
/// checking against them.
#[derive(Debug, Clone, Default)]
pub struct AdoptionOptions {
    /// From the flags; Cargo.toml fills what they leave unset.
    pub files: AdoptionFiles,
    /// `--start`: record today's findings as the baseline.
    pub start_baseline: bool,
    /// `--prune`: drop the baseline entries no finding matches any more.
    pub prune_baseline: bool,
    /// `--write-exemptions`: write the exemptions list from the code.
    pub write_exemptions: bool,
}

/// Exit statuses, as cargo and clippy use them.
pub const EXIT_CLEAN: i32 = 0;
pub const EXIT_FOUND: i32 = 1;
pub const EXIT_COULD_NOT_RUN: i32 = 2;

/// Logs to stderr, rust-analyzer's own only on request: `NOALLOC_LOG=info`.
pub fn init_logging() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("NOALLOC_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("noalloc_ls=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
}

/// Prints a command-line error (or `--help`, `--version`) as clap words it; returns
/// the exit status: 2 for a bad flag or value, 0 for help.
pub fn clap_error(err: &clap::Error) -> i32 {
    let _ = err.print();
    if err.use_stderr() {
        EXIT_COULD_NOT_RUN
    } else {
        EXIT_CLEAN
    }
}

/// Runs the check and writes the output; returns the exit status.
pub fn run(options: &CheckOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let started = Instant::now();
    let verbose = options.verbosity == Verbosity::Verbose;
    // Verbose prints the load's steps as lines; quiet prints nothing.
    let mut terminal = progress::TerminalProgress::on_stderr(options.verbosity == Verbosity::Normal);
    let load_step = |message: String| {
        if verbose {
            eprintln!("noalloc: {message}");
        }
        terminal.load_step(&message);
    };
    let packages = match package_dirs(&options.path, &options.packages) {
        Ok(packages) => packages,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return EXIT_COULD_NOT_RUN;
        }
    };
    let ws = match Workspace::load(&options.path, &options.load, &load_step) {
        Ok(ws) => Loaded { ws: Some(ws), exit_after: options.exit_after },
        Err(error) => {
            terminal.finish();
            let _ = writeln!(err, "error: {error}");
            return EXIT_COULD_NOT_RUN;
        }
    };
    let load_ms = started.elapsed().as_millis();
    let prepared = options
        .config
        .clone()
        .with_manifest(&ws.root)
        .and_then(|config| Ok((config, options.adoption.files.clone().with_manifest(&ws.root)?)))
        .and_then(|(config, files)| Adoption::prepare(&options.adoption, files, config));
    let (adoption, config) = match prepared {
        Ok(prepared) => prepared,
        Err(message) => {
            terminal.finish();
            let _ = writeln!(err, "error: {message}");
            return EXIT_COULD_NOT_RUN;
        }
    };
    terminal.checking();
    let analysis = analysis_of(&ws, &config, &mut terminal, err);
    terminal.finish();
    let Some(analysis) = analysis else {
        return EXIT_COULD_NOT_RUN;
    };
    let analysis = only_in_packages(analysis, &packages);
    let total_ms = started.elapsed().as_millis();
    let quiet = options.verbosity == Verbosity::Quiet;
    for warning in ws.load_warnings().iter().filter(|_| !quiet) {
        let _ = writeln!(err, "warning: {warning}");
    }
    for file in analysis.files_with_syntax_errors.iter().filter(|_| !quiet) {
        let _ = writeln!(err, "warning: {} has syntax errors; findings there may be incomplete", ws.display_path(file));
    }
    if options.timings && analysis.timings.reused {
        let unchanged = match analysis.timings.edited_files_unread {
            0 => "nothing changed since the stored analysis".to_owned(),
            1 => "the edits of 1 file changed nothing the stored analysis read".to_owned(),
            n => format!("the edits of {n} files changed nothing the stored analysis read"),
        };
        let _ = writeln!(
            err,
            "timings: load {load_ms} ms, {unchanged} (fingerprint {} ms), total {total_ms} ms",
            analysis.timings.fingerprint_ms
        );
    } else if options.timings {
        let _ = writeln!(
            err,
            "timings: load {load_ms} ms, analysis {} ms (name resolution {} ms, roots {} ms, reach {} ms of which inference {} ms, {} roots walked ahead on a second core, judge {} ms, summaries {} ms; {} bodies walked, {} summaries from cache, {} cached), total {total_ms} ms",
            analysis.timings.analysis_ms,
            analysis.timings.name_resolution_ms,
            analysis.timings.roots_ms,
            analysis.timings.reach_ms,
            analysis.timings.inference_ms,
            analysis.timings.roots_walked_ahead,
            analysis.timings.judge_ms,
            analysis.timings.summaries_ms,
            analysis.timings.bodies_walked,
            analysis.timings.cache_hits,
            analysis.timings.cache_entries
        );
        if analysis.timings.roots_stored > 0 {
            let files = match analysis.timings.stored_edited_files {
                1 => "1 file".to_owned(),
                n => format!("{n} files"),
            };
            let _ = writeln!(
                err,
                "timings: the edits of {files} changed function bodies: {} of {} roots' outcomes reused from the stored analysis",
                analysis.timings.roots_reused_stored, analysis.timings.roots_stored
            );
        }
        for cost in &analysis.timings.costliest_roots {
            let _ =
                writeln!(err, "timings: root {} took {} ms, reaching {} functions", cost.root, cost.ms, cost.functions);
        }
    }
    if adoption.writes() {
        return match adoption.write(&ws.root, &analysis) {
            Ok(said) => {
                for line in said.iter().filter(|_| !quiet) {
                    let _ = writeln!(err, "noalloc: {line}");
                }
                EXIT_CLEAN
            }
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                EXIT_COULD_NOT_RUN
            }
        };
    }
    let cross_checked = match cross_check_if_asked(options, &ws.root, &analysis, &config.allow, err) {
        Ok(cross_checked) => cross_checked,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return EXIT_COULD_NOT_RUN;
        }
    };
    let mut report = adoption.report(&ws.root, &analysis, &config.allow);
    if let Some(cross_checked) = &cross_checked {
        report.add_cross_check(cross_checked);
    }
    let rendered = render_report(&ws, &report, &options.render, total_ms);
    let _ = out.write_all(rendered.as_bytes());
    if let Some(path) = &options.html_report {
        let page = render_report(
            &ws,
            &report,
            &RenderOptions { format: MessageFormat::Html, ..options.render.clone() },
            total_ms,
        );
        if let Err(error) = crate::stdx::write_atomically(path, page.as_bytes()) {
            let _ = writeln!(err, "error: could not write the HTML report to {}: {error}", path.display());
            return EXIT_COULD_NOT_RUN;
        }
    }
    if report.findings.is_empty() && report.errors().is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_FOUND
    }
}

/// The analysis of the workspace: the stored one when nothing it reads changed
/// since a run with the same settings stored it, else worked out (and stored).
/// `None`, with the reason written to `err`, when `--root` patterns stop the check.
fn analysis_of(
    ws: &Workspace,
    config: &CheckConfig,
    terminal: &mut progress::TerminalProgress,
    err: &mut dyn Write,
) -> Option<Analysis> {
    let store = engine::AnalysisStore::open(ws, config);
    let mut standing = None;
    match store.as_ref().and_then(|store| Some((store, store.load(ws)?))) {
        Some((store, Stored::Whole(mut analysis))) => {
            analysis.timings = engine::Timings {
                reused: true,
                fingerprint_ms: store.fingerprint_ms,
                edited_files_unread: analysis.timings.edited_files_unread,
                ..Default::default()
            };
            return Some(analysis);
        }
        Some((_, Stored::Partly(roots))) => standing = Some(roots),
        None => {}
    }
    // Patterns that match nothing stop the check before any root is walked (and
    // so an analysis is stored only for patterns that all match).
    let problems = if config.roots.is_empty() { Default::default() } else { engine::root_pattern_problems(ws, config) };
    if problems != Default::default() {
        terminal.finish();
    }
    if !problems.unmatched.is_empty() {
        let patterns: Vec<String> = problems.unmatched.iter().map(|p| format!("`{p}`")).collect();
        let _ = writeln!(
            err,
            "error: --root {} matches no function of the workspace or of a crate it depends on (write a crate-qualified path, e.g. `krate::module::Type::method` or `memchr::memchr`; `*` matches anything)",
            patterns.join(", ")
        );
    }
    for message in &problems.bad_arguments {
        let _ = writeln!(err, "error: {message}");
    }
    if problems != Default::default() {
        return None;
    }
    let mut analysis = match (&store, standing) {
        (Some(store), Some(standing)) => {
            engine::analyze_reusing_stored(ws, config, Some(&mut store.summaries()), standing, terminal)
        }
        (Some(store), None) => engine::analyze_watched(ws, config, Some(&mut store.summaries()), None, terminal),
        (None, _) => engine::analyze_watched(ws, config, None, None, terminal),
    };
    if let Some(store) = &store {
        analysis.timings.fingerprint_ms = store.fingerprint_ms;
        if let Err(error) = store.store(ws, &analysis) {
            let _ = writeln!(err, "warning: could not store the analysis in {}: {error}", store.path().display());
        }
    }
    Some(analysis)
}

/// The directories of the packages `-p` names, each with the directories of the
/// workspace's other packages nested in it (whose files are theirs, not its).
/// Empty when none is named. A name that is not a workspace package is an error
/// listing the ones there are.
fn package_dirs(root: &Path, names: &[String]) -> Result<Vec<PackageDir>, String> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let out = args::cargo_output(root, &["metadata", "--no-deps", "--format-version", "1"])?;
    let metadata: serde_json::Value =
        serde_json::from_slice(&out).map_err(|err| format!("cargo metadata's output: {err}"))?;
    let all: Vec<(String, PathBuf)> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|package| {
            let name = package["name"].as_str()?.to_owned();
            let dir = Path::new(package["manifest_path"].as_str()?).parent()?.to_path_buf();
            Some((name, dir))
        })
        .collect();
    names
        .iter()
        .map(|name| {
            let (_, dir) = all.iter().find(|(candidate, _)| candidate == name).ok_or_else(|| {
                let known: Vec<&str> = all.iter().map(|(name, _)| name.as_str()).collect();
                format!("package `{name}` is not in the workspace (its packages: {})", known.join(", "))
            })?;
            let nested = all
                .iter()
                .map(|(_, other)| other)
                .filter(|other| *other != dir && other.starts_with(dir))
                .cloned()
                .collect();
            Ok(PackageDir { dir: dir.clone(), nested })
        })
        .collect()
}

/// A package's directory, less the packages nested inside it.
struct PackageDir {
    dir: PathBuf,
    nested: Vec<PathBuf>,
}

impl PackageDir {
    fn holds(&self, file: &Path) -> bool {
        file.starts_with(&self.dir) && !self.nested.iter().any(|nested| file.starts_with(nested))
    }
}

/// The analysis of the packages `-p` names: their findings, errors, roots and
/// exemptions. Everything when none is named.
fn only_in_packages(mut analysis: Analysis, packages: &[PackageDir]) -> Analysis {
    if packages.is_empty() {
        return analysis;
    }
    let kept = |location: &Location| packages.iter().any(|package| package.holds(&location.file));
    analysis.findings.retain(|finding| kept(&finding.location));
    analysis.errors.retain(|error| kept(&error.location));
    analysis.roots.retain(|root| kept(&root.location));
    analysis.exemptions.retain(|exemption| kept(&exemption.location));
    analysis
}

/// Runs the cross-check when the flag or the manifest asks for it.
fn cross_check_if_asked(
    options: &CheckOptions,
    root: &Path,
    analysis: &Analysis,
    allow: &[AllowEntry],
    err: &mut dyn Write,
) -> Result<Option<CrossCheck>, String> {
    if !options.cross_check && !cross_check::enabled_in_manifest(root)? {
        return Ok(None);
    }
    let cross_checked = cross_check::run(root, analysis, allow)?;
    if options.timings {
        let timings = &cross_checked.timings;
        let _ = writeln!(
            err,
            "timings: cross-check build {} ms, graph {} ms ({} functions in the program)",
            timings.build_ms, timings.graph_ms, timings.functions_in_program
        );
    }
    Ok(Some(cross_checked))
}

/// The adoption files of one check, read before the analysis so that a bad one
/// stops the check at once.
struct Adoption {
    options: AdoptionOptions,
    files: AdoptionFiles,
    baseline: Option<Baseline>,
    exemptions: Option<ExemptionsList>,
}

impl Adoption {
    /// Reads the files the check compares against and puts the allowlist (built-in,
    /// then the file's lines) into `config`.
    fn prepare(
        options: &AdoptionOptions,
        files: AdoptionFiles,
        mut config: CheckConfig,
    ) -> Result<(Adoption, CheckConfig), String> {
        let needs = |flag: &str, file: &Option<std::path::PathBuf>, setting: &str| {
            match file {
            Some(_) => Ok(()),
            None => Err(format!("{flag} needs {setting}: give `--{setting} FILE` or set `{setting} = \"FILE\"` in [workspace.metadata.noalloc]")),
        }
        };
        if options.start_baseline {
            needs("--start", &files.baseline, "baseline")?;
        }
        if options.prune_baseline {
            needs("--prune", &files.baseline, "baseline")?;
        }
        if options.write_exemptions {
            needs("--write-exemptions", &files.exemptions, "exemptions")?;
        }
        config.allow = allowlist::with_file(files.allow.as_deref()).map_err(|err| err.to_string())?;
        let baseline = match &files.baseline {
            Some(path) if !options.start_baseline => Some(Baseline::read(path).map_err(|err| err.to_string())?),
            _ => None,
        };
        let exemptions = match &files.exemptions {
            Some(path) if !options.write_exemptions => Some(ExemptionsList::read(path).map_err(|err| err.to_string())?),
            _ => None,
        };
        Ok((Adoption { options: options.clone(), files, baseline, exemptions }, config))
    }

    /// Whether the check writes files (and exits 0) rather than checking.
    fn writes(&self) -> bool {
        self.options.start_baseline || self.options.prune_baseline || self.options.write_exemptions
    }

    /// Writes what `--start`, `--prune` and `--write-exemptions` ask for; returns a
    /// line saying what each wrote.
    fn write(&self, root: &Path, analysis: &Analysis) -> Result<Vec<String>, String> {
        let mut said = Vec::new();
        if let Some(path) = &self.files.baseline {
            let current = baseline_entries(root, &analysis.findings);
            if self.options.start_baseline {
                baseline::write(path, &current).map_err(|err| err.to_string())?;
                said.push(format!("recorded {} finding{} in {}", current.len(), plural(current.len()), path.display()));
            } else if let (true, Some(recorded)) = (self.options.prune_baseline, &self.baseline) {
                let comparison = baseline::compare(recorded, &current);
                baseline::write(path, &comparison.kept).map_err(|err| err.to_string())?;
                let pruned = comparison.stale.len();
                said.push(format!(
                    "pruned {pruned} stale entr{} from {}, kept {}",
                    if pruned == 1 { "y" } else { "ies" },
                    path.display(),
                    comparison.kept.len()
                ));
            }
        }
        if let (true, Some(path)) = (self.options.write_exemptions, &self.files.exemptions) {
            exemptions_file::write(path, root, &analysis.exemptions).map_err(|err| err.to_string())?;
            let count = analysis.exemptions.len();
            said.push(format!("wrote {count} exemption{} to {}", plural(count), path.display()));
        }
        Ok(said)
    }

    /// The analysis less what the baseline accepts, with the disagreements between
    /// the code and the baseline or exemptions list.
    fn report<'a>(&self, root: &Path, analysis: &'a Analysis, allow: &'a [AllowEntry]) -> Report<'a> {
        let mut report = Report::of(analysis);
        report.unused_allow = analysis
            .unused_allow
            .iter()
            .filter_map(|&index| allow.get(index))
            .filter(|entry| matches!(entry.source, AllowSource::File { .. }))
            .collect();
        if let Some(recorded) = &self.baseline {
            let comparison = baseline::compare(recorded, &baseline_entries(root, &analysis.findings));
            report.baselined = Some(comparison.baselined());
            report.findings = analysis
                .findings
                .iter()
                .zip(&comparison.listed)
                .filter(|(_, listed)| !**listed)
                .map(|(f, _)| f)
                .collect();
            report.disagreements.extend(comparison.stale);
        }
        if let Some(list) = &self.exemptions {
            report.disagreements.extend(exemptions_file::compare(list, root, &analysis.exemptions));
        }
        report
    }
}

fn baseline_entries(root: &Path, findings: &[Finding]) -> Vec<baseline::Entry> {
    let mut lines = SourceLines::default();
    findings.iter().map(|finding| baseline::Entry::of(root, finding, &mut lines)).collect()
}
#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::render::Paths;
    use super::short::render as render_short;
    use super::*;

    /// Until the engine fills `unused_allow`, the checker's side of `--report` is
    /// checked here on an analysis made by hand.
    #[test]
    fn report_names_the_unused_allow_file_lines_but_not_built_in_ones() {
        let mut allow = allowlist::built_in();
        let file_entry = |line| AllowEntry {
            kind: "debug".into(),
            path: "app::trace".into(),
            source: AllowSource::File { file: "/ws/noalloc/allow.txt".into(), line },
        };
        allow.extend([file_entry(2), file_entry(5)]);
        let analysis = Analysis { unused_allow: vec![0, allow.len() - 1], ..Analysis::default() };
        let adoption = Adoption {
            options: AdoptionOptions::default(),
            files: AdoptionFiles::default(),
            baseline: None,
            exemptions: None,
        };
        let report = adoption.report(Path::new("/ws"), &analysis, &allow);
        let options = RenderOptions { format: MessageFormat::Short, report: true, color: false };
        assert_eq!(
            render_short(&Paths { root: Path::new("/ws") }, &report, &options),
            "noalloc/allow.txt:5: allowlist line no check used: debug: app::trace\n"
        );
    }
}
