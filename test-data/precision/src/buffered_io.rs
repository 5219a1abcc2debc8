//! std's buffered I/O: `BufWriter` guards its own buffer (it flushes when the data
//! would not fit, then copies into the buffer it already has), so writing through
//! one made with its capacity never allocates, over a `File`, a `Sink` or a writer
//! of the workspace's own that does not allocate. Making one allocates its buffer.

use std::fs::File;
use std::io::{self, BufWriter, Sink, Write};

/// A writer into a fixed array: never allocates.
pub struct Fixed {
    pub bytes: [u8; 64],
    pub len: usize,
}

impl Write for Fixed {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let n = data.len().min(self.bytes.len() - self.len);
        self.bytes[self.len..self.len + n].copy_from_slice(&data[..n]);
        self.len = (self.len + n) % self.bytes.len();
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

// noalloc:root
pub fn write_record(out: &mut BufWriter<File>, record: &[u8]) -> io::Result<()> {
    out.write_all(record)
}

// noalloc:root
pub fn write_parts(out: &mut BufWriter<Sink>, head: &[u8], body: &[u8]) -> io::Result<usize> {
    let n = out.write(head)?;
    out.write_all(body)?;
    Ok(n + body.len())
}

// noalloc:root
pub fn write_number(out: &mut BufWriter<Sink>, n: u32) -> io::Result<()> {
    write!(out, "{n};")
}

// noalloc:root
pub fn write_through_fixed(out: &mut BufWriter<Fixed>, record: &[u8]) -> io::Result<()> {
    out.write_all(record)?;
    out.flush()
}

// noalloc:root
pub fn flush_records(out: &mut BufWriter<File>) -> io::Result<()> {
    out.flush()
}

// noalloc:root
pub fn write_record_allocates(file: &File, record: &[u8]) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64, file);
    out.write_all(record)
}

// noalloc:root
pub fn write_to_vec_allocates(out: &mut Vec<u8>, record: &[u8]) -> io::Result<()> {
    out.write_all(record)
}
