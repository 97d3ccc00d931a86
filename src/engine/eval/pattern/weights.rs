//! The weight file: compact quantised weights, their binary format (with
//! the checksum of the pattern definitions they were made for), and the set
//! shipped in the binary.

use super::set::{pattern_set, set_with_checksum, PatternSet};
use std::fmt;
use std::path::Path;

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightError(pub String);

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WeightError {}

/// File magic.
pub const MAGIC: &[u8; 8] = b"MOLLWGT\0";
/// File format version: 2 ends with the CRC-32 of the bytes before it;
/// 1 (no checksum of its weights) is still read.
pub const VERSION: u32 = 2;
/// Bytes of the checksum that ends a version 2 file.
const CHECKSUM_LEN: usize = 4;
/// Payload encodings.
const ENC_RAW: u32 = 0;
const ENC_ZERO_RUNS: u32 = 1;
/// In the zero-run encoding, this word is followed by a `u16` count of zeros.
const ZERO_RUN: i16 = i16::MIN;
const HEADER_LEN: usize = 8 + 4 * 4 + 8;

/// Compact quantised weights for one layout's patterns: per stage, each
/// pattern's slots then the globals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// The layout the weights are for.
    pub set: &'static PatternSet,
    pub stages: usize,
    pub data: Vec<i16>,
}

impl PatternWeights {
    /// Weights per stage: pattern slots plus globals.
    pub fn per_stage(&self) -> usize {
        self.set.weights_per_stage()
    }

    /// All-zero weights for the default layout.
    pub fn zeros(stages: usize) -> PatternWeights {
        PatternWeights::zeros_for(pattern_set(), stages)
    }

    /// All-zero weights for `set`'s layout.
    pub fn zeros_for(set: &'static PatternSet, stages: usize) -> PatternWeights {
        PatternWeights {
            set,
            stages,
            data: vec![0; stages * set.weights_per_stage()],
        }
    }

    /// The file: header (magic `MOLLWGT\0`, version u32, stages u32, weights
    /// per stage u32, encoding u32, pattern checksum u64; all little-endian),
    /// then the weights as little-endian `i16` words, runs of zeros written as
    /// `i16::MIN` followed by the run length (`u16`), then the CRC-32 (IEEE)
    /// of every byte before it (u32).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.data.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.stages as u32).to_le_bytes());
        out.extend_from_slice(&(self.per_stage() as u32).to_le_bytes());
        out.extend_from_slice(&ENC_ZERO_RUNS.to_le_bytes());
        out.extend_from_slice(&self.set.checksum.to_le_bytes());
        let mut i = 0;
        while i < self.data.len() {
            let w = self.data[i];
            if w == 0 {
                let mut n = 0usize;
                while i + n < self.data.len() && self.data[i + n] == 0 && n < u16::MAX as usize {
                    n += 1;
                }
                out.extend_from_slice(&ZERO_RUN.to_le_bytes());
                out.extend_from_slice(&(n as u16).to_le_bytes());
                i += n;
            } else {
                // i16::MIN is the run marker; the trainer never writes it.
                out.extend_from_slice(&w.max(-i16::MAX).to_le_bytes());
                i += 1;
            }
        }
        let sum = crc32fast::hash(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightError> {
        let err = |m: &str| Err(WeightError(m.to_string()));
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return err("not a Mollett weight file (bad magic)");
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let end = match u32_at(8) {
            1 => {
                log::warn!("a version 1 weight file: no checksum of its weights to check them by");
                bytes.len()
            }
            VERSION if bytes.len() >= HEADER_LEN + CHECKSUM_LEN => {
                let end = bytes.len() - CHECKSUM_LEN;
                let stored = u32::from_le_bytes(bytes[end..].try_into().expect("4 bytes"));
                if crc32fast::hash(&bytes[..end]) != stored {
                    return err(
                        "damaged weight file: its contents do not match its checksum (CRC-32)",
                    );
                }
                end
            }
            VERSION => return err("truncated weight file"),
            _ => return err("unsupported weight file version"),
        };
        let stages = u32_at(12) as usize;
        let per_stage = u32_at(16) as usize;
        let encoding = u32_at(20);
        let checksum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        let set = match set_with_checksum(checksum) {
            Some(set) if per_stage == set.weights_per_stage() => set,
            _ => return err("weight file was made for other patterns (checksum mismatch)"),
        };
        if stages == 0 || stages > 60 {
            return err("weight file stage count must be 1 to 60");
        }
        let total = stages * per_stage;
        let payload = &bytes[HEADER_LEN..end];
        if !payload.len().is_multiple_of(2) {
            return err("truncated weight file");
        }
        let mut data = Vec::with_capacity(total);
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        match encoding {
            ENC_RAW => data.extend(words),
            ENC_ZERO_RUNS => {
                while let Some(w) = words.next() {
                    if w == ZERO_RUN {
                        let n = match words.next() {
                            Some(n) => n as u16 as usize,
                            None => return err("truncated weight file"),
                        };
                        data.resize(data.len() + n, 0);
                    } else {
                        data.push(w);
                    }
                    if data.len() > total {
                        break;
                    }
                }
            }
            _ => return err("unknown weight encoding"),
        }
        if data.len() != total {
            return err("weight file has the wrong number of weights");
        }
        Ok(PatternWeights { set, stages, data })
    }

    /// Reads a weight file.
    pub fn read(path: &Path) -> Result<PatternWeights, WeightError> {
        crate::files::regular_input(path).map_err(WeightError)?;
        let bytes =
            std::fs::read(path).map_err(|e| WeightError(format!("{}: {e}", path.display())))?;
        PatternWeights::from_bytes(&bytes)
            .map_err(|e| WeightError(format!("{}: {e}", path.display())))
    }

    /// Writes a weight file, replacing any old one whole (a full disk or a
    /// crash leaves the old file as it was).
    pub fn write(&self, path: &Path) -> Result<(), WeightError> {
        crate::files::replace(path, &self.to_bytes()).map_err(WeightError)
    }
}

/// The weights shipped in the binary for modern positions
/// (`src/engine/eval/weights-d0b77ce974ee.bin`, the seventh set: layout `v2`, 30 stages).
#[cfg(not(all(feature = "data-on-demand", target_arch = "wasm32")))]
pub static EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../weights-d0b77ce974ee.bin");

/// The weights shipped in the binary for classic positions
/// (`src/engine/eval/weights-classic-940b0d836c04.bin`, the fourth set: docs/training.md
/// says why each variant has its own).
#[cfg(not(all(feature = "data-on-demand", target_arch = "wasm32")))]
pub static EMBEDDED_CLASSIC_WEIGHTS: &[u8] = include_bytes!("../weights-classic-940b0d836c04.bin");

/// The shipped weight file for `variant`'s positions: built in, or in the
/// browser build fetched on this first use (`engine::data`).
pub fn shipped_bytes(variant: crate::rules::color::Variant) -> &'static [u8] {
    #[cfg(all(feature = "data-on-demand", target_arch = "wasm32"))]
    return crate::engine::data::bytes(crate::engine::data::Data::weights(variant));
    #[cfg(not(all(feature = "data-on-demand", target_arch = "wasm32")))]
    match variant {
        crate::rules::color::Variant::Modern => EMBEDDED_WEIGHTS,
        crate::rules::color::Variant::Classic => EMBEDDED_CLASSIC_WEIGHTS,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_weights;
    use super::*;

    #[test]
    fn weight_file_round_trips() {
        let w = random_weights(4, 3);
        let bytes = w.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), w);
        let z = PatternWeights::zeros(15);
        let zb = z.to_bytes();
        assert!(zb.len() < 1000, "zeros compress");
        assert_eq!(PatternWeights::from_bytes(&zb).unwrap(), z);
        let mut bad = bytes.clone();
        bad[24] ^= 1;
        assert!(PatternWeights::from_bytes(&bad).is_err());
        // Any one bit flipped anywhere, the weights' too, is refused.
        for at in [9, 33, bytes.len() / 2, bytes.len() - 5, bytes.len() - 1] {
            for bit in [0, 7] {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                let e = PatternWeights::from_bytes(&bad).unwrap_err();
                // The version word says 1 or 3: read as such, refused.
                assert!(at == 9 || e.0.contains("checksum"), "{at}: {e}");
            }
        }
        assert!(PatternWeights::from_bytes(&bytes[..bytes.len() - 2]).is_err());
        assert!(PatternWeights::from_bytes(b"junk").is_err());
    }
}
