// What a player's clicks and keys do to the game: a move, a jump through
// the tree (back, forward, undo, redo), a new game, editing the board, the
// address's game at start and on Back/Forward. Each is a write of the
// controller (ctrl.js, which redraws), then the effects: the engine
// (session.js) and the address.

import { S } from "./state.js";
import * as ctrl from "./ctrl.js";
import { parseTranscript } from "../shared/game.js";
import { playable, refusedSquare, lastOf, undoTarget, redoTarget, walk } from "./ops.js";
import { refresh, obsolete } from "./session.js";
import { gameOfAddress, restoreKeptClock } from "./address.js";
import { practiceTry } from "./review.js";
import { loadSetup, replay } from "./records.js";
import { t } from "../shared/i18n.js";

// Plays `sq` for the human to move; answers "illegal" when it is their
// turn and `sq` is not one of their moves (the message line says so, and
// the view flashes the square).
export function playHuman(sq) {
  if (refusedSquare(sq)) {
    ctrl.message(t("board.msg.notLegal", { move: sq }), sq);
    return "illegal";
  }
  if (S.message.refused) ctrl.message("");
  if (!playable(sq)) return;
  if (S.practice && S.node === S.practice.list[S.practice.i].parent) return practiceTry(sq);
  ctrl.play(sq);
  refresh();
}

export function goTo(node) {
  if (ctrl.jump(node)) refresh();
}

// A branch offered beside a ply of the move list: the list follows it.
export function chooseBranch(node) {
  ctrl.chooseBranch(node);
  goTo(node);
}

export function back() { goTo(S.node.parent); }
export function forward() { goTo(S.node.line); }
export function first() { goTo(S.root); }
export function last() { goTo(lastOf(S.node)); }

// Undo and redo: to the previous (next) position where a human is to move.
export function undo() { goTo(undoTarget(S.node)); }
export function redo() { goTo(redoTarget(S.node)); }

export function newGame(variant, setup = null) {
  ctrl.freshGame(variant, setup);
  refresh();
}

// Setting up a position: clicks cycle a square empty, black, white (red);
// Done loads it through the engine, which checks it.
export function startEditing() {
  obsolete();
  ctrl.editFrom(S.node);
}

export function editSide(side) {
  ctrl.setEditSide(side);
}

export function editSquare(sq) {
  ctrl.cycleSquare(sq);
}

export function clearEdit() {
  ctrl.clearEditBoard();
}

export function finishEditing(apply) {
  const e = S.editing;
  if (!e || e.applying) return;
  if (!apply) {
    stopEditing();
    refresh();
    return;
  }
  ctrl.applyingEdit();
  loadSetup(`${e.board.join("")} ${e.side}`).finally(() => {
    if (S.editing && S.editing.applying) stopEditing(); // refused, or overtaken by another wish
  });
}

// Leaves setup mode, the edited board dropped (Back or Forward meanwhile).
export function stopEditing() {
  ctrl.stopEditing();
}

// At start, once the engine is ready: the game the address names (or the
// kept one it was given by restoreCurrent), at its ply. A transcript that
// does not read, or a move that is illegal, is said and the start shown.
export async function openAddressGame(restored) {
  const g = gameOfAddress();
  if (!g.moves && !g.setup) return;
  const parsed = parseTranscript(g.moves || "");
  if (parsed.error) return ctrl.message(t("board.err.transcript", { error: parsed.error }));
  const ok = await replay(parsed.moves, { variant: g.variant, setup: g.setup, ply: g.ply, ended: g.ended });
  if (ok) restoreKeptClock();
  if (ok) ctrl.message(restored ? t("board.msg.restored") : t("board.msg.loaded", { n: parsed.moves.length }));
}

// Back or Forward: the position of that entry. Within the tree already
// known (the usual case) it is a jump; otherwise the game is replayed.
export function onPopState() {
  if (S.editing) stopEditing();
  const g = gameOfAddress();
  const moves = (g.moves || "").toLowerCase().match(/[a-h][1-8]/g) || [];
  const path = g.variant === S.variant && (g.setup || null) === (S.root.setup || null) ? walk(S.root, moves) : null;
  if (!path) {
    replay(moves, { variant: g.variant, setup: g.setup, ply: g.ply });
    return;
  }
  // The line shown becomes the address's. Where the tree goes on past the
  // address's last ply (Back from a later move), the rest of the line is
  // kept: the entry is then that ply of the longer line, replaced rather
  // than pushed, so Forward still returns, and against the engine the
  // position waits (engine-to-move) instead of the engine playing again.
  ctrl.followPath(path, g.ply !== null && g.ply < path.length ? path[g.ply] : path.at(-1));
  refresh();
}
