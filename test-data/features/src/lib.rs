//! Roots that exist only with a feature or on a target, and directives written as
//! attributes.

/// A root in the attribute form; it allocates.
#[noalloc::root]
pub fn attributed(count: usize) -> usize {
    let scratch = vec![0u8; count];
    scratch.len()
}

/// Clean in any build.
#[noalloc::root]
pub fn always(bytes: &[u8]) -> usize {
    bytes.len()
}

/// Checked only with `--features gated`.
#[cfg(feature = "gated")]
#[noalloc::root]
pub fn gated(name: &str) -> usize {
    let owned = name.to_owned();
    owned.len()
}

/// Checked only for a 32-bit target (`--target i686-unknown-linux-gnu`).
#[cfg(target_pointer_width = "32")]
// noalloc:root
pub fn narrow(values: &[u32]) -> usize {
    let copied = values.to_vec();
    copied.len()
}

/// An exemption in the attribute form, on an item: it covers the whole item.
#[noalloc::exempt(measured, "built once, when the table is first read")]
pub static TABLE: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(|| vec![1, 2, 3]);

/// A root whose helper is exempted by an attribute: clean, although the helper
/// allocates on a later line than its signature.
#[noalloc::root]
pub fn exempted_helper(len: usize) -> usize {
    warm_up(len)
}

/// The attribute covers the whole fn, as `#[allow(..)]` would.
#[noalloc::exempt(measured, "runs once, at start-up")]
fn warm_up(len: usize) -> usize {
    let table = vec![0u8; len];
    table.len()
}

/// The same helper without the attribute: reported.
#[noalloc::root]
pub fn unexempted_helper(len: usize) -> usize {
    cold_start(len)
}

fn cold_start(len: usize) -> usize {
    let table = vec![1u8; len];
    table.len()
}

/// What runs depends on the profile: `cfg(debug_assertions)` code in dev and test
/// builds (checked by default, as `cargo check` sees it), `cfg(not(..))` code in
/// release builds (checked with `--release`).
// noalloc:root
pub fn profiled(len: usize) -> usize {
    #[cfg(debug_assertions)]
    let checked = vec![2u8; len].len();
    #[cfg(not(debug_assertions))]
    let checked = format!("{len}").len();
    checked
}

/// `debug_assert!` runs in dev and test builds, where it proves the room it
/// states; in release builds it does not run, and the pushes may grow.
// noalloc:root
pub fn room_after_debug_assert(v: &mut Vec<u32>) {
    debug_assert!(v.capacity() - v.len() >= 2);
    v.push(1);
    v.push(2);
}
