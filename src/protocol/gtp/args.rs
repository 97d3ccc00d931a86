//! The argument parsers of the command table (nom). Each receives the rest
//! of the line after the command name: empty, or a space and the arguments.

use super::command::{Command, KgsTime};
use crate::rules::color::{Color, Variant};
use crate::rules::square::Move;
use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space1};
use nom::combinator::{eof, map, map_opt, map_res, opt};
use nom::sequence::{pair, preceded, terminated, tuple};
use nom::IResult;
use std::str::FromStr;

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

/// A decimal number of seconds (`1`, `2.5`, `.5`, `1e3`, `-5`): its range
/// is checked where the clock takes it (`timeman::check_secs`), so that every
/// out-of-range time gets the same answer.
fn seconds(i: &str) -> Res<'_, f64> {
    map_opt(token, |t| {
        t.parse::<f64>().ok().filter(|_| {
            t.bytes()
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

/// `hint [n] [pv]`: `pv` asks for each move's line after its score.
pub fn hint(i: &str) -> Res<'_, Command> {
    map(
        pair(
            opt(arg(uint)),
            opt(arg(map_opt(token, |t| (t == "pv").then_some(())))),
        ),
        |(n, pv): (Option<u64>, Option<()>)| Command::Hint {
            n: n.unwrap_or(1),
            pv: pv.is_some(),
        },
    )(i)
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

pub fn review(i: &str) -> Res<'_, Command> {
    map(
        tuple((arg(mv), opt(pair(arg(uint), opt(arg(uint)))))),
        |(mv, rest): (Move, Option<(u64, Option<u64>)>)| Command::Review {
            mv,
            depth: rest.map(|r| r.0),
            exact: rest.and_then(|r| r.1),
        },
    )(i)
}

pub fn perft(i: &str) -> Res<'_, Command> {
    map(arg(uint), Command::Perft)(i)
}
