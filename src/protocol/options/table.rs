//! The table itself: one row per option, the typed [`Options`] it makes, and
//! what the options set (search settings, time factors).

use super::values::{Kind, OptionSpec, OptionValue, ON_OFF, SCORING};
use crate::engine::eval::{EvalKind, UNITS_PER_DISC};
use crate::engine::search::params::Params;
use crate::engine::search::{Scoring, Settings};
use crate::engine::timeman::{TimeParams, MIN_WEIGHT};
use crate::protocol::book::BookFile;
use std::fmt;

impl OptionSpec {
    /// The default as `get_option` shows it.
    pub fn default_text(&self) -> String {
        Options::default()
            .get(self.name)
            .expect("every row is a field")
    }
}

/// The table: `name: type = default, kind, description;` a row. The macro
/// makes the typed [`Options`] struct, its defaults, the [`OPTIONS`] rows
/// (in this order) and the lookup by name, so they cannot drift apart.
macro_rules! option_table {
    ($( $name:ident : $ty:ty = $default:expr, $kind:expr, $description:expr; )*) => {
        /// Every option's current value, typed.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Options {
            $( pub $name: $ty, )*
        }

        impl Default for Options {
            fn default() -> Options {
                Options { $( $name: $default, )* }
            }
        }

        /// Every option, in the order `options` lists them.
        pub static OPTIONS: &[OptionSpec] = &[
            $( OptionSpec { name: stringify!($name), kind: $kind, description: $description }, )*
        ];

        impl Options {
            /// Parses `text` into the field of row `spec` (nothing changes on error).
            fn set_field(&mut self, spec: &OptionSpec, text: &str) -> Result<(), String> {
                match spec.name {
                    $( stringify!($name) => self.$name = <$ty as OptionValue>::parse(spec, text)?, )*
                    _ => unreachable!("a row without a field"),
                }
                Ok(())
            }

            fn show_field(&self, spec: &OptionSpec) -> String {
                match spec.name {
                    $( stringify!($name) => OptionValue::show(&self.$name), )*
                    _ => unreachable!("a row without a field"),
                }
            }
        }
    };
}

/// The search's constants in the table's units (discs, not evaluation units).
fn discs(units: i32) -> f64 {
    units as f64 / UNITS_PER_DISC as f64
}

/// The most search threads: the browser build searches on its Worker's one.
const MAX_THREADS: u64 = if cfg!(target_arch = "wasm32") { 1 } else { 256 };

option_table! {
    threads: u64 = Settings::default().threads as u64,
        Kind::Int { min: 1, max: MAX_THREADS }, "search threads";
    hash: u64 = Settings::default().hash_mb as u64,
        Kind::Int { min: 1, max: 65536 }, "transposition table size in MB";
    depth: u64 = 0,
        Kind::Int { min: 0, max: 60 }, "deepest midgame iteration per move (0: no limit)";
    movetime: u64 = 1000,
        Kind::Int { min: 0, max: 86_400_000 }, "ms per move when no clock runs (0: no limit)";
    nodes: u64 = 0,
        Kind::Int { min: 0, max: u64::MAX }, "nodes per move (0: no limit)";
    scoring: Scoring = Settings::default().scoring,
        Kind::Choice(&SCORING), "final score: discs on the board, or empties to the winner";
    randomness: f64 = Settings::default().randomness,
        Kind::Float { min: 0.0, max: 64.0 },
        "play any move within this many discs of the best (0: deterministic)";
    seed: u64 = Settings::default().seed,
        Kind::Int { min: 0, max: u64::MAX }, "random seed for randomness";
    endgame: u64 = Settings::default().endgame_empties as u64,
        Kind::Int { min: 0, max: 60 }, "empties at which play becomes exact";
    margin: u64 = 50,
        Kind::Int { min: 0, max: 60_000 }, "ms kept back from the clock for latency";
    eval: EvalKind = Settings::default().eval,
        Kind::Text("handcrafted|learned|PATH"),
        "static evaluation: handcrafted, learned (the weights built in), or the path of a weight file from mollett train";
    book: bool = true,
        Kind::Choice(&ON_OFF), "play book moves and show them in hint when the book holds the position";
    book_file: BookFile = BookFile::default(),
        Kind::Text("shipped|none|PATH"), "opening book: the one built in (shipped), none, or a file from mollett book";
    book_randomness: f64 = 0.0,
        Kind::Float { min: 0.0, max: 64.0 },
        "play any book move within this many discs of the best book move (0: the best)";
    level: u64 = 0,
        Kind::Int { min: 0, max: 60 },
        "shorthand: level N sets depth N, endgame min(2N, 60) and movetime 0 (0: leaves them alone)";
    probcut: f64 = Params::default().probcut_t,
        Kind::Float { min: 0.0, max: 10.0 },
        "ProbCut confidence in standard deviations of the shallow search's error (0: off)";
    probcut_depth: u64 = Params::default().probcut_min_depth as u64,
        Kind::Int { min: 2, max: 60 }, "midgame nodes at least this deep try ProbCut";
    tempo: f64 = discs(Params::default().leaf_tempo),
        Kind::Float { min: -8.0, max: 8.0 },
        "discs added to the side to move's evaluation at the search's leaves (evens out odd and even depths)";
    aspiration: f64 = discs(Params::default().aspiration_window),
        Kind::Float { min: 0.01, max: 64.0 }, "half-width in discs of the first aspiration window";
    aspiration_depth: u64 = Params::default().aspiration_min_depth as u64,
        Kind::Int { min: 1, max: 60 }, "first iteration searched with an aspiration window";
    presearch_depth: u64 = Params::default().endgame_presearch_depth as u64,
        Kind::Int { min: 1, max: 60 },
        "midgame iterations before an exact solve (past 17 empties, with the score within 32 discs, they go on to the end with ProbCut)";
    iteration_growth: f64 = Params::default().iteration_growth,
        Kind::Float { min: 1.0, max: 100.0 },
        "no new iteration that, this many times longer than the last, would pass the hard time limit";
    order_eval_depth: u64 = Params::default().order_eval_depth as u64,
        Kind::Int { min: 0, max: 60 },
        "midgame nodes at least this deep order moves by evaluation, shallower ones by mobility";
    order_mobility: u64 = Params::default().order_mobility_weight as u64,
        Kind::Int { min: 0, max: 10_000 }, "midgame ordering points per opponent reply";
    time_reserve: f64 = TimeParams::default().reserve_moves,
        Kind::Float { min: 0.0, max: 60.0 }, "own moves kept in reserve beyond the estimate of moves left";
    time_hard_factor: f64 = TimeParams::default().hard_factor,
        Kind::Float { min: 1.0, max: 100.0 }, "hard time limit as a multiple of the soft target";
    time_max_share: f64 = TimeParams::default().max_share,
        Kind::Float { min: 0.01, max: 1.0 }, "largest share of the time left one move may take";
    time_endgame: f64 = TimeParams::default().endgame_moves,
        Kind::Float { min: 0.0, max: 60.0 },
        "own moves' worth of time planned for all the moves from where play turns exact";
    time_midgame: f64 = TimeParams::default().midgame_weight,
        Kind::Float { min: MIN_WEIGHT, max: 10.0 },
        "shares of time for each own move from 36 empties to where play turns exact, against one before 36";
    time_byo_share: f64 = TimeParams::default().byo_soft_share,
        Kind::Float { min: 0.01, max: 1.0 }, "share of a byo-yomi stone's time aimed for";
    time_byo_borrow: f64 = TimeParams::default().byo_borrow_share,
        Kind::Float { min: 0.0, max: 1.0 },
        "share of one byo-yomi stone's time a move in main time may borrow";
}

fn find(name: &str) -> Result<&'static OptionSpec, String> {
    OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option: {name}"))
}

impl Options {
    /// Sets an option by name (any case) from its text; an unknown name or
    /// a bad value changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let spec = find(name)?;
        let mut next = self.clone();
        next.set_field(spec, value)?;
        if spec.name == "level" {
            next.set_level(next.level);
        }
        *self = next;
        Ok(())
    }

    /// `level N` (N > 0) is depth N, exact play from 2N empties (at most
    /// 60) and no move time: a clock, when one runs, still bounds the time.
    /// Both dialects mean this by a level (GTP `set_option level N`,
    /// NBoard `set level N`); NBoard's `set depth` is the depth alone.
    pub fn set_level(&mut self, n: u64) {
        self.level = n;
        if n > 0 {
            self.depth = n;
            self.endgame = (2 * n).min(60);
            self.movetime = 0;
        }
    }

    pub fn get(&self, name: &str) -> Result<String, String> {
        find(name).map(|spec| self.show_field(spec))
    }

    /// The tunable search constants.
    pub fn search_params(&self) -> Params {
        let units = |d: f64| (d * UNITS_PER_DISC as f64).round() as i32;
        Params {
            aspiration_window: units(self.aspiration).max(1),
            aspiration_min_depth: self.aspiration_depth as u32,
            endgame_presearch_depth: self.presearch_depth as u32,
            iteration_growth: self.iteration_growth,
            order_eval_depth: self.order_eval_depth as i32,
            order_mobility_weight: self.order_mobility as i32,
            probcut_t: self.probcut,
            probcut_min_depth: self.probcut_depth as u32,
            leaf_tempo: units(self.tempo),
        }
    }

    /// The time-management factors.
    pub fn time_params(&self) -> TimeParams {
        TimeParams {
            reserve_moves: self.time_reserve,
            hard_factor: self.time_hard_factor,
            max_share: self.time_max_share,
            endgame_moves: self.time_endgame,
            midgame_weight: self.time_midgame,
            solve_empties: self.endgame as u32,
            byo_soft_share: self.time_byo_share,
            byo_borrow_share: self.time_byo_borrow,
        }
    }

    /// The persistent search settings these options describe.
    pub fn settings(&self) -> Settings {
        Settings {
            threads: self.threads.max(1) as usize,
            hash_mb: self.hash.max(1) as usize,
            scoring: self.scoring,
            endgame_empties: self.endgame as u32,
            randomness: self.randomness,
            seed: self.seed,
            eval: self.eval.clone(),
            params: self.search_params(),
        }
    }
}

/// The `options` listing: `name value default D range R description`, one per line.
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, o) in OPTIONS.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "{} {} default {} range {} {}",
                o.name,
                self.show_field(o),
                o.default_text(),
                o.range(),
                o.description
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip() {
        let o = Options::default();
        for spec in OPTIONS {
            // Every default is a value its own row accepts.
            let mut p = Options::default();
            p.set(spec.name, &spec.default_text()).unwrap();
            assert_eq!(p, o, "{}", spec.name);
        }
        assert_eq!(o.movetime, 1000);
        assert_eq!(o.margin, 50);
        let s = o.settings();
        assert_eq!((s.threads, s.hash_mb, s.endgame_empties), (1, 16, 18));
        // The table's defaults are the search's own constants.
        assert_eq!(s.params, Params::default());
        assert_eq!(o.time_params(), TimeParams::default());
    }

    #[test]
    fn level_sets_depth_endgame_and_movetime() {
        let mut o = Options::default();
        o.set("level", "10").unwrap();
        assert_eq!(o.get("level").unwrap(), "10");
        assert_eq!(o.depth, 10);
        assert_eq!(o.settings().endgame_empties, 20);
        assert_eq!(o.movetime, 0);
        o.set("level", "45").unwrap();
        assert_eq!((o.depth, o.settings().endgame_empties), (45, 60));
        // Level 0 leaves the other options alone; a bad level changes nothing.
        o.set("depth", "7").unwrap();
        o.set("level", "0").unwrap();
        assert_eq!(o.depth, 7);
        let before = o.clone();
        assert!(o.set("level", "61").is_err());
        assert_eq!(o, before);
    }

    #[test]
    fn eval_takes_names_or_a_weight_file() {
        let mut o = Options::default();
        o.set("eval", "learned").unwrap();
        assert_eq!(o.eval, EvalKind::Learned);
        let before = o.clone();
        let err = o.set("eval", "/nonexistent/weights.bin").unwrap_err();
        assert!(err.starts_with("invalid value: eval"), "{err}");
        assert_eq!(o, before);
        let tmp = tempfile::Builder::new()
            .prefix("mollett-opt-")
            .tempdir()
            .unwrap();
        let path = tmp.path().join("weights.bin");
        std::fs::write(&path, crate::engine::eval::pattern::EMBEDDED_WEIGHTS).unwrap();
        o.set("eval", path.to_str().unwrap()).unwrap();
        assert_eq!(o.eval, EvalKind::File(path.clone()));
    }

    #[test]
    fn search_constants_reach_the_settings() {
        let mut o = Options::default();
        o.set("aspiration", "0.5").unwrap();
        o.set("probcut", "1.5").unwrap();
        o.set("time_hard_factor", "2.5").unwrap();
        assert_eq!(o.settings().params.aspiration_window, 50);
        assert_eq!(o.settings().params.probcut_t, 1.5);
        assert_eq!(o.time_params().hard_factor, 2.5);
        assert!(o.set("time_max_share", "1.5").is_err());
    }

    #[test]
    fn set_and_reject() {
        let mut o = Options::default();
        o.set("scoring", "empties").unwrap();
        assert_eq!(o.scoring, Scoring::EmptiesToWinner);
        o.set("randomness", "1.5").unwrap();
        assert_eq!(o.get("randomness").unwrap(), "1.5");
        let before = o.clone();
        assert!(o.set("threads", "0").is_err());
        assert!(o.set("threads", "-1").is_err());
        assert!(o.set("threads", "x").is_err());
        assert!(o.set("randomness", "nan").is_err());
        assert!(o.set("scoring", "both").is_err());
        assert!(o.set("bogus", "1").is_err());
        assert_eq!(o, before);
    }
}
