//! The self-play corpus: whole games, one a line, that accumulate across
//! runs and machines and from which every training set is derived.
//!
//! ```text
//! # mollett-corpus 1 variant=modern depth=6 exact=20 random_plies=8 random_prob=0.1 eval=learned seed=1 bench=2247393
//! 17 F5d6c3D3c4f4f6f3e6e7d7c5b6... +12
//! ```
//!
//! The header names how the games were made; `mollett selfplay --corpus`
//! refuses to append games made another way. A game line is its index `k`
//! (game `k` depends only on the header's seed and `k`), its moves from the
//! variant's start run together with passes left out (a side that cannot move
//! passes, so passes are implied), and the final disc difference, black minus
//! white. A move in capitals was not searched: chosen at random (opening or
//! exploration) or given (the tournament game a `--wthor` game starts from);
//! lower-case moves were searched, and from `exact` empties down every move is
//! a perfect one, so the result is the exact value of those positions.
//!
//! Reading replays every game through the rules: a line whose moves are
//! illegal, whose game does not end, or whose result disagrees with the final
//! board is skipped with its line number, and the rest is kept.

mod file;
mod game;
mod header;
mod samples;

pub use file::{is_chunk, is_corpus, parse, read, read_bytes, Corpus, MAX_UNPACKED};
#[cfg(test)]
pub(super) use game::game_by;
pub use game::CorpusGame;
pub use header::{chunk_range, Header, MAGIC};
pub use samples::{samples, Positions};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::{Color, Variant};
    use crate::rules::position::Position;

    /// A whole game played by always taking the first legal move.
    fn first_move_game(variant: Variant) -> CorpusGame {
        game_by(variant, |moves| moves.trailing_zeros())
    }

    #[test]
    fn game_lines_round_trip_and_replay_to_their_result() {
        for variant in [Variant::Modern, Variant::Classic] {
            let g = first_move_game(variant);
            let line = g.to_line();
            assert!(line.starts_with("3 "));
            assert_eq!(CorpusGame::parse(&line, variant).unwrap(), g);
        }
    }

    #[test]
    fn impossible_game_lines_are_refused() {
        let g = first_move_game(Variant::Modern);
        let line = g.to_line();
        let wrong_result = format!("{} {}", &line[..line.rfind(' ').unwrap()], g.result + 2);
        assert!(CorpusGame::parse(&wrong_result, Variant::Modern)
            .unwrap_err()
            .contains("final board"));
        let short = format!("3 {} +0", &line[2..40]);
        assert!(CorpusGame::parse(&short, Variant::Modern)
            .unwrap_err()
            .contains("does not end"));
        assert!(CorpusGame::parse("3 a1a1 +0", Variant::Modern)
            .unwrap_err()
            .contains("illegal"));
        assert!(CorpusGame::parse("x f5 +0", Variant::Modern).is_err());
        assert!(CorpusGame::parse("3 f5 +nan", Variant::Modern).is_err());
    }

    #[test]
    fn samples_follow_the_game_index_not_the_line_order() {
        let h = Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        let first = first_move_game(Variant::Modern);
        let mut last = game_by(Variant::Modern, |moves| 63 - moves.leading_zeros());
        last.index = 7;
        assert_ne!(first.moves, last.moves);
        let file = |a: &CorpusGame, b: &CorpusGame| {
            format!("{}\n{}\n{}\n", h.to_line(), a.to_line(), b.to_line())
        };
        let one = samples(
            &parse(file(&first, &last).as_bytes()).unwrap(),
            Positions::All,
        );
        let other = samples(
            &parse(file(&last, &first).as_bytes()).unwrap(),
            Positions::All,
        );
        assert_eq!(one, other);
        assert_eq!(one[0].pos, Position::start(Variant::Modern, Color::Black));
    }

    #[test]
    fn clean_labels_leave_out_the_positions_a_later_random_move_decided() {
        let h = Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        // Random moves at plies 0, 7, ..., 56: the first is the opening's.
        let g = first_move_game(Variant::Modern);
        let last_random = (g.moves.len() - 1) / 7 * 7;
        assert!(last_random > 7 && g.moves[last_random].1);
        assert_eq!(g.spoiled_plies(), last_random + 1);
        let c = parse(format!("{}\n{}\n", h.to_line(), g.to_line()).as_bytes()).unwrap();
        let all = samples(&c, Positions::All);
        let clean = samples(&c, Positions::Clean);
        assert_eq!(all.len(), g.moves.len());
        assert_eq!(clean[..], all[last_random + 1..]);

        // Random or tournament moves before the first searched one spoil nothing.
        let mut opening = g.clone();
        for (i, m) in opening.moves.iter_mut().enumerate() {
            m.1 = i < 8;
        }
        assert_eq!(opening.spoiled_plies(), 0);
        // A random move in the middle spoils the positions up to and including its own.
        opening.moves[30].1 = true;
        assert_eq!(opening.spoiled_plies(), 31);
        // A game of random moves only has no searched move to spoil.
        let mut random = g.clone();
        random.moves.iter_mut().for_each(|m| m.1 = true);
        assert_eq!(random.spoiled_plies(), 0);
    }

    #[test]
    fn a_corpus_keeps_good_games_and_names_bad_lines() {
        let h = Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        let g = first_move_game(Variant::Modern);
        let mut other = g.clone();
        other.index = 4;
        let text = format!(
            "\u{feff}{}\n{}\n3 f5 +0\n\u{ff}\n{}\n{}\n{}",
            h.to_line(),
            g.to_line(),
            g.to_line(),
            other.to_line(),
            &other.to_line()[..10]
        );
        let mut bytes = text.into_bytes();
        // A line of bytes that are not UTF-8.
        let pos = bytes.windows(2).position(|w| w == [0xC3, 0xBF]).unwrap();
        bytes.splice(pos..pos + 2, [0xFF]);
        let c = parse(&bytes).unwrap();
        assert_eq!(c.header, h);
        assert_eq!(
            c.games.iter().map(|g| g.index).collect::<Vec<_>>(),
            vec![3, 4]
        );
        assert_eq!(c.skipped.len(), 4, "{:?}", c.skipped);
        assert!(c.skipped[0].starts_with("line 3:"));
        assert!(c.skipped[1].starts_with("line 4: not UTF-8"));
        assert!(c.skipped[2].contains("repeated"));
        assert!(c.skipped[3].contains("incomplete"));
        // The torn tail is not part of the complete length.
        assert_eq!(c.complete_len as usize, bytes.len() - 10);
        let samples = samples(&c, Positions::All);
        assert_eq!(samples.len(), 2 * g.moves.len());
        assert!(samples.iter().all(|s| s.score.abs() <= 64.0));
        assert!(parse(b"f5d6 +0\n").is_err());
    }
}
