//! The command line that `noalloc-ls --check` and `cargo noalloc` share: cargo's
//! conventions for choosing the workspace, packages, features and target, the output
//! flags, and the check's own flags. Turns them into `CheckOptions`; running the
//! check is `cli::run`'s business.

use std::path::{Path, PathBuf};

use crate::adoption::settings::AdoptionFiles;
use crate::engine::load::Features;
use crate::engine::std_source::{find_tool, Tool};
use crate::engine::{CheckConfig, LoadOptions};

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use super::{AdoptionOptions, CheckOptions, Frontend, MessageFormat, RenderOptions, Verbosity};

/// Which workspace, packages, features and target: cargo's flags, with cargo's names.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CargoSelection {
    /// Path to Cargo.toml (of the workspace or of one of its packages).
    #[arg(long, value_name = "PATH", help_heading = "Package Selection")]
    pub manifest_path: Option<PathBuf>,
    /// Report only the findings in this package. Repeatable.
    #[arg(short = 'p', long = "package", value_name = "SPEC", help_heading = "Package Selection")]
    pub packages: Vec<String>,
    /// Report the findings of every package of the workspace (the default).
    #[arg(long, conflicts_with = "packages", help_heading = "Package Selection")]
    pub workspace: bool,
    /// Space or comma separated list of features to activate.
    #[arg(short = 'F', long, value_name = "FEATURES", help_heading = "Feature Selection")]
    pub features: Vec<String>,
    /// Activate all available features.
    #[arg(long, help_heading = "Feature Selection")]
    pub all_features: bool,
    /// Do not activate the `default` feature.
    #[arg(long, help_heading = "Feature Selection")]
    pub no_default_features: bool,
    /// Check for the target triple.
    #[arg(long, value_name = "TRIPLE", help_heading = "Compilation Options")]
    pub target: Option<String>,
    /// Check the release profile's cfgs (`debug_assertions` off) instead of the dev
    /// profile's.
    #[arg(short = 'r', long, help_heading = "Compilation Options")]
    pub release: bool,
    /// Threads for name resolution, and for walking ahead of the analysis on a
    /// second core (default: every core, up to 8; `-j 1`: one thread).
    #[arg(short = 'j', long, value_name = "N", help_heading = "Compilation Options")]
    pub jobs: Option<std::num::NonZeroUsize>,
}

impl CargoSelection {
    /// The features as the engine takes them; `--features "a b,c"` is three.
    pub fn features(&self) -> Features {
        Features {
            all: self.all_features,
            no_default: self.no_default_features,
            names: self
                .features
                .iter()
                .flat_map(|list| list.split([',', ' ']))
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect(),
        }
    }

    /// The workspace directory: `--manifest-path`'s, else `path` when given, else the
    /// workspace that holds the current directory, as `cargo locate-project` finds it.
    pub fn workspace_dir(&self, path: Option<&Path>) -> Result<PathBuf, String> {
        if let Some(manifest) = &self.manifest_path {
            if manifest.file_name().is_none_or(|name| name != "Cargo.toml") || !manifest.is_file() {
                return Err(format!("the manifest-path must be a path to a Cargo.toml file: {}", manifest.display()));
            }
            return Ok(locate_workspace(manifest.parent().unwrap_or(Path::new(".")))
                .unwrap_or_else(|_| manifest.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)));
        }
        match path {
            Some(path) => Ok(path.to_path_buf()),
            None => locate_workspace(Path::new(".")),
        }
    }
}

/// The root of the workspace that holds `dir` (`cargo locate-project --workspace`).
fn locate_workspace(dir: &Path) -> Result<PathBuf, String> {
    let out = cargo_output(dir, &["locate-project", "--workspace", "--message-format", "plain"])?;
    let manifest = PathBuf::from(String::from_utf8_lossy(&out).trim());
    Ok(manifest.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf))
}

/// What `cargo ARGS` prints in `dir`, or cargo's error.
pub(super) fn cargo_output(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let cargo = find_tool(Tool::Cargo)?;
    let out = std::process::Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|err| format!("could not run cargo: {err}"))?;
    if !out.status.success() {
        let message = String::from_utf8_lossy(&out.stderr);
        return Err(message.trim().trim_start_matches("error: ").to_owned());
    }
    Ok(out.stdout)
}

/// How the findings are printed, and how much else is said.
#[derive(clap::Args, Debug, Clone)]
pub struct OutputFlags {
    /// The output format. `json` is noalloc's JSON lines (`noalloc-json`) for
    /// `noalloc-ls --check`, cargo's JSON stream (`cargo-json`, what rust-analyzer's
    /// `check.overrideCommand` reads) for `cargo noalloc`.
    // The parser is `noalloc-ls`'s until `cli::parse` sets the binary's.
    #[arg(
        long,
        value_name = "FMT",
        default_value = "human",
        value_parser = Frontend::NoallocLs.message_format_parser()
    )]
    pub message_format: MessageFormat,
    /// Also write the report as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Coloring of the text output.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = clap::ColorChoice::Auto)]
    pub color: clap::ColorChoice,
    /// Under each finding, the chain of calls down to the allocation.
    #[arg(long)]
    pub report: bool,
    /// Say nothing on stderr but errors.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say what is being loaded, and where the time went.
    #[arg(short, long)]
    pub verbose: bool,
}

impl Frontend {
    /// What `--message-format NAME` means for this binary.
    pub fn message_format(self, name: &str) -> Option<MessageFormat> {
        Some(match name {
            "human" => MessageFormat::Human,
            "short" => MessageFormat::Short,
            "json" => match self {
                Frontend::NoallocLs => MessageFormat::NoallocJson,
                Frontend::CargoNoalloc => MessageFormat::CargoJson,
            },
            "noalloc-json" => MessageFormat::NoallocJson,
            "cargo-json" => MessageFormat::CargoJson,
            "sarif" => MessageFormat::Sarif,
            "html" => MessageFormat::Html,
            _ => return None,
        })
    }

    /// The values `--message-format` takes in this binary, with their help.
    fn message_formats(self) -> [PossibleValue; 7] {
        let json = match self {
            Frontend::NoallocLs => "noalloc's JSON lines, as `noalloc-json`",
            Frontend::CargoNoalloc => "cargo's JSON stream, as `cargo-json`",
        };
        [
            PossibleValue::new("human").help("rustc-style text, the source line underlined"),
            PossibleValue::new("short").help("one line a finding: `path:line: function: reasons`"),
            PossibleValue::new("json").help(json),
            PossibleValue::new("noalloc-json")
                .help("noalloc's JSON lines: findings with their chains, errors, a summary"),
            PossibleValue::new("cargo-json")
                .help("cargo's JSON stream: `compiler-message` lines with rustc's diagnostics, `compiler-artifact`s, `build-finished`"),
            PossibleValue::new("sarif").help("SARIF 2.1.0, for code scanning"),
            PossibleValue::new("html").help("one self-contained HTML page"),
        ]
    }

    /// `--message-format`'s parser in this binary: one of `message_formats`, and
    /// what it means here.
    pub fn message_format_parser(self) -> impl TypedValueParser<Value = MessageFormat> {
        PossibleValuesParser::new(self.message_formats())
            .map(move |name| self.message_format(&name).unwrap_or_else(|| unreachable!("`{name}` is a possible value")))
    }

    /// `command` with `--message-format` (wherever it is, the binary's own flags
    /// or a subcommand's) parsed as this binary's.
    fn command(self, command: clap::Command) -> clap::Command {
        let subcommands: Vec<String> = command.get_subcommands().map(|sub| sub.get_name().to_owned()).collect();
        let command = if command.get_arguments().any(|arg| arg.get_id() == "message_format") {
            command.mut_arg("message_format", |arg| arg.value_parser(self.message_format_parser()))
        } else {
            command
        };
        subcommands.iter().fold(command, |command, name| command.mut_subcommand(name, |sub| self.command(sub)))
    }
}

/// The command line of the binary `frontend` is, parsed into `P`: its flags with
/// `--message-format`'s names as `frontend` has them.
pub fn parse<P: clap::Parser>(frontend: Frontend) -> Result<P, clap::Error> {
    parse_from(frontend, std::env::args_os())
}

/// `parse`, of `args` (the binary's name first).
pub fn parse_from<P, I, T>(frontend: Frontend, args: I) -> Result<P, clap::Error>
where
    P: clap::Parser,
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut command = frontend.command(P::command());
    let mut matches = command.try_get_matches_from_mut(args)?;
    P::from_arg_matches_mut(&mut matches).map_err(|err| err.format(&mut command))
}

/// What to check and against which of the team's files.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckFlags {
    /// Also check this function as a root (crate-qualified path, `*` wildcards). Repeatable.
    #[arg(long = "root", value_name = "PATH")]
    pub roots: Vec<String>,
    /// Don't run build scripts or proc macros (for untrusted workspaces).
    #[arg(long)]
    pub no_build_scripts: bool,
    /// Print where the time went.
    #[arg(long)]
    pub timings: bool,
    /// Don't read or write the on-disk summaries of std and dependencies.
    #[arg(long)]
    pub no_cache: bool,
    /// Check what a panic path computes before it panics (only the panic call itself is cut).
    #[arg(long)]
    pub strict_panics: bool,
    /// Also hold each root's verdict against the compiled, optimised program.
    #[arg(long)]
    pub cross_check: bool,
    /// Exemptions of this kind cover only their line, not what it calls. Repeatable.
    #[arg(long = "line-only", value_name = "KIND")]
    pub line_only: Vec<String>,
    /// Types whose fields are long-lived buffers (`krate::m::Type`). Repeatable.
    #[arg(long = "scratch", value_name = "PATH::Type")]
    pub scratch: Vec<String>,
    /// Allowlist file: lines `amortized|measured|debug|profiling|growth: path::to::function`.
    #[arg(long, value_name = "FILE")]
    pub allow: Option<PathBuf>,
    /// Baseline file: fail only on findings it does not list, and on listed ones that are gone.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// With a baseline: record today's findings in it and exit.
    #[arg(long, conflicts_with = "prune")]
    pub start: bool,
    /// With a baseline: drop its entries that no finding matches any more, and exit.
    #[arg(long)]
    pub prune: bool,
    /// Exemptions list: fail when the code's exemptions, or what they let through, differ from it.
    #[arg(long, value_name = "FILE")]
    pub exemptions: Option<PathBuf>,
    /// With an exemptions list: write it from the code and exit.
    #[arg(long)]
    pub write_exemptions: bool,
    /// Print the explanation of a finding code (`allocation`, `may-grow`, ...) and exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
}

/// Everything a check takes on the command line, in either binary.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    #[command(flatten)]
    pub selection: CargoSelection,
    #[command(flatten)]
    pub output: OutputFlags,
    #[command(flatten)]
    pub flags: CheckFlags,
}

/// The options of one check of the workspace at `path`.
pub fn check_options(
    path: PathBuf,
    selection: &CargoSelection,
    output: &OutputFlags,
    flags: &CheckFlags,
) -> CheckOptions {
    let color = match output.color {
        clap::ColorChoice::Always => true,
        clap::ColorChoice::Never => false,
        clap::ColorChoice::Auto => std::io::IsTerminal::is_terminal(&std::io::stdout()),
    };
    let verbosity = match (output.quiet, output.verbose) {
        (true, _) => Verbosity::Quiet,
        (false, true) => Verbosity::Verbose,
        (false, false) => Verbosity::Normal,
    };
    CheckOptions {
        path,
        render: RenderOptions { format: output.message_format, report: output.report, color },
        html_report: output.html.clone(),
        timings: flags.timings || output.verbose,
        verbosity,
        packages: selection.packages.clone(),
        load: LoadOptions {
            build_scripts: !flags.no_build_scripts,
            std_source: None,
            features: selection.features(),
            target: selection.target.clone(),
            release: selection.release,
            defer_intrinsics: true,
            leave_out_proc_macro_dependencies: true,
        },
        config: CheckConfig {
            roots: flags.roots.clone(),
            cache_dir: if flags.no_cache { None } else { crate::engine::default_cache_dir() },
            line_only: flags.line_only.clone(),
            scratch: flags.scratch.clone(),
            strict_panics: flags.strict_panics,
            jobs: selection.jobs,
            ..CheckConfig::default()
        },
        adoption: AdoptionOptions {
            files: AdoptionFiles {
                allow: flags.allow.clone(),
                baseline: flags.baseline.clone(),
                exemptions: flags.exemptions.clone(),
            },
            start_baseline: flags.start,
            prune_baseline: flags.prune,
            write_exemptions: flags.write_exemptions,
        },
        exit_after: true,
        cross_check: flags.cross_check,
    }
}

/// What both binaries do once their flags are parsed: `--explain`, or the check of
/// the workspace at `path` (or the one `--manifest-path` or the current directory
/// is in). Returns the exit status. Runs on a thread with the stack every thread
/// that asks rust-analyzer has (`engine::analysis_thread`), not `main`'s 8 MiB; a
/// panic outside any one root's check (loading, name resolution) is exit 2 with
/// its message, never an abort. A root's own panic is that root's error finding.
pub fn run_check(path: Option<&Path>, args: &CheckArgs) -> i32 {
    crate::engine::note_panic_locations();
    let checked = std::thread::scope(|scope| {
        crate::engine::analysis_thread("noalloc-check")
            .spawn_scoped(scope, || run_check_here(path, args))
            .map(|thread| thread.join())
    });
    match checked {
        Ok(Ok(code)) => code,
        Ok(Err(payload)) => {
            let caught = crate::engine::caught_panic(payload);
            eprintln!("error: internal error, the check could not run: {caught}");
            super::EXIT_COULD_NOT_RUN
        }
        Err(err) => {
            eprintln!("error: could not start the checking thread: {err}");
            super::EXIT_COULD_NOT_RUN
        }
    }
}

fn run_check_here(path: Option<&Path>, args: &CheckArgs) -> i32 {
    let CheckArgs { selection, output, flags } = args;
    let stdout = &mut std::io::stdout().lock();
    // Not locked: `-v` prints rust-analyzer's progress from its loading threads.
    let stderr = &mut std::io::stderr();
    if let Some(code) = &flags.explain {
        return super::explain::run(code, stdout, stderr);
    }
    let dir = match selection.workspace_dir(path) {
        Ok(dir) => dir,
        Err(message) => {
            let _ = std::io::Write::write_fmt(stderr, format_args!("error: {message}\n"));
            return super::EXIT_COULD_NOT_RUN;
        }
    };
    super::run(&check_options(dir, selection, output, flags), stdout, stderr)
}
