//! noalloc's own allowlist: functions without a visible body (compiler intrinsics,
//! C library routines and system calls std itself uses) that the source cannot
//! judge, each with the reason it never allocates. Applied by every check, whatever
//! the configuration; nothing belongs here only to hide an allocation the source
//! shows. `--allow` files add to it (`adoption::allowlist`).

/// (kind, path pattern, reason). `*` matches any run of characters.
pub const ENTRIES: &[(&str, &str, &str)] = &[
    (
        "measured",
        "core::intrinsics::*",
        "compiler intrinsics are lowered to inline code or LLVM intrinsics; none calls the allocator (functions they call back are walked where their address is taken)",
    ),
    (
        "measured",
        "alloc::intrinsics::*",
        "the compiler intrinsics alloc declares (`write_box_via_move`) write into memory already allocated",
    ),
    ("measured", "alloc::alloc::__rust_dealloc", "frees memory: deallocation is not allocation"),
    ("measured", "alloc::alloc::__rust_no_alloc_shim_is_unstable*", "a marker the compiler's allocator shim reads; does nothing"),
    ("measured", "libc::*free", "the C library's free releases memory; it never allocates"),
    ("measured", "*::miri_*", "Miri's hooks (`miri_spin_loop`, ...): they exist only when the program runs under Miri"),
    (
        "measured",
        "core::core_arch::*",
        "the target's instructions (LLVM intrinsics such as `llvm.x86.sse2.pause`, `cpuid`): no memory is allocated",
    ),
    ("measured", "libc::*memcpy", "the C library's memcpy copies bytes in place; it never allocates"),
    ("measured", "libc::*memmove", "the C library's memmove copies bytes in place; it never allocates"),
    ("measured", "libc::*memset", "the C library's memset fills bytes in place; it never allocates"),
    ("measured", "libc::*memcmp", "the C library's memcmp compares bytes; it never allocates"),
    ("measured", "libc::*bcmp", "the C library's bcmp compares bytes; it never allocates"),
    ("measured", "libc::*strlen", "the C library's strlen counts bytes; it never allocates"),
    ("measured", "libc::*memchr", "the C library's memchr searches bytes; it never allocates"),
    ("measured", "libc::*memrchr", "the C library's memrchr searches bytes; it never allocates"),
    ("measured", "libc::*__errno_location", "returns the address of the thread's errno; never allocates"),
    ("measured", "std::sys::*errno_location", "std's own declaration of `__errno_location`: the address of the thread's errno"),
    ("measured", "libc::*getpid", "a system call that returns the process id"),
    ("measured", "libc::*gettid", "a system call that returns the thread id"),
    ("measured", "libc::*clock_gettime", "reads a clock into a caller's struct (vDSO or system call)"),
    ("measured", "libc::*sched_yield", "a system call that yields the processor"),
    ("measured", "libc::*syscall", "the raw system-call entry (futex waits and wakes in std's locks)"),
    ("measured", "libc::*read", "a system call into a caller's buffer"),
    ("measured", "libc::*write", "a system call from a caller's buffer"),
    ("measured", "libc::*writev", "a system call from caller buffers"),
    ("measured", "libc::*readv", "a system call into caller buffers"),
    ("measured", "libc::*close", "a system call that closes a descriptor"),
    ("measured", "libc::*isatty", "asks the kernel whether a descriptor is a terminal"),
    ("measured", "libc::*pthread_self", "returns the calling thread's handle"),
    ("measured", "libc::*pthread_mutex_*", "locks and unlocks a mutex the caller owns; never allocates"),
    ("measured", "libc::*pthread_getspecific", "reads a thread-specific slot"),
    ("measured", "libc::*pthread_setspecific", "writes a thread-specific slot that already exists"),
    ("measured", "libc::*abort", "ends the process"),
    ("measured", "libc::*_exit", "ends the process"),
];

/// The built-in entries as allowlist lines.
pub fn entries() -> Vec<super::AllowEntry> {
    ENTRIES
        .iter()
        .map(|&(kind, path, reason)| super::AllowEntry {
            kind: kind.to_owned(),
            path: path.to_owned(),
            source: super::AllowSource::BuiltIn { reason },
        })
        .collect()
}

/// Whether a built-in entry names the function (by where it is defined: these
/// entries are ours, written that way).
pub(crate) fn allows(names: &super::identity::FnNames<'_>) -> bool {
    ENTRIES.iter().any(|&(_, pattern, _)| names.defined_matches(pattern))
}
