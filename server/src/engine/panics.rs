//! Panics caught while checking: what was said and where, and which of them are
//! salsa's cancellations (an edit) that must unwind on. A panic on one root costs
//! that root an error finding, never the run (`Analyzer::run`); the panic hook
//! installed here notes where each panic happened, since a caught payload
//! carries only the message. The tests' hooks that make an analysis or one
//! root's check panic live here too.

use std::any::Any;
use std::cell::RefCell;
use std::sync::Once;

use base_db::salsa::Cancelled;

/// A panic caught while checking, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaughtPanic {
    pub message: String,
    /// `file:line:column` of the `panic!` (ours or rust-analyzer's), when known.
    pub location: Option<String>,
}

impl std::fmt::Display for CaughtPanic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{} (at {location})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// What a caught unwind was.
pub enum Unwound {
    /// An edit cancelled the work (salsa's `Cancelled`, a pending write): raise it
    /// again, the caller's caller starts over.
    Cancelled(Box<dyn Any + Send>),
    /// A query this thread waited for panicked on another thread; asked again
    /// here, it may give the panic's own message (or an answer).
    PanicElsewhere,
    /// A panic on this thread.
    Panicked(CaughtPanic),
}

thread_local! {
    static LAST_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Notes where each panic happens (for `caught`), then does what the hook before
/// did (printing it, by default). Installed once per process.
pub fn note_panic_locations() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            LAST_LOCATION.with(|last| *last.borrow_mut() = location);
            before(info);
        }));
    });
}

/// Tells what `payload`, caught on this thread, was.
pub fn classify(payload: Box<dyn Any + Send>) -> Unwound {
    match payload.downcast::<Cancelled>() {
        Ok(cancelled) => match *cancelled {
            Cancelled::PropagatedPanic => Unwound::PanicElsewhere,
            _ => Unwound::Cancelled(cancelled),
        },
        Err(payload) => Unwound::Panicked(CaughtPanic {
            message: message_of(&*payload),
            location: LAST_LOCATION.with(|last| last.borrow_mut().take()),
        }),
    }
}

/// The message a panic was raised with.
pub fn message_of(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// With `NOALLOC_PANIC_ON_ROOT=name` in the environment, checking the root whose
/// path ends in `name` panics (`name:N`: the first N times only): how the tests
/// show that one root's panic costs that root only, and that a later analysis
/// checks it again. Unset, this does nothing.
pub fn inject_root_panic_for_tests(root_name: &str) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static TARGET: std::sync::OnceLock<Option<(String, u64)>> = std::sync::OnceLock::new();
    static TIMES: AtomicU64 = AtomicU64::new(0);
    let target = TARGET.get_or_init(|| {
        let value = std::env::var("NOALLOC_PANIC_ON_ROOT").ok().filter(|t| !t.is_empty())?;
        Some(match value.rsplit_once(':').and_then(|(name, n)| Some((name, n.parse().ok()?))) {
            Some((name, times)) => (name.to_owned(), times),
            None => (value, u64::MAX),
        })
    });
    if let Some((name, times)) = target {
        if root_name.ends_with(name.as_str()) && TIMES.fetch_add(1, Ordering::SeqCst) < *times {
            panic!("injected by NOALLOC_PANIC_ON_ROOT");
        }
    }
}

/// With `NOALLOC_INJECT_ANALYSIS_PANICS=N` in the environment, the first N analyses
/// of the process panic: how the protocol tests check that a panic in analysis is
/// caught and survived. Unset, this does nothing.
pub fn inject_analysis_panic_for_tests() {
    use std::sync::atomic::{AtomicI64, Ordering};
    static LEFT: AtomicI64 = AtomicI64::new(i64::MIN);
    let _ = LEFT.compare_exchange(
        i64::MIN,
        std::env::var("NOALLOC_INJECT_ANALYSIS_PANICS").ok().and_then(|n| n.parse().ok()).unwrap_or(0),
        Ordering::SeqCst,
        Ordering::SeqCst,
    );
    if LEFT.fetch_sub(1, Ordering::SeqCst) > 0 {
        panic!("injected by NOALLOC_INJECT_ANALYSIS_PANICS");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caught_panic_says_what_and_where() {
        note_panic_locations();
        let payload = std::panic::catch_unwind(|| panic!("boom {}", 7)).unwrap_err();
        let Unwound::Panicked(caught) = classify(payload) else { panic!("not a panic") };
        assert_eq!(caught.message, "boom 7");
        assert!(caught.location.as_deref().is_some_and(|l| l.contains("panics.rs")), "{caught:?}");
    }

    #[test]
    fn cancellations_are_told_apart() {
        let pending = Box::new(Cancelled::PendingWrite) as Box<dyn Any + Send>;
        assert!(matches!(classify(pending), Unwound::Cancelled(_)));
        let elsewhere = Box::new(Cancelled::PropagatedPanic) as Box<dyn Any + Send>;
        assert!(matches!(classify(elsewhere), Unwound::PanicElsewhere));
    }
}
