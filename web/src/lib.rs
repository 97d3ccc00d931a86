//! Mollett in a Web Worker: the GTP loop of the native engine
//! ([`mollett::protocol::lines`]), fed one line at a time by `www/worker.js`
//! through plain C exports, with no generated glue. Answers and each
//! completed search iteration go back through the `mollett.emit` import;
//! the engine's weights and books come in through `mollett.data_size` and
//! `mollett.data_copy` when it first needs each.

use mollett::engine::data::Data;
use mollett::engine::search::Progress;
use mollett::protocol::lines::Lines;
use mollett::protocol::Options;
use mollett::Variant;
use std::cell::RefCell;
use std::io::{self, Write};

/// What an emitted text is, as `worker.js` reads the `kind` argument.
#[repr(u32)]
enum Kind {
    /// Protocol answers, as the native engine writes them on stdout.
    Answer = 0,
    /// `info <progress>`: a search's completed step, as the native engine's
    /// log shows it (`depth 12 +3.50 nodes 123456 0.42 s pv d3 c5 f6`).
    Info = 1,
}

#[link(wasm_import_module = "mollett")]
extern "C" {
    /// Hands `len` bytes of UTF-8 at `ptr` to the page; they are copied
    /// before it returns.
    fn emit(kind: u32, ptr: *const u8, len: usize);
    /// The length of data file `data` ([`Data`] as a number), had by the
    /// page now (synchronously: the engine is inside a search), or -1 when
    /// it cannot be had.
    fn data_size(data: u32) -> i32;
    /// Copies the file [`data_size`] just measured to `ptr`.
    fn data_copy(data: u32, ptr: *mut u8);
}

/// The engine's data files, from the page at their first use
/// (`mollett::engine::data`): not in the module, so a visit downloads only
/// those its games use.
fn fetch(data: Data) -> Option<Vec<u8>> {
    // SAFETY: plain calls into the page's glue (worker.js), which writes
    // exactly the `len` bytes it measured into the buffer it is given.
    unsafe {
        let len = usize::try_from(data_size(data as u32)).ok()?;
        let mut bytes = vec![0u8; len];
        data_copy(data as u32, bytes.as_mut_ptr());
        Some(bytes)
    }
}

fn send(kind: Kind, bytes: &[u8]) {
    // SAFETY: the glue copies the bytes out of linear memory before
    // returning, and the slice outlives the call.
    unsafe { emit(kind as u32, bytes.as_ptr(), bytes.len()) }
}

/// The answer stream: bytes are held until the responder flushes (at the
/// end of each answer), then go to the page in one piece.
struct PageOut(Vec<u8>);

impl Write for PageOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        if !self.0.is_empty() {
            send(Kind::Answer, &self.0);
            self.0.clear();
        }
        Ok(())
    }
}

thread_local! {
    static SESSION: RefCell<Option<Lines<PageOut>>> = const { RefCell::new(None) };
}

/// `len` bytes the page may write a line into; it gives them back to
/// [`mollett_line`], which frees them.
#[no_mangle]
pub extern "C" fn mollett_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Starts a session with the default options: 0 modern, 1 classic.
/// Answers 0, or 1 when the engine cannot start (its tables do not fit).
#[no_mangle]
pub extern "C" fn mollett_start(variant: u32) -> u32 {
    mollett::engine::data::set_source(fetch);
    let variant = if variant == 1 {
        Variant::Classic
    } else {
        Variant::Modern
    };
    match Lines::new(variant, Options::default(), PageOut(Vec::new())) {
        Ok(lines) => {
            SESSION.with(|s| *s.borrow_mut() = Some(lines));
            0
        }
        Err(_) => 1,
    }
}

/// Reads the line of `len` bytes at `ptr` (from [`mollett_alloc`], freed
/// here) and answers it through `emit` before returning. Answers 1 once the
/// session has ended (`quit`) or was never started, else 0.
///
/// # Safety
/// `ptr` must come from `mollett_alloc(cap)` with `len <= cap` bytes written.
#[no_mangle]
pub unsafe extern "C" fn mollett_line(ptr: *mut u8, len: usize, cap: usize) -> u32 {
    // SAFETY: the caller's contract above.
    let line = unsafe { Vec::from_raw_parts(ptr, len, cap.max(1)) };
    let progress = |p: &Progress| send(Kind::Info, format!("info {p}").as_bytes());
    SESSION.with(|s| {
        let mut s = s.borrow_mut();
        let Some(lines) = s.as_mut() else {
            return 1;
        };
        let ended = lines.line(&line, &progress).unwrap_or(true);
        u32::from(ended)
    })
}
