//! Progress on stderr: drawn when stderr is a terminal (the check runs with a
//! pseudo-terminal as its stderr here), never when it is a pipe, never with `-q`.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};

use crate::cli::{noalloc, run};
use crate::test_data;

/// Runs `cmd` with a pseudo-terminal of 100 columns as its stderr; the exit status
/// and everything the terminal was sent.
fn with_terminal_stderr(cmd: &mut Command) -> (i32, String) {
    let (mut controller, mut terminal) = (-1, -1);
    let size = libc::winsize { ws_row: 24, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: openpty writes the two descriptors it opens into the two integers.
    let opened =
        unsafe { libc::openpty(&mut controller, &mut terminal, std::ptr::null_mut(), std::ptr::null(), &size) };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened, and are owned here alone.
    let (controller, terminal) = unsafe { (OwnedFd::from_raw_fd(controller), OwnedFd::from_raw_fd(terminal)) };
    let mut child = cmd.stdout(Stdio::null()).stderr(Stdio::from(terminal)).spawn().expect("noalloc-ls runs");
    // The child holds the terminal's only other end now: once it exits, reading
    // the controller ends (EIO on Linux).
    cmd.stderr(Stdio::null());
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut file = std::fs::File::from(controller);
        let mut buf = [0u8; 4096];
        while let Ok(n) = file.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&seen).into_owned()
    });
    let status = child.wait().unwrap();
    (status.code().expect("exited"), reader.join().unwrap())
}

/// What a terminal shows of `seen`, less its colours and line clearing.
fn without_escapes(seen: &str) -> String {
    let mut text = String::new();
    let mut chars = seen.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // `ESC [ parameters letter`
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            text.push(c);
        }
    }
    text
}

fn check_example(extra: &[&str]) -> Command {
    let path = test_data("example");
    let mut args = vec!["--check", path.to_str().unwrap(), "--no-cache", "--message-format", "short"];
    args.extend_from_slice(extra);
    noalloc(&args)
}

#[test]
fn a_terminal_sees_the_phase_and_the_roots_counted() {
    let (code, seen) = with_terminal_stderr(&mut check_example(&[]));
    assert_eq!(code, 1, "{seen}");
    let text = without_escapes(&seen);
    assert!(text.contains("     Loading querying project metadata"), "{text:?}");
    assert!(text.contains("    Checking [===========================] 2/2 roots"), "{text:?}");
    // Each line drawn over the last, and the last cleared, as cargo's.
    assert!(seen.ends_with("\r\x1b[2K"), "{seen:?}");
}

#[test]
fn quiet_draws_nothing_on_a_terminal() {
    let (code, seen) = with_terminal_stderr(&mut check_example(&["-q"]));
    assert_eq!(code, 1);
    assert_eq!(seen, "");
}

#[test]
fn a_pipe_gets_no_progress() {
    let (code, stdout, stderr) = run(&mut check_example(&[]));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "src/lib.rs:30: example::log_request: calls alloc::fmt::format\n");
    assert_eq!(stderr, "");
}
