//! Property tests over every parser that reads outside input: GTP and NBoard
//! lines, GGF records, OBF boards and problems, result lines, weight files,
//! openings files, corpus files and position files. Each is fed random and
//! mutated input; none may panic, a refused GTP line must leave the session
//! as it was, and what a parser accepts must read back the same once written.

mod common;

use mollett::engine::eval::pattern::{PatternWeights, EMBEDDED_WEIGHTS};
use mollett::protocol::gtp::parse::request;
use mollett::protocol::nboard::{self, NbCommand};
use mollett::protocol::{Command, Options, Protocol, COMMANDS, OPTIONS};
use mollett::rules::ggf::parse_all;
use mollett::rules::moveline::{moves_text, parse_moves};
use mollett::rules::obf;
use mollett::tournament::openings::{self, Opening};
use mollett::tournament::results::{GameRecord, Outcome};
use mollett::tournament::Reason;
use mollett::train::corpus::{self, CorpusGame, MAGIC};
use mollett::train::Sample;
use mollett::{Color, Game, GgfGame, GgfMove, Move, Position, Variant};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use std::io::Cursor;

/// Longest line read as a command (`protocol.md`: 4096 bytes).
const MAX_LINE: usize = 4096;
const TOO_LONG: &str = "line too long (more than 4096 bytes)";

/// One raw input line, shown as [`Shown`].
#[derive(Clone)]
struct Line(Vec<u8>);

impl std::fmt::Debug for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Shown(&self.0).fmt(f)
    }
}

/// Bytes shown as text, runs of one byte shortened (for failure messages).
struct Shown<'a>(&'a [u8]);

impl std::fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} bytes \"", self.0.len())?;
        let mut i = 0;
        while i < self.0.len() {
            let b = self.0[i];
            let run = self.0[i..].iter().take_while(|&&c| c == b).count();
            let esc: String = std::ascii::escape_default(b).map(char::from).collect();
            if run > 8 {
                write!(f, "{{{esc} x{run}}}")?;
            } else {
                for _ in 0..run {
                    f.write_str(&esc)?;
                }
            }
            i += run;
        }
        f.write_str("\"")
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Games and positions to build valid input from.

/// Plays from `start`, choosing moves by `choices`; at most `plies` plies, or
/// (with `plies` = None) to the end of the game.
fn play_out(start: Position, choices: &[u8], plies: Option<usize>) -> Game {
    let mut game = Game::from_position(start);
    for i in 0.. {
        if plies.is_some_and(|n| i >= n) {
            break;
        }
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let c = if choices.is_empty() {
            0
        } else {
            choices[i % choices.len()]
        };
        game.play(moves[c as usize % moves.len()]).expect("legal");
    }
    game
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Modern), Just(Variant::Classic)]
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

/// The positions a game went through, start and end included.
fn positions(game: &Game) -> Vec<Position> {
    let mut out = vec![*game.start()];
    let mut pos = *game.start();
    for &mv in game.moves() {
        pos = pos.play(mv).expect("legal");
        out.push(pos);
    }
    out
}

/// Some position of a random game of either variant.
fn some_position() -> impl Strategy<Value = Position> {
    (
        variant(),
        color(),
        prop::collection::vec(any::<u8>(), 1..40),
        any::<Index>(),
    )
        .prop_map(|(v, first, choices, at)| {
            let ps = positions(&play_out(Position::start(v, first), &choices, None));
            ps[at.index(ps.len())]
        })
}

// ---------------------------------------------------------------------------
// Mutations of valid text and bytes.

#[derive(Clone, Debug)]
enum Edit {
    Insert(Index, String),
    Replace(Index, String),
    Delete(Index, usize),
    Duplicate(Index, usize),
    Truncate(Index),
}

fn edit(pool: &'static [&'static str]) -> impl Strategy<Value = Edit> {
    let piece = prop_oneof![
        3 => select(pool).prop_map(str::to_string),
        1 => "[ -~]{1,4}",
        1 => any::<char>().prop_map(|c| c.to_string()),
    ];
    prop_oneof![
        3 => (any::<Index>(), piece.clone()).prop_map(|(i, s)| Edit::Insert(i, s)),
        3 => (any::<Index>(), piece).prop_map(|(i, s)| Edit::Replace(i, s)),
        2 => (any::<Index>(), 1..6usize).prop_map(|(i, n)| Edit::Delete(i, n)),
        1 => (any::<Index>(), 1..12usize).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn edits(pool: &'static [&'static str]) -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(edit(pool), 1..4)
}

/// Applies edits to the characters of `s` (so the result stays a string).
fn mutate(s: &str, edits: &[Edit]) -> String {
    let mut c: Vec<char> = s.chars().collect();
    for e in edits {
        let at = |i: &Index, len: usize| i.index(len + 1);
        match e {
            Edit::Insert(i, t) => {
                let p = at(i, c.len());
                c.splice(p..p, t.chars());
            }
            Edit::Replace(i, t) => {
                let p = at(i, c.len());
                let end = (p + t.chars().count()).min(c.len());
                c.splice(p..end, t.chars());
            }
            Edit::Delete(i, n) => {
                let p = at(i, c.len());
                let end = (p + n).min(c.len());
                c.drain(p..end);
            }
            Edit::Duplicate(i, n) => {
                let p = at(i, c.len());
                let end = (p + n).min(c.len());
                let copy: Vec<char> = c[p..end].to_vec();
                c.splice(p..p, copy);
            }
            Edit::Truncate(i) => {
                let p = at(i, c.len());
                c.truncate(p);
            }
        }
    }
    c.into_iter().collect()
}

/// Random text: printable, any characters, or lines of both.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,80}",
        ".{0,40}",
        prop::collection::vec("[ -~\t]{0,70}", 0..5).prop_map(|l| l.join("\n")),
    ]
}

// ---------------------------------------------------------------------------
// 1. GTP lines.

/// Words the GTP arguments are made of.
#[rustfmt::skip]
const GTP_WORDS: &[&str] = &[
    "0", "1", "2", "3", "4", "8", "16", "60", "61", "64", "100", "-1", "+1", "1.5", ".5", "1e3",
    "1e400", "1000001", "nan", "inf", "-inf", "NaN", "99999999999999999999999",
    "18446744073709551615", "18446744073709551616", "4294967295", "4294967296", "0x10", "007", "b",
    "w", "black", "white", "red", "r", "B", "W", "X", "O", "x", "none", "absolute", "byoyomi",
    "canadian", "a1", "h8", "c4", "d3", "f5", "e6", "d4", "e5", "C4", "pass", "PA", "pa", "i9",
    "a0", "a", "c44", "-", "modern", "classic", "othello", "reversi", "Classic", "discs", "empties",
    "handcrafted", "learned", "/nonexistent/w.bin", "Cargo.toml", "bogus", "=", "?", "é",
    "---------------------------OX------XO---------------------------",
    "----------------------------------------------------------------",
    "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "---------------------------OX------XO--------------------------",
    "---------------------------OX------XO----------------------------",
    "--------------------------éOX------XO---------------------------",
    "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-",
];

fn gtp_word() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => select(GTP_WORDS).prop_map(str::to_string),
        1 => (0..OPTIONS.len()).prop_map(|i| OPTIONS[i].name.to_string()),
        1 => (0..COMMANDS.len()).prop_map(|i| COMMANDS[i].name.to_string()),
        1 => "[!-~]{1,8}",
        1 => prop::collection::vec(select(&['X', 'O', '-', 'x', 'o', '.', '*', 'q'][..]), 62..=66)
            .prop_map(|v| v.into_iter().collect::<String>()),
    ]
}

/// A command line: optional id, a command name (any case), words as
/// arguments, odd spacing, maybe a comment.
fn gtp_command() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::option::of("[0-9]{1,4}"),
        0..COMMANDS.len(),
        any::<bool>(),
        prop::collection::vec(gtp_word(), 0..5),
        select(&[" ", "  ", "\t", " \t "][..]),
        prop::option::of("[ -~]{0,10}"),
        select(&["", " ", "\t", "\r", "  "][..]),
    )
        .prop_map(|(id, c, upper, args, sep, comment, edge)| {
            let mut s = String::from(edge);
            if let Some(id) = id {
                s += &id;
                s += sep;
            }
            let name = COMMANDS[c].name;
            s += &if upper {
                name.to_uppercase()
            } else {
                name.to_string()
            };
            for a in args {
                s += sep;
                s += &a;
            }
            if let Some(c) = comment {
                s += " #";
                s += &c;
            }
            s += edge;
            s.into_bytes()
        })
}

fn control_byte() -> impl Strategy<Value = u8> {
    prop_oneof![0u8..32, Just(127u8)].prop_map(|b| if b == b'\n' { b'\r' } else { b })
}

/// A line around or past the length limit.
fn long_line() -> impl Strategy<Value = Vec<u8>> {
    (
        select(&[" ", "\t", "x", "#", "\x01", "play c4 ", "é", "1 ", "name "][..]),
        prop_oneof![MAX_LINE - 4..MAX_LINE + 4, MAX_LINE + 4..MAX_LINE * 2],
        select(&["", "name", "# c", " 1 name", "\u{ff}"][..]),
    )
        .prop_map(|(chunk, len, tail)| {
            let mut b: Vec<u8> = chunk.bytes().cycle().take(len).collect();
            b.extend_from_slice(tail.as_bytes());
            b
        })
}

fn gtp_line() -> impl Strategy<Value = Line> {
    prop_oneof![
        8 => gtp_command(),
        1 => prop::collection::vec(any::<u8>(), 0..48),
        1 => "[ -~]{0,40}".prop_map(String::into_bytes),
        1 => (gtp_command(), prop::collection::vec((any::<Index>(), control_byte()), 1..4))
            .prop_map(|(mut line, ins)| {
                for (i, b) in ins {
                    let p = i.index(line.len() + 1);
                    line.insert(p, b);
                }
                line
            }),
        1 => (gtp_command(), any::<Index>(), prop::collection::vec(128u8..=255, 1..3))
            .prop_map(|(mut line, i, bad)| {
                let p = i.index(line.len() + 1);
                line.splice(p..p, bad);
                line
            }),
        1 => long_line(),
    ]
    .prop_map(|mut line| {
        // One input line: a line feed would make two.
        for b in &mut line {
            if *b == b'\n' {
                *b = b' ';
            }
        }
        Line(line)
    })
}

/// Whether `protocol.md` says a line is answered: it is longer than the
/// limit with no `#` before the cut, or it keeps some text once control
/// characters and the comment are dropped.
fn answered(raw: &[u8]) -> bool {
    let cut = &raw[..raw.len().min(MAX_LINE)];
    if raw.len() > MAX_LINE && !cut.contains(&b'#') {
        return true;
    }
    let end = cut.iter().position(|&b| b == b'#').unwrap_or(cut.len());
    cut[..end].iter().any(|&b| b > b' ' && b != 127)
}

/// Keeps a random line from running long or from ending the session: no
/// `quit`, `solve`, `bench`, deep `perft`, huge table or many threads; no
/// search once an earlier line may have changed the search options (the
/// session starts at depth 1, exact only at 0 empties).
fn tame_gtp(line: Vec<u8>, searches_ok: &mut bool) -> Vec<u8> {
    let cut = &line[..line.len().min(MAX_LINE)];
    let Some(req) = request(cut, line.len() > MAX_LINE) else {
        return line;
    };
    let big = |v: &str, max: u64| v.parse::<u64>().is_ok_and(|n| n > max);
    let tame = match &req.command {
        Ok(Command::Quit | Command::Solve | Command::Bench) => false,
        Ok(Command::Perft(d)) => *d <= 4,
        Ok(Command::SetOption { name, value }) => {
            *searches_ok = false;
            !(name.eq_ignore_ascii_case("hash") && big(value, 64)
                || name.eq_ignore_ascii_case("threads") && big(value, 4)
                || value.contains("/dev")
                || value.contains("/proc"))
        }
        Ok(Command::Genmove(_) | Command::RegGenmove(_) | Command::Hint { .. }) => *searches_ok,
        _ => true,
    };
    if tame {
        line
    } else {
        b"name".to_vec()
    }
}

/// Options that keep every search short and every session cheap to start.
fn quick_options() -> Options {
    let mut o = Options::default();
    for (k, v) in [
        ("hash", "1"),
        ("eval", "handcrafted"),
        ("depth", "1"),
        ("movetime", "10"),
        ("endgame", "0"),
    ] {
        o.set(k, v).expect("valid option");
    }
    o
}

fn run_session(input: Vec<u8>, protocol: Protocol) -> String {
    let mut out = Vec::new();
    mollett::protocol::run_configured(
        Cursor::new(input),
        &mut out,
        Variant::Modern,
        protocol,
        quick_options(),
    )
    .expect("run");
    String::from_utf8(out).expect("output is UTF-8")
}

/// A GTP session: its answers.
fn gtp(input: Vec<u8>) -> Vec<String> {
    common::answers(&run_session(input, Protocol::Gtp))
}

/// A position reached by GTP commands: variant and first colour, some
/// plies, some of them taken back (so there is something to redo), maybe
/// another scoring rule.
#[derive(Clone, Debug)]
struct Setup {
    lines: Vec<String>,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        variant(),
        color(),
        prop::collection::vec(any::<u8>(), 0..70),
        0..4usize,
        any::<bool>(),
    )
        .prop_map(|(v, first, choices, undo, empties)| {
            let n = choices.len();
            let game = play_out(Position::start(v, first), &choices, Some(n));
            let mut lines = vec![format!("newgame {v} {}", first.name(v))];
            if empties {
                lines.push("set_option scoring empties".into());
            }
            lines.extend(game.moves().iter().map(|m| format!("play {m}")));
            if undo > 0 && undo <= game.moves().len() {
                lines.push(format!("undo {undo}"));
            }
            Setup { lines }
        })
}

/// Commands that show the session's state without changing it.
#[rustfmt::skip]
const PROBES: &[&str] = &[
    "showboard", "history", "discs", "options", "legal", "final_score", "gogui-rules_side_to_move",
];

/// The mark and text of an answer to the command with id `id`.
fn answer_to(answer: &str, id: usize) -> Option<(char, String)> {
    let mark = answer.chars().next().filter(|m| matches!(m, '=' | '?'))?;
    let rest = answer[1..].strip_prefix(&id.to_string())?;
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some((mark, rest.to_string()))
}

/// The message of an answer, without its mark and id.
fn message(answer: &str) -> &str {
    let rest = &answer[1..];
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.strip_prefix(' ').unwrap_or(rest)
}

fn check_answer(answer: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        answer.starts_with('=') || answer.starts_with('?'),
        "not an answer: {:?}",
        answer
    );
    prop_assert_ne!(message(answer), "internal error", "{:?}", answer);
    Ok(())
}

/// What each answer of a script answers.
enum Slot {
    Setup(usize),
    Probe { group: usize, id: usize },
    Line(usize),
}

fn push_line(input: &mut Vec<u8>, line: &[u8]) {
    input.extend_from_slice(line);
    input.push(b'\n');
}

/// Runs the setup, then the random lines with the probes before and after
/// each; checks one answer per answered line, in order, none an internal
/// error, and the probes unchanged across each refused or ignored line.
fn check_gtp_lines(setup: &Setup, lines: Vec<Line>) -> Result<(), TestCaseError> {
    let mut searches_ok = true;
    let lines: Vec<Vec<u8>> = lines
        .into_iter()
        .map(|l| tame_gtp(l.0, &mut searches_ok))
        .collect();
    let mut input = Vec::new();
    let mut slots = Vec::new();
    for (i, l) in setup.lines.iter().enumerate() {
        push_line(&mut input, format!("{} {l}", 1000 + i).as_bytes());
        slots.push(Slot::Setup(1000 + i));
    }
    let probe_group = |input: &mut Vec<u8>, slots: &mut Vec<Slot>, group: usize| {
        for (k, p) in PROBES.iter().enumerate() {
            let id = 5000 + group * 10 + k;
            push_line(input, format!("{id} {p}").as_bytes());
            slots.push(Slot::Probe { group, id });
        }
    };
    for (j, line) in lines.iter().enumerate() {
        probe_group(&mut input, &mut slots, j);
        push_line(&mut input, line);
        if answered(line) {
            slots.push(Slot::Line(j));
        }
    }
    probe_group(&mut input, &mut slots, lines.len());

    let answers = gtp(input);
    prop_assert_eq!(
        answers.len(),
        slots.len(),
        "answers {:#?} for lines {:?}",
        answers,
        lines.iter().map(|l| Shown(l)).collect::<Vec<_>>()
    );
    let mut groups: Vec<Vec<(char, String)>> = vec![Vec::new(); lines.len() + 1];
    let mut marks: Vec<Option<char>> = vec![None; lines.len()];
    for (slot, a) in slots.iter().zip(&answers) {
        check_answer(a)?;
        match *slot {
            Slot::Setup(id) => {
                let got = answer_to(a, id);
                prop_assert!(
                    got.as_ref().is_some_and(|(m, _)| *m == '='),
                    "setup answer {:?} (setup {:?})",
                    a,
                    setup
                );
            }
            Slot::Probe { group, id } => {
                let got = answer_to(a, id);
                prop_assert!(got.is_some(), "probe {} answered {:?}", id, a);
                groups[group].push(got.unwrap());
            }
            Slot::Line(j) => {
                marks[j] = a.chars().next();
                let line = &lines[j];
                if line.len() > MAX_LINE && !line[..MAX_LINE].contains(&b'#') {
                    prop_assert_eq!(message(a), TOO_LONG, "line {:?}", Shown(line));
                }
            }
        }
    }
    for (j, mark) in marks.iter().enumerate() {
        if *mark != Some('=') {
            prop_assert_eq!(
                &groups[j],
                &groups[j + 1],
                "state changed by {:?} line {:?}",
                mark,
                Shown(&lines[j])
            );
        }
    }
    Ok(())
}

/// Commands that look at the redo list too (run only where the session may
/// change: after them it is not used again).
#[rustfmt::skip]
const TAIL: &[&str] = &[
    "redo 1", "redo 1", "redo 1", "history", "showboard", "options",
];

/// Runs setup + line + tail and setup + tail; a refused (or ignored) line
/// must give the same tail.
fn check_gtp_refusal(setup: &Setup, line: Line) -> Result<(), TestCaseError> {
    let line = tame_gtp(line.0, &mut true);
    let script = |with: bool| {
        let mut input = Vec::new();
        for (i, l) in setup.lines.iter().enumerate() {
            push_line(&mut input, format!("{} {l}", 1000 + i).as_bytes());
        }
        if with {
            push_line(&mut input, &line);
        }
        for (k, t) in TAIL.iter().enumerate() {
            push_line(&mut input, format!("{} {t}", 9000 + k).as_bytes());
        }
        gtp(input)
    };
    let with = script(true);
    let base = script(false);
    let n = setup.lines.len();
    let extra = usize::from(answered(&line));
    prop_assert_eq!(
        with.len(),
        base.len() + extra,
        "answers {:#?} to {:?}",
        with,
        Shown(&line)
    );
    for a in &with {
        check_answer(a)?;
    }
    if extra == 0 || with[n].starts_with('?') {
        prop_assert_eq!(
            &with[n + extra..],
            &base[n..],
            "state changed by line {:?}",
            Shown(&line)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn gtp_lines_are_answered_once_and_refusals_change_nothing(
        setup in setup(),
        lines in prop::collection::vec(gtp_line(), 1..5),
    ) {
        check_gtp_lines(&setup, lines)?;
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn gtp_refused_line_leaves_redo_list_and_options(setup in setup(), line in gtp_line()) {
        check_gtp_refusal(&setup, line)?;
    }
}

// ---------------------------------------------------------------------------
// 2. NBoard lines.

/// A GGF record of a random modern game (or of its end from some ply on),
/// with header tags, evals and times.
fn ggf_record() -> impl Strategy<Value = GgfGame> {
    (
        prop::collection::vec(any::<u8>(), 1..80),
        any::<Index>(),
        any::<bool>(),
        prop::collection::vec(prop::option::of(select(GGF_NUMBERS)), 2),
        prop::collection::vec(prop::option::of("[a-zA-Z0-9 .:+?/-]{0,10}"), 8),
        prop::collection::vec(("[A-Z]{1,3}", "[a-z0-9 ]{0,6}"), 0..3),
    )
        .prop_map(|(choices, from, drop_passes, nums, header, other)| {
            let game = play_out(
                Position::start(Variant::Modern, Color::Black),
                &choices,
                None,
            );
            let ps = positions(&game);
            let k = from.index(ps.len());
            let mut g = GgfGame::new(ps[k]);
            let num = |i: usize| nums[i].and_then(mollett::rules::ggf::parse_clock);
            for (i, &mv) in game.moves().iter().enumerate().skip(k) {
                if drop_passes && mv == Move::Pass {
                    continue;
                }
                g.moves.push(GgfMove {
                    color: ps[i].side,
                    mv,
                    eval: if i % 3 == 0 { num(0) } else { None },
                    time: if i % 2 == 0 { num(1) } else { None },
                });
            }
            let mut h = header.into_iter();
            for field in [
                &mut g.place,
                &mut g.date,
                &mut g.black,
                &mut g.white,
                &mut g.black_rating,
                &mut g.white_rating,
                &mut g.result,
                &mut g.time_control,
            ] {
                *field = h.next().flatten();
            }
            g.other = other
                .into_iter()
                .filter(|(n, _)| {
                    !matches!(
                        n.as_str(),
                        "B" | "W"
                            | "BO"
                            | "VA"
                            | "GM"
                            | "TY"
                            | "PC"
                            | "DT"
                            | "PB"
                            | "PW"
                            | "RB"
                            | "RW"
                            | "RE"
                            | "TI"
                    )
                })
                .collect();
            g
        })
}

const GGF_NUMBERS: &[&str] = &[
    "0", "1", "-3", "1.25", "12.345", "05:00", "1:30:00", "-0", "1e3", "99:99:99", "1e308",
];

/// Numbers as a GGF record may write them.
#[rustfmt::skip]
const GGF_NUMBER_TEXTS: &[&str] = &[
    "", "0", "-0", "1", "+1", "-3.5", "1.25", "12.345", "1e3", "1E-3", "05:00", "1:30:00",
    "99:99:99", "-1:30", "1:-30", "1e308", "1e308:1e308", "1e307:1e307:1e307", "1e400", "inf",
    "nan", "-inf", ":", "1:", ":1", "0.1:0.2", " 7 ", "x",
];

/// Pieces GGF mutations insert.
#[rustfmt::skip]
const GGF_PIECES: &[&str] = &[
    "[", "]", ";", ")", "(;", ";)", "/", "//", ":", "1e308", "1e308:1e308", "-", "PA", "B[", "W[",
    "BO[", "TY[", "GM[", "]B[F5]", "]W[", "8", "*", "O", "-", "inf", "nan", "é", " ",
];

fn nboard_line() -> impl Strategy<Value = String> {
    let num = select(
        &[
            "0", "1", "2", "3", "-1", "61", "6400", "6401", "x", "", "1.5",
        ][..],
    );
    let mv = select(
        &[
            "F5",
            "f5",
            "D6",
            "C3",
            "PA",
            "pass",
            "a1",
            "z9",
            "",
            "F5/1.5",
            "F5//11.5",
            "F5/x",
            "F5/1/2/3",
            "C4/0/1e400",
            "C4//-1",
            "C4//1000001",
        ][..],
    );
    prop_oneof![
        1 => Just("nboard 2".to_string()),
        1 => num.clone().prop_map(|n| format!("nboard {n}")),
        2 => num.clone().prop_map(|n| format!("set depth {n}")),
        1 => num.clone().prop_map(|n| format!("set contempt {n}")),
        3 => ggf_record().prop_map(|g| format!("set game {g}")),
        2 => (ggf_record(), edits(GGF_PIECES)).prop_map(|(g, e)| format!("set game {}", mutate(&g.to_string(), &e))),
        4 => mv.prop_map(|m| format!("move {m}")),
        1 => num.clone().prop_map(|n| format!("hint {n}")),
        1 => Just("go".to_string()),
        1 => Just("go now".to_string()),
        1 => "[ -~]{0,6}".prop_map(|n| format!("ping {n}")),
        1 => Just("learn".to_string()),
        1 => Just("analyze".to_string()),
        1 => Just("quit".to_string()),
        2 => "[ -~]{0,40}",
        1 => ".{0,20}",
        1 => (select(&["x", " ", "é", "ping 1 "][..]), MAX_LINE - 2..MAX_LINE + 8)
            .prop_map(|(c, n)| c.repeat(n)),
    ]
    .prop_map(|l| l.replace(['\n', '\r'], " "))
}

/// No `quit`, and no search deeper than 3.
fn tame_nboard(line: String) -> String {
    let text = line.trim();
    if text.is_empty() || line.len() > MAX_LINE {
        return line;
    }
    match nboard::parse_line(text) {
        NbCommand::Quit => "learn".into(),
        NbCommand::SetDepth(d) if d > 3 => "set depth 3".into(),
        _ => line,
    }
}

/// The `n` of a line that is a `ping n`.
fn ping_of(line: &str) -> Option<String> {
    let text = line.trim();
    if text.is_empty() || line.len() > MAX_LINE {
        return None;
    }
    match nboard::parse_line(text) {
        NbCommand::Ping(n) => Some(n),
        _ => None,
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn nboard_lines_never_stop_the_session(lines in prop::collection::vec(nboard_line(), 0..8)) {
        let lines: Vec<String> = lines.into_iter().map(tame_nboard).collect();
        let mut input = String::from("nboard 2\nset depth 1\n");
        for l in &lines {
            input += l;
            input.push('\n');
        }
        input += "ping 4242\n";
        let out = run_session(input.into_bytes(), Protocol::Nboard);
        let said: Vec<&str> = out.lines().collect();
        prop_assert_eq!(said.last().copied(), Some("pong 4242"), "output {:#?}", said);
        prop_assert!(!said.iter().any(|l| l.contains("internal error")), "output {:#?}", said);
        // Every ping is answered, in order.
        let mut pings: Vec<String> = lines.iter().filter_map(|l| ping_of(l)).collect();
        pings.push("4242".into());
        let pongs: Vec<String> = said
            .iter()
            .filter_map(|l| l.strip_prefix("pong "))
            .map(str::to_string)
            .collect();
        prop_assert_eq!(pongs, pings, "output {:#?}", said);
    }
}

// ---------------------------------------------------------------------------
// 3. GGF.

fn check_ggf(text: &str) -> Result<(), TestCaseError> {
    let _ = parse_all(text);
    if let Ok(g) = GgfGame::parse(text) {
        let game = g.to_game();
        let written = g.to_string();
        let again = GgfGame::parse(&written);
        prop_assert_eq!(again.as_ref(), Ok(&g), "written: {}", written);
        prop_assert_eq!(again.unwrap().to_game(), game);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn ggf_valid_records_read_back(g in ggf_record()) {
        let text = g.to_string();
        prop_assert_eq!(GgfGame::parse(&text), Ok(g.clone()));
        prop_assert!(g.to_game().is_ok(), "{}", text);
        check_ggf(&text)?;
    }

    #[test]
    fn ggf_mutated_records(g in ggf_record(), e in edits(GGF_PIECES), junk in "[ -~]{0,8}") {
        let text = format!("{junk}{}", mutate(&g.to_string(), &e));
        check_ggf(&text)?;
        // Two games in one text.
        let _ = parse_all(&format!("{text}\n{text}"));
    }

    #[test]
    fn ggf_move_numbers_as_written(
        g in ggf_record(),
        nums in prop::collection::vec((select(GGF_NUMBER_TEXTS), select(GGF_NUMBER_TEXTS)), 1..4),
        at in any::<Index>(),
        form in 0..3u8,
    ) {
        // One move (if any) with its eval and time in the text's own words.
        let text = g.to_string();
        let tags: Vec<usize> = text.match_indices("B[").chain(text.match_indices("W[")).map(|(i, _)| i).collect();
        if !tags.is_empty() {
            let open = tags[at.index(tags.len())];
            let close = open + text[open..].find(']').expect("closed tag");
            let word = text[open + 2..close].split('/').next().unwrap_or("").to_string();
            for (e, t) in &nums {
                let value = match form {
                    0 => format!("{word}/{e}"),
                    1 => format!("{word}//{t}"),
                    _ => format!("{word}/{e}/{t}"),
                };
                let changed = format!("{}{value}{}", &text[..open + 2], &text[close..]);
                check_ggf(&changed)?;
            }
        }
        let ti = nums.iter().map(|(e, t)| format!("{e}//{t}")).collect::<Vec<_>>();
        check_ggf(&text.replacen("TY[8]", &format!("TI[{}]TY[8]", ti.join(":")), 1))?;
    }

    #[test]
    fn ggf_random_text(text in any_text(), e in edits(GGF_PIECES)) {
        check_ggf(&text)?;
        check_ggf(&mutate(&format!("(;{text};)"), &e))?;
    }
}

// ---------------------------------------------------------------------------
// 4. OBF.

fn check_obf_position(pos: &Position) -> Result<(), TestCaseError> {
    let text = pos.to_obf();
    let (board, side) = text.split_once(' ').expect("board and side");
    let supply = (pos.variant == Variant::Classic).then_some(pos.supply);
    prop_assert_eq!(
        Position::from_obf(board, side, pos.variant, supply),
        Ok(*pos),
        "{}",
        text
    );
    Ok(())
}

#[rustfmt::skip]
const OBF_PIECES: &[&str] = &[
    "X", "O", "-", ".", "*", "x", "o", ";", ":", "+", "-2", " ", "%", "#", "\n", "F5", "PA", "pass",
    "é", "99999999999",
];

fn obf_problem() -> impl Strategy<Value = String> {
    (
        some_position(),
        prop::collection::vec((any::<Index>(), -64i32..=64), 0..4),
    )
        .prop_map(|(pos, scores)| {
            let mut s = pos.to_obf();
            let moves = pos.legal_moves();
            for (i, v) in scores {
                if !moves.is_empty() {
                    let m = moves[i.index(moves.len())];
                    s += &format!("; {}:{v:+}", m.to_string().to_uppercase());
                }
            }
            s.push(';');
            s
        })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn obf_boards(
        board in prop::collection::vec(
            select(&['X', 'O', '-', 'x', 'o', '.', '*', 'b', 'w', 'B', 'W', 'q', ' ', 'é'][..]),
            62..=66,
        ),
        side in select(&["X", "O", "x", "o", "*", "b", "w", "", "XO", "é", "-"][..]),
        v in variant(),
        supply in prop::option::of([0u8..=40, 0u8..=40]),
    ) {
        let board: String = board.into_iter().collect();
        if let Ok(pos) = Position::from_obf(&board, side, v, supply) {
            check_obf_position(&pos)?;
        }
    }

    #[test]
    fn obf_positions_round_trip(pos in some_position()) {
        check_obf_position(&pos)?;
    }

    #[test]
    fn obf_problem_files(
        problems in prop::collection::vec(obf_problem(), 1..4),
        e in edits(OBF_PIECES),
        first in 0usize..100,
        text in any_text(),
    ) {
        let file = problems.join("\n");
        let read = obf::parse(&file, first);
        prop_assert!(read.is_ok(), "{:?}: {}", read.err(), file);
        for text in [mutate(&file, &e), text] {
            if let Ok(ps) = obf::parse(&text, first) {
                for p in ps {
                    check_obf_position(&p.pos)?;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 5. Result lines.

/// A board of 64 or 65 bytes (or about), one of its characters several
/// bytes long and near the 64th byte: where a reader that cuts bytes would
/// split it.
fn wide_board() -> impl Strategy<Value = String> {
    (
        60usize..=64,
        select(&["é", "€", "𝄞"][..]),
        0usize..4,
        select(&["X", "O", "-"][..]),
        select(&["", "X", "O"][..]),
    )
        .prop_map(|(n, wide, back, square, side)| {
            let mut s = square.repeat(n);
            s.insert_str(n - back, wide);
            s + side
        })
}

/// `line` with the value of `key=` replaced.
fn with_field(line: &str, key: &str, value: &str) -> String {
    line.split(' ')
        .map(|t| match t.split_once('=') {
            Some((k, _)) if k == key => format!("{key}={value}"),
            _ => t.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn game_record() -> impl Strategy<Value = GameRecord> {
    (
        (
            variant(),
            prop::collection::vec(any::<u8>(), 1..80),
            any::<Index>(),
            any::<bool>(),
        ),
        (
            0usize..1000,
            0usize..500,
            "[a-z][a-z0-9_.-]{0,8}",
            "[a-z][a-z0-9_.-]{0,8}",
        ),
        (
            prop::option::of(0usize..100),
            any::<Index>(),
            [0u32..100_000, 0u32..100_000],
        ),
        (0..Reason::ALL.len(), any::<bool>(), any::<Index>()),
    )
        .prop_map(
            |(
                (v, choices, board_at, use_board),
                (index, pair, black, white),
                (opening, book, ms),
                (reason, black_wins, stop_at),
            )| {
                let reason = Reason::ALL[reason];
                // A board start is read back from its OBF text, so build it from that.
                let mut start = None;
                let mut from = Position::start(v, Color::Black);
                if use_board {
                    let ps = positions(&play_out(from, &choices, Some(board_at.index(30))));
                    let text = ps.last().expect("a position").to_obf();
                    let (b, s) = text.split_once(' ').expect("board and side");
                    from = Position::from_obf(b, s, v, None).expect("own OBF");
                    start = Some(from);
                }
                let whole = play_out(from, &choices, None);
                let mut moves = whole.moves().to_vec();
                if reason != Reason::Normal {
                    moves.truncate(stop_at.index(moves.len() + 1));
                }
                let mut pos = from;
                for &m in &moves {
                    pos = pos.play(m).expect("legal");
                }
                let discs = [
                    pos.discs_of(Color::Black).count_ones(),
                    pos.discs_of(Color::White).count_ones(),
                ];
                let outcome = if reason != Reason::Normal {
                    if black_wins {
                        Outcome::BlackWins
                    } else {
                        Outcome::WhiteWins
                    }
                } else {
                    match discs[0].cmp(&discs[1]) {
                        std::cmp::Ordering::Greater => Outcome::BlackWins,
                        std::cmp::Ordering::Less => Outcome::WhiteWins,
                        std::cmp::Ordering::Equal => Outcome::Draw,
                    }
                };
                GameRecord {
                    index,
                    pair,
                    black,
                    white,
                    variant: v,
                    opening,
                    start,
                    book: book.index(moves.len() + 1),
                    moves,
                    discs,
                    outcome,
                    reason,
                    time: ms.map(|t| t as f64 / 1000.0),
                }
            },
        )
}

#[rustfmt::skip]
const RECORD_PIECES: &[&str] = &[
    " ", "=", "game=", "start=", "moves=", "discs=", "time=", "result=", "reason=", "book=",
    "variant=classic", "1-0", "0-1", "1/2-1/2", "normal", "time", "pa", "pass", "-", "/", "é", "X",
    "O", "1e400", "-1", "0.0005", "99999999999999999999", "startpos",
];

const RECORD_KEYS: &[&str] = &[
    "game", "pair", "black", "white", "variant", "opening", "start", "book", "moves", "discs",
    "result", "reason", "time",
];

/// Values for any key: the file is text anyone may edit.
#[rustfmt::skip]
const RECORD_VALUES: &[&str] = &[
    "", "-", "0", "+1", "007", "1e3", "99999999999999999999", "Modern", "othello", "classic",
    "startpos", "f5d6", "F5 D6", "pass", "pa", "f5-d6", "2-2", "+2-+2", "-2", "1-0", "0-1",
    "1/2-1/2", "normal", "time", "resign", "0/0", "0.0005/0", "0.0015/2.0004", "1e400/0", "-0/0",
    "-0.0001/0", "1e300/1", "12.3456789/0.1", "1e-9/0", "0x1/0", "inf/0", "NaN/0", "a=b", "é",
];

fn check_record_line(line: &str) -> Result<(), TestCaseError> {
    if let Ok(r) = GameRecord::parse(line) {
        let written = r.to_line();
        prop_assert_eq!(
            GameRecord::parse(&written),
            Ok(r),
            "read {:?} wrote {:?}",
            line,
            written
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn result_lines_read_back(r in game_record()) {
        let line = r.to_line();
        prop_assert_eq!(GameRecord::parse(&line), Ok(r), "{}", line);
    }

    #[test]
    fn result_lines_with_other_values(
        r in game_record(),
        changes in prop::collection::vec((select(RECORD_KEYS), select(RECORD_VALUES)), 1..3),
    ) {
        let mut line = r.to_line();
        for (k, v) in changes {
            line = with_field(&line, k, v);
        }
        check_record_line(&line)?;
    }

    #[test]
    fn result_line_times(
        r in game_record(),
        t in prop_oneof![0.0f64..1e4, 0.0f64..1e16, any::<f64>()],
        u in 0.0f64..1e3,
        form in 0..3u8,
    ) {
        let time = match form {
            0 => format!("{t}/{u}"),
            1 => format!("{t:e}/{u:.4}"),
            _ => format!("{t:.7}/{u:.1}"),
        };
        check_record_line(&with_field(&r.to_line(), "time", &time))?;
    }

    #[test]
    fn result_lines_mutated(
        r in game_record(),
        e in edits(RECORD_PIECES),
        text in any_text(),
        board in wide_board(),
    ) {
        check_record_line(&mutate(&r.to_line(), &e))?;
        check_record_line(&text)?;
        check_record_line(&with_field(&r.to_line(), "start", &board))?;
    }
}

// ---------------------------------------------------------------------------
// 6. Weight files.

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn weight_files_mutated(
        flips in prop::collection::vec((any::<Index>(), any::<u8>()), 0..6),
        head_flips in prop::collection::vec((0usize..40, any::<u8>()), 0..3),
        cut in prop::option::of(any::<Index>()),
        extra in prop::collection::vec(any::<u8>(), 0..5),
    ) {
        let mut bytes = EMBEDDED_WEIGHTS.to_vec();
        for (i, b) in flips {
            let p = i.index(bytes.len());
            bytes[p] = b;
        }
        for (p, b) in head_flips {
            bytes[p] = b;
        }
        if let Some(c) = cut {
            bytes.truncate(c.index(bytes.len() + 1));
        }
        bytes.extend(extra);
        if let Ok(w) = PatternWeights::from_bytes(&bytes) {
            prop_assert_eq!(w.data.len(), w.stages * w.per_stage());
            // The checksum covers the whole file: a version 2 file loads
            // only unchanged.
            if bytes[8..12] == 2u32.to_le_bytes() {
                prop_assert!(bytes[..] == EMBEDDED_WEIGHTS[..]);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn weight_files_random(
        header in prop::option::of(0usize..33),
        body in prop::collection::vec(any::<u8>(), 0..96),
    ) {
        // Random bytes, or the real header's first bytes and random ones.
        let mut bytes = header.map_or_else(Vec::new, |n| EMBEDDED_WEIGHTS[..n].to_vec());
        bytes.extend(body);
        let _ = PatternWeights::from_bytes(&bytes);
    }
}

// ---------------------------------------------------------------------------
// 7. Openings files and move lists.

fn opening_line() -> impl Strategy<Value = (Variant, String)> {
    (
        variant(),
        prop::collection::vec(any::<u8>(), 1..30),
        0usize..12,
        0..4u8,
    )
        .prop_map(|(v, choices, n, form)| {
            let game = play_out(Position::start(v, Color::Black), &choices, Some(n));
            let moves = game.moves();
            let text = match form {
                0 => moves_text(moves),
                1 => moves
                    .iter()
                    .map(|m| m.to_string().to_uppercase())
                    .collect::<Vec<_>>()
                    .join(" "),
                2 => game.position().to_obf(),
                _ => game.position().to_obf().replace(' ', "") + " # board",
            };
            (v, text)
        })
}

const OPENING_PIECES: &[&str] = &[
    "#", " ", "-", ",", "pa", "pass", "f5", "X", "O", "é", ";", "d3c4", "xx",
];

fn check_opening(line: &str, v: Variant) -> Result<(), TestCaseError> {
    if let Ok(Some(o)) = openings::parse_line(line, v) {
        let text = o.text();
        prop_assert_eq!(
            openings::parse_line(&text, v),
            Ok(Some(o.clone())),
            "{}",
            text
        );
        if let Opening::Moves(m) = &o {
            prop_assert_eq!(parse_moves(&moves_text(m)), Ok(m.clone()));
        }
    }
    if let Ok(m) = parse_moves(line) {
        prop_assert_eq!(parse_moves(&moves_text(&m)), Ok(m));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn openings_lines((v, line) in opening_line(), e in edits(OPENING_PIECES), text in any_text()) {
        let read = openings::parse_line(&line, v);
        prop_assert!(read != Ok(None) || line.is_empty(), "{:?}", read);
        check_opening(&line, v)?;
        check_opening(&mutate(&line, &e), v)?;
        check_opening(&text, v)?;
    }

    #[test]
    fn openings_boards_of_any_characters(
        chars in prop::collection::vec(select(&['X', 'O', '-', 'é', 'ß', '€', 'x', ' '][..]), 60..66),
        board in wide_board(),
        side in select(&["", " X", " O;"][..]),
        v in variant(),
    ) {
        let line: String = chars.into_iter().collect();
        check_opening(&line, v)?;
        check_opening(&format!("{board}{side}"), v)?;
    }
}

// ---------------------------------------------------------------------------
// 8. Corpus files.

fn corpus_game(v: Variant) -> impl Strategy<Value = CorpusGame> {
    (
        0u64..10_000,
        prop::collection::vec(any::<u8>(), 1..80),
        prop::collection::vec(any::<bool>(), 1..70),
    )
        .prop_map(move |(index, choices, random)| {
            let game = play_out(Position::start(v, Color::Black), &choices, None);
            let end = *game.position();
            let moves = game
                .moves()
                .iter()
                .filter_map(|m| m.square())
                .enumerate()
                .map(|(i, sq)| (sq, random[i % random.len()]))
                .collect();
            CorpusGame {
                index,
                moves,
                result: end.discs_of(Color::Black).count_ones() as i32
                    - end.discs_of(Color::White).count_ones() as i32,
            }
        })
}

#[rustfmt::skip]
const CORPUS_PIECES: &[&str] = &[
    " ", "\n", "#", "+", "-", "F5", "f5", "pa", "é", "0", "+64", "99999999999999999999", "\r",
];

fn check_corpus_line(line: &str, v: Variant) -> Result<(), TestCaseError> {
    if let Ok(g) = CorpusGame::parse(line, v) {
        let written = g.to_line();
        prop_assert_eq!(CorpusGame::parse(&written, v), Ok(g), "{}", written);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn corpus_lines(
        (v, g) in variant().prop_flat_map(|v| (Just(v), corpus_game(v))),
        e in edits(CORPUS_PIECES),
        text in any_text(),
    ) {
        let line = g.to_line();
        prop_assert_eq!(CorpusGame::parse(&line, v), Ok(g), "{}", line);
        check_corpus_line(&mutate(&line, &e), v)?;
        check_corpus_line(&text, v)?;
    }

    #[test]
    fn corpus_files(
        v in variant(),
        games in prop::collection::vec(corpus_game(Variant::Modern), 0..4),
        e in edits(CORPUS_PIECES),
        bom in any::<bool>(),
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        cut in any::<Index>(),
    ) {
        let mut text = format!("{MAGIC} variant={v} exact=20 seed=1\n");
        for g in &games {
            text += &g.to_line();
            text.push('\n');
        }
        let mut file = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        file.extend_from_slice(mutate(&text, &e).as_bytes());
        for f in [file.clone(), file[..cut.index(file.len() + 1)].to_vec(), bytes] {
            if let Ok(c) = corpus::parse(&f) {
                prop_assert!(c.complete_len as usize <= f.len());
                let mut seen = std::collections::HashSet::new();
                prop_assert!(c.games.iter().all(|g| seen.insert(g.index)));
                let all = corpus::samples(&c, corpus::Positions::All);
                let clean = corpus::samples(&c, corpus::Positions::Clean);
                prop_assert!(clean.len() <= all.len());
            }
        }
        // The unmutated file reads every game (modern games: a classic header
        // skips them, but the file still reads).
        let c = corpus::parse(text.as_bytes());
        prop_assert!(c.is_ok(), "{:?}", c.err());
    }
}

// ---------------------------------------------------------------------------
// 9. Position files.

fn sample() -> impl Strategy<Value = Sample> {
    (some_position(), -6400i32..=6400, any::<bool>(), 0u32..40).prop_map(
        |(pos, score, exact, depth)| Sample {
            pos,
            score: score as f32 / 100.0,
            exact,
            depth: if exact { pos.empty_count() } else { depth },
        },
    )
}

#[rustfmt::skip]
const SAMPLE_PIECES: &[&str] = &[
    " ", "#", "e", "d", "d99999999999", "modern", "classic", "X", "O", "-", "+64.01", "nan", "inf",
    "300", "32", "é", "1e3",
];

fn check_sample_line(line: &str) -> Result<(), TestCaseError> {
    if let Ok(Some(s)) = Sample::parse(line) {
        let written = s.to_line();
        let again = Sample::parse(&written);
        prop_assert!(matches!(again, Ok(Some(_))), "{:?} from {}", again, written);
        let again = again.unwrap().unwrap();
        prop_assert_eq!(again.to_line(), written);
        prop_assert_eq!(again.pos, s.pos);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn sample_lines(s in sample(), e in edits(SAMPLE_PIECES), text in any_text()) {
        let line = s.to_line();
        let read = Sample::parse(&line);
        prop_assert!(matches!(read, Ok(Some(r)) if r.pos == s.pos && r.exact == s.exact), "{:?}: {}", read, line);
        check_sample_line(&line)?;
        check_sample_line(&mutate(&line, &e))?;
        check_sample_line(&text)?;
    }
}

// ---------------------------------------------------------------------------
// Regressions: cases the properties above found.

/// A line over the limit whose first 4096 bytes are blank got no answer
/// (its text past the cut was dropped unread, and what was left is blank);
/// `protocol.md` answers every line over the limit `? line too long`.
#[test]
fn long_line_blank_before_the_cut_is_answered() {
    let mut input = vec![b' '; MAX_LINE + 10];
    input.extend_from_slice(b"name\n1 name\n");
    assert_eq!(gtp(input), [format!("? {TOO_LONG}"), "=1 Mollett".into()]);
}

/// A line cut at the limit inside a character was answered `? invalid
/// UTF-8`, though the line was valid: it is too long.
#[test]
fn long_line_cut_inside_a_character_is_too_long() {
    let mut input = b"7 ".to_vec();
    input.extend("é".repeat(MAX_LINE).bytes());
    input.extend_from_slice(b"\n8 name\n");
    assert_eq!(gtp(input), [format!("?7 {TOO_LONG}"), "=8 Mollett".into()]);
}

/// A 65-byte board word whose 64th byte falls inside a character made the
/// openings reader panic (it cut the word at byte 64).
#[test]
fn opening_board_with_a_wide_character_is_refused() {
    let line = format!("{}€", "X".repeat(62));
    assert_eq!(line.len(), 65);
    assert!(openings::parse_line(&line, Variant::Modern).is_err());
}

/// The same cut in a result line's `start=` made the reader panic.
#[test]
fn result_line_start_with_a_wide_character_is_refused() {
    let line = format!(
        "game=0 pair=0 black=a white=b variant=modern opening=- start={}𝄞 book=0 \
         moves=- discs=2-2 result=1-0 reason=time time=0.000/0.000",
        "X".repeat(61)
    );
    assert_eq!(GameRecord::parse(&line), Err("bad start=".into()));
}

/// A GGF number whose `mm:ss` parts are finite but add up past the largest
/// number was read as infinite; written back (`inf`), it no longer read.
#[test]
fn ggf_number_too_large_for_its_parts_is_refused() {
    let text = format!(
        "(;GM[Othello]TY[8]BO[{}]B[F5/1e308:1e308];)",
        "8 ---------------------------O*------*O--------------------------- *"
    );
    let read = GgfGame::parse(&text);
    assert!(read.is_err(), "{read:?}");
    assert_eq!(mollett::rules::ggf::parse_clock("1e308:1e308"), None);
}

/// A result line's times were read at any precision but written at the
/// millisecond, so a record read from a line did not read back the same.
#[test]
fn result_line_times_read_at_the_millisecond() {
    let line = "game=0 pair=0 black=a white=b variant=modern opening=- start=startpos book=0 \
                moves=- discs=2-2 result=1-0 reason=time time=0.0005/2.0004";
    let r = GameRecord::parse(line).unwrap();
    assert_eq!(r.time, [0.001, 2.0]);
    assert_eq!(GameRecord::parse(&r.to_line()), Ok(r));
}
