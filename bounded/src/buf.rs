//! `Buf`: bytes over caller memory or pooled chunks, written without allocating.
//! It owns the byte buffer, integer formatting and the flush-to-writer mode; what
//! goes into the bytes (escaping, JSON) is written by other modules.

use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::{self, NonNull};
#[cfg(feature = "std")]
use std::io;

#[cfg(feature = "std")]
use crate::{Chunk, Classes, Region};

/// Bytes written into memory that is the caller's own or borrowed from a region.
///
/// A write either fits whole or does nothing and marks the buffer full; once full it
/// stays full until [`clear`](Buf::clear), so a request writes everything and checks
/// [`is_full`](Buf::is_full) once at the end:
///
/// ```
/// use bounded::Buf;
///
/// let mut mem = [0u8; 16];
/// let mut buf = Buf::new(&mut mem);
/// buf.write_str("id=");
/// buf.write_int(-42i64);
/// assert_eq!(buf.bytes(), b"id=-42");
/// buf.write_str(", and far too much more");
/// buf.write_str("!");
/// assert!(buf.is_full());
/// assert_eq!(buf.bytes(), b"id=-42"); // neither write happened
/// ```
///
/// Three kinds of memory:
/// - [`Buf::new`]: a fixed byte slice;
/// - [`Buf::in_region`]: chunks from [`Classes`], moving to a larger chunk when a
///   write does not fit, until the region's budget or the largest class runs out;
/// - [`Buf::flushing`]: a fixed slice in front of an [`io::Write`] sink `W`,
///   flushed to it whenever a write does not fit. A failed write to the writer is
///   kept in [`err`](Buf::err) and later writes do nothing.
///
/// The first two have no sink: their type is `Buf<'a>`, that is `Buf<'a, NoSink>`.
/// A buffer is `Send` when its sink is: one over `io::stdout().lock()` is not.
///
/// ```compile_fail
/// fn send<T: Send>(_: &T) {}
/// let stdout = std::io::stdout();
/// let mut lock = stdout.lock();
/// let mut mem = [0u8; 64];
/// let buf = bounded::Buf::flushing(&mut mem, &mut lock);
/// send(&buf);
/// ```
pub struct Buf<'a, W: Sink + ?Sized = NoSink> {
    ptr: NonNull<MaybeUninit<u8>>,
    cap: usize,
    len: usize,
    full: bool,
    mem: Mem<'a, W>,
    /// Bytes handed to the sink so far: a write that began before a flush cannot be
    /// rolled back.
    flushed: u64,
    #[cfg(feature = "std")]
    err: Option<io::Error>,
    /// A call into the sink panicked: the drop does not write to it again (as
    /// std's `BufWriter`), which would panic again, while unwinding an abort.
    #[cfg(feature = "std")]
    sink_panicked: bool,
}

// SAFETY: `ptr` addresses bytes the buffer owns (caller memory it borrows mutably,
// or a chunk lent to it alone); the sink is sent with it, so it must be `Send`.
// Not `Sync`: nothing needs it.
unsafe impl<W: Sink + Send + ?Sized> Send for Buf<'_, W> {}

/// What a flushing [`Buf`] writes to: with `std`, any `io::Write`; without it, only
/// [`NoSink`].
#[cfg(feature = "std")]
pub trait Sink: io::Write {}

#[cfg(feature = "std")]
impl<W: io::Write + ?Sized> Sink for W {}

/// What a flushing [`Buf`] writes to: with `std`, any `io::Write`; without it, only
/// [`NoSink`].
#[cfg(not(feature = "std"))]
pub trait Sink {}

#[cfg(not(feature = "std"))]
impl Sink for NoSink {}

/// The sink of a buffer that has none (over caller memory or pooled chunks): it
/// has no values, so nothing is ever written to it.
#[derive(Debug)]
pub enum NoSink {}

#[cfg(feature = "std")]
impl io::Write for NoSink {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        match *self {}
    }

    fn flush(&mut self) -> io::Result<()> {
        match *self {}
    }
}

enum Mem<'a, W: ?Sized> {
    Own(PhantomData<(&'a mut [MaybeUninit<u8>], &'a mut W)>),
    #[cfg(feature = "std")]
    Pooled {
        classes: &'a Classes<u8>,
        region: &'a Region,
        chunk: Option<Chunk<'a, u8>>,
    },
    #[cfg(feature = "std")]
    Flushing(&'a mut W),
}

/// Where a write started, to undo it if it did not fit whole.
#[derive(Clone, Copy)]
pub(crate) struct Mark {
    len: usize,
    flushed: u64,
}

impl<'a> Buf<'a> {
    /// A buffer over `mem`; it never holds more than `mem.len()` bytes.
    pub fn new(mem: &'a mut [u8]) -> Buf<'a> {
        let (ptr, cap) = (NonNull::from(&mut *mem).cast(), mem.len());
        Buf::over(ptr, cap)
    }

    /// A buffer over `cap` bytes at `ptr`, memory the caller lends for `'a`.
    fn over(ptr: NonNull<MaybeUninit<u8>>, cap: usize) -> Buf<'a> {
        Buf {
            ptr,
            cap,
            len: 0,
            full: false,
            mem: Mem::Own(PhantomData),
            flushed: 0,
            #[cfg(feature = "std")]
            err: None,
            #[cfg(feature = "std")]
            sink_panicked: false,
        }
    }

    /// A buffer over uninitialised memory, e.g. `[MaybeUninit::uninit(); N]`.
    pub fn uninit(mem: &'a mut [MaybeUninit<u8>]) -> Buf<'a> {
        let (ptr, cap) = (NonNull::from(&mut *mem).cast(), mem.len());
        Buf::over(ptr, cap)
    }

    /// A buffer that starts with no memory and takes a chunk from `classes`,
    /// charged to `region`, on its first write; when a write does not fit it moves
    /// to a chunk of a larger class.
    #[cfg(feature = "std")]
    pub fn in_region(classes: &'a Classes<u8>, region: &'a Region) -> Buf<'a> {
        Buf {
            ptr: NonNull::dangling(),
            cap: 0,
            len: 0,
            full: false,
            mem: Mem::Pooled { classes, region, chunk: None },
            flushed: 0,
            err: None,
            sink_panicked: false,
        }
    }
}

impl<'a, W: Sink + ?Sized> Buf<'a, W> {
    /// A buffer over `mem` that flushes to `sink` instead of filling. Writes larger
    /// than `mem` go straight to `sink`. Buffered bytes are flushed on drop, as
    /// `BufWriter` does (not after the sink panicked); call [`flush`](Buf::flush)
    /// to see the error.
    #[cfg(feature = "std")]
    pub fn flushing(mem: &'a mut [u8], sink: &'a mut W) -> Buf<'a, W> {
        let (ptr, cap) = (NonNull::from(&mut *mem).cast(), mem.len());
        let mem = Mem::Flushing(sink);
        Buf { ptr, cap, len: 0, full: false, mem, flushed: 0, err: None, sink_panicked: false }
    }

    /// The bytes written (and not yet flushed).
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr..ptr+len` lies in memory this buffer borrows for `'a`, and
        // every byte below `len` was written.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr().cast::<u8>(), self.len) }
    }

    /// The bytes as text, when they are UTF-8: always after `write_str`,
    /// `write_int` and `write!` (a whole-or-nothing write never splits a
    /// character); `None` if `write_bytes`/`write_byte` left invalid UTF-8.
    #[inline]
    pub fn as_str(&self) -> Option<&str> {
        core::str::from_utf8(self.bytes()).ok()
    }

    /// Number of bytes held.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no bytes are held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the current memory can hold.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Whether a write was refused (no room, or the writer failed: see
    /// [`err`](Buf::err)). Sticky until [`clear`](Buf::clear).
    #[inline]
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// The writer's error, if a flush failed. Sticky: later writes do nothing.
    #[inline]
    #[cfg(feature = "std")]
    pub fn err(&self) -> Option<&io::Error> {
        self.err.as_ref()
    }

    /// Forgets the bytes and the full mark (not the writer's error). Pooled
    /// memory is kept.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.full = self.failed();
    }

    /// Whether the writer failed (never, without `std`).
    #[inline]
    fn failed(&self) -> bool {
        #[cfg(feature = "std")]
        return self.err.is_some();
        #[cfg(not(feature = "std"))]
        false
    }

    // noalloc:root
    /// Appends `s` whole, or nothing and marks the buffer full.
    #[inline]
    pub fn write_str(&mut self, s: &str) {
        self.write_bytes(s.as_bytes());
    }

    /// Appends one byte, or marks the buffer full.
    #[inline]
    pub fn write_byte(&mut self, b: u8) {
        if !self.full && self.len < self.cap {
            // SAFETY: `len < cap`, inside the borrowed memory.
            unsafe { self.ptr.as_ptr().add(self.len).write(MaybeUninit::new(b)) };
            self.len += 1;
        } else {
            self.write_bytes(&[b]);
        }
    }

    /// Appends `bytes` whole, or nothing and marks the buffer full.
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        if self.full {
            return;
        }
        if bytes.len() <= self.cap - self.len {
            // SAFETY: the destination is inside the borrowed memory (checked just
            // above) and cannot overlap `bytes`, which `&mut self` excludes.
            unsafe {
                let dst = self.ptr.as_ptr().add(self.len).cast::<u8>();
                ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len());
            }
            self.len += bytes.len();
        } else {
            self.write_slow(bytes);
        }
    }

    /// Appends `n` in decimal, without `fmt`'s machinery.
    #[inline]
    pub fn write_int<I: Int>(&mut self, n: I) {
        let mut digits: int::Digits = [MaybeUninit::uninit(); int::MAX_DIGITS];
        let start = n.write_digits(&mut digits);
        let written = &digits[start..];
        // SAFETY: `write_digits` initialised everything from `start` on.
        let bytes = unsafe { core::slice::from_raw_parts(written.as_ptr().cast::<u8>(), written.len()) };
        self.write_bytes(bytes);
    }

    /// Moves to memory that holds `additional` more bytes: a larger pooled chunk,
    /// or for a flushing buffer a flush. `false` if there is no such memory (a
    /// fixed buffer, the largest class, or the budget reached).
    pub fn grow(&mut self, additional: usize) -> bool {
        let Some(need) = self.len.checked_add(additional) else { return false };
        if need <= self.cap {
            return true;
        }
        match &mut self.mem {
            Mem::Own(_) => false,
            #[cfg(feature = "std")]
            // noalloc:exempt caller: flushing runs the caller's sink; the error it returns is made from an `io::ErrorKind` (no allocation), dropped here
            Mem::Flushing(_) => self.flush().is_ok() && additional <= self.cap,
            #[cfg(feature = "std")]
            Mem::Pooled { classes, region, chunk } => {
                let Some(bigger) = classes.take(region, need) else { return false };
                let new = NonNull::new(bigger.raw()).expect("chunk memory is never null");
                // SAFETY: `len` initialised bytes are read from the old chunk and
                // written into the new one, which holds at least `need >= len`.
                unsafe {
                    ptr::copy_nonoverlapping(self.ptr.as_ptr(), new.as_ptr(), self.len);
                }
                self.ptr = new;
                self.cap = bigger.len();
                *chunk = Some(bigger); // gives the old chunk back
                true
            }
        }
    }

    /// Writes the buffered bytes to the writer and flushes it. For a buffer with no
    /// writer this does nothing. After a failure, returns an error of the same
    /// kind every time; [`err`](Buf::err) has the original.
    #[cfg(feature = "std")]
    pub fn flush(&mut self) -> io::Result<()> {
        if let Some(err) = &self.err {
            return Err(err.kind().into());
        }
        let Mem::Flushing(sink) = &mut self.mem else { return Ok(()) };
        // SAFETY: as in `bytes`; `sink` is not this buffer's memory.
        let bytes = unsafe { core::slice::from_raw_parts(self.ptr.as_ptr().cast::<u8>(), self.len) };
        self.sink_panicked = true;
        // noalloc:exempt caller: the sink is the caller's `io::Write`; writing to it runs its code
        let written = sink.write_all(bytes).and_then(|()| sink.flush());
        self.sink_panicked = false;
        match written {
            Ok(()) => {
                self.flushed += self.len as u64;
                self.len = 0;
                Ok(())
            }
            Err(err) => {
                // noalloc:exempt measured: `io::Error::kind` reads the error's representation and allocates nothing
                let kind = err.kind();
                // noalloc:exempt caller: replaces `None` (a stored error returns early above); the error is the caller's sink's, and dropping one runs the caller's error type
                self.err = Some(err);
                self.full = true;
                Err(kind.into())
            }
        }
    }

    #[cold]
    fn write_slow(&mut self, bytes: &[u8]) {
        if self.grow(bytes.len()) && bytes.len() <= self.cap - self.len {
            self.write_bytes(bytes);
            return;
        }
        #[cfg(feature = "std")]
        if let (Mem::Flushing(sink), None) = (&mut self.mem, &self.err) {
            // Flushed already by `grow`; too big for the buffer: straight through.
            self.sink_panicked = true;
            // noalloc:exempt caller: the sink is the caller's `io::Write`; writing to it runs its code
            let written = sink.write_all(bytes);
            self.sink_panicked = false;
            match written {
                Ok(()) => self.flushed += bytes.len() as u64,
                Err(err) => {
                    // noalloc:exempt caller: replaces `None` (matched above); the error is the caller's sink's, and dropping one runs the caller's error type
                    self.err = Some(err);
                    self.full = true;
                }
            }
            return;
        }
        self.full = true;
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark { len: self.len, flushed: self.flushed }
    }

    /// Undoes the writes since `mark` if they did not all fit (and nothing was
    /// flushed meanwhile), so a many-part write is whole or nothing too.
    pub(crate) fn undo_if_full(&mut self, mark: Mark) {
        if self.full && mark.flushed == self.flushed {
            self.len = mark.len;
        }
    }
}

#[cfg(feature = "std")]
impl<W: Sink + ?Sized> Drop for Buf<'_, W> {
    fn drop(&mut self) {
        if let Mem::Flushing(_) = self.mem {
            if self.len > 0 && !self.sink_panicked {
                let _ = self.flush();
            }
        }
    }
}

impl<W: Sink + ?Sized> fmt::Debug for Buf<'_, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buf")
            .field("bytes", &core::str::from_utf8(self.bytes()).map_err(|_| self.bytes()))
            .field("capacity", &self.cap)
            .field("full", &self.full)
            .field("failed", &self.failed())
            .finish()
    }
}

impl<W: Sink + ?Sized> AsRef<[u8]> for Buf<'_, W> {
    fn as_ref(&self) -> &[u8] {
        self.bytes()
    }
}

/// Compares the bytes held.
impl<W: Sink + ?Sized, V: Sink + ?Sized> PartialEq<Buf<'_, V>> for Buf<'_, W> {
    fn eq(&self, other: &Buf<'_, V>) -> bool {
        self.bytes() == other.bytes()
    }
}

impl<W: Sink + ?Sized> PartialEq<[u8]> for Buf<'_, W> {
    fn eq(&self, other: &[u8]) -> bool {
        self.bytes() == other
    }
}

impl<W: Sink + ?Sized> PartialEq<&[u8]> for Buf<'_, W> {
    fn eq(&self, other: &&[u8]) -> bool {
        self.bytes() == *other
    }
}

impl<W: Sink + ?Sized> PartialEq<str> for Buf<'_, W> {
    fn eq(&self, other: &str) -> bool {
        self.bytes() == other.as_bytes()
    }
}

impl<W: Sink + ?Sized> PartialEq<&str> for Buf<'_, W> {
    fn eq(&self, other: &&str) -> bool {
        self.bytes() == other.as_bytes()
    }
}

/// `write!` into a `Buf`. A piece that does not fit returns `fmt::Error`; the
/// buffer is then full, and the pieces that fitted stay.
impl<W: Sink + ?Sized> fmt::Write for Buf<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.write_bytes(s.as_bytes());
        if self.full {
            Err(fmt::Error)
        } else {
            Ok(())
        }
    }
}

/// A write that does not fit fails with `WriteZero` (or the writer's error kind).
#[cfg(feature = "std")]
impl<W: Sink + ?Sized> io::Write for Buf<'_, W> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_bytes(bytes);
        match (&self.err, self.full) {
            (Some(err), _) => Err(err.kind().into()),
            (None, true) => Err(io::ErrorKind::WriteZero.into()),
            (None, false) => Ok(bytes.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Buf::flush(self)
    }
}

pub use int::Int;

mod int {
    //! Decimal digits of any primitive integer, written from the end of a stack
    //! buffer four at a time (two pairs from a table).

    use core::mem::MaybeUninit;
    use core::ptr;

    /// Enough for `i128::MIN`.
    pub(crate) const MAX_DIGITS: usize = 40;

    /// Room for one number's digits; only the tail from the returned start is written.
    pub(crate) type Digits = [MaybeUninit<u8>; MAX_DIGITS];

    const PAIRS: &[u8; 200] = b"\
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";

    /// A primitive integer that [`Buf::write_int`](crate::Buf::write_int) can write.
    pub trait Int: Copy + sealed::Sealed {
        #[doc(hidden)]
        /// Writes the digits (and sign) at the end of `out`; returns where they
        /// start. Everything from there on is initialised.
        fn write_digits(self, out: &mut Digits) -> usize;
    }

    mod sealed {
        pub trait Sealed {}
    }

    /// Writes pair `pair` (0..100) at `out[at..at + 2]`.
    ///
    /// # Safety
    /// `at + 2 <= MAX_DIGITS` and `pair < 100`.
    #[inline(always)]
    unsafe fn put_pair(out: &mut Digits, at: usize, pair: usize) {
        debug_assert!(at + 2 <= MAX_DIGITS && pair < 100);
        // SAFETY: both ranges are in bounds (the caller's promise); a table and a
        // stack buffer never overlap.
        unsafe { ptr::copy_nonoverlapping(PAIRS.as_ptr().add(pair * 2), out.as_mut_ptr().add(at).cast::<u8>(), 2) };
    }

    /// Writes `n` so that it ends at `end`; returns where it starts.
    ///
    /// # Safety
    /// `end <= MAX_DIGITS`, and `end` is at least the number of digits of `n` (20
    /// covers any `u64`).
    #[inline]
    unsafe fn u64_digits(mut n: u64, out: &mut Digits, end: usize) -> usize {
        let mut at = end;
        // SAFETY (every `put_pair` below): each step moves `at` down by the digits
        // it writes, and `end` is at least the number of digits (the caller's
        // promise), so `at` stays >= 0 and `at + 2 <= end`; pairs are `% 100` or
        // `< 100`.
        while n >= 10_000 {
            let four = (n % 10_000) as usize;
            n /= 10_000;
            at -= 4;
            unsafe {
                put_pair(out, at, four / 100);
                put_pair(out, at + 2, four % 100);
            }
        }
        let mut n = n as usize;
        if n >= 100 {
            at -= 2;
            unsafe { put_pair(out, at, n % 100) };
            n /= 100;
        }
        if n >= 10 {
            at -= 2;
            unsafe { put_pair(out, at, n) };
        } else {
            at -= 1;
            out[at].write(b'0' + n as u8);
        }
        at
    }

    #[inline]
    fn u64_at_end(n: u64, out: &mut Digits) -> usize {
        // SAFETY: `MAX_DIGITS` (40) is at least the 20 digits of a `u64`.
        unsafe { u64_digits(n, out, MAX_DIGITS) }
    }

    fn u128_digits(mut n: u128, out: &mut Digits) -> usize {
        const TEN19: u128 = 10_000_000_000_000_000_000;
        let mut at = MAX_DIGITS;
        while u64::try_from(n).is_err() {
            let low = (n % TEN19) as u64;
            n /= TEN19;
            // SAFETY: `u128::MAX` has 39 digits, so at most two 19-digit groups are
            // written here and `at` is 40 or 21 (>= 20) before each.
            let start = unsafe { u64_digits(low, out, at) };
            // Pad the 19-digit group with zeros.
            for zero in &mut out[at - 19..start] {
                zero.write(b'0');
            }
            at -= 19;
        }
        // SAFETY: `at` is 40, 21 or 2 (after two groups): what is left has at most
        // 20, 20 or 1 digits (`u128::MAX` has 39).
        unsafe { u64_digits(n as u64, out, at) }
    }

    macro_rules! unsigned {
        ($($t:ty => $via:ident as $wide:ty),*) => {$(
            impl sealed::Sealed for $t {}
            impl Int for $t {
                #[inline]
                fn write_digits(self, out: &mut Digits) -> usize {
                    $via(self as $wide, out)
                }
            }
        )*};
    }

    macro_rules! signed {
        ($($t:ty => $via:ident as $wide:ty),*) => {$(
            impl sealed::Sealed for $t {}
            impl Int for $t {
                #[inline]
                fn write_digits(self, out: &mut Digits) -> usize {
                    let start = $via(self.unsigned_abs() as $wide, out);
                    if self < 0 {
                        out[start - 1].write(b'-');
                        start - 1
                    } else {
                        start
                    }
                }
            }
        )*};
    }

    unsigned!(u8 => u64_at_end as u64, u16 => u64_at_end as u64, u32 => u64_at_end as u64,
        u64 => u64_at_end as u64, usize => u64_at_end as u64, u128 => u128_digits as u128);
    signed!(i8 => u64_at_end as u64, i16 => u64_at_end as u64, i32 => u64_at_end as u64,
        i64 => u64_at_end as u64, isize => u64_at_end as u64, i128 => u128_digits as u128);
}
