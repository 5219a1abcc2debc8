//! `Reader`: a JSON tokenizer over borrowed input. It owns the grammar (whitespace,
//! literals, numbers, strings, nesting and the depth limit) and the arena for escaped
//! strings; turning tokens into Rust values is the job of `ReadJson` impls.

#[cfg(feature = "std")]
use std::io;

use crate::arena::Arena;
use crate::error::{Error, ErrorKind, Result};
use crate::scan;

/// Default nesting limit, the same as serde_json's: 127 levels are read, the 128th
/// is refused.
pub const DEFAULT_MAX_DEPTH: u32 = 128;

/// The highest limit [`Reader::with_max_depth`] sets: reading recurses once per
/// level, so the limit bounds the stack a read takes. Measured for
/// [`Reader::skip`] on x86-64: about 130 bytes a level optimised (4096 levels:
/// ~0.5 MiB) and about 2 KiB unoptimised (~8 MiB); derived decoders of recursive
/// types and serde visitors take more a level. Past the default, read on a thread
/// whose stack holds the limit (`std::thread::Builder::stack_size`).
pub const MAX_DEPTH: u32 = 4096;

/// Reads JSON from `&'de [u8]`. Strings without escapes are borrowed from the
/// input; escaped ones are decoded into the reader's [`Arena`]. Typed values come
/// from [`read`](Reader::read); the token methods walk shapes no type describes.
///
/// ```
/// let input = br#"{"name": "caf\u00e9", "tags": ["a", "b"], "extra": {"x": [1]}}"#;
/// let mut arena = [0u8; 16];
/// let mut r = json::Reader::new(input).with_arena(json::Arena::new(&mut arena));
/// let (mut name, mut tags) = ("", 0);
/// let mut object = r.object()?;
/// while let Some(key) = r.next_key(&mut object)? {
///     if key.is("name") {
///         name = r.str()?; // decoded into the arena: it had an escape
///     } else if key.is("tags") {
///         let mut array = r.array()?;
///         while r.next_element(&mut array)? {
///             r.skip()?;
///             tags += 1;
///         }
///     } else {
///         r.skip()?; // any value, its syntax checked
///     }
/// }
/// r.finish()?;
/// assert_eq!((name, tags), ("café", 2));
/// # Ok::<(), json::Error>(())
/// ```
pub struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
    depth: u32,
    max_depth: u32,
    arena: Arena<'de>,
}

/// A number as JSON wrote it, classified the way serde_json classifies it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A non-negative integer that fits `u64`.
    U64(u64),
    /// A negative integer that fits `i64`.
    I64(i64),
    /// Anything else: a fraction, an exponent, `-0`, or an integer too large.
    F64(f64),
}

/// An object key as it appears in the input (between the quotes, escapes intact).
#[derive(Clone, Copy, Debug)]
pub struct Key<'de> {
    raw: &'de [u8],
    escaped: bool,
}

impl<'de> Key<'de> {
    /// The key's bytes between the quotes, escapes not decoded.
    pub fn raw(&self) -> &'de [u8] {
        self.raw
    }

    /// Whether the key holds backslash escapes (then `raw` is not its text).
    pub fn is_escaped(&self) -> bool {
        self.escaped
    }

    /// The decoded characters.
    pub fn chars(&self) -> impl Iterator<Item = char> + 'de {
        let raw = self.raw;
        let mut i = 0;
        core::iter::from_fn(move || {
            let rest = raw.get(i..).filter(|r| !r.is_empty())?;
            let (c, len) = if rest[0] == b'\\' {
                decode_escape(rest)
            } else {
                // SAFETY: keys are checked UTF-8 and escapes are ASCII, so a
                // non-escape position starts a character.
                let s = unsafe { core::str::from_utf8_unchecked(rest) };
                let c = s.chars().next()?;
                (c, c.len_utf8())
            };
            i += len;
            Some(c)
        })
    }

    /// The decoded text if it is exactly one character.
    pub fn single_char(&self) -> Option<char> {
        let (c, len) = match self.raw.first()? {
            b'\\' => decode_escape(self.raw),
            _ => {
                let s = core::str::from_utf8(self.raw).ok()?;
                let c = s.chars().next()?;
                (c, c.len_utf8())
            }
        };
        (len == self.raw.len()).then_some(c)
    }

    /// Whether the decoded key equals `name`.
    #[inline]
    pub fn is(&self, name: &str) -> bool {
        if self.escaped {
            unescaped_eq(self.raw, name.as_bytes())
        } else {
            self.raw == name.as_bytes()
        }
    }

    /// The key as text, borrowing the input when it has no escapes and decoding
    /// into `arena` when it has.
    pub fn decode(&self, arena: &mut Arena<'de>) -> Result<&'de str, ErrorKind> {
        if self.escaped {
            decode_into(arena, self.raw)
        } else {
            core::str::from_utf8(self.raw).map_err(|_| ErrorKind::InvalidUtf8)
        }
    }
}

/// State of an object being read: whether the next key is the first.
#[derive(Debug)]
pub struct Object {
    first: bool,
}

/// State of an array being read: whether the next element is the first, and
/// whether its `]` was already consumed.
#[derive(Debug)]
pub struct Array {
    first: bool,
    ended: bool,
}

impl Array {
    /// An array whose `]` has been read: `next_element` says `false` again.
    pub(crate) fn ended() -> Array {
        Array { first: false, ended: true }
    }
}

impl<'de> Reader<'de> {
    /// A reader over `input` with an empty arena.
    pub fn new(input: &'de [u8]) -> Reader<'de> {
        Reader { input, pos: 0, depth: 0, max_depth: DEFAULT_MAX_DEPTH, arena: Arena::empty() }
    }

    /// Reads all of `source` into `buf` and returns a reader over it. Fails with
    /// `Full` when the document does not fit.
    #[cfg(feature = "std")]
    pub fn from_read(mut source: impl io::Read, buf: &'de mut [u8]) -> Result<Reader<'de>> {
        let mut n = 0;
        loop {
            if n == buf.len() {
                let mut probe = [0u8; 1];
                match source.read(&mut probe) {
                    Ok(0) => break,
                    Ok(_) => return Err(Error::new(ErrorKind::Full, n)),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(Error::new(ErrorKind::Io(e.kind()), n)),
                }
            }
            match source.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::new(ErrorKind::Io(e.kind()), n)),
            }
        }
        let input: &'de [u8] = buf;
        Ok(Reader::new(&input[..n]))
    }

    /// Decode escaped strings into `arena`.
    pub fn with_arena(mut self, arena: Arena<'de>) -> Reader<'de> {
        self.arena = arena;
        self
    }

    /// Refuse nesting at `max_depth` levels (arrays and objects) with `Depth`; at
    /// most [`MAX_DEPTH`], whose doc says how much stack a level takes.
    pub fn with_max_depth(mut self, max_depth: u32) -> Reader<'de> {
        self.max_depth = max_depth.min(MAX_DEPTH);
        self
    }

    /// The arena escaped strings decode into.
    pub fn arena(&mut self) -> &mut Arena<'de> {
        &mut self.arena
    }

    /// Ends reading and returns the arena, with what it holds.
    pub fn into_arena(self) -> Arena<'de> {
        self.arena
    }

    /// Byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The whole input.
    pub fn input(&self) -> &'de [u8] {
        self.input
    }

    /// An error of `kind` at the current position.
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.pos)
    }

    /// Reads one value as `T`.
    pub fn read<T: crate::ReadJson<'de>>(&mut self) -> Result<T> {
        T::read_json(self)
    }

    /// Reads one value into `place`, reusing its memory.
    pub fn read_into<T: crate::ReadJson<'de>>(&mut self, place: &mut T) -> Result<()> {
        place.read_json_into(self)
    }

    /// Checks that only whitespace is left.
    pub fn finish(&mut self) -> Result<()> {
        self.skip_ws();
        if self.pos < self.input.len() {
            return Err(self.error(ErrorKind::TrailingCharacters).expecting("the end of the input"));
        }
        Ok(())
    }

    #[inline]
    fn skip_ws(&mut self) {
        match self.input.get(self.pos) {
            Some(&b) if b > b' ' => {}
            None => {}
            Some(_) => self.skip_ws_run(),
        }
    }

    /// Skips a run of whitespace; indentation goes eight spaces at a time.
    fn skip_ws_run(&mut self) {
        const SPACES: u64 = 0x2020_2020_2020_2020;
        let input = self.input;
        let mut i = self.pos;
        loop {
            while i + 8 <= input.len() && u64::from_le_bytes(input[i..i + 8].try_into().unwrap()) == SPACES {
                i += 8;
            }
            match input.get(i) {
                Some(b' ' | b'\n' | b'\r' | b'\t') => i += 1,
                _ => break,
            }
        }
        self.pos = i;
    }

    /// Skips whitespace and returns the next byte without consuming it.
    #[inline]
    pub fn peek(&mut self) -> Result<u8> {
        self.skip_ws();
        match self.input.get(self.pos) {
            Some(&b) => Ok(b),
            None => Err(self.error(ErrorKind::Eof)),
        }
    }

    /// The error for a value of the wrong type starting here: a syntax error when
    /// the byte starts no JSON value at all.
    #[cold]
    pub fn unexpected(&mut self) -> Error {
        match self.peek() {
            Ok(b'n' | b't' | b'f' | b'"' | b'[' | b'{' | b'-' | b'0'..=b'9') => self.error(ErrorKind::InvalidType),
            Ok(_) => self.error(ErrorKind::Syntax).expecting("a JSON value"),
            Err(e) => e,
        }
    }

    #[inline]
    fn literal(&mut self, word: &[u8]) -> Result<()> {
        let end = self.pos + word.len();
        if self.input.get(self.pos..end) == Some(word) {
            self.pos = end;
            Ok(())
        } else {
            Err(self.literal_error(word))
        }
    }

    #[cold]
    fn literal_error(&mut self, word: &[u8]) -> Error {
        for &w in word {
            match self.input.get(self.pos) {
                None => return self.error(ErrorKind::Eof),
                Some(&b) if b != w => return self.error(ErrorKind::Syntax),
                Some(_) => self.pos += 1,
            }
        }
        self.error(ErrorKind::Syntax)
    }

    /// Consumes `null` if it comes next; says whether it did.
    #[inline]
    pub fn null(&mut self) -> Result<bool> {
        if self.peek()? == b'n' {
            self.literal(b"null")?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Reads `true` or `false`.
    #[inline]
    pub fn bool(&mut self) -> Result<bool> {
        match self.peek()? {
            b't' => self.literal(b"true").map(|()| true),
            b'f' => self.literal(b"false").map(|()| false),
            _ => Err(self.unexpected()),
        }
    }

    // ---- nesting ----

    #[inline]
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth >= self.max_depth {
            return Err(self.error(ErrorKind::Depth));
        }
        self.pos += 1;
        Ok(())
    }

    /// Consumes `{`; then call [`Reader::next_key`] until it returns `None`.
    #[inline]
    pub fn object(&mut self) -> Result<Object> {
        if self.peek()? != b'{' {
            return Err(self.unexpected());
        }
        self.enter()?;
        Ok(Object { first: true })
    }

    /// The next key of the object (with its `:` consumed), or `None` at its `}`.
    #[inline(always)]
    pub fn next_key(&mut self, object: &mut Object) -> Result<Option<Key<'de>>> {
        let mut b = self.peek()?;
        if b == b'}' {
            self.pos += 1;
            self.depth -= 1;
            return Ok(None);
        }
        if object.first {
            object.first = false;
        } else if b == b',' {
            self.pos += 1;
            b = self.peek()?;
        } else {
            return Err(self.error(ErrorKind::Syntax).expecting("`,` or `}`"));
        }
        if b != b'"' {
            return Err(self.error(ErrorKind::Syntax).expecting("a string key"));
        }
        let (raw, escaped) = self.string_raw()?;
        if self.input.get(self.pos) != Some(&b':') && self.peek()? != b':' {
            return Err(self.error(ErrorKind::Syntax).expecting("`:`"));
        }
        self.pos += 1;
        Ok(Some(Key { raw, escaped }))
    }

    /// Consumes `[`; then call [`Reader::next_element`] before each element.
    #[inline]
    pub fn array(&mut self) -> Result<Array> {
        if self.peek()? != b'[' {
            return Err(self.unexpected());
        }
        self.enter()?;
        Ok(Array { first: true, ended: false })
    }

    /// Whether another element follows (its `,` consumed); `false` at the `]`.
    #[inline]
    pub fn next_element(&mut self, array: &mut Array) -> Result<bool> {
        if array.ended {
            return Ok(false);
        }
        let b = self.peek()?;
        if b == b']' {
            self.pos += 1;
            self.depth -= 1;
            array.ended = true;
            return Ok(false);
        }
        if array.first {
            array.first = false;
            return Ok(true);
        }
        if b == b',' {
            self.pos += 1;
            Ok(true)
        } else {
            Err(self.error(ErrorKind::Syntax).expecting("`,` or `]`"))
        }
    }

    // noalloc:root
    /// Skips one value of any type, checking its syntax.
    pub fn skip(&mut self) -> Result<()> {
        match self.peek()? {
            b'n' => self.literal(b"null"),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'"' => self.string_raw().map(drop),
            b'-' | b'0'..=b'9' => self.number_span().map(drop),
            b'[' => {
                let mut array = self.array()?;
                while self.next_element(&mut array)? {
                    self.skip()?;
                }
                Ok(())
            }
            b'{' => {
                let mut object = self.object()?;
                while self.next_key(&mut object)?.is_some() {
                    self.skip()?;
                }
                Ok(())
            }
            _ => Err(self.error(ErrorKind::Syntax).expecting("a JSON value")),
        }
    }

    // ---- strings ----

    /// Consumes a string and returns its raw bytes between the quotes and whether
    /// it holds escapes. Checks escapes, control characters and UTF-8.
    #[inline]
    fn string_raw(&mut self) -> Result<(&'de [u8], bool)> {
        debug_assert_eq!(self.input.get(self.pos), Some(&b'"'));
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        let mut non_ascii = false;
        loop {
            let (n, high) = scan::plain_prefix_ascii(&self.input[i..]);
            i += n;
            non_ascii |= high;
            match self.input.get(i) {
                None => {
                    self.pos = i;
                    return Err(self.error(ErrorKind::Eof));
                }
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i = match escape_len(&self.input[i..]) {
                        Ok(n) => i + n,
                        Err((kind, at)) => {
                            self.pos = i + at;
                            return Err(self.error(kind));
                        }
                    };
                }
                Some(_) => {
                    self.pos = i;
                    return Err(self.error(ErrorKind::ControlCharacter));
                }
            }
        }
        let raw = &self.input[start..i];
        if non_ascii && simdutf8::basic::from_utf8(raw).is_err() {
            let valid = core::str::from_utf8(raw).err().map_or(0, |e| e.valid_up_to());
            self.pos = start + valid;
            return Err(self.error(ErrorKind::InvalidUtf8));
        }
        self.pos = i + 1;
        Ok((raw, escaped))
    }

    /// Reads a string without decoding it (its escapes checked, not applied).
    pub fn raw_str(&mut self) -> Result<Key<'de>> {
        if self.peek()? != b'"' {
            return Err(self.unexpected());
        }
        let (raw, escaped) = self.string_raw()?;
        Ok(Key { raw, escaped })
    }

    /// Reads a string, borrowed from the input or decoded into the arena.
    #[inline]
    pub fn str(&mut self) -> Result<&'de str> {
        if self.peek()? != b'"' {
            return Err(self.unexpected());
        }
        let start = self.pos;
        let (raw, escaped) = self.string_raw()?;
        if !escaped {
            // SAFETY: `string_raw` checked that `raw` is UTF-8.
            return Ok(unsafe { core::str::from_utf8_unchecked(raw) });
        }
        decode_into(&mut self.arena, raw).map_err(|kind| Error::new(kind, start))
    }

    // noalloc:root
    /// Reads a string into `out`, replacing its contents, within the capacity it
    /// already has (`Full` past it).
    #[inline]
    #[cfg(feature = "alloc")]
    pub fn str_into(&mut self, out: &mut alloc::string::String) -> Result<()> {
        if self.peek()? != b'"' {
            return Err(self.unexpected());
        }
        let start = self.pos;
        let (raw, escaped) = self.string_raw()?;
        out.clear();
        if !escaped {
            if raw.len() > out.capacity() {
                return Err(Error::new(ErrorKind::Full, start));
            }
            // SAFETY: checked UTF-8 by `string_raw`.
            // noalloc:exempt capacity: checked just above that `raw` fits `out.capacity()`
            out.push_str(unsafe { core::str::from_utf8_unchecked(raw) });
            return Ok(());
        }
        let need = unescaped_len(raw);
        if need > out.capacity() {
            return Err(Error::new(ErrorKind::Full, start));
        }
        unescape_into(raw, out);
        Ok(())
    }

    // ---- numbers ----

    /// Consumes a number and returns its bytes, checking JSON's number grammar.
    #[inline]
    fn number_span(&mut self) -> Result<(&'de [u8], bool)> {
        let input = self.input;
        let start = self.pos;
        let mut i = start;
        if input.get(i) == Some(&b'-') {
            i += 1;
        }
        match input.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                i += 1;
                while matches!(input.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            Some(_) => {
                self.pos = i;
                return Err(self.error(ErrorKind::Syntax));
            }
            None => {
                self.pos = i;
                return Err(self.error(ErrorKind::Eof));
            }
        }
        let mut float = false;
        if input.get(i) == Some(&b'.') {
            float = true;
            i += 1;
            i = self.digits(i)?;
        }
        if matches!(input.get(i), Some(b'e' | b'E')) {
            float = true;
            i += 1;
            if matches!(input.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = self.digits(i)?;
        }
        self.pos = i;
        Ok((&input[start..i], float))
    }

    /// One or more digits from `i`; the index after them.
    fn digits(&mut self, mut i: usize) -> Result<usize> {
        match self.input.get(i) {
            Some(b'0'..=b'9') => {}
            Some(_) => {
                self.pos = i;
                return Err(self.error(ErrorKind::Syntax));
            }
            None => {
                self.pos = i;
                return Err(self.error(ErrorKind::Eof));
            }
        }
        while matches!(self.input.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        Ok(i)
    }

    /// Reads a number as serde_json classifies it, in one pass over its bytes:
    /// integers are accumulated as they are scanned, and a float whose digits fit
    /// `u64` with a small power of ten is finished exactly (Clinger's fast path);
    /// only the rest goes to the standard library's correctly rounded parser.
    #[inline]
    pub fn number(&mut self) -> Result<Number> {
        let first = self.peek()?;
        let start = self.pos;
        let input = self.input;
        let neg = first == b'-';
        let mut i = start + neg as usize;
        let int_start = i;
        let mut mantissa: u64 = 0;
        match input.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(&d @ b'0'..=b'9') = input.get(i) {
                    mantissa = mantissa.wrapping_mul(10).wrapping_add((d - b'0') as u64);
                    i += 1;
                }
            }
            _ if !neg => return Err(self.unexpected()),
            Some(_) => {
                self.pos = i;
                return Err(self.error(ErrorKind::Syntax));
            }
            None => {
                self.pos = i;
                return Err(self.error(ErrorKind::Eof));
            }
        }
        let int_digits = i - int_start;
        let mut frac_digits = 0;
        let mut float = false;
        if input.get(i) == Some(&b'.') {
            float = true;
            i += 1;
            let frac_start = i;
            while let Some(&d @ b'0'..=b'9') = input.get(i) {
                mantissa = mantissa.wrapping_mul(10).wrapping_add((d - b'0') as u64);
                i += 1;
            }
            frac_digits = i - frac_start;
            if frac_digits == 0 {
                self.pos = i;
                return Err(self.error(if i == input.len() { ErrorKind::Eof } else { ErrorKind::Syntax }));
            }
        }
        let mut exp: i64 = 0;
        if matches!(input.get(i), Some(b'e' | b'E')) {
            float = true;
            i += 1;
            let exp_neg = match input.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let exp_start = i;
            while let Some(&d @ b'0'..=b'9') = input.get(i) {
                if exp < 100_000 {
                    exp = exp * 10 + (d - b'0') as i64;
                }
                i += 1;
            }
            if i == exp_start {
                self.pos = i;
                return Err(self.error(if i == input.len() { ErrorKind::Eof } else { ErrorKind::Syntax }));
            }
            if exp_neg {
                exp = -exp;
            }
        }
        self.pos = i;
        let digits = int_digits + frac_digits;
        if !float {
            if digits <= 19 {
                return Ok(if !neg {
                    Number::U64(mantissa)
                } else if mantissa == 0 {
                    Number::F64(-0.0)
                } else if mantissa <= 1 << 63 {
                    Number::I64((mantissa as i64).wrapping_neg())
                } else {
                    Number::F64(-(mantissa as f64))
                });
            }
            if let Some(n) = integer(&input[start..i]) {
                return Ok(n);
            }
        } else if digits <= 19 {
            let e10 = exp - frac_digits as i64;
            if mantissa == 0 {
                return Ok(Number::F64(if neg { -0.0 } else { 0.0 }));
            }
            if mantissa <= 1 << 53 && (-22..=22).contains(&e10) {
                let m = mantissa as f64;
                let v = if e10 < 0 { m / POW10[(-e10) as usize] } else { m * POW10[e10 as usize] };
                return Ok(Number::F64(if neg { -v } else { v }));
            }
            match crate::float::lemire(e10, mantissa) {
                Some(v) if v.is_finite() => return Ok(Number::F64(if neg { -v } else { v })),
                Some(_) => return Err(Error::new(ErrorKind::NumberOutOfRange, start)),
                None => {}
            }
        }
        // SAFETY: the bytes were checked against the number grammar, which is ASCII.
        let text = unsafe { core::str::from_utf8_unchecked(&input[start..i]) };
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Number::F64(v)),
            _ => Err(Error::new(ErrorKind::NumberOutOfRange, start)),
        }
    }

    /// Reads an integer (no fraction or exponent) of up to 128 bits.
    pub fn i128(&mut self) -> Result<i128> {
        match self.peek()? {
            b'-' | b'0'..=b'9' => {}
            _ => return Err(self.unexpected()),
        }
        let start = self.pos;
        let (text, float) = self.number_span()?;
        if float {
            return Err(Error::new(ErrorKind::InvalidType, start));
        }
        let (neg, digits) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        let mut v: i128 = 0;
        for &d in digits {
            let d = (d - b'0') as i128;
            v = v
                .checked_mul(10)
                .and_then(|v| if neg { v.checked_sub(d) } else { v.checked_add(d) })
                .ok_or(Error::new(ErrorKind::NumberOutOfRange, start))?;
        }
        Ok(v)
    }

    /// Reads a non-negative integer of up to 128 bits.
    pub fn u128(&mut self) -> Result<u128> {
        match self.peek()? {
            b'-' | b'0'..=b'9' => {}
            _ => return Err(self.unexpected()),
        }
        let start = self.pos;
        let (text, float) = self.number_span()?;
        if float {
            return Err(Error::new(ErrorKind::InvalidType, start));
        }
        if text[0] == b'-' {
            return Err(Error::new(ErrorKind::NumberOutOfRange, start));
        }
        let mut v: u128 = 0;
        for &d in text {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add((d - b'0') as u128))
                .ok_or(Error::new(ErrorKind::NumberOutOfRange, start))?;
        }
        Ok(v)
    }
}

/// Reads all of `text`, an object key's bytes, as a `T` with JSON's number grammar,
/// as serde_json reads quoted keys: no `+`, no leading zeros, no `-0` for integers,
/// no whitespace. `InvalidType` for text that is not one number.
pub(crate) fn number_key<'de, T: crate::ReadJson<'de>>(text: &'de [u8]) -> core::result::Result<T, ErrorKind> {
    if !matches!(text.first(), Some(b'-' | b'0'..=b'9')) {
        return Err(ErrorKind::InvalidType);
    }
    let mut r = Reader::new(text);
    let value = T::read_json(&mut r).map_err(|e| e.kind())?;
    if r.offset() != text.len() {
        return Err(ErrorKind::InvalidType);
    }
    Ok(value)
}

/// An integer without fraction or exponent, classified like serde_json; `None`
/// when it must be read as a float (too large, or `-0`).
#[inline]
fn integer(text: &[u8]) -> Option<Number> {
    let (neg, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.len() > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for &d in digits {
        v = v.checked_mul(10)?.checked_add((d - b'0') as u64)?;
    }
    if !neg {
        Some(Number::U64(v))
    } else if v == 0 {
        Some(Number::F64(-0.0))
    } else if v <= 1 << 63 {
        Some(Number::I64((v as i64).wrapping_neg()))
    } else {
        None
    }
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// Length of the escape at the start of `s` (which begins with `\`), or the error
/// and its offset within `s`.
#[inline]
fn escape_len(s: &[u8]) -> core::result::Result<usize, (ErrorKind, usize)> {
    match s.get(1) {
        None => Err((ErrorKind::Eof, 1)),
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(2),
        Some(b'u') => {
            let hi = hex4(s, 2)?;
            if (0xDC00..0xE000).contains(&hi) {
                return Err((ErrorKind::InvalidUnicode, 0));
            }
            if !(0xD800..0xDC00).contains(&hi) {
                return Ok(6);
            }
            match (s.get(6), s.get(7)) {
                (Some(b'\\'), Some(b'u')) => {}
                (None, _) | (Some(b'\\'), None) => return Err((ErrorKind::Eof, s.len())),
                _ => return Err((ErrorKind::InvalidUnicode, 6)),
            }
            let lo = hex4(s, 8)?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err((ErrorKind::InvalidUnicode, 6));
            }
            Ok(12)
        }
        Some(_) => Err((ErrorKind::InvalidEscape, 1)),
    }
}

fn hex4(s: &[u8], at: usize) -> core::result::Result<u32, (ErrorKind, usize)> {
    let mut v = 0;
    for k in at..at + 4 {
        let d = match s.get(k) {
            None => return Err((ErrorKind::Eof, s.len())),
            Some(&b) => match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => return Err((ErrorKind::InvalidEscape, k)),
            },
        };
        v = v * 16 + d as u32;
    }
    Ok(v)
}

/// Decodes the checked raw string `raw` into `arena`, which needs room for the
/// decoded bytes only: when its chunk holds fewer than `raw.len()` bytes, the
/// decoded length is counted first.
fn decode_into<'de>(arena: &mut Arena<'de>, raw: &[u8]) -> Result<&'de str, ErrorKind> {
    let room = if arena.remaining() >= raw.len() { raw.len() } else { unescaped_len(raw) };
    let out = arena.fill(room, |buf| Ok(unescape(raw, buf)), ErrorKind::Full)?;
    // SAFETY: `raw` is UTF-8 with checked escapes, so its decoding is too.
    Ok(unsafe { core::str::from_utf8_unchecked(out) })
}

/// Decoded length of a checked raw string.
fn unescaped_len(raw: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            n += 1;
            i += 1;
            continue;
        }
        let (c, len) = decode_escape(&raw[i..]);
        n += c.len_utf8();
        i += len;
    }
    n
}

/// The character of the checked escape at the start of `s` and its length.
#[inline]
fn decode_escape(s: &[u8]) -> (char, usize) {
    let simple = |c| (c, 2);
    match s[1] {
        b'"' => simple('"'),
        b'\\' => simple('\\'),
        b'/' => simple('/'),
        b'b' => simple('\u{8}'),
        b'f' => simple('\u{c}'),
        b'n' => simple('\n'),
        b'r' => simple('\r'),
        b't' => simple('\t'),
        _ => {
            let hi = hex4(s, 2).unwrap_or(0xFFFD);
            if (0xD800..0xDC00).contains(&hi) {
                let lo = hex4(s, 8).unwrap_or(0xDC00);
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                (char::from_u32(c).unwrap_or('\u{FFFD}'), 12)
            } else {
                (char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
            }
        }
    }
}

/// Decodes a checked raw string into `out` (at least `raw.len()` bytes, or its
/// decoded length); returns the bytes written.
fn unescape(raw: &[u8], out: &mut [u8]) -> usize {
    let mut n = 0;
    for_each_unescaped(raw, |piece| {
        out[n..n + piece.len()].copy_from_slice(piece);
        n += piece.len();
    });
    n
}

/// Decodes the checked raw string `raw` onto the end of `out`, within the capacity
/// `out` has (the caller checked it with `unescaped_len`): `push_str` never
/// reallocates here.
#[cfg(feature = "alloc")]
fn unescape_into(raw: &[u8], out: &mut alloc::string::String) {
    for_each_unescaped(raw, |piece| {
        debug_assert!(out.len() + piece.len() <= out.capacity());
        // SAFETY: the pieces of a checked string are its plain runs (checked UTF-8,
        // split only at a backslash, which is ASCII) and encoded chars.
        // noalloc:exempt capacity: `str_into` checked that the decoded length fits `out.capacity()`
        out.push_str(unsafe { core::str::from_utf8_unchecked(piece) });
    });
}

/// Calls `piece` with the decoding of the checked raw string `raw`, one plain run or
/// one escaped char at a time.
#[inline]
fn for_each_unescaped(raw: &[u8], mut piece: impl FnMut(&[u8])) {
    let mut i = 0;
    while i < raw.len() {
        let plain = raw[i..].iter().position(|&b| b == b'\\').unwrap_or(raw.len() - i);
        piece(&raw[i..i + plain]);
        i += plain;
        if i == raw.len() {
            break;
        }
        let (c, len) = decode_escape(&raw[i..]);
        piece(c.encode_utf8(&mut [0u8; 4]).as_bytes());
        i += len;
    }
}

/// Whether the checked raw string `raw` decodes to `want`, without decoding it.
fn unescaped_eq(raw: &[u8], want: &[u8]) -> bool {
    let mut i = 0;
    let mut j = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            if want.get(j) != Some(&raw[i]) {
                return false;
            }
            i += 1;
            j += 1;
            continue;
        }
        let (c, len) = decode_escape(&raw[i..]);
        let mut buf = [0u8; 4];
        let enc = c.encode_utf8(&mut buf).as_bytes();
        if want.get(j..j + enc.len()) != Some(enc) {
            return false;
        }
        i += len;
        j += enc.len();
    }
    j == want.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_numbers_like_serde_json() {
        for (text, want) in [
            ("0", Number::U64(0)),
            ("-0", Number::F64(-0.0)),
            ("18446744073709551615", Number::U64(u64::MAX)),
            ("18446744073709551616", Number::F64(18446744073709551616.0)),
            ("-9223372036854775808", Number::I64(i64::MIN)),
            ("-9223372036854775809", Number::F64(-9223372036854775809.0)),
            ("1.5", Number::F64(1.5)),
            ("1e2", Number::F64(100.0)),
            ("0.1", Number::F64(0.1)),
            ("2.2250738585072014e-308", Number::F64(f64::MIN_POSITIVE)),
        ] {
            assert_eq!(Reader::new(text.as_bytes()).number().unwrap(), want, "{text}");
        }
        let e = Reader::new(b"1e400").number().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NumberOutOfRange);
    }

    #[test]
    fn escaped_key_matches_its_decoding() {
        assert!(unescaped_eq(br"a\u00e9\n", "aé\n".as_bytes()));
        assert!(!unescaped_eq(br"a\u00e9", "a".as_bytes()));
        assert!(unescaped_eq(br"\ud83d\ude00", "😀".as_bytes()));
    }
}
