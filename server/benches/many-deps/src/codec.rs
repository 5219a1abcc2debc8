//! Encodings into caller-owned buffers: base64, hex, checksums, identifiers.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use uuid::Uuid;

// noalloc:root
pub fn encode_base64(input: &[u8], out: &mut [u8; 128]) -> Option<usize> {
    STANDARD.encode_slice(input, out).ok()
}

// noalloc:root
pub fn encode_base64_owned(input: &[u8]) -> String {
    STANDARD.encode(input)
}

// noalloc:root
pub fn encode_hex(input: &[u8; 16], out: &mut [u8; 32]) -> bool {
    hex::encode_to_slice(input, out).is_ok()
}

// noalloc:root
pub fn checksum(input: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(input);
    hasher.finalize()
}

// noalloc:root
pub fn request_id(bytes: [u8; 16], out: &mut [u8; 36]) -> usize {
    let id = Uuid::from_bytes(bytes);
    id.hyphenated().encode_lower(out).len()
}

// noalloc:root
pub fn find_header_end(buf: &[u8]) -> Option<usize> {
    memchr::memmem::find(buf, b"\r\n\r\n")
}

// noalloc:root
pub fn count_lines(buf: &[u8]) -> usize {
    use bstr::ByteSlice;
    buf.lines().count()
}
