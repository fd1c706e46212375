//! A finished game's record as docs/service.md spells its plies: each move as a move view plus what its
//! randomness drew (`landed`, `mutated_to` as a code), each promotion as `{promotion, genome}`.
//! The engine's record keeps only what replays (no effects), so the plies are rebuilt by replaying
//! its events over the start position, exactly as live play made them.

use crate::error::{ApiError, ApiResult};
use crate::views::GameView;
use gmo_engine::{
    Color, Drawn, Event, Game, GameRecord, GameStatus, MoveView, PlyView, Position, Reason, Viewer,
    species_labels,
};
use gmo_genome::Genome;
use serde::Serialize;
use utoipa::ToSchema;

/// A finished game's record: its plies as docs/service.md spells them, the engine's self-contained
/// record (`replay`, for `gmo_engine::replay`), and the game with every genome shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameRecordView {
    #[schema(value_type = crate::schema::Id)]
    pub id: String,
    pub status: GameStatus,
    pub reason: Option<Reason>,
    pub plies: Vec<PlyView>,
    pub replay: GameRecord,
    pub game: GameView,
}

/// The record's moves and promotions as ply views (resignations, aborts, flag falls and draw offers
/// are not plies: they stay in the engine's record).
pub fn plies(record: &GameRecord) -> ApiResult<Vec<PlyView>> {
    plies_shown(record, |_| true)
}

/// The plies of `game` so far as `viewer` may see them: exactly as the stream showed them, the
/// new codes of the other side's mutations and promotions hidden until the end.
pub fn plies_seen(game: &Game, viewer: Viewer) -> ApiResult<Vec<PlyView>> {
    plies_shown(&game.record(), |owner| game.shows_genomes(viewer, owner))
}

/// The record's plies, with the new code of a piece shown only where `shown(its owner)`.
fn plies_shown(record: &GameRecord, shown: impl Fn(Color) -> bool) -> ApiResult<Vec<PlyView>> {
    let mut position = record.setup.to_position().map_err(corrupt)?;
    let mut plies = Vec::new();
    for event in &record.events {
        let ply = match event {
            Event::Move {
                from,
                to,
                landed,
                mutated_to,
                ..
            } => {
                let owner = position.piece_at(*from).map(|piece| piece.color);
                let mut ply = move_ply(&mut position, *from, *to, *landed, mutated_to.as_deref())?;
                if let PlyView::Move(view) = &mut ply {
                    if !owner.is_some_and(&shown) {
                        view.mutated_to = None;
                    }
                }
                ply
            }
            Event::Promotion { genome, square, .. } => {
                let owner = position.piece_at(*square).map(|piece| piece.color);
                let mut ply = promotion_ply(&mut position, record.seed, genome)?;
                if let PlyView::Promotion(view) = &mut ply {
                    if !owner.is_some_and(&shown) {
                        view.genome = None;
                    }
                }
                ply
            }
            Event::Resign { .. }
            | Event::Abort { .. }
            | Event::Stop { .. }
            | Event::Time { .. }
            | Event::DrawOffer { .. }
            | Event::DrawDeclined { .. }
            | Event::DrawAgreed { .. } => continue,
        };
        plies.push(ply);
    }
    Ok(plies)
}

fn move_ply(
    position: &mut Position,
    from: gmo_engine::Square,
    to: gmo_engine::Square,
    landed: gmo_engine::Square,
    mutated_to: Option<&str>,
) -> ApiResult<PlyView> {
    let drawn = Drawn {
        landed,
        mutation: mutated_to.map(parse).transpose()?,
    };
    let ply = position
        .replay_move(from, to, &drawn)
        .map_err(|error| corrupt(format!("{error:?}")))?;
    Ok(PlyView::of_move(
        MoveView::new(from, to, ply.effect),
        ply.drawn.landed,
        ply.drawn.mutation.map(|genome| genome.code().to_string()),
    ))
}

fn promotion_ply(position: &mut Position, seed: u64, dna: &str) -> ApiResult<PlyView> {
    let genome = parse(dna)?;
    let ply = position
        .promote(&genome)
        .map_err(|error| corrupt(format!("{error:?}")))?;
    let species = species_labels(seed, position.genomes())
        .get(ply.genome.index())
        .cloned()
        .unwrap_or_default();
    Ok(PlyView::of_promotion(
        ply.at,
        Some(genome.code().to_string()),
        species,
    ))
}

fn parse(dna: &str) -> ApiResult<Genome> {
    Genome::parse(dna).map_err(corrupt)
}

/// A stored record that does not replay is the server's fault, never the caller's.
fn corrupt(why: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("the stored record does not replay: {why}"))
}
