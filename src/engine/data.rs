//! The engine's data files (the two weight sets and the two opening books),
//! in the browser build fetched when the engine first needs each one.
//!
//! Natively the files are built into the binary (`include_bytes!` where
//! each is read: `eval/pattern/weights.rs`, `protocol/book/mod.rs`). The
//! browser build (crate `mollett-web`, feature `data-on-demand`, which
//! counts only on wasm32: a native build of the whole workspace keeps every
//! file embedded) leaves them out of `mollett.wasm`, so that a first visit
//! does not download 18 MB of which a modern game uses 14 and a page that
//! only shows the rules none: the first use of a file asks the page for it
//! through the [`Source`] the web crate registers (docs/web.md, "What a
//! visit loads"). Each file is asked for at most once per process and kept
//! for its life, as the embedded bytes are.

use crate::rules::color::Variant;

/// One of the engine's data files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Data {
    /// `src/engine/eval/weights-*.bin` for modern positions.
    ModernWeights = 0,
    /// The classic set: classic positions, and the exact solver's move
    /// ordering in both variants (`EmbeddedEval::order_evaluate`).
    ClassicWeights = 1,
    /// `src/protocol/book/modern-*.book`.
    ModernBook = 2,
    /// `src/protocol/book/classic-*.book`.
    ClassicBook = 3,
}

impl Data {
    pub const ALL: [Data; 4] = [
        Data::ModernWeights,
        Data::ClassicWeights,
        Data::ModernBook,
        Data::ClassicBook,
    ];

    /// The weight set scoring `variant`'s positions.
    pub fn weights(variant: Variant) -> Data {
        match variant {
            Variant::Modern => Data::ModernWeights,
            Variant::Classic => Data::ClassicWeights,
        }
    }

    /// `variant`'s shipped book.
    pub fn book(variant: Variant) -> Data {
        match variant {
            Variant::Modern => Data::ModernBook,
            Variant::Classic => Data::ClassicBook,
        }
    }

    /// What it is, in words (log lines).
    pub fn name(self) -> &'static str {
        match self {
            Data::ModernWeights => "modern weights",
            Data::ClassicWeights => "classic weights",
            Data::ModernBook => "modern book",
            Data::ClassicBook => "classic book",
        }
    }
}

/// Where the browser build gets a file: its bytes, or None when it could
/// not be had (the network failed). Called at the file's first use, inside
/// whatever search needs it, so it must answer synchronously.
pub type Source = fn(Data) -> Option<Vec<u8>>;

#[cfg(all(feature = "data-on-demand", target_arch = "wasm32"))]
mod on_demand {
    use crate::engine::data::{Data, Source};
    use std::sync::OnceLock;

    static SOURCE: OnceLock<Source> = OnceLock::new();
    static LOADED: [OnceLock<&'static [u8]>; 4] = [const { OnceLock::new() }; 4];

    /// Registers where files come from (once; later calls are ignored).
    pub fn set_source(source: Source) {
        let _ = SOURCE.set(source);
    }

    /// File `d`, asked of the source on its first use. A file that could
    /// not be had reads as empty and is not kept: weights then refuse to
    /// decode and the engine stops (a trap: the page starts another
    /// Worker, which asks again); a book is looked for once, so the
    /// session plays without it.
    pub fn bytes(d: Data) -> &'static [u8] {
        let cell = &LOADED[d as usize];
        if let Some(b) = cell.get() {
            return b;
        }
        let Some(got) = SOURCE.get().and_then(|source| source(d)) else {
            log::error!("the {} could not be loaded", d.name());
            return &[];
        };
        cell.get_or_init(|| Vec::leak(got))
    }
}

#[cfg(all(feature = "data-on-demand", target_arch = "wasm32"))]
pub use on_demand::{bytes, set_source};

/// Natively every file is built in and no source is ever asked.
#[cfg(not(all(feature = "data-on-demand", target_arch = "wasm32")))]
pub fn set_source(_source: Source) {}
