//! The NBoard dialect's lines from the GUI, read into [`NbCommand`]s; a
//! line never fails to read (what is not understood is `Unknown`).

use crate::rules::square::Move;

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum NbCommand {
    /// `nboard <version>`.
    Hello(String),
    SetDepth(u32),
    SetContempt(i32),
    /// `set <option> <value>`: any row of the option table, as GTP's
    /// `set_option` sets it.
    SetOption {
        name: String,
        value: String,
    },
    SetGame(String),
    Move {
        mv: Move,
        eval: Option<f64>,
        time: Option<f64>,
    },
    Hint(usize),
    Go,
    /// `ping <n>`: `n` is echoed as given.
    Ping(String),
    Learn,
    Analyze,
    Quit,
    /// A line that is not understood: answered with a `status` line, then ignored.
    Unknown(String),
}

/// Whether a (preprocessed) first line is `nboard …`, which selects this dialect.
pub fn is_hello(line: &[u8]) -> bool {
    let word = line.split(|&b| b == b' ').next().unwrap_or(&[]);
    word.eq_ignore_ascii_case(b"nboard")
}

/// Reads one line; never fails (unknown lines become `Unknown`).
pub fn parse_line(line: &str) -> NbCommand {
    let line = line.trim();
    let unknown = || NbCommand::Unknown(line.to_string());
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let number = |s: &str| s.parse::<i64>().ok();
    match word.to_ascii_lowercase().as_str() {
        "nboard" => NbCommand::Hello(rest.to_string()),
        "set" => {
            let (what, value) = rest.split_once(' ').unwrap_or((rest, ""));
            let value = value.trim();
            match what.to_ascii_lowercase().as_str() {
                "depth" => match number(value) {
                    Some(d) if (1..=60).contains(&d) => NbCommand::SetDepth(d as u32),
                    _ => unknown(),
                },
                "contempt" => match number(value) {
                    Some(c) if c.abs() <= 6400 => NbCommand::SetContempt(c as i32),
                    _ => unknown(),
                },
                "game" if !value.is_empty() => NbCommand::SetGame(value.to_string()),
                _ if !what.is_empty() && !value.is_empty() => NbCommand::SetOption {
                    name: what.to_string(),
                    value: value.to_string(),
                },
                _ => unknown(),
            }
        }
        "move" => {
            let mut parts = rest.split('/');
            let Ok(mv) = parts.next().unwrap_or("").trim().parse::<Move>() else {
                return unknown();
            };
            let mut num = || -> Result<Option<f64>, ()> {
                match parts.next().map(str::trim) {
                    None | Some("") => Ok(None),
                    Some(t) => t.parse::<f64>().map(Some).map_err(|_| ()),
                }
            };
            match (num(), num()) {
                (Ok(eval), Ok(time)) => NbCommand::Move { mv, eval, time },
                _ => unknown(),
            }
        }
        "hint" => match number(rest) {
            Some(n) if (1..=64).contains(&n) => NbCommand::Hint(n as usize),
            _ => unknown(),
        },
        "go" if rest.is_empty() => NbCommand::Go,
        "ping" => NbCommand::Ping(rest.to_string()),
        "learn" => NbCommand::Learn,
        "analyze" => NbCommand::Analyze,
        "quit" => NbCommand::Quit,
        _ => unknown(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert_eq!(parse_line("nboard 2"), NbCommand::Hello("2".into()));
        assert_eq!(parse_line("set depth 6"), NbCommand::SetDepth(6));
        assert_eq!(
            parse_line("set contempt -100"),
            NbCommand::SetContempt(-100)
        );
        assert_eq!(
            parse_line("move F5//11.493"),
            NbCommand::Move {
                mv: "f5".parse().unwrap(),
                eval: None,
                time: Some(11.493)
            }
        );
        assert_eq!(
            parse_line("move pa"),
            NbCommand::Move {
                mv: Move::Pass,
                eval: None,
                time: None
            }
        );
        assert_eq!(parse_line("hint 4"), NbCommand::Hint(4));
        assert_eq!(parse_line("ping 7"), NbCommand::Ping("7".into()));
        assert!(matches!(parse_line("hint 0"), NbCommand::Unknown(_)));
        assert_eq!(parse_line("hint 64"), NbCommand::Hint(64));
        assert!(matches!(parse_line("hint 65"), NbCommand::Unknown(_)));
        assert!(matches!(parse_line("hint 100000"), NbCommand::Unknown(_)));
        assert!(matches!(parse_line("move z9"), NbCommand::Unknown(_)));
        assert!(matches!(parse_line("set depth x"), NbCommand::Unknown(_)));
        assert!(matches!(parse_line("frobnicate"), NbCommand::Unknown(_)));
        assert!(is_hello(b"NBoard 2"));
        assert!(!is_hello(b"nboards"));
    }
}
