//! `cargo noalloc`: the checker as a cargo subcommand, with cargo's flags
//! (`--manifest-path`, `-p`, `--features`, `--target`, `--message-format`, ...).
//! Cargo runs it as `cargo-noalloc noalloc <args>`. Its flags are `noalloc-ls
//! --check`'s but for `--message-format json`, which here is cargo's own JSON stream
//! (`cargo-json`), as `cargo check --message-format json` prints it, for
//! rust-analyzer's `check.overrideCommand` (noalloc's JSON lines: `noalloc-json`).

use std::process::ExitCode;

use clap::Parser;
use noalloc_ls::cli::{self, CheckArgs, Frontend};

noalloc_ls::install_allocator!();

#[derive(Parser, Debug)]
#[command(name = "cargo", bin_name = "cargo")]
enum Cargo {
    /// Finds every heap allocation reachable from `// noalloc:root` functions.
    #[command(name = "noalloc", version)]
    Noalloc(CheckArgs),
}

fn main() -> ExitCode {
    cli::init_logging();
    let Cargo::Noalloc(args) = match cli::parse::<Cargo>(Frontend::CargoNoalloc) {
        Ok(args) => args,
        Err(err) => return ExitCode::from(cli::clap_error(&err) as u8),
    };
    ExitCode::from(cli::run_check(None, &args) as u8)
}
