//! `noalloc-ls`: with `--check`, the headless checker; otherwise the language server
//! on stdio (`--stdio`, which VS Code's client appends, is accepted).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use noalloc_ls::adoption::settings::AdoptionFiles;
use noalloc_ls::cli::{self, AdoptionOptions, CheckOptions, MessageFormat, RenderOptions};
use noalloc_ls::engine::{CheckConfig, LoadOptions};

#[derive(Parser, Debug)]
#[command(name = "noalloc-ls", version, about = "Finds every heap allocation reachable from `// noalloc:root` functions")]
struct Args {
    /// Check the workspace once and exit: 0 clean, 1 findings, 2 could not run.
    #[arg(long)]
    check: bool,
    /// The workspace to check (the directory holding Cargo.toml).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Serve LSP over stdio (the default when --check is absent).
    #[arg(long)]
    stdio: bool,
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    /// Under each finding, the chain of calls down to the allocation.
    #[arg(long)]
    report: bool,
    /// Also check this function as a root (crate-qualified path, `*` wildcards). Repeatable.
    #[arg(long = "root", value_name = "PATH")]
    roots: Vec<String>,
    /// Don't run build scripts or proc macros (for untrusted workspaces).
    #[arg(long)]
    no_build_scripts: bool,
    /// Print where the time went.
    #[arg(long)]
    timings: bool,
    /// Don't read or write the on-disk summaries of std and dependencies.
    #[arg(long)]
    no_cache: bool,
    /// Exemptions of this kind cover only their line, not what it calls. Repeatable.
    #[arg(long = "line-only", value_name = "KIND")]
    line_only: Vec<String>,
    /// Types whose fields are long-lived buffers (`krate::m::Type`). Repeatable.
    #[arg(long = "scratch", value_name = "PATH::Type")]
    scratch: Vec<String>,
    /// Allowlist file: lines `amortized|measured|debug|profiling: path::to::function`.
    #[arg(long, value_name = "FILE")]
    allow: Option<PathBuf>,
    /// Baseline file: fail only on findings it does not list, and on listed ones that are gone.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// With a baseline: record today's findings in it and exit.
    #[arg(long, conflicts_with = "prune")]
    start: bool,
    /// With a baseline: drop its entries that no finding matches any more, and exit.
    #[arg(long)]
    prune: bool,
    /// Exemptions list: fail when the code's exemptions, or what they let through, differ from it.
    #[arg(long, value_name = "FILE")]
    exemptions: Option<PathBuf>,
    /// With an exemptions list: write it from the code and exit.
    #[arg(long)]
    write_exemptions: bool,
    /// Also build the roots as one optimised program and hold each verdict against
    /// the compiled call graph (slow: a fat-LTO build).
    #[arg(long)]
    cross_check: bool,
    /// Colour: auto, always, never.
    #[arg(long, default_value = "auto")]
    color: String,
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            // rust-analyzer's own logs only on request: `NOALLOC_LOG=info`.
            tracing_subscriber::EnvFilter::try_from_env("NOALLOC_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("noalloc_ls=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(err) => {
            let code = if err.use_stderr() { cli::EXIT_COULD_NOT_RUN } else { cli::EXIT_CLEAN };
            let _ = err.print();
            return ExitCode::from(code as u8);
        }
    };
    if !args.check {
        // No arguments or `--stdio`: the language server.
        return ExitCode::from(noalloc_ls::lsp::run() as u8);
    }
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::IsTerminal::is_terminal(&std::io::stdout()),
    };
    let options = CheckOptions {
        path: args.path,
        render: RenderOptions { format: args.message_format, report: args.report, color },
        timings: args.timings,
        load: LoadOptions { build_scripts: !args.no_build_scripts, std_source: None },
        config: CheckConfig {
            roots: args.roots,
            cache_dir: if args.no_cache { None } else { noalloc_ls::engine::default_cache_dir() },
            line_only: args.line_only,
            scratch: args.scratch,
            ..CheckConfig::default()
        },
        adoption: AdoptionOptions {
            files: AdoptionFiles { allow: args.allow, baseline: args.baseline, exemptions: args.exemptions },
            start_baseline: args.start,
            prune_baseline: args.prune,
            write_exemptions: args.write_exemptions,
        },
        cross_check: args.cross_check,
    };
    let code = cli::run(&options, &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
    ExitCode::from(code as u8)
}
