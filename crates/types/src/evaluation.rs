//! Where a genome's value evaluation stands.

use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// Where an evaluation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EvaluationState {
    /// Waiting for a place (the deployment runs a few evaluations at once).
    Queued,
    /// Its games are being played.
    Running,
    /// Every game is played: `estimate` is the result.
    Done,
    /// A game could not be played (`error`); it is not retried.
    Failed,
}

impl EvaluationState {
    pub const ALL: [EvaluationState; 4] = [
        EvaluationState::Queued,
        EvaluationState::Running,
        EvaluationState::Done,
        EvaluationState::Failed,
    ];

    /// The name on the wire and in the store's column.
    pub const fn name(self) -> &'static str {
        match self {
            EvaluationState::Queued => "queued",
            EvaluationState::Running => "running",
            EvaluationState::Done => "done",
            EvaluationState::Failed => "failed",
        }
    }

    /// Whether it has ended (done or failed).
    pub const fn is_over(self) -> bool {
        matches!(self, EvaluationState::Done | EvaluationState::Failed)
    }
}

impl FromStr for EvaluationState {
    type Err = crate::UnknownName;

    fn from_str(name: &str) -> Result<EvaluationState, crate::UnknownName> {
        EvaluationState::ALL
            .into_iter()
            .find(|state| state.name() == name)
            .ok_or_else(|| crate::UnknownName {
                what: "an evaluation state",
                name: name.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_read_back() {
        for state in EvaluationState::ALL {
            assert_eq!(state.name().parse::<EvaluationState>().ok(), Some(state));
            let json = serde_json::to_string(&state).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", state.name()));
        }
        assert!("Done".parse::<EvaluationState>().is_err());
        assert!(EvaluationState::Failed.is_over() && !EvaluationState::Queued.is_over());
    }
}
