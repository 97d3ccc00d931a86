//! The GTP commands that start a search (genmove, solve, review, hint) and
//! their answers when it ends.

use super::exec::{err, Answer, Gtp};
use super::pending::{Action, Pending, PendingKind};
use super::text::score_text;
use crate::engine::review::{ceil2, ReviewDepth};
use crate::engine::search::Limits;
use crate::protocol::job::{Job, JobOutput};
use crate::protocol::session::checked_move;
use crate::rules::color::Color;
use crate::rules::square::Move;
use std::io::Write;

impl<W: Write> Gtp<W> {
    pub(super) fn genmove(&mut self, color: Option<Color>, play: bool) -> Action {
        self.last_value = None;
        // At game over there is nothing to play but a pass, which changes nothing.
        if self.position().is_game_over() {
            return Action::Answer(Ok(Move::Pass.to_string()));
        }
        let (pass_first, pos) = match self.resolve(color) {
            Ok(r) => r,
            Err(e) => return Action::Answer(Err(e)),
        };
        let legal = pos.legal_moves();
        if legal.len() == 1 {
            // Forced: no search, no time spent.
            let answer = if play {
                self.commit(pass_first, legal[0])
            } else {
                Ok(legal[0].to_string())
            };
            return Action::Answer(answer);
        }
        if let Some(hit) = self.session.book_move(&pos) {
            // From the book: no search, no time spent.
            self.last_value = Some(format!("{} book", score_text(hit.value, hit.exact())));
            let answer = if play {
                self.commit(pass_first, hit.mv)
            } else {
                Ok(hit.mv.to_string())
            };
            return Action::Answer(answer);
        }
        let limits = self.session.move_limits(&pos);
        let kind = if play {
            PendingKind::Genmove { pass_first, pos }
        } else {
            PendingKind::RegGenmove { pos }
        };
        Action::Start(Job::Search { pos, limits }, Pending::new(kind))
    }

    pub(super) fn solve(&mut self) -> Action {
        let pos = self.position();
        if pos.is_game_over() {
            return Action::Answer(err("game over"));
        }
        let limits = Limits {
            exact: true,
            multi_pv: 1,
            ..Limits::default()
        };
        Action::Start(
            Job::Search { pos, limits },
            Pending::new(PendingKind::Solve { pos }),
        )
    }

    /// `review`: `mv` in the position on the board, as `mollett analyze`
    /// reviews it (docs/analyze.md), at `depth` (default 14, 1 to 30) and
    /// exact from `exact` empties (default 22, 0 to 30).
    pub(super) fn review(&mut self, mv: Move, depth: Option<u64>, exact: Option<u64>) -> Action {
        let pos = self.position();
        if pos.is_game_over() {
            return Action::Answer(err("game over"));
        }
        if mv == Move::Pass || pos.play(mv).is_none() {
            return Action::Answer(err("illegal move"));
        }
        let depth = depth.unwrap_or(14);
        let exact = exact.unwrap_or(22);
        if !(1..=30).contains(&depth) {
            return Action::Answer(err("review depth must be 1 to 30"));
        }
        if exact > 30 {
            return Action::Answer(err("review exact must be 0 to 30"));
        }
        let depth = ReviewDepth {
            depth: depth as u32,
            exact_from: exact as u32,
        };
        Action::Start(
            Job::Review { pos, mv, depth },
            Pending::new(PendingKind::Review),
        )
    }

    pub(super) fn hint(&mut self, n: u64, pv: bool) -> Action {
        let pos = self.position();
        if !(1..=64).contains(&n) {
            return Action::Answer(err("hint count must be 1 to 64"));
        }
        if pos.is_game_over() {
            return Action::Answer(err("game over"));
        }
        let n = n as usize;
        let hits = self.session.book_hits(&pos);
        if !hits.is_empty() {
            let lines: Vec<String> = hits
                .iter()
                .take(n)
                .map(|h| {
                    let line = format!("{} {} book", h.mv, score_text(h.value, h.exact()));
                    if pv {
                        format!("{line} pv {}", h.mv)
                    } else {
                        line
                    }
                })
                .collect();
            return Action::Answer(Ok(lines.join("\n")));
        }
        let limits = Limits {
            multi_pv: n,
            ..self.session.option_limits()
        };
        Action::Start(
            Job::Search { pos, limits },
            Pending::new(PendingKind::Hint { pos, n, pv }),
        )
    }

    /// Turns a job's output into the answer of the command that started it.
    pub(super) fn answer_job(&mut self, pending: Pending, output: JobOutput) -> Answer {
        let elapsed = pending.started.elapsed();
        match (pending.kind, output) {
            (PendingKind::Genmove { pass_first, pos }, JobOutput::Search(r)) => {
                let mv = checked_move(&pos, r.best);
                self.last_value = Some(score_text(r.score, r.exact));
                if let Some(clock) = self.session.clocks_mut().side_mut(pos.side.index()) {
                    clock.spend(elapsed.as_secs_f64());
                }
                self.commit(pass_first, mv)
            }
            (PendingKind::RegGenmove { pos }, JobOutput::Search(r)) => {
                self.last_value = Some(score_text(r.score, r.exact));
                Ok(checked_move(&pos, r.best).to_string())
            }
            (PendingKind::Solve { pos }, JobOutput::Search(r)) => Ok(format!(
                "{} {}",
                checked_move(&pos, r.best),
                score_text(r.score, r.exact)
            )),
            (PendingKind::Hint { pos, n, pv }, JobOutput::Search(r)) => {
                let mut lines: Vec<String> = r
                    .lines
                    .iter()
                    .filter(|l| pos.play(l.mv).is_some())
                    .take(n)
                    .map(|l| {
                        let mut line = format!("{} {}", l.mv, score_text(l.score, r.exact));
                        if pv {
                            line.push_str(" pv");
                            for mv in &l.pv {
                                line.push_str(&format!(" {mv}"));
                            }
                        }
                        line
                    })
                    .collect();
                if lines.is_empty() {
                    let best = checked_move(&pos, r.best);
                    let mut line = format!("{best} {}", score_text(r.score, r.exact));
                    if pv {
                        line.push_str(&format!(" pv {best}"));
                    }
                    lines.push(line);
                }
                Ok(lines.join("\n"))
            }
            (PendingKind::Review, JobOutput::Review(Some(r))) => {
                let mut answer = format!(
                    "{} {} {} {} {:.2} {}{} pv",
                    r.played,
                    score_text(r.value, r.exact),
                    r.best_move,
                    score_text(r.best_value, r.exact),
                    r.loss,
                    r.class.name(),
                    if r.exact { " exact" } else { "" }
                );
                for mv in &r.pv {
                    answer.push_str(&format!(" {mv}"));
                }
                answer.push_str(" values");
                for m in &r.moves {
                    // A move below the review's window: `<=` and its bound.
                    let (bound, value) = if m.at_most {
                        ("<=", ceil2(m.value))
                    } else {
                        ("", m.value)
                    };
                    answer.push_str(&format!(" {} {bound}{}", m.mv, score_text(value, r.exact)));
                }
                Ok(answer)
            }
            (PendingKind::Review, JobOutput::Review(None)) => err("review stopped"),
            (PendingKind::Perft, JobOutput::Perft(Some(n))) => Ok(n.to_string()),
            (PendingKind::Perft, JobOutput::Perft(None)) => err("perft stopped"),
            (PendingKind::Bench, JobOutput::Bench(nodes, nps)) => {
                Ok(format!("{nodes} nodes {nps} nps"))
            }
            _ => err("internal error"),
        }
    }
}
