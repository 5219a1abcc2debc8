//! The allocator the binaries run on: mimalloc, told to commit memory as it is
//! used. Owns the choice and its setting;
//! `main` and `cargo-noalloc` install it (`#[global_allocator]`), the library and
//! its tests do not.
//!
//! Why not glibc's malloc: after names were resolved on several threads, every
//! later analysis in the language server took 10-15 % longer, and by chance of
//! which arena its thread drew (lsp_bench on `specifics`, side by side: analysis
//! p50 30 ms against 21 ms one-threaded). With mimalloc the server resolves names
//! on every core, as `--check` does, and edits cost what they cost on one thread
//! (19-23 ms). Why arenas are committed as used: with mimalloc's default (committed
//! eagerly) the server's peak was 1.18x rust-analyzer's own indexing of the
//! workspace; committed as used, 0.94-0.95x (`lsp_bench specifics`). Freed memory
//! is kept a second before it is purged, as by default: purged at once, the peak
//! was 0.93x but a cold `--check` of `specifics` took 10 % longer (2.4 s against
//! 2.15 s of analysis, one `madvise` per page freed) and the server's first
//! diagnostics came 0.2 s later.

use std::ffi::{c_int, c_long};

/// The allocator type to install.
pub type Allocator = mimalloc::MiMalloc;

/// mimalloc 3's `mi_option_t` values (libmimalloc-sys =0.1.49, `v3/include/mimalloc.h`).
const ARENA_EAGER_COMMIT: c_int = 4;

unsafe extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
    #[cfg(test)]
    fn mi_option_get(option: c_int) -> c_long;
}

/// Commit arena memory as it is touched. Must run before anything is allocated:
/// the first arena, reserved at the first allocation, keeps the setting it was
/// made with (set in `main`, the peak stayed 1.14x). `install!` runs it from the
/// loader's constructors, before `main`.
pub extern "C" fn configure() {
    // SAFETY: setting an option of the linked mimalloc, by its documented number.
    unsafe {
        mi_option_set(ARENA_EAGER_COMMIT, 0);
    }
}

/// Installs `Allocator` as the binary's allocator, configured before `main` (an
/// `.init_array` entry on Linux, `__mod_init_func` on macOS; elsewhere mimalloc's
/// defaults).
#[macro_export]
macro_rules! install_allocator {
    () => {
        #[global_allocator]
        static ALLOCATOR: $crate::allocator::Allocator = $crate::allocator::Allocator {};
        #[used]
        #[cfg_attr(target_os = "linux", link_section = ".init_array")]
        #[cfg_attr(target_os = "macos", link_section = "__DATA,__mod_init_func")]
        static CONFIGURE_ALLOCATOR: extern "C" fn() = $crate::allocator::configure;
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The option number is the one meant: before `configure`, it reads its
    /// documented default (2: eager on Linux); after, what it set.
    #[test]
    fn the_option_set_is_the_one_meant() {
        // SAFETY: reading an option of the linked mimalloc.
        let get = |option| unsafe { mi_option_get(option) };
        if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_none() {
            assert_eq!(get(ARENA_EAGER_COMMIT), 2);
        }
        configure();
        assert_eq!(get(ARENA_EAGER_COMMIT), 0);
    }
}
