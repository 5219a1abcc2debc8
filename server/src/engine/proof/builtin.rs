//! noalloc's own allowlist: functions without a visible body (compiler intrinsics,
//! C library routines and system calls std itself uses) that the source cannot
//! judge, each with the reason it never allocates. Applied by every check, whatever
//! the configuration; nothing belongs here only to hide an allocation the source
//! shows. `--allow` files add to it (`adoption::allowlist`).
//!
//! Its `growth` entries are the growth functions of common third-party containers:
//! a call to one grows its receiver and is judged like `Vec::push` (allowed where a
//! comparison proves room on that receiver, `may-grow` without); their bodies still
//! show that they allocate when full. Fixed-capacity containers (`heapless`,
//! `arrayvec`'s `try_push`) need no entry: they never allocate, and their source
//! says so.

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
    (
        "growth",
        "bytes::*BytesMut::put_slice",
        "copies into the bytes already reserved; reserves more (allocates) only when they do not fit: room is `capacity() - len() >= src.len()`",
    ),
    (
        "growth",
        "bytes::*BytesMut::extend_from_slice",
        "copies into the bytes already reserved; reserves more (allocates) only when they do not fit: room is `capacity() - len() >= src.len()`",
    ),
    (
        "growth",
        "bytes::*BytesMut::put_u8",
        "writes one byte; reserves more (allocates) only when the buffer is full: room is `len() < capacity()`",
    ),
    (
        "growth",
        "bytes::*BytesMut::put_i8",
        "writes one byte; reserves more (allocates) only when the buffer is full: room is `len() < capacity()`",
    ),
    (
        "growth",
        "bytes::*BytesMut::reserve",
        "allocates only when `capacity() - len()` is less than asked for (`BytesMut::remaining_mut` is no proof: it counts what could be allocated)",
    ),
    (
        "growth",
        "slab::*Slab::insert",
        "fills the next vacant slot, or pushes on its entries when none is vacant (then `len()` equals the entries' length): room is `len() < capacity()`, the entries' capacity",
    ),
    ("growth", "smallvec::*SmallVec::push", "writes in place (inline or on the heap); grows (allocates) only when full: room is `len() < capacity()`"),
    ("growth", "smallvec::*SmallVec::insert", "shifts in place; grows (allocates) only when full: room is `len() < capacity()`"),
    (
        "growth",
        "smallvec::*SmallVec::extend_from_slice",
        "copies in place; grows (allocates) only when the slice does not fit: room is `capacity() - len() >= slice.len()`",
    ),
    ("growth", "smallvec::*SmallVec::reserve", "allocates only when `capacity() - len()` is less than asked for"),
    (
        "growth",
        "indexmap::*IndexMap::insert",
        "inserts in place; grows its table and entries (allocates) only when full: room is `len() < capacity()` (the key's `Hash` and `Eq` are still judged)",
    ),
    (
        "growth",
        "indexmap::*IndexSet::insert",
        "inserts in place; grows its table and entries (allocates) only when full: room is `len() < capacity()` (the value's `Hash` and `Eq` are still judged)",
    ),
];

/// Built-in `growth` entries that hold for one implementor of a trait only: a
/// trait's default method is one function for every implementor, and grows the
/// buffer of the type named here. (trait method pattern, the implementor's name in
/// the trait's crate, reason.)
const GROWTH_ON_SELF: &[(&str, &str, &str)] = &[(
    "bytes::*BufMut::put_*",
    "BytesMut",
    "a fixed-width put (`put_u32`, `put_f64_le`, ...) copies its bytes with `BytesMut::put_slice`: it allocates only when they do not fit: room is `capacity() - len() >= width`",
)];

/// Whether a call of the trait method `func` at `args` grows its receiver by a
/// built-in entry of `GROWTH_ON_SELF`: a fixed-width put (its width is what the
/// room proof must cover) on the named implementor of the trait's own crate.
pub(crate) fn grows_on_self<'db>(
    db: &'db dyn hir::db::HirDatabase,
    func: hir_def::FunctionId,
    args: hir_ty::next_solver::GenericArgs<'db>,
) -> bool {
    use hir_def::{HasModule, Lookup};
    use rustc_type_ir::inherent::IntoKind;
    let hir_def::ItemContainerId::TraitId(trait_) = func.lookup(db).container else { return false };
    let name = hir_def::signatures::FunctionSignature::of(db, func).name.as_str().to_owned();
    if !matches!(super::walk::growth_entry_need(&name), super::allowances::Room::Bytes(_)) {
        return false;
    }
    let Some(self_ty) = args.as_slice().first().and_then(|arg| arg.ty()) else { return false };
    let hir_ty::next_solver::TyKind::Adt(adt, _) = self_ty.kind() else { return false };
    let adt = adt.def_id();
    if adt.module(db).krate(db) != trait_.module(db).krate(db) {
        return false;
    }
    let self_name = crate::engine::source::naming::ty_name(db, self_ty);
    let names = crate::engine::source::identity::FnNames::of(db, func);
    GROWTH_ON_SELF.iter().any(|&(pattern, implementor, _)| self_name == implementor && names.matches(pattern))
}

/// Whether a call of `func` at `args` is a built-in growth (an entry of the list,
/// or of `GROWTH_ON_SELF`): like `Vec::push`, it changes its receiver only by
/// appending, which the room ledger charges, not by any other write.
/// A trait's method is taken as the impl's that `env` selects for `args`.
pub(crate) fn is_builtin_growth<'db>(
    db: &'db dyn hir::db::HirDatabase,
    func: hir_def::FunctionId,
    args: hir_ty::next_solver::GenericArgs<'db>,
    env: Option<hir_ty::ParamEnvAndCrate<'db>>,
) -> bool {
    let names = crate::engine::source::identity::FnNames::of(db, func);
    if grows(|pattern| names.matches(pattern)) || grows_on_self(db, func, args) {
        return true;
    }
    let Some(env) = env else { return false };
    match db.lookup_impl_method(env, func, args) {
        (either::Either::Left(selected), _) if selected != func => {
            let names = crate::engine::source::identity::FnNames::of(db, selected);
            grows(|pattern| names.matches(pattern))
        }
        _ => false,
    }
}

/// The built-in entries as allowlist lines.
pub fn entries() -> Vec<crate::engine::AllowEntry> {
    ENTRIES
        .iter()
        .map(|&(kind, path, reason)| crate::engine::AllowEntry {
            kind: kind.to_owned(),
            path: path.to_owned(),
            source: crate::engine::AllowSource::BuiltIn { reason },
        })
        .collect()
}

/// Whether a built-in entry other than `growth` names the function, given a
/// matcher of patterns against its names (`FnNames`: these entries are written as
/// where the function is defined).
pub(crate) fn allows(matches: impl Fn(&str) -> bool) -> bool {
    ENTRIES.iter().any(|&(kind, pattern, _)| kind != crate::engine::GROWTH_KIND && matches(pattern))
}

/// Whether a built-in `growth` entry names the function.
pub(crate) fn grows(matches: impl Fn(&str) -> bool) -> bool {
    ENTRIES.iter().any(|&(kind, pattern, _)| kind == crate::engine::GROWTH_KIND && matches(pattern))
}

#[cfg(test)]
mod tests {
    use super::{allows, grows};
    use crate::stdx::wildcard_match;

    fn path(path: &'static str) -> impl Fn(&str) -> bool {
        move |pattern| wildcard_match(pattern, path)
    }

    #[test]
    fn growth_entries_judge_calls_instead_of_allowing_them() {
        assert!(grows(path("smallvec::SmallVec::push")));
        assert!(grows(path("bytes::bytes_mut::BytesMut::put_slice")));
        assert!(grows(path("bytes::BytesMut::put_slice")));
        assert!(!allows(path("smallvec::SmallVec::push")));
        assert!(allows(path("libc::memcpy")) && !grows(path("libc::memcpy")));
        // A trait's default method is not its implementor's.
        assert!(!grows(path("bytes::buf::buf_mut::BufMut::put_u16")));
    }
}
