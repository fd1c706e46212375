//! Standings: points, then Sonneborn–Berger, then seed.
//!
//! Everything is kept in integers (half and quarter points) so that ties are exact: a tie decided
//! by floating-point rounding would rank teams differently on different machines.

use crate::{Board, Line, Outcome, Team};

/// The standings of `teams` teams after `boards`, best first.
///
/// Every team appears once, boards or not. A board whose game goes on (outcome None) counts
/// nothing yet; a bye counts its two half points whatever its outcome says. Boards naming a team
/// outside `0..teams`, or a team against itself, are ignored.
pub fn standings(teams: usize, boards: &[Board]) -> Vec<Line> {
    let boards: Vec<&Board> = boards.iter().filter(|b| valid(teams, b)).collect();
    let mut lines: Vec<Line> = (0..teams)
        .map(|team| Line {
            team,
            points: 0,
            tiebreak: 0,
            played: 0,
        })
        .collect();
    for board in &boards {
        for (team, half_points) in results(board) {
            lines[team].points += half_points;
        }
        if board.black.is_some() && board.outcome.is_some() {
            lines[board.white].played += 1;
            if let Some(black) = board.black {
                lines[black].played += 1;
            }
        }
    }
    // Sonneborn–Berger needs every opponent's final score, hence a second pass.
    let points: Vec<u32> = lines.iter().map(|l| l.points).collect();
    for board in &boards {
        if let (Some(black), Some(_)) = (board.black, board.outcome) {
            for (team, half_points) in results(board) {
                let opponent = if team == black { board.white } else { black };
                lines[team].tiebreak += half_points * points[opponent];
            }
        }
    }
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.tiebreak.cmp(&a.tiebreak))
            .then(a.team.cmp(&b.team))
    });
    lines
}

pub(crate) fn valid(teams: usize, board: &Board) -> bool {
    board.white < teams && board.black.is_none_or(|b| b < teams && b != board.white)
}

/// The half points a board gives each of its teams (nothing while its game goes on).
fn results(board: &Board) -> Vec<(Team, u32)> {
    match (board.black, board.outcome) {
        (None, _) => vec![(board.white, 2)],
        (Some(_), None) => vec![],
        (Some(black), Some(outcome)) => {
            let (white, black_points) = match outcome {
                Outcome::White => (2, 0),
                Outcome::Black => (0, 2),
                Outcome::Draw => (1, 1),
            };
            vec![(board.white, white), (black, black_points)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: Team, black: Team, outcome: Outcome) -> Board {
        Board {
            white,
            black: Some(black),
            outcome: Some(outcome),
        }
    }

    fn bye(team: Team) -> Board {
        Board {
            white: team,
            black: None,
            outcome: None,
        }
    }

    fn line(team: Team, points: u32, tiebreak: u32, played: u32) -> Line {
        Line {
            team,
            points,
            tiebreak,
            played,
        }
    }

    #[test]
    fn no_boards_rank_by_seed() {
        let expected: Vec<Line> = (0..4).map(|t| line(t, 0, 0, 0)).collect();
        assert_eq!(standings(4, &[]), expected);
        assert!(standings(0, &[]).is_empty());
    }

    #[test]
    fn three_teams_with_byes() {
        // A round robin of three: each team sits out once.
        // Round 1: 0 beats 1, 2 has a bye. Round 2: 2 beats 0, 1 has a bye.
        // Round 3: 1 draws 2, 0 has a bye.
        let boards = [
            game(0, 1, Outcome::White),
            bye(2),
            game(2, 0, Outcome::White),
            bye(1),
            game(1, 2, Outcome::Draw),
            bye(0),
        ];
        // Points: 0 = 2 + 2 (bye) = 4; 1 = 2 (bye) + 1 = 3; 2 = 2 (bye) + 2 + 1 = 5.
        // SB: 0 beat 1 (3) → 6; 1 drew 2 (5) → 5; 2 beat 0 (4) → 8, drew 1 (3) → 11.
        assert_eq!(
            standings(3, &boards),
            vec![line(2, 5, 11, 2), line(0, 4, 6, 2), line(1, 3, 5, 2)]
        );
    }

    #[test]
    fn draws_and_tiebreaks() {
        // 0–1 and 2–3 draw, then 0 beats 2 and 3 beats 1.
        let boards = [
            game(0, 1, Outcome::Draw),
            game(2, 3, Outcome::Draw),
            game(2, 0, Outcome::Black),
            game(1, 3, Outcome::Black),
        ];
        // Points: 0 = 1 + 2 = 3; 1 = 1 + 0 = 1; 2 = 1 + 0 = 1; 3 = 1 + 2 = 3.
        // SB: 0 = draw with 1 (1) + win over 2 (2 × 1) = 3; 3 = draw with 2 (1) + win over 1
        // (2 × 1) = 3; 1 = draw with 0 (3) = 3; 2 = draw with 3 (3) = 3.
        // All tiebreaks equal: seed order within each score.
        assert_eq!(
            standings(4, &boards),
            vec![
                line(0, 3, 3, 2),
                line(3, 3, 3, 2),
                line(1, 1, 3, 2),
                line(2, 1, 3, 2)
            ]
        );
    }

    #[test]
    fn tiebreak_separates_equal_points() {
        // 3 beats 0, 1 draws 2; then 2 beats 3, 1 beats 0 (0 lost everything).
        let boards = [
            game(3, 0, Outcome::White),
            game(1, 2, Outcome::Draw),
            game(2, 3, Outcome::White),
            game(0, 1, Outcome::Black),
        ];
        // Points: 0 = 0; 1 = 1 + 2 = 3; 2 = 1 + 2 = 3; 3 = 2 + 0 = 2.
        // SB: 1 = draw with 2 (3) + win over 0 (0) = 3; 2 = draw with 1 (3) + win over 3
        // (2 × 2) = 7; 3 = win over 0 (0) = 0.
        assert_eq!(
            standings(4, &boards),
            vec![
                line(2, 3, 7, 2),
                line(1, 3, 3, 2),
                line(3, 2, 0, 2),
                line(0, 0, 0, 2)
            ]
        );
    }

    #[test]
    fn games_in_progress_count_nothing() {
        let boards = [
            Board {
                white: 0,
                black: Some(1),
                outcome: None,
            },
            game(2, 3, Outcome::Black),
        ];
        assert_eq!(
            standings(4, &boards),
            vec![
                line(3, 2, 0, 1),
                line(0, 0, 0, 0),
                line(1, 0, 0, 0),
                line(2, 0, 0, 1)
            ]
        );
    }

    #[test]
    fn a_bye_counts_two_half_points_whatever_its_outcome() {
        let boards = [Board {
            white: 1,
            black: None,
            outcome: Some(Outcome::Black),
        }];
        assert_eq!(
            standings(2, &boards),
            vec![line(1, 2, 0, 0), line(0, 0, 0, 0)]
        );
    }
}
