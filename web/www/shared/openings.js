// The names of the common Othello openings (modern rules, standard start),
// and the name of the line a game is in: the longest line of the table
// that its moves begin with, whichever of the four first moves it began
// with.
//
// The lines are written from public knowledge of the opening names, in
// the f5 orientation (black's first move f5), each a transcript without
// passes. They follow the names of Robert Gatliff's catalogue of Othello
// openings, the list the players' programs name openings from; the first
// replies (Perpendicular d6, Diagonal f6, Parallel f4) are also those of the
// Othello Wiki Book Project's "Openings" page (othello.dk/book), and the
// Aubrey (f5d6c3d3c4b3) is named there too. tests/browser/test_look.py plays
// every line through the native engine: each is legal.
//
// Where a name has several spellings (Rose-bill, Rose-Bill) the common one
// is used; where an opening has two names, the first of the catalogue's.

export const OPENINGS = [
  // The three answers to f5.
  ["f5d6", "Perpendicular"],
  ["f5f6", "Diagonal"],
  ["f5f4", "Parallel"],

  // Perpendicular: the Tiger and its branches.
  ["f5d6c3d3c4", "Tiger"],
  ["f5d6c3d3c4b3", "Aubrey"],
  ["f5d6c3d3c4f4c5b3c2", "Rose-bill"],
  ["f5d6c3d3c4f4c5b3c2e3", "Nicolet"],
  ["f5d6c3d3c4f4c5b3c2b4", "Central Rose-bill"],
  ["f5d6c3d3c4f4c5b3c2e6", "Tamenori"],
  ["f5d6c3d3c4f4c5b4b5c6f3e6e3", "Ishii"],
  ["f5d6c3d3c4f4c5b4b5c6f3e6e3g6f6g5d7g3", "Mainline Tiger"],
  ["f5d6c3d3c4f4e3", "Brightwell"],
  ["f5d6c3d3c4f4e6", "Leader's Tiger"],
  ["f5d6c3d3c4f4f6", "Stephenson"],
  ["f5d6c3d3c4f4f6b4", "Kung"],
  ["f5d6c3d3c4f4f6f3", "Comp'Oth"],
  ["f5d6c3d3c4f4f6g5", "No-Kung"],
  ["f5d6c3g5", "Ganglion"],

  // Perpendicular: the Cat, the Horse, the Rose.
  ["f5d6c4d3c5", "Cat"],
  ["f5d6c4d3c5f4e3f3c2b4b3", "Berner"],
  ["f5d6c4d3c5f4e3f3c2c6", "Sakaguchi"],
  ["f5d6c4d3e6", "Italian"],
  ["f5d6c4g5", "No-Cat"],
  ["f5d6c4g5c6", "Swallow"],
  ["f5d6c5f4d3", "Horse"],
  ["f5d6c5f4e3c6d3f3", "Ralle"],
  ["f5d6c5f4e3c6d3f6e6d7", "Rose"],
  ["f5d6c5f4e3c6d3f6e6d7e7", "Greenberg"],
  ["f5d6c5f4e3c6d3f6e6d7g3c4", "Rose-birth"],
  ["f5d6c5f4e3c6d3f6e6d7g4", "Flat"],
  ["f5d6c5f4e3c6d3f6e6d7g4c4", "Rotating Flat"],
  ["f5d6c5f4e3c6d3f6e6d7g4c4g6", "Murakami Variation"],
  ["f5d6c5f4e3c6d7", "Bhagat"],
  ["f5d6c5f4e3c6e6", "Inoue"],
  ["f5d6c5f4e3c6e6f6", "Iago"],
  ["f5d6c5f4e3c6f3", "Shaman"],
  ["f5d6c5f4e3d3", "Mimura"],

  // Diagonal: the wings, then the lines after f5 f6 e6 f4.
  ["f5f6c4f4", "Semi-Wing Variation"],
  ["f5f6d3f4", "Wing Variation"],
  ["f5f6e6f4c3", "Buffalo"],
  ["f5f6e6f4c3c4", "Hokuriku Buffalo"],
  ["f5f6e6f4c3d6f3c4c5b4", "Tanida Buffalo"],
  ["f5f6e6f4c3d7f3", "Maruoka Buffalo"],
  ["f5f6e6f4e3", "Cow"],
  ["f5f6e6f4e3c5c4", "Rose-v-Toth"],
  ["f5f6e6f4e3c5c4d3c3", "Landau"],
  ["f5f6e6f4e3c5c4d3f3e2", "Maruoka"],
  ["f5f6e6f4e3c5c4e7", "Tanida"],
  ["f5f6e6f4e3c5c4e7g4", "Aircraft"],
  ["f5f6e6f4e3c5c4e7b5e2", "Sailboat"],
  ["f5f6e6f4e3c5g5", "Bat"],
  ["f5f6e6f4e3c5g5g3g4f3c4", "Melnikov"],
  ["f5f6e6f4e3d6", "Chimney"],
  ["f5f6e6f4g3f3g4", "Hamilton"],
  ["f5f6e6f4g3d6", "Lollipop"],
  ["f5f6e6f4g4", "Raccoon Dog"],
  ["f5f6e6f4g5", "Heath"],
  ["f5f6e6f4g5d6", "Heath-Chimney"],
  ["f5f6e6f4g5e7e3", "Heath-Bat"],
  ["f5f6e6f4g5e7d7", "Iwasaki Variation"],
  ["f5f6e6f4g6", "Snake"],
  ["f5f6e6f4g6c5g4g5f3e3c4", "Pyramid"],
  ["f5f6e6f4g7", "X-square Opening"],
];

// The start is unchanged by four of the board's eight symmetries: these
// take black's four first moves (f5, c4, e6, d3) to one another. Each is
// its own inverse, so the one that takes f5 to a game's first move takes
// that game to the f5 orientation.
const SYMMETRIES = {
  identity: (f, r) => [f, r],
  rotate180: (f, r) => [7 - f, 7 - r],
  diagonal: (f, r) => [r, f], // the a1-h8 diagonal
  antidiagonal: (f, r) => [7 - r, 7 - f], // the a8-h1 diagonal
};

// Positions in the table that are their own mirror image: after f5 f6 e6
// the board is symmetric about the a1-h8 diagonal, so f4 and d6 are the
// same move there and what follows is matched in either image (the table
// writes f4). The test checks the position is symmetric.
export const MIRRORS = [{ prefix: "f5f6e6", symmetry: "diagonal" }];

function transform(move, symmetry) {
  const [f, r] = SYMMETRIES[symmetry]("abcdefgh".indexOf(move[0]), +move[1] - 1);
  return "abcdefgh"[f] + (r + 1);
}

function mapMoves(moves, symmetry) {
  return moves.map((m) => transform(m, symmetry));
}

// The game's moves (squares, passes left out) in the f5 orientation, and
// their mirror images at the symmetric positions they pass through.
export function orientations(moves) {
  if (!moves.length) return [];
  const symmetry = Object.keys(SYMMETRIES).find((s) => transform("f5", s) === moves[0]);
  if (!symmetry) return []; // not a first move of the standard start
  const base = mapMoves(moves, symmetry);
  const all = [base];
  for (const { prefix, symmetry: mirror } of MIRRORS) {
    const n = prefix.length / 2;
    if (base.slice(0, n).join("") === prefix) all.push([...base.slice(0, n), ...mapMoves(base.slice(n), mirror)]);
  }
  return all;
}

// The named opening of a game: {name, line, plies} of the longest line in
// the table the game's moves begin with, or null.
export function openingOf(moves) {
  let best = null;
  for (const seq of orientations(moves)) {
    const text = seq.join("");
    for (const [line, name] of OPENINGS) {
      if (text.startsWith(line) && (!best || line.length > best.line.length)) best = { name, line, plies: line.length / 2 };
    }
  }
  return best;
}
