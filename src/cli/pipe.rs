//! Standard output as the headless commands write it: a reader that stops reading early
//! (`ome-top analyze | head -1`) ends the output quietly. Rust ignores SIGPIPE, so a write to a
//! closed pipe fails with `BrokenPipe`; that failure means "nobody reads the rest", not an
//! error of the command, so the rest is dropped and the command ends as it would have
//! (status 0, nothing on stderr).
//!
//! Owns: `QuietPipe`. No business logic.

use std::io::{self, Write};

/// A writer that drops everything after its reader went away.
pub struct QuietPipe<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> QuietPipe<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        QuietPipe {
            inner,
            closed: false,
        }
    }

    /// Whether the reader went away (everything since was dropped).
    pub fn closed(&self) -> bool {
        self.closed
    }

    fn quiet(&mut self, result: io::Result<usize>, len: usize) -> io::Result<usize> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(len)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for QuietPipe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let written = self.inner.write(buf);
        self.quiet(written, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes `room` bytes, then its reader is gone.
    struct Pipe {
        room: usize,
        got: Vec<u8>,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.got.len() >= self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room - self.got.len());
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_reader_ends_the_output_quietly() {
        let mut out = QuietPipe::new(Pipe {
            room: 7,
            got: Vec::new(),
        });
        writeln!(out, "line 1").unwrap();
        assert!(!out.closed());
        out.flush().unwrap();
        writeln!(out, "line 2").unwrap();
        out.flush().unwrap();
        assert!(out.closed());
        assert_eq!(out.inner.got, b"line 1\n");
    }

    #[test]
    fn other_errors_still_fail() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut out = QuietPipe::new(Full);
        assert!(writeln!(out, "x").is_err());
    }
}
