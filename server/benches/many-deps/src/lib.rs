//! A request-handling service in miniature, leaning on the registry as services
//! do: codecs into fixed buffers (`codec`), parsing of requests (`request`) and
//! the in-memory state it keeps (`state`). Some roots are clean, some allocate.

pub mod codec;
pub mod request;
pub mod state;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ServiceError {
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    #[error("buffer full")]
    Full,
}

/// The fixed-size answer a handler writes into.
pub struct Reply {
    pub status: u16,
    pub body: [u8; 256],
    pub len: usize,
}

impl Reply {
    pub fn new() -> Reply {
        Reply { status: 200, body: [0; 256], len: 0 }
    }

    pub fn push(&mut self, bytes: &[u8]) -> Result<(), ServiceError> {
        let end = self.len + bytes.len();
        if end > self.body.len() {
            return Err(ServiceError::Full);
        }
        self.body[self.len..end].copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }
}

impl Default for Reply {
    fn default() -> Reply {
        Reply::new()
    }
}

// noalloc:root
pub fn status_line(reply: &mut Reply) -> Result<(), ServiceError> {
    let mut digits = itoa::Buffer::new();
    let status = digits.format(reply.status);
    let mut line = [0u8; 16];
    line[..status.len()].copy_from_slice(status.as_bytes());
    let n = status.len();
    reply.push(&line[..n])
}

// noalloc:root
pub fn describe(error: &ServiceError) -> String {
    log::warn!("request failed: {error}");
    error.to_string()
}

// noalloc:root
pub fn context(input: &str) -> anyhow::Result<u64> {
    let n: u64 = input.trim().parse().map_err(|_| anyhow::anyhow!("not a number: {input}"))?;
    Ok(n)
}
