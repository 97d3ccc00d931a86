//! Helpers to drive the protocol in-process.

use mollett::Variant;
use std::io::{self, BufRead, Cursor, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Runs a whole script (input then end of input) and returns everything written.
pub fn run_bytes(variant: Variant, input: &[u8]) -> String {
    let mut out = Vec::new();
    mollett::protocol::run(Cursor::new(input.to_vec()), &mut out, variant).expect("run");
    String::from_utf8(out).expect("output is UTF-8")
}

pub fn run(input: &str) -> String {
    run_bytes(Variant::Modern, input.as_bytes())
}

/// Splits output into answers (each without its closing empty line).
pub fn answers(output: &str) -> Vec<String> {
    assert!(
        output.is_empty() || output.ends_with("\n\n"),
        "output not closed by an empty line: {output:?}"
    );
    output
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect()
}

/// The answers of a script, one per answered line.
pub fn ask(input: &str) -> Vec<String> {
    answers(&run(input))
}

/// Input that blocks until lines are sent, ending when `Live` is dropped or `close`d.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(bytes) => {
                    self.buf = bytes;
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

#[derive(Clone, Default)]
pub struct SharedOut(Arc<Mutex<Vec<u8>>>);

impl Write for SharedOut {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A protocol session running on its own thread, fed line by line.
pub struct Live {
    tx: Option<Sender<Vec<u8>>>,
    out: SharedOut,
    handle: Option<JoinHandle<io::Result<()>>>,
}

impl Live {
    pub fn new(variant: Variant) -> Live {
        let (tx, rx) = mpsc::channel();
        let out = SharedOut::default();
        let writer = out.clone();
        let handle = thread::spawn(move || {
            let reader = ChannelReader {
                rx,
                buf: Vec::new(),
                pos: 0,
            };
            mollett::protocol::run(reader, writer, variant)
        });
        Live {
            tx: Some(tx),
            out,
            handle: Some(handle),
        }
    }

    pub fn send(&self, text: &str) {
        self.tx
            .as_ref()
            .expect("open")
            .send(text.as_bytes().to_vec())
            .unwrap();
    }

    pub fn output(&self) -> String {
        String::from_utf8(self.out.0.lock().unwrap().clone()).unwrap()
    }

    /// Waits until at least `n` answers have been written; panics after `timeout`.
    pub fn wait(&self, n: usize, timeout: Duration) -> Vec<String> {
        let start = Instant::now();
        loop {
            let out = self.output();
            let count = out.matches("\n\n").count();
            if count >= n {
                let cut = out.match_indices("\n\n").nth(n - 1).unwrap().0 + 2;
                return answers(&out[..cut]);
            }
            assert!(
                start.elapsed() < timeout,
                "timed out waiting for {n} answers; got {out:?}"
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Ends the input and waits for `run` to return.
    pub fn close(mut self, timeout: Duration) -> String {
        self.tx = None;
        let handle = self.handle.take().unwrap();
        let start = Instant::now();
        while !handle.is_finished() {
            assert!(
                start.elapsed() < timeout,
                "run did not return after end of input"
            );
            thread::sleep(Duration::from_millis(5));
        }
        handle.join().unwrap().unwrap();
        self.output()
    }
}

/// Like [`ask`], but the input stays open until every command is answered:
/// end of input stops a running search, so a script whose search results
/// matter must not end before they do.
pub fn ask_unhurried(input: &str) -> Vec<String> {
    let live = Live::new(Variant::Modern);
    live.send(input);
    let n = input.lines().filter(|l| !l.trim().is_empty()).count();
    let a = live.wait(n, Duration::from_secs(120));
    live.close(Duration::from_secs(10));
    a
}

/// The legal moves the engine reports for the current position of a script.
pub fn legal_after(setup: &str) -> Vec<String> {
    let a = ask(&format!("{setup}legal\n"));
    let last = a.last().expect("an answer").clone();
    last.trim_start_matches('=')
        .split_whitespace()
        .map(str::to_string)
        .collect()
}
