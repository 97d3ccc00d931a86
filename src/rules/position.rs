//! A position: discs relative to the side to move, the variant, and supplies.

use crate::rules::bitboard::{self, Bits};
use crate::rules::color::{Color, Variant};
use crate::rules::square::{Move, Square};
use std::fmt;

/// The four centre squares `d4 e4 d5 e5`.
pub const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// Discs each side owns in classic Reversi.
pub const CLASSIC_SUPPLY: u8 = 32;

/// A complete game state: everything the rules need to generate moves.
///
/// Discs are stored relative to the side to move (`player`, `opponent`), as
/// Edax does, so the search never branches on colour. Supplies are kept by
/// absolute colour; modern games never read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub player: u64,
    pub opponent: u64,
    pub side: Color,
    pub variant: Variant,
    /// Discs left in hand, indexed by `Color::index()` (classic only).
    pub supply: [u8; 2],
}

/// Why a position could not be built from a description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub &'static str);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The start of a game. Modern: the Othello cross with black to move;
    /// classic: an empty board, full supplies, `first` to move.
    pub fn start(variant: Variant, first: Color) -> Position {
        match variant {
            Variant::Modern => {
                let black = (1 << 28) | (1 << 35); // e4, d5
                let white = (1 << 27) | (1 << 36); // d4, e5
                Position::from_colors(black, white, first, variant, [0, 0])
            }
            Variant::Classic => {
                Position::from_colors(0, 0, first, variant, [CLASSIC_SUPPLY, CLASSIC_SUPPLY])
            }
        }
    }

    /// Builds a position from absolute discs.
    pub fn from_colors(
        black: u64,
        white: u64,
        side: Color,
        variant: Variant,
        supply: [u8; 2],
    ) -> Position {
        let (player, opponent) = match side {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Position {
            player,
            opponent,
            side,
            variant,
            supply,
        }
    }

    /// Discs of one colour.
    pub fn discs_of(&self, c: Color) -> u64 {
        if c == self.side {
            self.player
        } else {
            self.opponent
        }
    }

    pub fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    pub fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// True during the first four plies of classic, when discs go on the centre freely.
    #[inline]
    pub fn in_classic_opening(&self) -> bool {
        self.variant == Variant::Classic && (self.player | self.opponent) & CENTRE != CENTRE
    }

    /// Legal squares for the side to move (empty when it must pass or the game is over).
    #[inline]
    pub fn moves(&self) -> u64 {
        if let Some(m) = self.classic_special_moves() {
            return m;
        }
        bitboard::moves(self.player, self.opponent)
    }

    /// The legal squares when the classic rules decide them without the
    /// move generator: none for a side with an empty supply, the empty
    /// centre squares during the opening. `None` when the moves are the
    /// generator's (`bitboard::moves` or a faster kernel).
    #[inline(always)]
    pub fn classic_special_moves(&self) -> Option<u64> {
        if self.variant == Variant::Classic {
            if self.supply[self.side.index()] == 0 {
                return Some(0);
            }
            if self.in_classic_opening() {
                return Some(CENTRE & self.empties());
            }
        }
        None
    }

    /// Discs flipped by a move to `sq` (the caller knows it is legal).
    #[inline]
    pub fn flips(&self, sq: Square) -> u64 {
        if self.in_classic_opening() {
            0
        } else {
            bitboard::flips(self.player, self.opponent, sq.index() as u32)
        }
    }

    /// The position after the side to move places on `sq`, which must be legal.
    #[inline]
    pub fn play_unchecked(&self, sq: Square) -> Position {
        self.play_flipping(sq, self.flips(sq))
    }

    /// [`Position::play_unchecked`] with the move's flips (`self.flips(sq)`)
    /// already computed, by a faster kernel.
    #[inline(always)]
    pub fn play_flipping(&self, sq: Square, f: u64) -> Position {
        let mut supply = self.supply;
        if self.variant == Variant::Classic {
            supply[self.side.index()] -= 1;
        }
        Position {
            player: self.opponent & !f,
            opponent: self.player | f | sq.bit(),
            side: self.side.other(),
            variant: self.variant,
            supply,
        }
    }

    /// The position after a pass (legal or not; the caller checks).
    #[inline]
    pub fn pass(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            side: self.side.other(),
            ..*self
        }
    }

    /// The position after `mv`, or `None` when `mv` is not legal here.
    pub fn play(&self, mv: Move) -> Option<Position> {
        match mv {
            Move::Place(sq) if self.moves() & sq.bit() != 0 => Some(self.play_unchecked(sq)),
            Move::Pass if self.must_pass() => Some(self.pass()),
            _ => None,
        }
    }

    /// True when the side to move has no move but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && self.pass().moves() != 0
    }

    /// True when neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// Legal moves in `a1 b1 … h8` order, or `[Pass]` when the side must pass;
    /// empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let m = self.moves();
        if m != 0 {
            Bits(m)
                .map(|i| Move::Place(Square::from_index(i)))
                .collect()
        } else if self.pass().moves() != 0 {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// Disc difference (side to move minus opponent) at the end of the game;
    /// with `empties_to_winner`, empty squares are added to the winner's count.
    pub fn final_score(&self, empties_to_winner: bool) -> i32 {
        final_score_raw(self.player, self.opponent, empties_to_winner)
    }

    /// A stable 64-bit key for hashing, covering discs, side and supplies.
    pub fn key(&self) -> u64 {
        let mut h = key_mix(self.player, self.opponent);
        if self.variant == Variant::Classic {
            h ^= ((self.supply[0] as u64) << 8 | self.supply[1] as u64 | (self.side as u64) << 16)
                .wrapping_mul(0x1656_67B1_9E37_79F9);
        }
        h ^ (h >> 29)
    }
}

/// The disc part of `Position::key`; a modern position's key is `key_raw(player, opponent)`.
#[inline(always)]
fn key_mix(player: u64, opponent: u64) -> u64 {
    player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)
}

/// `Position::key` of a modern position with these discs (the endgame solver's fast path).
#[inline(always)]
pub fn key_raw(player: u64, opponent: u64) -> u64 {
    let h = key_mix(player, opponent);
    h ^ (h >> 29)
}

/// `Position::final_score` of a position with these discs (the endgame
/// solver's fast path).
#[inline(always)]
pub fn final_score_raw(player: u64, opponent: u64, empties_to_winner: bool) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let diff = p - o;
    if !empties_to_winner {
        return diff;
    }
    let e = 64 - p - o;
    match diff.signum() {
        1 => diff + e,
        -1 => diff - e,
        _ => 0,
    }
}

/// Plays seeded random legal moves from the start until `empties` squares
/// are left; a playout whose game ends first is retried with the next seed.
pub fn playout(variant: Variant, empties: u32, seed: u64) -> Position {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    loop {
        let mut pos = Position::start(variant, Color::Black);
        while pos.empty_count() > empties && !pos.is_game_over() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let moves = pos.legal_moves();
            pos = pos
                .play(moves[(state % moves.len() as u64) as usize])
                .expect("legal move");
        }
        if !pos.is_game_over() {
            return pos;
        }
    }
}
