//! The room state machine against the `mollett` rules core, both variants:
//! seats, turns, automatic passes, undo by agreement, resign, clock, end,
//! rematch; every refused request changes nothing.

use mollett::{Color, Move, Position, Square, Variant};
use mollett_server::event::{ClockSpec, Event, RoomSpec};
use mollett_server::room::{Command, Joined, Reason, Room, RoomError, Status};

const B: Option<Color> = Some(Color::Black);
const W: Option<Color> = Some(Color::White);

/// A room and the events it was built from (to check replay).
struct Table {
    room: Room,
    events: Vec<Event>,
    now: u64,
}

impl Table {
    fn new(variant: Variant, clock: Option<ClockSpec>) -> Table {
        let spec = RoomSpec {
            id: "r".into(),
            variant,
            clock,
            created: 0,
        };
        let mut t = Table {
            room: Room::new(spec),
            events: Vec::new(),
            now: 1_000,
        };
        for token in ["tb", "tw"] {
            match t.room.join(None, token.into(), t.now) {
                Joined::Take(e) => t.apply(e),
                other => panic!("a free seat expected, got {other:?}"),
            }
        }
        t
    }

    fn apply(&mut self, e: Event) {
        self.room.apply(&e);
        self.events.push(e);
    }

    /// Sends a command; on refusal checks that nothing changed.
    fn send(&mut self, actor: Option<Color>, cmd: Command) -> Result<(), RoomError> {
        let before = self.room.clone();
        match self.room.handle(actor, cmd.clone(), self.now) {
            Ok(e) => {
                self.apply(e);
                Ok(())
            }
            Err(e) => {
                assert_eq!(self.room, before, "a refused {cmd:?} changed the room");
                Err(e)
            }
        }
    }

    fn play(&mut self, sq: &str) -> Result<(), RoomError> {
        let side = self.room.to_move();
        let ply = self.room.game.moves().len();
        self.send(
            Some(side),
            Command::Move {
                square: sq.parse().unwrap(),
                ply,
            },
        )
    }

    fn moves(&self) -> String {
        self.room
            .game
            .moves()
            .iter()
            .map(|m| format!("{m} "))
            .collect::<String>()
            .trim_end()
            .to_string()
    }
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// A small deterministic random source for the games below.
struct Xorshift(u64);
impl Xorshift {
    fn pick(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn seats_go_to_the_first_two_and_tokens_reconnect() {
    let spec = RoomSpec {
        id: "r".into(),
        variant: Variant::Modern,
        clock: None,
        created: 0,
    };
    let mut room = Room::new(spec);
    assert_eq!(room.status(), Status::Waiting);
    let Joined::Take(e) = room.join(None, "one".into(), 5) else {
        panic!()
    };
    room.apply(&e);
    assert_eq!(room.status(), Status::Waiting);
    // A wrong token is not a seat: the free seat is taken with a new token.
    let Joined::Take(e) = room.join(Some("nonsense"), "two".into(), 6) else {
        panic!()
    };
    room.apply(&e);
    assert_eq!(room.status(), Status::Playing);
    assert_eq!(room.seats, [Some("one".into()), Some("two".into())]);
    assert_eq!(
        room.join(Some("two"), "x".into(), 7),
        Joined::Seat(Color::White)
    );
    assert_eq!(
        room.join(Some("one"), "x".into(), 7),
        Joined::Seat(Color::Black)
    );
    assert_eq!(room.join(None, "x".into(), 7), Joined::Watch);
    assert_eq!(room.join(Some("three"), "x".into(), 7), Joined::Watch);
}

#[test]
fn nobody_moves_before_both_seats_are_taken() {
    let spec = RoomSpec {
        id: "r".into(),
        variant: Variant::Modern,
        clock: None,
        created: 0,
    };
    let mut room = Room::new(spec);
    let Joined::Take(e) = room.join(None, "one".into(), 5) else {
        panic!()
    };
    room.apply(&e);
    let before = room.clone();
    let cmd = Command::Move {
        square: sq("f5"),
        ply: 0,
    };
    assert_eq!(room.handle(B, cmd, 6), Err(RoomError::Waiting));
    assert_eq!(RoomError::Waiting.code(), "not-your-turn");
    assert_eq!(room, before);
}

#[test]
fn refused_moves_change_nothing() {
    let mut t = Table::new(Variant::Modern, None);
    let f5 = Command::Move {
        square: sq("f5"),
        ply: 0,
    };
    assert_eq!(t.send(None, f5.clone()), Err(RoomError::NoSeat));
    assert_eq!(t.send(W, f5.clone()), Err(RoomError::NotYourTurn));
    assert_eq!(
        t.send(
            B,
            Command::Move {
                square: sq("f5"),
                ply: 1
            }
        ),
        Err(RoomError::Stale)
    );
    assert_eq!(
        t.send(
            B,
            Command::Move {
                square: sq("a1"),
                ply: 0
            }
        ),
        Err(RoomError::IllegalMove)
    );
    assert_eq!(
        t.send(
            B,
            Command::Move {
                square: sq("d4"),
                ply: 0
            }
        ),
        Err(RoomError::IllegalMove)
    );
    assert_eq!(t.send(B, f5.clone()), Ok(()));
    // The same click twice: the second is stale, not a move for white.
    assert_eq!(t.send(B, f5.clone()), Err(RoomError::NotYourTurn));
    assert_eq!(t.send(W, f5.clone()), Err(RoomError::Stale));
    assert_eq!(t.moves(), "f5");
}

/// Plays seeded random games through the room and checks, ply by ply, that
/// the room's side to move, legal squares and passes are the rules core's.
fn random_games(variant: Variant, games: u64) -> (usize, usize) {
    let (mut passes, mut finished) = (0, 0);
    for seed in 1..=games {
        let mut rng = Xorshift(seed * 0x9E37_79B9_7F4A_7C15);
        let mut t = Table::new(variant, None);
        let mut pos = Position::start(variant, Color::Black);
        while t.room.status() == Status::Playing {
            assert_eq!(t.room.to_move(), pos.side);
            let legal: Vec<Move> = pos.legal_moves();
            assert!(
                !legal.contains(&Move::Pass),
                "the room left a forced pass to a player"
            );
            let mv = legal[rng.pick(legal.len())];
            // The wrong side may not play it.
            assert_eq!(
                t.send(
                    Some(pos.side.other()),
                    Command::Move {
                        square: mv.square().unwrap(),
                        ply: t.room.game.moves().len()
                    }
                ),
                Err(RoomError::NotYourTurn)
            );
            t.play(&mv.to_string()).unwrap();
            pos = pos.play(mv).unwrap();
            while pos.must_pass() {
                pos = pos.pass();
                passes += 1;
                assert_eq!(t.room.game.moves().last(), Some(&Move::Pass));
            }
            assert_eq!(*t.room.game.position(), pos);
        }
        assert!(pos.is_game_over());
        let r = t.room.result.expect("a result at the end");
        let (b, w) = (
            pos.discs_of(Color::Black).count_ones(),
            pos.discs_of(Color::White).count_ones(),
        );
        assert_eq!((r.discs, r.reason), ([b, w], Reason::End));
        assert_eq!(
            r.winner,
            match b.cmp(&w) {
                std::cmp::Ordering::Greater => B,
                std::cmp::Ordering::Less => W,
                std::cmp::Ordering::Equal => None,
            }
        );
        // After the end nothing is played.
        assert_eq!(
            t.send(
                B,
                Command::Move {
                    square: sq("a1"),
                    ply: t.room.game.moves().len()
                }
            ),
            Err(RoomError::GameOver)
        );
        assert_eq!(t.send(W, Command::Resign), Err(RoomError::GameOver));
        assert_eq!(t.send(B, Command::Undo), Err(RoomError::GameOver));
        finished += 1;
        // The stored events rebuild the same room.
        assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
    }
    (passes, finished)
}

#[test]
fn random_modern_games_follow_the_rules_core_to_the_end() {
    let (passes, finished) = random_games(Variant::Modern, 60);
    assert_eq!(finished, 60);
    assert!(
        passes > 0,
        "no game had a forced pass: the pass path went untested"
    );
}

#[test]
fn random_classic_games_follow_the_rules_core_to_the_end() {
    let (passes, finished) = random_games(Variant::Classic, 60);
    assert_eq!(finished, 60);
    assert!(
        passes > 0,
        "no game had a forced pass: the pass path went untested"
    );
}

#[test]
fn classic_opens_with_four_free_centre_placements_and_counts_supplies() {
    let mut t = Table::new(Variant::Classic, None);
    // Outside the centre is refused during the opening; any centre square is free.
    assert_eq!(t.play("c3"), Err(RoomError::IllegalMove));
    for s in ["d4", "e5", "e4", "d5"] {
        t.play(s).unwrap();
    }
    let pos = t.room.game.position();
    assert_eq!(pos.supply, [30, 30]);
    assert_eq!(pos.discs_of(Color::Black).count_ones(), 2);
    let state = serde_json::to_value(mollett_server::wire::state(
        &t.room,
        Default::default(),
        t.now,
    ))
    .unwrap();
    assert_eq!(
        state["supply"],
        serde_json::json!({"black": 30, "white": 30})
    );
    assert_eq!(state["board"].as_str().unwrap().len(), 64);
}

#[test]
fn undo_needs_the_other_seats_yes() {
    let mut t = Table::new(Variant::Modern, None);
    assert_eq!(
        t.send(B, Command::Undo),
        Err(RoomError::NoUndo),
        "nothing to take back"
    );
    t.play("f5").unwrap();
    t.play("d6").unwrap();
    assert_eq!(t.send(None, Command::Undo), Err(RoomError::NoSeat));
    t.send(W, Command::Undo).unwrap();
    assert_eq!(t.room.undo, W);
    assert_eq!(
        t.send(W, Command::Undo),
        Err(RoomError::NoUndo),
        "asking twice"
    );
    assert_eq!(
        t.send(W, Command::UndoAnswer { accept: true }),
        Err(RoomError::NoUndo),
        "own request"
    );
    assert_eq!(
        t.send(None, Command::UndoAnswer { accept: true }),
        Err(RoomError::NoSeat)
    );
    let board = *t.room.game.position();
    t.send(B, Command::UndoAnswer { accept: false }).unwrap();
    assert_eq!(
        (t.moves().as_str(), t.room.undo, *t.room.game.position()),
        ("f5 d6", None, board)
    );
    assert_eq!(
        t.send(B, Command::UndoAnswer { accept: true }),
        Err(RoomError::NoUndo),
        "no request"
    );
    // A move cancels a standing request.
    t.send(B, Command::Undo).unwrap();
    t.play("c3").unwrap();
    assert_eq!(t.room.undo, None);
    t.send(B, Command::Undo).unwrap();
    t.send(W, Command::UndoAnswer { accept: true }).unwrap();
    assert_eq!(t.moves(), "f5 d6");
    assert_eq!(t.room.to_move(), Color::Black);
    let after_two = Position::start(Variant::Modern, Color::Black)
        .play(Move::Place(sq("f5")))
        .unwrap()
        .play(Move::Place(sq("d6")))
        .unwrap();
    assert_eq!(*t.room.game.position(), after_two);
}

#[test]
fn undo_takes_back_the_forced_passes_after_the_move() {
    // Find a seeded random modern game with a forced pass and stop right after it.
    for seed in 1..500u64 {
        let mut rng = Xorshift(seed * 0x2545_F491_4F6C_DD1D);
        let mut t = Table::new(Variant::Modern, None);
        while t.room.status() == Status::Playing {
            let legal = t.room.game.position().legal_moves();
            let mv = legal[rng.pick(legal.len())];
            let before = *t.room.game.position();
            let mover = t.room.to_move();
            t.play(&mv.to_string()).unwrap();
            if t.room.status() == Status::Playing && t.room.game.moves().last() == Some(&Move::Pass)
            {
                // The mover, to move again after the other's pass, asks.
                let plies = t.room.game.moves().len();
                t.send(Some(mover), Command::Undo).unwrap();
                t.send(Some(mover.other()), Command::UndoAnswer { accept: true })
                    .unwrap();
                assert_eq!(
                    t.room.game.moves().len(),
                    plies - 2,
                    "the move and its pass"
                );
                assert_eq!(*t.room.game.position(), before);
                assert_eq!(t.room.to_move(), mover);
                assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
                return;
            }
        }
    }
    panic!("no random game had a forced pass");
}

#[test]
fn a_takeback_gives_the_asker_the_move_with_their_own_last_move_gone() {
    let mut t = Table::new(Variant::Modern, None);
    t.play("f5").unwrap();
    assert_eq!(
        t.send(W, Command::Undo),
        Err(RoomError::NoUndo),
        "white has no move of its own to take back"
    );
    for m in ["d6", "c3", "d3"] {
        t.play(m).unwrap();
    }
    let after = |moves: &[&str]| {
        moves
            .iter()
            .fold(Position::start(Variant::Modern, Color::Black), |p, m| {
                p.play(Move::Place(sq(m))).unwrap()
            })
    };
    // Black asks on its own turn: white's d3 and black's own c3 go.
    t.send(B, Command::Undo).unwrap();
    t.send(W, Command::UndoAnswer { accept: true }).unwrap();
    assert_eq!(t.moves(), "f5 d6");
    assert_eq!(t.room.to_move(), Color::Black);
    assert_eq!(*t.room.game.position(), after(&["f5", "d6"]));
    assert_eq!(
        t.room.takeback,
        Some((
            Color::Black,
            vec![Move::Place(sq("c3")), Move::Place(sq("d3"))]
        ))
    );
    // Just after its own move, only that move goes.
    t.play("c3").unwrap();
    assert_eq!(t.room.takeback, None, "a move ends the takeback's message");
    t.send(B, Command::Undo).unwrap();
    t.send(W, Command::UndoAnswer { accept: true }).unwrap();
    assert_eq!(
        (t.moves().as_str(), t.room.to_move()),
        ("f5 d6", Color::Black)
    );
    assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
    let state = serde_json::to_value(mollett_server::wire::state(
        &t.room,
        Default::default(),
        t.now,
    ))
    .unwrap();
    assert_eq!(
        state["takeback"],
        serde_json::json!({"by": "black", "moves": ["c3"]})
    );
}

#[test]
fn takebacks_stored_before_the_rule_replay_as_they_were() {
    // Events of a room stored before `plies` was: white asked on its own
    // turn, and the last placement (black's c3) was taken back.
    let mut t = Table::new(Variant::Modern, None);
    for m in ["f5", "d6", "c3"] {
        t.play(m).unwrap();
    }
    let mut events = t.events.clone();
    let old: Vec<Event> = serde_json::from_str(
        r#"[{"e":"undo-ask","by":"white","at":1},{"e":"undo-answer","accept":true,"at":2}]"#,
    )
    .unwrap();
    events.extend(old);
    let room = Room::replay(t.room.spec.clone(), &events);
    assert_eq!(room.game.moves().len(), 2);
    assert_eq!(room.to_move(), Color::Black);
}

#[test]
fn takeback_asks_and_rematch_offers_are_limited_per_game() {
    let mut t = Table::new(Variant::Modern, None);
    t.play("f5").unwrap();
    for _ in 0..mollett_server::room::UNDO_ASKS {
        t.send(B, Command::Undo).unwrap();
        t.send(W, Command::UndoAnswer { accept: false }).unwrap();
    }
    assert_eq!(t.send(B, Command::Undo), Err(RoomError::TooMany));
    // White's asks are its own.
    t.play("d6").unwrap();
    t.send(W, Command::Undo).unwrap();
    t.send(B, Command::UndoAnswer { accept: true }).unwrap();
    t.send(W, Command::Resign).unwrap();
    t.send(W, Command::Rematch).unwrap();
    assert_eq!(t.send(W, Command::Rematch), Err(RoomError::TooMany));
    // A new game gives new asks.
    t.send(B, Command::Rematch).unwrap();
    t.play("f5").unwrap();
    t.send(Some(t.room.seat_of(Some("tb")).unwrap()), Command::Undo)
        .expect_err("tb holds white now and has not moved");
    let black = t.room.seat_of(Some("tw"));
    t.send(black, Command::Undo).unwrap();
}

#[test]
fn resign_ends_the_game_for_the_other_side() {
    let mut t = Table::new(Variant::Classic, None);
    assert_eq!(t.send(None, Command::Resign), Err(RoomError::NoSeat));
    assert_eq!(t.send(B, Command::Rematch), Err(RoomError::NotOver));
    t.play("d4").unwrap();
    t.send(W, Command::Resign).unwrap(); // resigning when it is not your turn is allowed
    let r = t.room.result.unwrap();
    assert_eq!((r.winner, r.reason, r.discs), (B, Reason::Resign, [1, 0]));
    assert_eq!(t.room.status(), Status::Over);
    assert_eq!(t.play("e5"), Err(RoomError::GameOver));
}

#[test]
fn rematch_swaps_colours_and_starts_afresh() {
    let mut t = Table::new(Variant::Modern, None);
    t.play("f5").unwrap();
    t.send(B, Command::Resign).unwrap();
    t.send(B, Command::Rematch).unwrap();
    assert_eq!((t.room.rematch, t.room.game_no), ([true, false], 1));
    assert_eq!(t.send(None, Command::Rematch), Err(RoomError::NoSeat));
    t.send(W, Command::Rematch).unwrap();
    assert_eq!(t.room.game_no, 2);
    assert_eq!(t.room.status(), Status::Playing);
    assert!(t.room.game.moves().is_empty() && t.room.result.is_none());
    // The token that held black now holds white.
    assert_eq!(t.room.seat_of(Some("tb")), W);
    assert_eq!(t.room.seat_of(Some("tw")), B);
    assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
}

#[test]
fn the_clock_runs_for_the_side_to_move_and_its_flag_ends_the_game() {
    let clock = ClockSpec {
        initial_ms: 60_000,
        increment_ms: 2_000,
    };
    let mut t = Table::new(Variant::Modern, Some(clock));
    let c = t.room.clock.unwrap();
    assert_eq!(c.since, Some(1_000), "starts when the second seat is taken");
    t.now = 11_000; // black thinks 10 s
    t.play("f5").unwrap();
    assert_eq!(t.room.clock.unwrap().left_ms, [52_000, 60_000]);
    t.now = 41_000; // white thinks 30 s
    t.play("d6").unwrap();
    assert_eq!(t.room.clock.unwrap().left_ms, [52_000, 32_000]);
    // Black now has 52 s: no flag at 51.999 s, the flag at 52 s.
    assert_eq!(t.room.flag_due(), Some(93_000));
    assert_eq!(t.room.flag(92_999), None);
    let flag = t.room.flag(93_000).expect("black's flag falls");
    t.apply(flag);
    let r = t.room.result.unwrap();
    assert_eq!((r.winner, r.reason), (W, Reason::Time));
    assert_eq!(t.room.clock.unwrap().left_ms[0], 0);
    assert_eq!(t.room.flag_due(), None, "the clock stops at the end");
    t.now = 93_001;
    assert_eq!(t.play("c3"), Err(RoomError::GameOver));
    assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
}

#[test]
fn no_clock_no_flag() {
    let t = Table::new(Variant::Modern, None);
    assert_eq!((t.room.flag(u64::MAX), t.room.flag_due()), (None, None));
}

#[test]
fn names_are_checked_stored_and_follow_their_seat() {
    let mut t = Table::new(Variant::Modern, None);
    let name = |s: &str| Command::Name { name: s.into() };
    assert_eq!(t.send(None, name("Eve")), Err(RoomError::NoSeat));
    // 25 characters (one of them two bytes), a line break, an escape: refused.
    assert_eq!(
        t.send(B, name(&format!("é{}", "a".repeat(24)))),
        Err(RoomError::BadName)
    );
    assert_eq!(t.send(B, name("Ann\nBob")), Err(RoomError::BadName));
    assert_eq!(t.send(B, name("\u{1b}[2J")), Err(RoomError::BadName));
    t.send(B, name(&format!("  é{}  ", "a".repeat(23))))
        .unwrap();
    assert_eq!(
        t.room.names[0].as_deref(),
        Some(format!("é{}", "a".repeat(23)).as_str())
    );
    t.send(W, name("<b>Bob</b>")).unwrap(); // text: the page shows it as it is
    assert_eq!(
        t.send(W, name("<b>Bob</b>")),
        Err(RoomError::BadName),
        "the same name again"
    );
    t.send(B, name("")).unwrap();
    assert_eq!(t.room.names[0], None, "an empty name clears it");
    // Names follow the tokens through a rematch's colour swap.
    t.send(B, name("Ann")).unwrap();
    t.send(B, Command::Resign).unwrap();
    t.send(B, Command::Rematch).unwrap();
    t.send(W, Command::Rematch).unwrap();
    assert_eq!(t.room.seat_of(Some("tb")), W);
    assert_eq!(
        t.room.names,
        [Some("<b>Bob</b>".into()), Some("Ann".into())]
    );
    assert_eq!(
        t.room.past[0].names,
        [Some("Ann".into()), Some("<b>Bob</b>".into())]
    );
    // Each seat renames itself at most NAME_CHANGES times a game.
    for i in 0..mollett_server::room::NAME_CHANGES {
        t.send(B, name(&format!("n{i}"))).unwrap();
    }
    assert_eq!(t.send(B, name("one more")), Err(RoomError::TooMany));
    assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
}

#[test]
fn a_name_with_bidirectional_controls_is_refused() {
    let mut t = Table::new(Variant::Modern, None);
    let name = |s: &str| Command::Name { name: s.into() };
    t.send(B, name("Ann")).unwrap();
    // Embeddings, overrides, isolates and the invisible marks: U+202E
    // alone turned the page's own seat labels around for everyone.
    let controls = ('\u{202A}'..='\u{202E}')
        .chain('\u{2066}'..='\u{2069}')
        .chain(['\u{200E}', '\u{200F}', '\u{061C}']);
    for c in controls {
        let refused = t.send(B, name(&format!("{c}nnA")));
        assert_eq!(refused, Err(RoomError::BadName), "U+{:04X}", c as u32);
    }
    assert_eq!(t.room.names[0].as_deref(), Some("Ann"), "unchanged");
    // Right-to-left letters themselves are a name like any other.
    t.send(B, name("\u{5E9}\u{5E8}\u{5D4}")).unwrap();
}

#[test]
fn a_draw_is_offered_declined_and_accepted() {
    let mut t = Table::new(Variant::Modern, None);
    assert_eq!(
        t.send(B, Command::DrawAnswer { accept: true }),
        Err(RoomError::NoDraw)
    );
    t.send(B, Command::Draw).unwrap();
    assert_eq!(t.room.draw, B);
    assert_eq!(
        t.send(B, Command::Draw),
        Err(RoomError::NoDraw),
        "offered already"
    );
    assert_eq!(
        t.send(B, Command::DrawAnswer { accept: true }),
        Err(RoomError::NoDraw),
        "one's own"
    );
    assert_eq!(
        t.send(None, Command::DrawAnswer { accept: true }),
        Err(RoomError::NoSeat)
    );
    t.send(W, Command::DrawAnswer { accept: false }).unwrap();
    assert_eq!((t.room.draw, t.room.status()), (None, Status::Playing));
    // The offer stands through the offerer's own move; the other's move declines it.
    t.send(B, Command::Draw).unwrap();
    t.play("f5").unwrap();
    assert_eq!(t.room.draw, B);
    t.play("d6").unwrap();
    assert_eq!(t.room.draw, None);
    // A third offer is the last; offering while the other's offer stands accepts it.
    t.send(B, Command::Draw).unwrap();
    t.send(W, Command::DrawAnswer { accept: false }).unwrap();
    assert_eq!(t.send(B, Command::Draw), Err(RoomError::TooMany));
    t.send(W, Command::Draw).unwrap();
    t.send(B, Command::Draw).unwrap();
    let r = t.room.result.unwrap();
    assert_eq!((r.winner, r.reason), (None, Reason::Agreement));
    assert_eq!(t.room.status(), Status::Over);
    assert_eq!(t.send(W, Command::Draw), Err(RoomError::GameOver));
    assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
}

#[test]
fn abort_before_both_sides_have_placed_a_disc() {
    let clock = ClockSpec {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let mut t = Table::new(Variant::Modern, Some(clock));
    t.play("f5").unwrap();
    t.now += 5_000;
    // White has not moved: either side may abort.
    t.send(B, Command::Abort).unwrap();
    let r = t.room.result.unwrap();
    assert_eq!((r.winner, r.reason), (None, Reason::Aborted));
    assert_eq!(t.room.flag_due(), None, "the clock stops");
    assert_eq!(t.room.clock.unwrap().left_ms, [60_000, 55_000]);
    let mut t = Table::new(Variant::Modern, None);
    t.play("f5").unwrap();
    t.play("d6").unwrap();
    assert_eq!(t.send(W, Command::Abort), Err(RoomError::NoAbort));
    assert_eq!(t.send(None, Command::Abort), Err(RoomError::NoSeat));
    // A takeback back to one side's first move makes it abortable again.
    t.send(W, Command::Undo).unwrap();
    t.send(B, Command::UndoAnswer { accept: true }).unwrap();
    t.send(W, Command::Abort).unwrap();
    assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
}

#[test]
fn the_one_who_stayed_claims_after_the_other_has_been_away_long_enough() {
    let mut t = Table::new(Variant::Modern, None);
    t.play("f5").unwrap();
    let after = t.room.claim_after;
    assert_eq!(after, 60_000, "the documented minute");
    // White's connection went at 2 s, before it moved: the game can be
    // aborted, not claimed.
    t.room.away_since = [None, Some(2_000)];
    assert_eq!(t.room.claim_from(), None);
    t.room.away_since = [None, None];
    t.play("d6").unwrap();
    assert_eq!(
        t.send(B, Command::Claim),
        Err(RoomError::NoClaim),
        "both online"
    );
    // Once both have moved, black may claim from 62 s.
    t.room.away_since = [None, Some(2_000)];
    assert_eq!(t.room.claim_from(), Some((Color::Black, 62_000)));
    t.now = 61_999;
    assert_eq!(
        t.send(B, Command::Claim),
        Err(RoomError::NoClaim),
        "too early"
    );
    t.now = 62_000;
    assert_eq!(
        t.send(W, Command::Claim),
        Err(RoomError::NoClaim),
        "the one away"
    );
    t.send(B, Command::Claim).unwrap();
    let r = t.room.result.unwrap();
    assert_eq!((r.winner, r.reason), (B, Reason::Left));
    assert_eq!(t.room.claim_from(), None, "over");
    // Both away: nobody to claim.
    let mut t = Table::new(Variant::Modern, None);
    t.room.away_since = [Some(0), Some(0)];
    t.now = 1_000_000;
    assert_eq!(t.room.claim_from(), None);
    assert_eq!(t.send(B, Command::Claim), Err(RoomError::NoClaim));
}

#[test]
fn a_transfer_link_moves_a_seat_once_and_retires_the_old_token() {
    use mollett_server::room::TRANSFER_VALID;
    let mut t = Table::new(Variant::Modern, None);
    let transfer = |s: &str| Command::Transfer { token: s.into() };
    assert_eq!(t.send(None, transfer("x")), Err(RoomError::NoSeat));
    t.send(B, transfer("link")).unwrap();
    // Opened elsewhere: the seat gets a fresh token, the old one holds nothing.
    let Joined::Take(e) = t.room.join(Some("link"), "tb2".into(), t.now + 1) else {
        panic!("the link moves the seat")
    };
    t.apply(e);
    assert_eq!(t.room.seat_of(Some("tb2")), B);
    assert_eq!(t.room.seat_of(Some("tb")), None);
    assert_eq!(t.room.join(Some("tb"), "z".into(), t.now), Joined::Watch);
    assert_eq!(
        t.room.join(Some("link"), "z".into(), t.now),
        Joined::Watch,
        "used once"
    );
    // A link unused past TRANSFER_VALID moves nothing.
    t.send(W, transfer("late")).unwrap();
    let late = t.now + TRANSFER_VALID;
    assert_eq!(t.room.join(Some("late"), "z".into(), late), Joined::Watch);
    assert!(matches!(
        t.room.join(Some("late"), "z".into(), late - 1),
        Joined::Take(_)
    ));
    for _ in 1..mollett_server::room::TRANSFER_ASKS {
        t.send(W, transfer("again")).unwrap();
    }
    assert_eq!(t.send(W, transfer("more")), Err(RoomError::TooMany));
    assert_eq!(Room::replay(t.room.spec.clone(), &t.events), t.room);
}
