//! A finished game's record as docs/service.md spells its plies: each move as a move view plus what its
//! randomness drew (`landed`, `mutated_to` as a code), each promotion as `{promotion, genome}`.
//! The engine's record keeps only what replays (no effects), so the plies are rebuilt by replaying
//! its events over the start position, exactly as live play made them.

use crate::error::{ApiError, ApiResult};
use crate::views::GameView;
use crate::views::KingsInDanger;
use gmo_engine::{
    ByColor, Color, Drawn, Event, Game, GameRecord, GameStatus, MoveView, PieceView, PlyView,
    Position, Reason, Viewer, board_view, species_labels,
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
    /// The engine's self-contained record; left out of a game in discovery (it holds every
    /// genome).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<GameRecord>,
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
    let mut plies = Vec::new();
    walk(record, shown, |_, ply| {
        plies.push(ply);
        true
    })?;
    Ok(plies)
}

/// Replays the record's plies over its start position, handing each ply (its new code shown
/// only where `shown(its owner)`) and the position it left to `after`, until that says stop.
fn walk(
    record: &GameRecord,
    shown: impl Fn(Color) -> bool,
    mut after: impl FnMut(&Position, PlyView) -> bool,
) -> ApiResult<()> {
    let mut position = record.setup.to_position().map_err(corrupt)?;
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
            | Event::Claim { .. }
            | Event::BotFailed { .. }
            | Event::Stop { .. }
            | Event::Time { .. }
            | Event::DrawOffer { .. }
            | Event::DrawDeclined { .. }
            | Event::DrawAgreed { .. } => continue,
        };
        if !after(&position, ply) {
            break;
        }
    }
    Ok(())
}

/// The most positions one answer of `GET /api/games/{id}/positions` holds.
pub const POSITIONS_PER_PAGE: usize = 100;

/// One position of a game's history as the caller may see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionView {
    /// How many plies had been played (0: the start, 1: after the first ply, …).
    pub ply: usize,
    /// Every piece, in square order, without `dna`; `code` only where the caller may see it now
    /// (as in the game view).
    pub board: Vec<PieceView>,
    /// Each side's kings the other side could take or convert with one move in this position
    /// (none once a ply has ended the game).
    pub kings_in_danger: KingsInDanger,
}

/// A page of a game's positions.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionsPage {
    /// How many plies the game has so far: its positions are numbered 0 to this.
    pub plies: usize,
    /// Positions `from` onwards, oldest first, at most 100 (none when `from` is beyond `plies`).
    pub positions: Vec<PositionView>,
    /// The `from` of the next page; `null` on the last.
    pub next: Option<usize>,
}

/// Positions `from` onwards (at most [`POSITIONS_PER_PAGE`]; none when `from` is beyond the plies
/// so far) of `game` as `viewer` may see them: genomes where the viewer sees them now, so nothing
/// hidden is revealed.
pub fn positions_seen(game: &Game, viewer: Viewer, from: usize) -> ApiResult<PositionsPage> {
    let record = game.record();
    let shown = |owner| game.shows_genomes(viewer, owner);
    let started = record.started_ms.is_some();
    let view = |position: &Position, ply: usize| {
        let labels = species_labels(record.seed, position.genomes());
        let mut board = board_view(position, &labels, shown);
        for piece in &mut board {
            piece.dna = None;
        }
        let danger = if started && position.ended().is_none() {
            position.kings_in_danger()
        } else {
            ByColor::default()
        };
        PositionView {
            ply,
            board,
            kings_in_danger: KingsInDanger {
                white: danger.white.iter().collect(),
                black: danger.black.iter().collect(),
            },
        }
    };
    let mut positions = Vec::new();
    if from == 0 {
        positions.push(view(&record.setup.to_position().map_err(corrupt)?, 0));
    }
    let mut played = 0;
    walk(&record, shown, |position, _| {
        played += 1;
        if played >= from && positions.len() < POSITIONS_PER_PAGE {
            positions.push(view(position, played));
        }
        true
    })?;
    let next = positions
        .last()
        .map(|last| last.ply + 1)
        .filter(|next| *next <= played);
    Ok(PositionsPage {
        plies: played,
        positions,
        next,
    })
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
        &genome.to_string(),
    ))
}

fn parse(dna: &str) -> ApiResult<Genome> {
    Genome::parse(dna).map_err(corrupt)
}

/// A stored record that does not replay is the server's fault, never the caller's.
fn corrupt(why: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("the stored record does not replay: {why}"))
}
