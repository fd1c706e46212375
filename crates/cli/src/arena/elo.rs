//! The Elo difference a match's score implies, with a 95 % interval from the spread of the
//! per-game scores (normal approximation).

use serde::Serialize;

/// The first side's Elo difference over the second; `null` where the score is 0 or 1 (no finite
/// difference fits a whitewash) or no game was played.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Elo {
    pub diff: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

impl Elo {
    pub fn of(wins: u32, draws: u32, losses: u32) -> Elo {
        let n = f64::from(wins + draws + losses);
        if n == 0.0 {
            return Elo {
                diff: None,
                low: None,
                high: None,
            };
        }
        let (w, d, l) = (f64::from(wins), f64::from(draws), f64::from(losses));
        let score = (w + d / 2.0) / n;
        let variance =
            (w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2)) / n;
        let margin = Z95 * (variance / n).sqrt();
        Elo {
            diff: elo(score),
            low: elo(score - margin),
            high: elo(score + margin),
        }
    }
}

/// The Elo difference of an expected score, to one decimal; `None` outside (0, 1).
fn elo(score: f64) -> Option<f64> {
    if score <= 0.0 || score >= 1.0 {
        return None;
    }
    let diff = -400.0 * (1.0 / score - 1.0).log10();
    // `+ 0.0` turns an even score's -0.0 into 0.0.
    Some((diff * 10.0).round() / 10.0 + 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_zero_and_a_better_one_positive_within_its_interval() {
        let even = Elo::of(10, 0, 10);
        assert_eq!(even.diff, Some(0.0));
        assert!(even.low < Some(0.0) && even.high > Some(0.0), "{even:?}");
        // 75 %: 400 * log10(3) ≈ 190.8.
        let better = Elo::of(15, 0, 5);
        assert_eq!(better.diff, Some(190.8));
        assert!(
            better.low < better.diff && better.diff < better.high,
            "{better:?}"
        );
        let whitewash = Elo::of(5, 0, 0);
        assert_eq!(whitewash.diff, None);
        assert_eq!(Elo::of(0, 0, 0).diff, None);
    }
}
