// English: the reference table. Every language file has exactly these keys
// (tests/browser/test_rules.py compares them). A key ending in .modern or
// .classic is one rule set's own text; rules.js prefers it to the shared
// key. Placeholders: {B} {b} {bo} {bd} {Bn} black and {S} {s} {so} {sd}
// {Sn} the second colour (white in modern, red in classic): the player's
// name starting a sentence, inside one, after "of" (genitive, oblique),
// "black discs", and a short label (colour.*.W/w/o/d/n). A status line
// gets the player to move as {C} {c} {co}.
export default {
  "colour.black.W": "Black",
  "colour.black.w": "black",
  "colour.black.o": "black",
  "colour.black.d": "black discs",
  "colour.black.n": "Black",
  "colour.modern.W": "White",
  "colour.modern.w": "white",
  "colour.modern.o": "white",
  "colour.modern.d": "white discs",
  "colour.modern.n": "White",
  "colour.classic.W": "Red",
  "colour.classic.w": "red",
  "colour.classic.o": "red",
  "colour.classic.d": "red discs",
  "colour.classic.n": "Red",

  "rules.title.modern": "How to play Reversi (modern rules)",
  "rules.title.classic": "How to play classic Reversi (1880s rules)",
  "rules.back": "← Back to the board",
  "rules.lang": "Language",
  "rules.variantLabel": "Rule set",
  "rules.variant.modern": "Modern (Othello)",
  "rules.variant.classic": "Classic (1880s)",

  "rules.intro.modern": "Reversi is a game for two players on a board of 8×8 squares. The discs are black on one side and white on the other. You place discs; you never move them. You turn over the opponent's discs that you enclose. Whoever has more discs on the board at the end wins.\nThis page plays the modern rules, the same as Othello. Each example below is a live board: press its button and the engine plays the move.",
  "rules.intro.classic": "Classic Reversi is the game as it was published in London around 1889–1890 (J. W. Mollett's Handbook of Reversi and L. Waterman's Reversi and Go Bang). Two players, black and red, each have 32 discs and play on an empty board of 8×8 squares. You place discs; you never move them. You turn over the opponent's discs that you enclose. Whoever has more discs on the board at the end wins.\nTwo rules make it different from modern Othello: the first four discs go freely on the four centre squares, and a player who has used all 32 discs can no longer move. Each example below is a live board: press its button and the engine plays the move.",

  "rules.start.h": "The board and the start",
  "rules.start.body.modern": "The columns are the letters a to h, the rows the numbers 1 to 8: d3 is the square where column d meets row 3.\nThe game starts with four discs in the centre: d4 and e5 white, e4 and d5 black. Black moves first, then you take turns. A move puts one new disc on an empty square. On the boards here and on the board page, a dot marks each square where the player to move may play.",
  "rules.start.body.classic": "The columns are the letters a to h, the rows the numbers 1 to 8: d3 is the square where column d meets row 3.\nThe board starts empty. Each player has 32 discs in hand. Black plays first here (the old books do not agree on who starts). A move takes one disc from the player's hand and puts it on an empty square. On the boards here and on the board page, a dot marks each square where the player to move may play.",

  "rules.placements.h": "The first four discs: free in the centre",
  "rules.placements.body": "The first four moves go on the four centre squares, d4, e4, d5 and e5: two for each player, in any order. Nothing is enclosed and nothing is turned.\nSo the centre can end up crossed (each colour on a diagonal, as in Othello) or parallel (each colour in one column). From the fifth move on, the normal rule applies.\nPress the button four times: black d4, red e4, black d5, red e5. That gives the parallel arrangement.",

  "rules.first.h.modern": "The first move: black plays d3",
  "rules.first.h.classic": "The fifth move: black plays d3",
  "rules.first.body.modern": "At the start black has four legal squares: d3, c4, f5 and e6. Take d3:\n- The square is empty.\n- Look from d3 in all eight directions. Downwards there is the white disc on d4, then the black disc on d5.\n- That is a closed line: one or more of the opponent's discs, then one of yours. So d3 is legal.\n- Turn the discs inside the line: d4 becomes black. No other direction is closed, so nothing else changes.\nBlack then has 4 discs and white 1.",
  "rules.first.body.classic": "Here the centre was filled crosswise: black on d5 and e4, red on d4 and e5, the same as Othello's start. Black's fifth move has four legal squares: d3, c4, f5 and e6. Take d3:\n- The square is empty.\n- Look from d3 in all eight directions. Downwards there is the red disc on d4, then the black disc on d5.\n- That is a closed line: one or more of the opponent's discs, then one of yours. So d3 is legal.\n- Turn the discs inside the line: d4 becomes black. No other direction is closed, so nothing else changes.\nBlack then has 4 discs and red 1.",

  "rules.line.h": "Checking a line",
  "rules.line.body": "From the square you want, look along the row, the column and both diagonals: eight directions. A direction is closed when it has one or more of the opponent's discs and, right after them, a disc of yours. All the opponent's discs in between are turned. A square that closes no direction is not a legal move, even if it touches the opponent's discs.\nHere black is to move. From a4 the row to the right holds {s}, {s}, then black on d4: closed, so a4 is legal and turns b4 and c4. From a6 the row holds {s}, {s}, then an empty square: the line is open. a6 has no dot, and the engine refuses it. Try it first.",

  "rules.several.h": "One move, several lines",
  "rules.several.body": "A move turns every closed line at once: along its row, its column and both diagonals. Check each of the eight directions on its own.\nHere black plays c3. Seven directions end in a black disc, so all their {sd} are turned. The eighth, down and to the left, holds {s} on b4 and then the empty a5. It is open, so b4 stays {s}.",

  "rules.pass.h": "When you must pass",
  "rules.pass.body": "If you have no legal square, you must pass, and your opponent moves again. If your opponent cannot move either, the game is over. You may not pass while you have a legal square.\nHere, after eight moves, black has no dot: no square encloses anything. Black passes, {s} plays c1, and black can move again.",

  "rules.supply.h": "Running out of discs",
  "rules.supply.body": "Each player has 32 discs. Every move takes one disc from the player's hand; turning discs does not change anyone's hand. Without passes both players use exactly 32 and the board fills up. After a pass, one player can run out first.\nA player with no disc in hand cannot move, even where a line could be closed: they pass, and the opponent makes the remaining moves while they can.\nHere black's hand is empty. Black could close a line at g6 but has nothing to place, so black passes. Red plays g6 with its last disc, and the game is over.",

  "rules.end.h": "Counting at the end",
  "rules.end.body.modern": "The game ends when neither player can move. The board does not have to be full. Count the discs of each colour on the board: more discs wins, the same number is a draw. Empty squares belong to nobody.\nHere black plays f1, the 59th move. Nobody can play h8, so the game ends with h8 empty. Black has 40 discs and white 23: black wins 40 to 23, and h8 counts for nobody.",
  "rules.end.body.classic": "The game ends when neither player can move. The board does not have to be full. Count the discs of each colour on the board: more discs wins, the same number is a draw. Empty squares belong to nobody, and discs left in hand do not count.\nHere black plays f1, its 32nd and last disc. Red cannot play h8 either, so the game ends with h8 empty and one red disc still in hand. Black has 40 discs on the board and red 23: black wins 40 to 23.",

  "rules.wipe.h": "A colour wiped out",
  "rules.wipe.body": "If one colour loses all its discs, nobody can close a line any more, and the game ends at once, even with most of the board empty.\nHere {s} has three discs, all on one diagonal. Black plays a1 and turns b2, c3 and d4. {S} has no disc left: black wins 15 to 0, with 49 squares empty.",

  "rules.faq.h": "Questions",
  "rules.faq.q1": "Is this draughts (checkers)?",
  "rules.faq.a1": "No. In draughts pieces move and jump over others to take them. In Reversi a disc never moves and never leaves the board: you place a new disc and turn the discs it encloses.",
  "rules.faq.q2": "Must the board be full at the end?",
  "rules.faq.a2": "No. The game ends as soon as neither player can move, even with empty squares left.",
  "rules.faq.q3": "Can a turned disc turn back?",
  "rules.faq.a3": "Yes, as often as it is enclosed again. Only discs the opponent can never enclose, such as a disc in a corner, are safe.",
  "rules.faq.q4": "Who owns the empty squares?",
  "rules.faq.a4": "Nobody. Only the discs on the board are counted. Some tournaments give the empty squares to the winner; that makes the win bigger but never changes who won.",
  "rules.faq.q5": "When is it a draw?",
  "rules.faq.a5.modern": "When both colours have the same number of discs at the end, for example 32 to 32. There is no draw by repetition or by a move limit: every move adds a disc, so a game has at most 60 moves.",
  "rules.faq.a5.classic": "When both colours have the same number of discs on the board at the end, for example 32 to 32. There is no draw by repetition or by a move limit: every move adds a disc, so a game has at most 64 moves.",
  "rules.faq.q6": "May I pass when I have a legal move?",
  "rules.faq.a6": "No. You pass only when no square is legal for you. While there is a dot on the board, you must play one of those squares.",
  "rules.faq.q7.modern": "Is Reversi the same game as Othello?",
  "rules.faq.q7.classic": "Is classic Reversi the same game as Othello?",
  "rules.faq.a7.modern": "The modern game on this page plays Othello's rules: the four centre discs set crosswise, black first. Classic Reversi from the 1880s differs in two rules; see the classic page.",
  "rules.faq.a7.classic": "No. Othello (1973) always starts from the same four crossed discs and has no limit on discs. Classic Reversi lets the players place the first four discs freely and gives each player only 32. Everything else is the same.",

  "ex.play": "Play {move}",
  "ex.pass": "Pass",
  "ex.try": "Try {move}",
  "ex.again": "Again",
  "ex.turned": { one: "{n} disc turned: {list}.", other: "{n} discs turned: {list}." },
  "ex.turnedNone": "Nothing turned: the first four discs only fill the centre.",
  "ex.passed": "{C} passed.",
  "ex.gameOver": "The game is over.",
  "ex.refused": "The engine refuses {move}: it is not a legal move. Nothing changed.",
  "ex.failed": "The engine could not play this example: {error}",
  "st.toMove": "{C} to move",
  "st.mustPass": "{C} has no move and must pass",
  "st.over": "Game over",
  "st.count": "{Bn} {nb} · {Sn} {ns} · empty {ne}",
  "st.hand": "In hand: {Bn} {nb} · {Sn} {ns}",
};
