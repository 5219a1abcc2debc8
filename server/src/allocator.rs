//! The allocator the binaries run on: mimalloc, told to commit memory as it is
//! used and to give freed memory back at once. Owns the choice and its settings;
//! `main` and `cargo-noalloc` install it (`#[global_allocator]`), the library and
//! its tests do not.
//!
//! Why not glibc's malloc: after names were resolved on several threads, every
//! later analysis in the language server took 10-15 % longer, and by chance of
//! which arena its thread drew (lsp_bench on `specifics`, side by side: analysis
//! p50 30 ms against 21 ms one-threaded). With mimalloc the server resolves names
//! on every core, as `--check` does, and edits cost what they cost on one thread
//! (19-23 ms). Why these settings: with mimalloc's defaults (arenas committed
//! eagerly, freed memory kept for a second) the server's peak was 1.18x
//! rust-analyzer's own indexing of the workspace; with them it is 0.99-1.00x.

use std::ffi::{c_int, c_long};

/// The allocator type to install.
pub type Allocator = mimalloc::MiMalloc;

/// mimalloc 3's `mi_option_t` values (libmimalloc-sys =0.1.49, `v3/include/mimalloc.h`).
const ARENA_EAGER_COMMIT: c_int = 4;
const PURGE_DELAY: c_int = 15;

unsafe extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
    #[cfg(test)]
    fn mi_option_get(option: c_int) -> c_long;
}

/// Commit arena memory as it is touched, and purge freed memory at once. Must run
/// before anything is allocated: the first arena, reserved at the first
/// allocation, keeps the settings it was made with (set in `main`, the peak stayed
/// 1.14x). `install!` runs it from the loader's constructors, before `main`.
pub extern "C" fn configure() {
    // SAFETY: setting an option of the linked mimalloc, by its documented number.
    unsafe {
        mi_option_set(ARENA_EAGER_COMMIT, 0);
        mi_option_set(PURGE_DELAY, 0);
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

    /// The option numbers are the ones meant: before `configure`, they read their
    /// documented defaults (2: eager on Linux; 1000 ms); after, what it set.
    #[test]
    fn the_options_set_are_the_ones_meant() {
        // SAFETY: reading options of the linked mimalloc.
        let get = |option| unsafe { mi_option_get(option) };
        if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_none() && std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!((get(ARENA_EAGER_COMMIT), get(PURGE_DELAY)), (2, 1000));
        }
        configure();
        assert_eq!((get(ARENA_EAGER_COMMIT), get(PURGE_DELAY)), (0, 0));
    }
}
