//! JSON-RPC over stdio, framed by `Content-Length` headers. Owns the reader and
//! writer threads. Unlike `lsp_server::Connection::stdio`, a malformed message does
//! not end the connection: it arrives as `Incoming::Malformed` so the main loop can
//! answer it with an error response and go on.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{unbounded, Receiver, Sender};
use lsp_server::{ErrorCode, Message, RequestId};

/// What the reader thread hands the main loop.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// A frame that is not a JSON-RPC message: answer with `code` (and `id` when the
    /// frame had one).
    Malformed {
        id: Option<RequestId>,
        code: ErrorCode,
        message: String,
    },
}

/// What the main loop hands the writer thread.
#[derive(Debug)]
pub enum Outgoing {
    Message(Message),
    /// An error response whose id could not be read (`"id": null`).
    ErrorWithoutId {
        code: ErrorCode,
        message: String,
    },
}

impl From<Message> for Outgoing {
    fn from(message: Message) -> Outgoing {
        Outgoing::Message(message)
    }
}

pub struct IoThreads {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for the writer to flush everything sent before the sender was dropped.
    /// The reader is left alone: it may be blocked on stdin that never closes.
    pub fn join_writer(self) -> io::Result<()> {
        drop(self.reader);
        self.writer.join().unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")))
    }
}

/// Starts the stdio threads.
pub fn stdio() -> (Sender<Outgoing>, Receiver<Incoming>, IoThreads) {
    let (out_tx, out_rx) = unbounded::<Outgoing>();
    let (in_tx, in_rx) = unbounded::<Incoming>();
    let writer = thread::Builder::new()
        .name("noalloc-writer".to_owned())
        .spawn(move || {
            let stdout = io::stdout();
            let mut stdout = stdout.lock();
            for message in out_rx {
                write_message(&mut stdout, &message)?;
            }
            Ok(())
        })
        .expect("spawn the writer thread");
    let reader = thread::Builder::new()
        .name("noalloc-reader".to_owned())
        .spawn(move || {
            let stdin = io::stdin();
            let mut stdin = stdin.lock();
            read_loop(&mut stdin, &in_tx);
        })
        .expect("spawn the reader thread");
    (out_tx, in_rx, IoThreads { reader, writer })
}

/// Reads frames until end of input (or until the main loop stops listening).
pub fn read_loop(input: &mut dyn BufRead, sink: &Sender<Incoming>) {
    let mut input = Resync { held: Vec::new(), at: 0, input };
    loop {
        let incoming = match read_frame(&mut input) {
            Ok(Some(Frame::Body(body))) => parse_message(&body),
            Ok(Some(Frame::BadHeader(message))) => {
                Incoming::Malformed { id: None, code: ErrorCode::ParseError, message }
            }
            Ok(None) => return,
            Err(err) => {
                tracing::error!("reading stdin: {err}");
                return;
            }
        };
        let is_exit = matches!(&incoming, Incoming::Message(Message::Notification(n)) if n.method == "exit");
        if sink.send(incoming).is_err() || is_exit {
            return;
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    BadHeader(String),
}

/// The input, with the bytes a wrong `Content-Length` took from the frames after
/// it given back: they are read again, from the next `Content-Length:` header on.
struct Resync<'a> {
    held: Vec<u8>,
    at: usize,
    input: &'a mut dyn BufRead,
}

impl Resync<'_> {
    fn give_back(&mut self, bytes: &[u8]) {
        let mut held = bytes.to_vec();
        held.extend_from_slice(&self.held[self.at..]);
        (self.held, self.at) = (held, 0);
    }
}

impl Read for Resync<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Resync<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at < self.held.len() {
            return Ok(&self.held[self.at..]);
        }
        self.input.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if self.at < self.held.len() {
            self.at += amount;
            if self.at == self.held.len() {
                (self.held, self.at) = (Vec::new(), 0);
            }
        } else {
            self.input.consume(amount);
        }
    }
}

const LENGTH_HEADER: &[u8] = b"content-length:";

/// Where the next `Content-Length:` header starts in `bytes` (any case).
fn next_length_header(bytes: &[u8]) -> Option<usize> {
    bytes.windows(LENGTH_HEADER.len()).position(|w| w.eq_ignore_ascii_case(LENGTH_HEADER))
}

/// Where the message in `body` ends when the body holds more than one JSON
/// value (a length too long took in the start of the next frame): after its first
/// value, or else at a `Content-Length:` header it holds. `None` for a body that
/// is one value, or no JSON and no header.
fn end_of_message(body: &[u8]) -> Option<usize> {
    let mut values = serde_json::Deserializer::from_slice(body).into_iter::<serde::de::IgnoredAny>();
    match values.next() {
        Some(Ok(_)) => {
            let end = values.byte_offset();
            body[end..].iter().any(|b| !b.is_ascii_whitespace()).then_some(end)
        }
        _ => next_length_header(body).filter(|&at| at > 0),
    }
}

/// One frame: headers, a blank line, then `Content-Length` bytes. A header block
/// without a usable length is reported and skipped. A wrong length does not lose
/// the frames after it: a header line with text before its `Content-Length:` (the
/// tail of a body read short) is read from the header on, and a body that runs
/// on past its message (a length too long) ends with it, the rest read again as
/// the start of the next frame.
fn read_frame(input: &mut Resync<'_>) -> io::Result<Option<Frame>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut line = String::new();
    let mut saw_header = false;
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            if !saw_header {
                continue; // stray blank lines between frames
            }
            break;
        }
        saw_header = true;
        let header = next_length_header(trimmed.as_bytes()).map_or(trimmed, |at| &trimmed[at..]);
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = Some(value.trim().parse::<usize>().map_err(|_| format!("bad Content-Length: {value:?}")));
            }
        }
    }
    match length {
        Some(Ok(length)) if length <= MAX_MESSAGE => {
            let mut body = vec![0; length];
            input.read_exact(&mut body)?;
            if let Some(end) = end_of_message(&body) {
                input.give_back(&body[end..]);
                body.truncate(end);
            }
            Ok(Some(Frame::Body(body)))
        }
        Some(Ok(length)) => {
            io::copy(&mut input.take(length as u64), &mut io::sink())?;
            Ok(Some(Frame::BadHeader(format!("message of {length} bytes is larger than the limit"))))
        }
        Some(Err(message)) => Ok(Some(Frame::BadHeader(message))),
        None => Ok(Some(Frame::BadHeader("header block without Content-Length".to_owned()))),
    }
}

/// Large enough for a 50k-line file in one `didOpen`.
const MAX_MESSAGE: usize = 256 << 20;

fn parse_message(body: &[u8]) -> Incoming {
    let value: serde_json::Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(err) => {
            return Incoming::Malformed {
                id: None,
                code: ErrorCode::ParseError,
                message: format!("invalid JSON: {err}"),
            };
        }
    };
    let id = value.get("id").and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let has_method = value.get("method").is_some_and(|m| m.is_string());
    let is_response = value.get("result").is_some() || value.get("error").is_some();
    if !value.is_object() || (!has_method && !is_response) {
        return Incoming::Malformed {
            id,
            code: ErrorCode::InvalidRequest,
            message: "not a JSON-RPC request, response or notification".to_owned(),
        };
    }
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(err) => {
            Incoming::Malformed { id, code: ErrorCode::InvalidRequest, message: format!("invalid message: {err}") }
        }
    }
}

fn write_message(out: &mut dyn Write, message: &Outgoing) -> io::Result<()> {
    let text = match message {
        Outgoing::Message(message) => {
            let mut buf = Vec::new();
            message.write(&mut buf)?;
            return out.write_all(&buf).and_then(|()| out.flush());
        }
        Outgoing::ErrorWithoutId { code, message } => serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": *code as i32, "message": message },
        })
        .to_string(),
    };
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &str) -> Vec<Incoming> {
        let (tx, rx) = unbounded();
        read_loop(&mut io::Cursor::new(input.as_bytes().to_vec()), &tx);
        drop(tx);
        rx.into_iter().collect()
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn malformed_frames_do_not_end_the_stream() {
        let input = [
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","id":7}"#),
            "Content-Type: x\r\n\r\n".to_owned(),
            frame(r#"[1,2]"#),
            frame(r#"{"jsonrpc":"2.0","id":8,"method":"shutdown"}"#),
        ]
        .concat();
        let got: Vec<String> = read_all(&input)
            .into_iter()
            .map(|m| match m {
                Incoming::Message(Message::Request(r)) => format!("request {} {}", r.id, r.method),
                Incoming::Message(other) => format!("{other:?}"),
                Incoming::Malformed { id, code, .. } => format!("malformed {id:?} {code:?}"),
            })
            .collect();
        assert_eq!(
            got,
            [
                "malformed None ParseError",
                "malformed Some(RequestId(I32(7))) InvalidRequest",
                "malformed None ParseError",
                "malformed None InvalidRequest",
                "request 8 shutdown",
            ]
        );
    }

    fn summary(incoming: Vec<Incoming>) -> Vec<String> {
        incoming
            .into_iter()
            .map(|m| match m {
                Incoming::Message(Message::Request(r)) => format!("request {} {}", r.id, r.method),
                Incoming::Message(Message::Notification(n)) => format!("notification {}", n.method),
                Incoming::Message(other) => format!("{other:?}"),
                Incoming::Malformed { id, code, .. } => format!("malformed {id:?} {code:?}"),
            })
            .collect()
    }

    #[test]
    fn a_length_too_long_loses_nothing_after_it() {
        let first = r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#;
        let input = [
            format!("Content-Length: {}\r\n\r\n{first}", first.len() + 5),
            frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#),
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
        ]
        .concat();
        assert_eq!(summary(read_all(&input)), ["request 1 a", "request 2 shutdown", "notification exit"]);
    }

    #[test]
    fn a_length_too_short_costs_its_own_frame_only() {
        let first = r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#;
        let input = [
            format!("Content-Length: {}\r\n\r\n{first}", first.len() - 4),
            frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#),
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
        ]
        .concat();
        assert_eq!(summary(read_all(&input)), ["malformed None ParseError", "request 2 shutdown", "notification exit"]);
    }
}
