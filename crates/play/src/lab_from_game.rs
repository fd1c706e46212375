//! A lab holding a position of a finished game ("Explore from here"): for anyone who may read
//! the game's record, outside discovery (a lab shows every genome).

use crate::error::{PlayCode, PlayError, PlayResult};
use crate::games::Games;
use crate::labs::{Labs, NewLab, within_dna_limit};
use gmo_bots::analysis::replay;
use gmo_engine::Lab;
use gmo_types::GameId;
use std::collections::HashSet;

impl Labs {
    /// A new lab holding the position after `ply` plies of game `id` (0: its start), with the
    /// pieces' genomes (stored, so that their codes resolve) and the side to move. Refused as the
    /// record is (unknown game, not over), in discovery, and beyond the game's plies.
    pub async fn create_from_game(
        &self,
        games: &Games,
        id: &GameId,
        ply: u32,
    ) -> PlayResult<NewLab> {
        let seen = games.finished(id, None).await?;
        if seen.game.settings().discovery {
            return Err(PlayError::Discovery(
                "this game keeps its genomes secret (discovery): a lab of its position would \
                 show what the other side's pieces can do"
                    .into(),
            ));
        }
        let record = seen.game.record();
        let replayed = tokio::task::spawn_blocking(move || replay(&record))
            .await
            .map_err(PlayError::internal)?
            .map_err(PlayError::internal)?;
        let plies = replayed.plies.len();
        let position = usize::try_from(ply)
            .ok()
            .and_then(|k| replayed.positions.into_iter().nth(k))
            .ok_or_else(|| {
                PlayError::invalid(
                    PlayCode::BadPly,
                    format!("`ply`: game {id} has {plies} plies; give 0 (its start) to {plies}"),
                )
            })?;
        let lab = Lab::at(position, rand::random());
        within_dna_limit(&lab)?;
        self.store_genomes(&lab).await?;
        self.create_holding(lab).await
    }

    /// Stores each genome on the lab's board (a game's mutants among them).
    async fn store_genomes(&self, lab: &Lab) -> PlayResult<()> {
        let position = lab.position();
        let mut seen = HashSet::new();
        for (_, piece) in position.board().pieces() {
            if !seen.insert(piece.genome) {
                continue;
            }
            if let Some(genome) = position.genome(piece.genome) {
                self.library.put_genome(genome.genome()).await?;
            }
        }
        Ok(())
    }
}
