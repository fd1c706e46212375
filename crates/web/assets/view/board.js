// A position on the board, drawn the same on the game page and the record page: the pieces, the
// last move, the kings in danger (as the server's {white, black} lists) and, on the record page,
// the analysis's better move as an arrow. The game page adds the selection and its targets.

export function dangerSquares(danger) {
  return danger ? [...(danger.white || []), ...(danger.black || [])] : [];
}

// `position`: {width, height, pieces, flipped, last, danger, selected?, targets?, due?, arrow?}.
export function drawPosition(board, position) {
  const { danger, selected = null, targets = [], due = null, arrow = null, ...rest } = position;
  board.draw({ ...rest, selected, targets, due, arrow, danger: dangerSquares(danger) });
}
