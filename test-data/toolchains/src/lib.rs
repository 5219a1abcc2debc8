//! The bundled example, plus `write!` into `&mut [u8]` and into a `String`, a
//! `write!` of a literal, and an iterator sum: the roots whose verdicts must not
//! depend on the std release.
use std::fmt::Write;

pub struct Response {
    pub status: u16,
    pub body: [u8; 64],
    pub len: usize,
}

impl Write for Response {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.body.len() {
            return Err(std::fmt::Error);
        }
        self.body[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

// noalloc:root
pub fn handle(path: &str, response: &mut Response) {
    response.status = 200;
    let _ = write!(response, "hello {}", path.len());
    log_request(path);
}

fn log_request(path: &str) {
    let line = format!("GET {path}");
    std::hint::black_box(line);
}

// noalloc:root
pub fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0u32, |acc, &b| acc.rotate_left(5) ^ u32::from(b))
}

// noalloc:root
pub fn render_code(code: u16, out: &mut [u8]) -> usize {
    use std::io::Write as _;
    let total = out.len();
    let mut rest: &mut [u8] = out;
    let _ = write!(rest, "{}", code);
    total - rest.len()
}

// noalloc:root
pub fn total(values: &[u32]) -> u32 {
    values.iter().sum()
}

// noalloc:root
pub fn matches_and_vec(code: u16) -> bool {
    let ok = matches!(code, 200..=299);
    let codes = vec![code];
    ok && codes.len() == 1
}

// noalloc:root
pub fn hex(value: u32, out: &mut Response) -> bool {
    write!(out, "{value:#010x} {:>8} {:?}", value, "x").is_ok() && format_args!("plain").as_str().is_some()
}

// noalloc:root
pub fn render_into_string(code: u16, out: &mut String) {
    let _ = write!(out, "{code}");
}

/// A literal: no argument is made, so nothing stands behind an argument's formatter.
// noalloc:root
pub fn ready(out: &mut Response) -> bool {
    write!(out, "ready").is_ok()
}

/// A unit struct boxed (`Box::new`'s `box_new` or `new_uninit` in older releases)
/// and a `Vec` of `()` with room for `n`: zero bytes each, in every release.
// noalloc:root
pub fn zero_sized(n: usize) -> usize {
    let unit = Box::new(Nothing);
    let units: Vec<()> = Vec::with_capacity(n);
    std::mem::size_of_val(&*unit) + units.capacity().min(1)
}

pub struct Nothing;

// noalloc:root
pub fn boxed_code(code: u16) -> u16 {
    *Box::new(code)
}

pub mod derives;
