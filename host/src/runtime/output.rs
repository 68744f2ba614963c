//! A step's log: `host.log` lines, stdout and stderr, in the order they were
//! written, under one byte budget. Output over the budget is accepted and
//! dropped, never refused: a full pipe that reports "closed" would make a
//! Rust guest's `println!` panic, turning chatty output into a trap.

use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};

use crate::model::{LogLevel, LogLine};

/// The most a guest may write to stdout or stderr in one `write`; WASI asks
/// hosts to keep this modest because some calls allocate that much.
const WRITE_PERMIT: usize = 64 * 1024;

/// Which standard stream a [`CapturedOutput`] captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn index(self) -> usize {
        match self {
            Stream::Stdout => 0,
            Stream::Stderr => 1,
        }
    }

    fn source(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }

    fn level(self) -> LogLevel {
        match self {
            Stream::Stdout => LogLevel::Info,
            Stream::Stderr => LogLevel::Warn,
        }
    }
}

/// The shared log of one step. Clones write to the same buffer.
#[derive(Clone)]
pub(super) struct LogSink(Arc<Mutex<LogBuffer>>);

struct LogBuffer {
    limit: usize,
    /// Bytes accepted so far; a line's newline counts as one byte, so that
    /// a flood of empty lines is bounded too.
    used: usize,
    dropped: u64,
    lines: Vec<LogLine>,
    /// Unfinished stdout and stderr lines.
    partial: [Vec<u8>; 2],
}

impl LogBuffer {
    /// Takes up to `wanted` bytes from the budget and counts the rest as
    /// dropped.
    fn admit(&mut self, wanted: usize) -> usize {
        let granted = wanted.min(self.limit - self.used);
        self.used += granted;
        self.dropped += (wanted - granted) as u64;
        granted
    }

    fn flush_partial(&mut self, stream: Stream) {
        let partial = std::mem::take(&mut self.partial[stream.index()]);
        if !partial.is_empty() {
            self.push_stream_line(stream, &partial);
        }
    }

    fn push_stream_line(&mut self, stream: Stream, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        self.lines.push(LogLine {
            level: stream.level(),
            source: stream.source().into(),
            message: String::from_utf8_lossy(line).into_owned(),
        });
    }
}

impl LogSink {
    /// An empty log that keeps at most `limit` bytes.
    pub(super) fn new(limit: usize) -> Self {
        LogSink(Arc::new(Mutex::new(LogBuffer {
            limit,
            used: 0,
            dropped: 0,
            lines: Vec::new(),
            partial: [Vec::new(), Vec::new()],
        })))
    }

    fn lock(&self) -> MutexGuard<'_, LogBuffer> {
        // A panic while holding the lock leaves the buffer consistent (every
        // update is a single push or counter change), so keep using it.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Appends a `host.log` line, cut short if the budget runs out.
    pub(super) fn log(&self, level: LogLevel, message: &str) {
        let mut buf = self.lock();
        let granted = buf.admit(message.len() + 1);
        if granted == 0 {
            return;
        }
        let keep = message.floor_char_boundary(granted - 1);
        buf.lines.push(LogLine {
            level,
            source: "log".into(),
            message: message[..keep].to_owned(),
        });
    }

    /// Appends bytes written to stdout or stderr, emitting a line per newline.
    pub(super) fn write(&self, stream: Stream, bytes: &[u8]) {
        let mut buf = self.lock();
        let granted = buf.admit(bytes.len());
        let mut rest = &bytes[..granted];
        while let Some(newline) = rest.iter().position(|&b| b == b'\n') {
            let (head, tail) = rest.split_at(newline);
            let partial = &mut buf.partial[stream.index()];
            if partial.is_empty() {
                buf.push_stream_line(stream, head);
            } else {
                partial.extend_from_slice(head);
                let line = std::mem::take(partial);
                buf.push_stream_line(stream, &line);
            }
            rest = &tail[1..];
        }
        buf.partial[stream.index()].extend_from_slice(rest);
    }

    /// A WASI stdout or stderr that writes into this log.
    pub(super) fn stream(&self, stream: Stream) -> CapturedOutput {
        CapturedOutput {
            sink: self.clone(),
            stream,
        }
    }

    /// The lines logged so far, unfinished lines included, and a last line
    /// saying how much was dropped, if anything was.
    pub(super) fn lines(&self) -> Vec<LogLine> {
        let mut buf = self.lock();
        buf.flush_partial(Stream::Stdout);
        buf.flush_partial(Stream::Stderr);
        let mut lines = std::mem::take(&mut buf.lines);
        if buf.dropped > 0 {
            lines.push(LogLine {
                level: LogLevel::Warn,
                source: "log".into(),
                message: format!(
                    "{} more bytes of log output were dropped: a step may log at most {} bytes",
                    buf.dropped, buf.limit
                ),
            });
        }
        lines
    }
}

/// A guest's stdout or stderr: always ready, never full, never closed.
#[derive(Clone)]
pub(super) struct CapturedOutput {
    sink: LogSink,
    stream: Stream,
}

impl IsTerminal for CapturedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CapturedOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl OutputStream for CapturedOutput {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.sink.write(self.stream, &bytes);
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(WRITE_PERMIT)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CapturedOutput {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncWrite for CapturedOutput {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.sink.write(self.stream, buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(lines: &[LogLine]) -> Vec<(&str, &str)> {
        lines
            .iter()
            .map(|l| (l.source.as_str(), l.message.as_str()))
            .collect()
    }

    #[test]
    fn lines_keep_their_order_across_sources() {
        let sink = LogSink::new(1024);
        sink.write(Stream::Stdout, b"hel");
        sink.write(Stream::Stdout, b"lo\r\nwor");
        sink.log(LogLevel::Info, "between");
        sink.write(Stream::Stderr, b"oops\n");
        sink.write(Stream::Stdout, b"ld");
        assert_eq!(
            messages(&sink.lines()),
            [
                ("stdout", "hello"),
                ("log", "between"),
                ("stderr", "oops"),
                ("stdout", "world"),
            ]
        );
    }

    #[test]
    fn output_over_the_budget_is_dropped_and_reported_once() {
        let sink = LogSink::new(10);
        let mut out = sink.stream(Stream::Stdout);
        for _ in 0..100 {
            out.write(Bytes::from_static(b"abcd\n")).unwrap();
            assert_eq!(out.check_write().unwrap(), WRITE_PERMIT);
        }
        sink.log(LogLevel::Error, "never seen");
        let lines = sink.lines();
        assert_eq!(
            messages(&lines[..2]),
            [("stdout", "abcd"), ("stdout", "abcd")]
        );
        assert_eq!(lines.len(), 3);
        assert!(
            lines[2].message.starts_with("501 more bytes"),
            "{:?}",
            lines[2]
        );
    }

    #[test]
    fn a_long_log_line_is_cut_at_a_char_boundary() {
        let sink = LogSink::new(4);
        sink.log(LogLevel::Info, "aéé");
        let lines = sink.lines();
        assert_eq!(lines[0].message, "aé");
        assert!(lines[1].message.starts_with("2 more bytes"));
    }
}
