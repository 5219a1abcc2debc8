//! What a terminal sees while a check runs: cargo-style progress on stderr (the
//! phase, then `57/145 roots` with a bar), drawn only when stderr is a terminal
//! and the check is neither quiet nor verbose, and cleared before anything else is
//! printed. Hears the engine through what it already tells a front end: the load's
//! progress messages and `engine::Watch::root_judged`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::{Analysis, Watch};

/// Progress on stderr, or nothing (`TerminalProgress::hidden`).
pub(super) struct TerminalProgress {
    bar: Option<ProgressBar>,
}

impl TerminalProgress {
    /// Drawn when `wanted` and stderr is a terminal.
    pub(super) fn on_stderr(wanted: bool) -> TerminalProgress {
        if !wanted || !std::io::stderr().is_terminal() {
            return TerminalProgress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(phase_style());
        bar.set_prefix("Loading");
        bar.set_message("the workspace");
        bar.enable_steady_tick(Duration::from_millis(120));
        TerminalProgress { bar: Some(bar) }
    }

    /// A step of the load, as rust-analyzer's loader words it.
    pub(super) fn load_step(&self, step: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(step.trim().to_owned());
        }
    }

    /// The roots are being found and judged.
    pub(super) fn checking(&self) {
        if let Some(bar) = &self.bar {
            bar.set_prefix("Checking");
            bar.set_message("the roots");
        }
    }

    /// Clears the line: the output and the warnings follow.
    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for TerminalProgress {
    fn drop(&mut self) {
        self.finish();
    }
}

impl Watch for TerminalProgress {
    fn first_files(&self) -> &[PathBuf] {
        &[]
    }

    fn root_judged(&mut self, judged: usize, total: usize) {
        let Some(bar) = &self.bar else { return };
        if bar.length().is_none() {
            bar.disable_steady_tick();
            bar.set_style(roots_style());
        }
        bar.set_length(total as u64);
        bar.set_position(judged as u64);
    }

    fn files_complete(&mut self, _: &[PathBuf], _: &Analysis) {}
}

/// `     Loading metadata` with a spinner, as cargo's `Updating`/`Locking` lines.
fn phase_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>12.cyan.bold} {msg} {spinner}")
        .expect("a valid template")
        .tick_chars("|/-\\ ")
}

/// `    Checking [=======>          ] 57/145 roots`, as cargo's `Building` line.
fn roots_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>12.cyan.bold} [{bar:27}] {pos}/{len} roots")
        .expect("a valid template")
        .progress_chars("=> ")
}
