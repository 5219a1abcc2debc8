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
        self.writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")))
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
    loop {
        let incoming = match read_frame(input) {
            Ok(Some(Frame::Body(body))) => parse_message(&body),
            Ok(Some(Frame::BadHeader(message))) => Incoming::Malformed {
                id: None,
                code: ErrorCode::ParseError,
                message,
            },
            Ok(None) => return,
            Err(err) => {
                tracing::error!("reading stdin: {err}");
                return;
            }
        };
        let is_exit =
            matches!(&incoming, Incoming::Message(Message::Notification(n)) if n.method == "exit");
        if sink.send(incoming).is_err() || is_exit {
            return;
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    BadHeader(String),
}

/// One frame: headers, a blank line, then `Content-Length` bytes. A header block
/// without a usable length is reported and skipped.
fn read_frame(input: &mut dyn BufRead) -> io::Result<Option<Frame>> {
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
        if let Some((name, value)) = trimmed.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = Some(
                    value
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| format!("bad Content-Length: {value:?}")),
                );
            }
        }
    }
    match length {
        Some(Ok(length)) if length <= MAX_MESSAGE => {
            let mut body = vec![0; length];
            input.read_exact(&mut body)?;
            Ok(Some(Frame::Body(body)))
        }
        Some(Ok(length)) => {
            io::copy(&mut input.take(length as u64), &mut io::sink())?;
            Ok(Some(Frame::BadHeader(format!(
                "message of {length} bytes is larger than the limit"
            ))))
        }
        Some(Err(message)) => Ok(Some(Frame::BadHeader(message))),
        None => Ok(Some(Frame::BadHeader(
            "header block without Content-Length".to_owned(),
        ))),
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
    let id = value
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
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
        Err(err) => Incoming::Malformed {
            id,
            code: ErrorCode::InvalidRequest,
            message: format!("invalid message: {err}"),
        },
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
}
