//! A request handler that should never allocate, and one helper that does.
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

pub fn unmarked_tags(count: usize) -> Vec<u32> {
    (0..count as u32).collect()
}
