//! From raw input bytes to typed requests: GTP preprocessing, then nom parsers.

use super::command::{lookup, Command, KgsTime};
use crate::rules::color::{Color, Variant};
use crate::rules::square::Move;
use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space1};
use nom::combinator::{eof, map, map_opt, map_res, opt};
use nom::sequence::{pair, preceded, terminated, tuple};
use nom::IResult;
use std::str::FromStr;

/// Longest line (in bytes, without its line feed) that is read as a command.
pub const MAX_LINE: usize = 4096;

/// One input line, parsed: its id (digits, echoed verbatim) and the command,
/// or the message of the `?` answer it gets.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<String>,
    pub command: Result<Command, String>,
}

/// GTP preprocessing: drop CR and every control character but HT and LF,
/// everything from `#` on, turn HT into a space and trim. `None` for a line
/// that is then empty (it gets no answer).
pub fn preprocess(raw: &[u8]) -> Option<Vec<u8>> {
    let end = raw.iter().position(|&b| b == b'#').unwrap_or(raw.len());
    let line: Vec<u8> = raw[..end]
        .iter()
        .filter(|&&b| !(b < 32 && b != b'\t' || b == 127))
        .map(|&b| if b == b'\t' { b' ' } else { b })
        .collect();
    let start = line.iter().position(|&b| b != b' ')?;
    let stop = line.iter().rposition(|&b| b != b' ')? + 1;
    Some(line[start..stop].to_vec())
}

/// Turns one raw line into a request. `overlong` says the reader cut the line
/// at `MAX_LINE` bytes. `None` when the line is blank or a comment.
pub fn request(raw: &[u8], overlong: bool) -> Option<Request> {
    // Whatever follows a `#` is a comment, so a long line whose `#` comes
    // before the cut is complete.
    let overlong = overlong && !raw.contains(&b'#');
    let line = preprocess(raw)?;
    let text = match std::str::from_utf8(&line) {
        Ok(text) => text,
        Err(_) => {
            let id = leading_id(&String::from_utf8_lossy(&line));
            return Some(Request {
                id,
                command: Err("invalid UTF-8".into()),
            });
        }
    };
    if overlong {
        return Some(Request {
            id: leading_id(text),
            command: Err(format!("line too long (more than {MAX_LINE} bytes)")),
        });
    }
    Some(parse_line(text))
}

fn leading_id(text: &str) -> Option<String> {
    id(text).ok().and_then(|(_, id)| id).map(str::to_string)
}

/// `[id] ` at the start of a line: digits followed by a space or the end.
fn id(i: &str) -> IResult<&str, Option<&str>> {
    opt(terminated(digit1, alt((space1, eof))))(i)
}

/// Parses a preprocessed line (trimmed, single spaces not required).
pub fn parse_line(text: &str) -> Request {
    let (rest, id) = match id(text) {
        Ok(r) => r,
        Err(_) => (text, None),
    };
    let id = id.map(str::to_string);
    if rest.is_empty() {
        return Request {
            id,
            command: Err("missing command".into()),
        };
    }
    let (name, args) = rest
        .split_once(' ')
        .map_or((rest, ""), |(n, _)| (n, &rest[n.len()..]));
    let command = match lookup(name) {
        None => Err("unknown command".into()),
        Some(spec) => match (spec.parse)(args) {
            Ok((remaining, command)) if remaining.trim().is_empty() => Ok(command),
            _ => Err(format!("syntax error, expected: {}", spec.usage())),
        },
    };
    Request { id, command }
}

impl FromStr for Command {
    type Err = String;
    /// Parses a command line without preprocessing; an id is not allowed.
    fn from_str(s: &str) -> Result<Command, String> {
        match parse_line(s.trim()) {
            Request { id: Some(_), .. } => Err("unexpected id".into()),
            Request { command, .. } => command,
        }
    }
}

// Argument parsers. Each receives the rest of the line after the command
// name: empty, or a space and the arguments.

type Res<'a, T> = IResult<&'a str, T>;

fn token(i: &str) -> Res<'_, &str> {
    take_till1(|c| c == ' ')(i)
}

fn arg<'a, T>(p: impl FnMut(&'a str) -> Res<'a, T>) -> impl FnMut(&'a str) -> Res<'a, T> {
    preceded(space1, p)
}

fn color(i: &str) -> Res<'_, Color> {
    map_opt(token, Color::parse)(i)
}

fn variant(i: &str) -> Res<'_, Variant> {
    map_opt(token, Variant::parse)(i)
}

fn mv(i: &str) -> Res<'_, Move> {
    map_res(token, Move::from_str)(i)
}

fn uint<T: FromStr>(i: &str) -> Res<'_, T> {
    map_res(
        terminated(digit1, nom::combinator::peek(alt((space1, eof)))),
        T::from_str,
    )(i)
}

/// A finite, non-negative decimal number (`1`, `2.5`, `.5`, `1e3`).
fn seconds(i: &str) -> Res<'_, f64> {
    map_opt(token, |t| {
        t.parse::<f64>().ok().filter(|x| {
            x.is_finite()
                && *x >= 0.0
                && t.bytes()
                    .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
        })
    })(i)
}

/// Any finite number, for `komi`.
fn number(i: &str) -> Res<'_, f64> {
    map_opt(token, |t| {
        t.parse::<f64>().ok().filter(|x| {
            x.is_finite()
                && t.bytes()
                    .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
        })
    })(i)
}

pub fn none(i: &str, command: Command) -> Res<'_, Command> {
    Ok((i, command))
}

pub fn known_command(i: &str) -> Res<'_, Command> {
    map(arg(token), |t: &str| Command::KnownCommand(t.to_string()))(i)
}

pub fn help(i: &str) -> Res<'_, Command> {
    map(opt(arg(token)), |t: Option<&str>| {
        Command::Help(t.map(str::to_string))
    })(i)
}

pub fn boardsize(i: &str) -> Res<'_, Command> {
    map(arg(uint), Command::Boardsize)(i)
}

pub fn komi(i: &str) -> Res<'_, Command> {
    map(arg(number), Command::Komi)(i)
}

pub fn newgame(i: &str) -> Res<'_, Command> {
    map(
        pair(opt(arg(variant)), opt(arg(color))),
        |(variant, first)| Command::NewGame { variant, first },
    )(i)
}

pub fn set_game(i: &str) -> Res<'_, Command> {
    map(arg(token), |t: &str| Command::SetGame(t.to_string()))(i)
}

pub fn play(i: &str) -> Res<'_, Command> {
    alt((
        map(pair(arg(color), arg(mv)), |(c, mv)| Command::Play {
            color: Some(c),
            mv,
        }),
        map(arg(mv), |mv| Command::Play { color: None, mv }),
    ))(i)
}

pub fn opt_color(i: &str, make: fn(Option<Color>) -> Command) -> Res<'_, Command> {
    map(opt(arg(color)), make)(i)
}

pub fn opt_count(i: &str, make: fn(u64) -> Command) -> Res<'_, Command> {
    map(opt(arg(uint)), |n: Option<u64>| make(n.unwrap_or(1)))(i)
}

pub fn setboard(i: &str) -> Res<'_, Command> {
    map(
        tuple((arg(token), arg(token), opt(pair(arg(uint), arg(uint))))),
        |(board, side, supply): (&str, &str, Option<(u64, u64)>)| Command::SetBoard {
            board: board.to_string(),
            side: side.to_string(),
            supply: supply.map(|(b, r)| [b, r]),
        },
    )(i)
}

pub fn time_settings(i: &str) -> Res<'_, Command> {
    map(
        tuple((arg(seconds), arg(seconds), arg(uint))),
        |(main, byo_time, byo_stones)| Command::TimeSettings {
            main,
            byo_time,
            byo_stones,
        },
    )(i)
}

pub fn kgs_time_settings(i: &str) -> Res<'_, Command> {
    let kind = |name: &'static str| {
        preceded(
            space1,
            map_opt(token, move |t: &str| {
                t.eq_ignore_ascii_case(name).then_some(())
            }),
        )
    };
    map(
        alt((
            map(kind("none"), |_| KgsTime::None),
            map(preceded(kind("absolute"), arg(seconds)), |main| {
                KgsTime::Absolute { main }
            }),
            map(
                preceded(
                    kind("byoyomi"),
                    tuple((arg(seconds), arg(seconds), arg(uint))),
                ),
                |(main, period, periods)| KgsTime::Byoyomi {
                    main,
                    period,
                    periods,
                },
            ),
            map(
                preceded(
                    kind("canadian"),
                    tuple((arg(seconds), arg(seconds), arg(uint))),
                ),
                |(main, period, stones)| KgsTime::Canadian {
                    main,
                    period,
                    stones,
                },
            ),
        )),
        Command::KgsTimeSettings,
    )(i)
}

pub fn time_left(i: &str) -> Res<'_, Command> {
    map(
        tuple((arg(color), arg(seconds), arg(uint))),
        |(color, time, stones)| Command::TimeLeft {
            color,
            time,
            stones,
        },
    )(i)
}

pub fn set_option(i: &str) -> Res<'_, Command> {
    map(
        pair(arg(token), arg(token)),
        |(name, value): (&str, &str)| Command::SetOption {
            name: name.to_string(),
            value: value.to_string(),
        },
    )(i)
}

pub fn get_option(i: &str) -> Res<'_, Command> {
    map(arg(token), |t: &str| Command::GetOption(t.to_string()))(i)
}

pub fn perft(i: &str) -> Res<'_, Command> {
    map(arg(uint), Command::Perft)(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Square;

    fn cmd(s: &str) -> Result<Command, String> {
        parse_line(s).command
    }

    #[test]
    fn ids_and_names() {
        let r = parse_line("12 name");
        assert_eq!(r.id.as_deref(), Some("12"));
        assert_eq!(r.command, Ok(Command::Name));
        assert_eq!(parse_line("12name").command, Err("unknown command".into()));
        assert_eq!(parse_line("7").command, Err("missing command".into()));
        assert_eq!(cmd("NAME"), Ok(Command::Name));
        assert!(cmd("name x").unwrap_err().starts_with("syntax error"));
    }

    #[test]
    fn arguments() {
        let c4 = Move::Place("c4".parse::<Square>().unwrap());
        assert_eq!(
            cmd("play C4"),
            Ok(Command::Play {
                color: None,
                mv: c4
            })
        );
        assert_eq!(
            cmd("play  b   c4"),
            Ok(Command::Play {
                color: Some(Color::Black),
                mv: c4
            })
        );
        assert_eq!(
            cmd("play R pass"),
            Ok(Command::Play {
                color: Some(Color::White),
                mv: Move::Pass
            })
        );
        assert!(cmd("play b").is_err());
        assert!(cmd("play").is_err());
        assert!(cmd("play b c4 x").is_err());
        assert_eq!(cmd("undo"), Ok(Command::Undo(1)));
        assert_eq!(cmd("undo 3"), Ok(Command::Undo(3)));
        assert!(cmd("undo -1").is_err());
        assert!(cmd("undo 3x").is_err());
        assert!(cmd("undo 99999999999999999999999").is_err());
        assert_eq!(
            cmd("newgame red"),
            Ok(Command::NewGame {
                variant: None,
                first: Some(Color::White)
            })
        );
        assert_eq!(
            cmd("newgame classic red"),
            Ok(Command::NewGame {
                variant: Some(Variant::Classic),
                first: Some(Color::White)
            })
        );
        assert!(cmd("newgame red classic").is_err());
        assert_eq!(
            cmd("time_settings 300 0 0"),
            Ok(Command::TimeSettings {
                main: 300.0,
                byo_time: 0.0,
                byo_stones: 0
            })
        );
        assert!(cmd("time_settings -1 0 0").is_err());
        assert!(cmd("time_settings inf 0 0").is_err());
        assert_eq!(
            cmd("kgs-time_settings canadian 60 30 5"),
            Ok(Command::KgsTimeSettings(KgsTime::Canadian {
                main: 60.0,
                period: 30.0,
                stones: 5
            }))
        );
        assert!(cmd("kgs-time_settings absolute").is_err());
        assert_eq!(cmd("komi 6.5"), Ok(Command::Komi(6.5)));
        assert_eq!(cmd("komi -3"), Ok(Command::Komi(-3.0)));
        assert!(cmd("komi nan").is_err());
    }

    #[test]
    fn preprocessing() {
        assert_eq!(preprocess(b"  \t # comment"), None);
        assert_eq!(preprocess(b"1\tplay\r c4 # x"), Some(b"1 play c4".to_vec()));
        assert_eq!(preprocess(b"na\x00m\x7fe\r"), Some(b"name".to_vec()));
        let long = vec![b'x'; MAX_LINE];
        assert_eq!(
            request(&long, true).unwrap().command,
            Err("line too long (more than 4096 bytes)".into())
        );
        assert_eq!(
            request(b"name # long comment", true).unwrap().command,
            Ok(Command::Name)
        );
        assert_eq!(
            request(b"3 n\xffame", false).unwrap(),
            Request {
                id: Some("3".into()),
                command: Err("invalid UTF-8".into())
            }
        );
    }
}
