//! From raw input bytes to typed requests: GTP preprocessing, then nom parsers.

use super::command::Command;
use super::table::lookup;
use crate::protocol::driver::MAX_LINE;
use nom::branch::alt;
use nom::character::complete::{digit1, space1};
use nom::combinator::{eof, opt};
use nom::sequence::terminated;
use nom::IResult;
use std::str::FromStr;

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
/// at `MAX_LINE` bytes. `None` when the line is blank or a comment (and was
/// not cut).
pub fn request(raw: &[u8], overlong: bool) -> Option<Request> {
    // Whatever follows a `#` is a comment, so a long line whose `#` comes
    // before the cut is complete.
    let overlong = overlong && !raw.contains(&b'#');
    let too_long = |id| Request {
        id,
        command: Err(format!("line too long (more than {MAX_LINE} bytes)")),
    };
    let Some(line) = preprocess(raw) else {
        // Blank in its first MAX_LINE bytes, but what was cut off is unread.
        return overlong.then(|| too_long(None));
    };
    if overlong {
        // The cut may split a character: this is not a UTF-8 error.
        return Some(too_long(leading_id(&String::from_utf8_lossy(&line))));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::gtp::command::KgsTime;
    use crate::rules::color::{Color, Variant};
    use crate::rules::square::{Move, Square};

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
        // A negative time parses: the clock refuses it with its range.
        assert!(matches!(
            cmd("time_settings -1 0 0"),
            Ok(Command::TimeSettings { main, .. }) if main == -1.0
        ));
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
        // Blank up to the cut: the rest was not read, so still too long.
        let blank = vec![b' '; MAX_LINE];
        assert_eq!(
            request(&blank, true).unwrap().command,
            Err("line too long (more than 4096 bytes)".into())
        );
        assert_eq!(request(&blank, false), None);
        // Cut inside a character: too long, not invalid UTF-8.
        let mut split = b"7 ".to_vec();
        split.extend("é".repeat(MAX_LINE).bytes().take(MAX_LINE - 2 - 1));
        assert_eq!(
            request(&split, true).unwrap(),
            Request {
                id: Some("7".into()),
                command: Err("line too long (more than 4096 bytes)".into())
            }
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
