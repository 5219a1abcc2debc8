//! serde_json over borrowed and fixed-size values: numbers, flags, tuples and
//! borrowed strings parse without a heap; owned strings, vectors and `Value`s do.

/// A count sent as JSON text; a malformed one is `None`.
// noalloc:root
pub fn parse_count(text: &str) -> Option<u64> {
    serde_json::from_str::<u64>(text).ok()
}

// noalloc:root
pub fn parse_flag(bytes: &[u8]) -> Result<bool, serde_json::Error> {
    serde_json::from_slice(bytes)
}

// noalloc:root
pub fn parse_pair(text: &str) -> Option<(u32, bool)> {
    serde_json::from_str(text).ok()
}

/// A string without escapes is borrowed from the input; one with an escape is
/// unescaped into the deserializer's scratch buffer first (and then refused).
// noalloc:root
pub fn parse_escaped_name_allocates(text: &str) -> usize {
    serde_json::from_str::<&str>(text).map_or(0, str::len)
}

/// A number written into a caller's fixed buffer.
// noalloc:root
pub fn write_number(buf: &mut [u8; 32], n: u64) -> usize {
    let mut rest: &mut [u8] = &mut buf[..];
    let room = rest.len();
    match serde_json::to_writer(&mut rest, &n) {
        Ok(()) => room - rest.len(),
        Err(_) => 0,
    }
}

/// A pair written into a caller's fixed buffer.
// noalloc:root
pub fn write_pair(buf: &mut [u8; 32], n: u32, flag: bool) -> Option<usize> {
    let mut rest: &mut [u8] = &mut buf[..];
    let room = rest.len();
    serde_json::to_writer(&mut rest, &(n, flag)).ok()?;
    Some(room - rest.len())
}

// noalloc:root
pub fn parse_value_allocates(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.is_object())
}

// noalloc:root
pub fn parse_name_allocates(text: &str) -> usize {
    serde_json::from_str::<String>(text).map_or(0, |s| s.len())
}

// noalloc:root
pub fn parse_list_allocates(text: &str) -> usize {
    serde_json::from_str::<Vec<u32>>(text).map_or(0, |v| v.len())
}

// noalloc:root
pub fn number_to_string_allocates(n: u64) -> usize {
    serde_json::to_string(&n).map_or(0, |s| s.len())
}
