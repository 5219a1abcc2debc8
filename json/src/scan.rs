//! Byte scanning shared by the reader and the writer: finding the next byte of a
//! string that is not plain (quote, backslash, control character), eight at a time.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// High bit set in each byte of `w` that is `"`, `\` or below 0x20. Bytes above the
/// first flagged one may be flagged wrongly; only the lowest flag is meaningful.
#[inline(always)]
fn specials(w: u64) -> u64 {
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    let zero_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_quote | zero_backslash | control) & HIGHS
}

/// Length of the prefix of `bytes` holding no quote, backslash or control byte.
#[inline]
pub(crate) fn plain_prefix(bytes: &[u8]) -> usize {
    let mut i = 0;
    while i + 8 <= bytes.len() {
        let w = u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        let m = specials(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' || b == b'\\' || b < 0x20 {
            return i;
        }
        i += 1;
    }
    i
}

/// Like [`plain_prefix`], and also whether the bytes looked at may hold non-ASCII
/// (a conservative answer: bytes just past the prefix may count).
#[inline]
pub(crate) fn plain_prefix_ascii(bytes: &[u8]) -> (usize, bool) {
    let mut i = 0;
    let mut high = 0u64;
    while i + 8 <= bytes.len() {
        let w = u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        high |= w;
        let m = specials(w);
        if m != 0 {
            return (i + (m.trailing_zeros() / 8) as usize, high & HIGHS != 0);
        }
        i += 8;
    }
    let mut high = (high & HIGHS) != 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' || b == b'\\' || b < 0x20 {
            return (i, high);
        }
        high |= b >= 0x80;
        i += 1;
    }
    (i, high)
}

#[cfg(test)]
mod tests {
    use super::{plain_prefix, plain_prefix_ascii};

    #[test]
    fn notices_non_ascii_before_the_special_byte() {
        assert_eq!(plain_prefix_ascii(b"abcdefghij\\"), (10, false));
        assert_eq!(plain_prefix_ascii("abcdefgh\u{e9}ij\"".as_bytes()), (12, true));
        assert_eq!(plain_prefix_ascii("\u{e9}\"".as_bytes()), (2, true));
    }

    #[test]
    fn finds_first_special_byte() {
        for (input, want) in [
            (&b"abcdefghijk\"x"[..], 11),
            (b"abc\\", 3),
            (b"\x01", 0),
            (b"plain text without end", 22),
            (b"\x7f\xff\xc3\xa9 ok\x1f", 7),
            (b"0123456\"", 7),
        ] {
            assert_eq!(plain_prefix(input), want, "{:?}", input);
        }
    }
}
