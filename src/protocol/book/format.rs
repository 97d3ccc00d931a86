//! Mollett's book file (`docs/book.md`): a header, the positions sorted by
//! their canonical key, then their moves. Read into one `Vec` and searched in
//! place, so loading is one read and one check.

use crate::rules::bitboard::symmetry;
use crate::rules::color::Variant;
use crate::rules::position::Position;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BTreeMap;

pub const MAGIC: &[u8; 8] = b"MOLLBOOK";
pub const VERSION: u16 = 1;
pub const HEADER_LEN: usize = 32;
pub const POSITION_LEN: usize = 28;
pub const MOVE_LEN: usize = 8;
/// The depth byte of an exact value.
pub const EXACT: u8 = 255;
/// The square byte of a pass.
pub const PASS: u8 = 64;
/// Set in a move's square byte when the move was Edax's leaf (its best move
/// outside the book), so that a round trip keeps links and leaf apart.
pub const LEAF_FLAG: u8 = 0x80;

/// The inverse of each of [`symmetry`]'s eight transformations.
pub const INVERSE: [usize; 8] = [0, 1, 2, 3, 4, 6, 5, 7];

/// A position's key: its discs (side to move first) in the canonical frame,
/// and the supplies (side to move first; 0 in modern).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub player: u64,
    pub opponent: u64,
    pub supply: [u8; 2],
}

/// The canonical image of `(player, opponent)`: the least of the eight
/// symmetric images (player first, as Edax orders them), and the symmetry
/// that gives it.
pub fn canonical(player: u64, opponent: u64) -> (u64, u64, usize) {
    (0..8)
        .map(|s| (symmetry(player, s), symmetry(opponent, s), s))
        .min_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)))
        .expect("eight symmetries")
}

/// `sq` (0..63, or [`PASS`]) under symmetry `s`.
pub fn map_square(sq: u8, s: usize) -> u8 {
    if sq >= 64 {
        sq
    } else {
        symmetry(1u64 << sq, s).trailing_zeros() as u8
    }
}

/// One book move, in the frame of the position that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// 0..63 (`a1` = 0, `h8` = 63) or [`PASS`].
    pub square: u8,
    /// Value for the side to move, in hundredths of a disc.
    pub value: i16,
    /// Depth of the search that gave the value, or [`EXACT`].
    pub depth: u8,
    /// Games through the move (0 when unknown).
    pub games: u32,
    /// Not linked to a book position (Edax's leaf).
    pub leaf: bool,
}

/// One position of a book with its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPosition {
    pub key: Key,
    /// Games through the position (0 when unknown).
    pub games: u32,
    pub moves: Vec<BookMove>,
}

impl BookPosition {
    /// The same position in its canonical frame (moves mapped with it).
    pub fn canonical(mut self) -> BookPosition {
        let (p, o, s) = canonical(self.key.player, self.key.opponent);
        self.key.player = p;
        self.key.opponent = o;
        for m in &mut self.moves {
            m.square = map_square(m.square, s);
        }
        self
    }

    /// Adds `other`'s games and moves; a move in both keeps the deeper value
    /// (exact counts deepest) and the sum of the games.
    pub fn merge(&mut self, other: &BookPosition) {
        self.games = self.games.saturating_add(other.games);
        for m in &other.moves {
            match self.moves.iter_mut().find(|x| x.square == m.square) {
                Some(x) => {
                    let games = x.games.saturating_add(m.games);
                    if m.depth > x.depth {
                        *x = *m;
                    }
                    x.games = games;
                    x.leaf = x.leaf && m.leaf;
                }
                None => self.moves.push(*m),
            }
        }
    }
}

/// A book: the checked bytes of a file (or of the binary, for a shipped
/// book), searched in place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    bytes: Cow<'static, [u8]>,
    variant: Variant,
    positions: usize,
    moves: usize,
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

fn variant_byte(v: Variant) -> u8 {
    match v {
        Variant::Modern => 0,
        Variant::Classic => 1,
    }
}

impl Book {
    /// Checks `bytes` as a whole book: header, sizes, sorted keys, move
    /// ranges. Errors say what is wrong (the caller names the file).
    pub fn from_bytes(bytes: impl Into<Cow<'static, [u8]>>) -> Result<Book, String> {
        let bytes = bytes.into();
        if bytes.starts_with(b"XADEKOOB") {
            return Err(
                "an Edax book, not a Mollett one: convert it with mollett book import-edax".into(),
            );
        }
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return Err("not a Mollett book (no MOLLBOOK header)".into());
        }
        let version = u16_at(&bytes, 8);
        if version != VERSION {
            return Err(format!(
                "book version {version}, this Mollett reads {VERSION}"
            ));
        }
        let variant = match bytes[10] {
            0 => Variant::Modern,
            1 => Variant::Classic,
            b => return Err(format!("unknown variant byte {b}")),
        };
        let positions = u32_at(&bytes, 12) as usize;
        let moves = u32_at(&bytes, 16) as usize;
        let want = HEADER_LEN + positions * POSITION_LEN + moves * MOVE_LEN;
        if bytes.len() != want {
            return Err(format!(
                "{} bytes where {positions} positions and {moves} moves take {want} (truncated or damaged)",
                bytes.len()
            ));
        }
        let book = Book {
            bytes,
            variant,
            positions,
            moves,
        };
        let mut next = 0usize;
        for i in 0..positions {
            let (key, first, n) = book.record(i);
            if i > 0 && book.record(i - 1).0 >= key {
                return Err(format!("position {i} is out of order"));
            }
            let (p, o, _) = canonical(key.player, key.opponent);
            if key.player & key.opponent != 0 || (p, o) != (key.player, key.opponent) {
                return Err(format!("position {i} is not a canonical board"));
            }
            if first != next || first + n > moves {
                return Err(format!("position {i}: its moves are out of place"));
            }
            next = first + n;
            for m in book.moves_of(first, n) {
                if m.square > PASS {
                    return Err(format!("position {i}: move square {}", m.square));
                }
            }
        }
        if next != moves {
            return Err(format!("{} moves belong to no position", moves - next));
        }
        Ok(book)
    }

    /// A book of `positions` (any frame, any order; the same position twice
    /// is merged).
    pub fn from_positions(variant: Variant, positions: Vec<BookPosition>) -> Book {
        let mut all: BTreeMap<Key, BookPosition> = BTreeMap::new();
        for p in positions {
            let p = p.canonical();
            match all.get_mut(&p.key) {
                Some(q) => q.merge(&p),
                None => {
                    all.insert(p.key, p);
                }
            }
        }
        let n_moves: usize = all.values().map(|p| p.moves.len().min(255)).sum();
        let mut bytes =
            Vec::with_capacity(HEADER_LEN + all.len() * POSITION_LEN + n_moves * MOVE_LEN);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.push(variant_byte(variant));
        bytes.push(0);
        bytes.extend_from_slice(&(all.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&(n_moves as u32).to_le_bytes());
        bytes.resize(HEADER_LEN, 0);
        let mut first = 0u32;
        for p in all.values() {
            let n = p.moves.len().min(255);
            bytes.extend_from_slice(&p.key.player.to_le_bytes());
            bytes.extend_from_slice(&p.key.opponent.to_le_bytes());
            bytes.extend_from_slice(&first.to_le_bytes());
            bytes.extend_from_slice(&p.games.to_le_bytes());
            bytes.extend_from_slice(&[n as u8, p.key.supply[0], p.key.supply[1], 0]);
            first += n as u32;
        }
        for p in all.values() {
            let mut moves = p.moves.clone();
            // Best first, then by square: one order for equal books.
            moves.sort_by(|a, b| b.value.cmp(&a.value).then(a.square.cmp(&b.square)));
            for m in moves.iter().take(255) {
                bytes.push(m.square | if m.leaf { LEAF_FLAG } else { 0 });
                bytes.push(m.depth);
                bytes.extend_from_slice(&m.value.to_le_bytes());
                bytes.extend_from_slice(&m.games.to_le_bytes());
            }
        }
        Book::from_bytes(bytes).expect("a book written here reads back")
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn len(&self) -> usize {
        self.positions
    }

    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    pub fn move_count(&self) -> usize {
        self.moves
    }

    /// Position `i`'s key, first move and move count.
    fn record(&self, i: usize) -> (Key, usize, usize) {
        let at = HEADER_LEN + i * POSITION_LEN;
        let b = &self.bytes;
        let key = Key {
            player: u64_at(b, at),
            opponent: u64_at(b, at + 8),
            supply: [b[at + 25], b[at + 26]],
        };
        (key, u32_at(b, at + 16) as usize, b[at + 24] as usize)
    }

    fn moves_of(&self, first: usize, n: usize) -> impl Iterator<Item = BookMove> + '_ {
        let base = HEADER_LEN + self.positions * POSITION_LEN;
        (first..first + n).map(move |j| {
            let at = base + j * MOVE_LEN;
            let b = &self.bytes;
            BookMove {
                square: b[at] & !LEAF_FLAG,
                leaf: b[at] & LEAF_FLAG != 0,
                depth: b[at + 1],
                value: i16::from_le_bytes([b[at + 2], b[at + 3]]),
                games: u32_at(b, at + 4),
            }
        })
    }

    /// Position `i` with its moves (in the canonical frame).
    pub fn position(&self, i: usize) -> BookPosition {
        let (key, first, n) = self.record(i);
        let games = u32_at(&self.bytes, HEADER_LEN + i * POSITION_LEN + 20);
        BookPosition {
            key,
            games,
            moves: self.moves_of(first, n).collect(),
        }
    }

    pub fn positions(&self) -> impl Iterator<Item = BookPosition> + '_ {
        (0..self.positions).map(|i| self.position(i))
    }

    /// The position with canonical key `key`, by binary search in the bytes.
    pub fn find(&self, key: &Key) -> Option<BookPosition> {
        let (mut lo, mut hi) = (0, self.positions);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.record(mid).0.cmp(key) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Some(self.position(mid)),
            }
        }
        None
    }
}

/// A position's key (discs and supplies of the side to move first) in the
/// canonical frame, and the symmetry that takes the position there.
pub fn key_of(pos: &Position) -> (Key, usize) {
    let (player, opponent, s) = canonical(pos.player, pos.opponent);
    let supply = match pos.variant {
        Variant::Modern => [0, 0],
        Variant::Classic => [
            pos.supply[pos.side.index()],
            pos.supply[pos.side.other().index()],
        ],
    };
    let key = Key {
        player,
        opponent,
        supply,
    };
    (key, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverses_undo_each_symmetry() {
        let b = 0x0102_0408_1020_4081u64 ^ 0x0000_0000_0000_00F3;
        for (s, &inverse) in INVERSE.iter().enumerate() {
            assert_eq!(symmetry(symmetry(b, s), inverse), b, "symmetry {s}");
        }
    }

    fn sample() -> BookPosition {
        // f5 played from the start: black d5 e4 e5 f5... as player/opponent bits.
        BookPosition {
            key: Key {
                player: (1 << 27) | (1 << 36),
                opponent: (1 << 28) | (1 << 35) | (1 << 37),
                supply: [0, 0],
            },
            games: 7,
            moves: vec![BookMove {
                square: 43, // d6
                value: -150,
                depth: 12,
                games: 5,
                leaf: false,
            }],
        }
    }

    #[test]
    fn bytes_round_trip_and_find() {
        let book = Book::from_positions(Variant::Modern, vec![sample()]);
        assert_eq!(book.len(), 1);
        let again = Book::from_bytes(book.bytes().to_vec()).unwrap();
        assert_eq!(again, book);
        let p = book.position(0);
        assert_eq!(book.find(&p.key), Some(p.clone()));
        assert_eq!(p.games, 7);
        assert_eq!(p.moves[0].value, -150);
        // Merging the same position sums the games.
        let twice = Book::from_positions(Variant::Modern, vec![sample(), sample()]);
        assert_eq!(twice.position(0).games, 14);
        assert_eq!(twice.position(0).moves[0].games, 10);
    }

    #[test]
    fn damaged_books_are_refused() {
        let book = Book::from_positions(Variant::Classic, vec![sample()]);
        let bytes = book.bytes().to_vec();
        assert!(Book::from_bytes(bytes[..bytes.len() - 1].to_vec())
            .unwrap_err()
            .contains("truncated"));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(Book::from_bytes(bad)
            .unwrap_err()
            .contains("not a Mollett book"));
        let mut bad = bytes.clone();
        bad[10] = 9;
        assert!(Book::from_bytes(bad).is_err());
        assert!(Book::from_bytes(Vec::<u8>::new()).is_err());
        assert_eq!(Book::from_bytes(bytes).unwrap().variant(), Variant::Classic);
    }
}
