//! A game played through two seats' clients, move by move.

use super::{game_part, Client};
use serde_json::{json, Value};

/// Plays the first legal square for whichever seat is to move, `n` times;
/// returns the last state seen by both (which must agree).
pub async fn play(black: &mut Client, white: &mut Client, mut state: Value, n: usize) -> Value {
    for _ in 0..n {
        if state["status"] != "playing" {
            break;
        }
        let plies = state["moves"].as_array().unwrap().len();
        let sq = state["legal"][0].as_str().unwrap().to_string();
        let mover = if state["to_move"] == "black" {
            &mut *black
        } else {
            &mut *white
        };
        // Each client may send 20 messages a second (the rate limit).
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        mover
            .send(json!({"type": "move", "square": sq, "ply": plies}))
            .await;
        let a = black.state_at_least(plies + 1).await;
        let b = white.state_at_least(plies + 1).await;
        assert_eq!(game_part(a["state"].clone()), game_part(b["state"].clone()));
        state = a["state"].clone();
    }
    state
}
