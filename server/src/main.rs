//! `noalloc-ls`: with `--check`, the headless checker; otherwise the language server
//! on stdio (`--stdio`, which VS Code's client appends, is accepted). `--explain CODE`
//! prints what a finding code means.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use noalloc_ls::cli::{self, CheckArgs, Frontend};

noalloc_ls::install_allocator!();

#[derive(Parser, Debug)]
#[command(
    name = "noalloc-ls",
    version,
    about = "Finds every heap allocation reachable from `// noalloc:root` functions"
)]
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
    #[command(flatten)]
    check_args: CheckArgs,
}

fn main() -> ExitCode {
    cli::init_logging();
    // `--message-format json`: noalloc's own JSON lines (`noalloc-json`).
    let args = match cli::parse::<Args>(Frontend::NoallocLs) {
        Ok(args) => args,
        Err(err) => return ExitCode::from(cli::clap_error(&err) as u8),
    };
    if !args.check && args.check_args.flags.explain.is_none() {
        // No arguments or `--stdio`: the language server.
        return ExitCode::from(noalloc_ls::lsp::run() as u8);
    }
    let code = cli::run_check(Some(&args.path), &args.check_args);
    ExitCode::from(code as u8)
}
