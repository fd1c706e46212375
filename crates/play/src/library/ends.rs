//! A game's end, counted for the library: what each side fielded at the start (every genome on
//! its side, and its back rank as a preset), and who won. Called by whichever process ended the
//! game (a move, a resignation, a claim, a fallen flag); the store counts each game once, so a
//! second call, on this process or another, changes nothing.

use gmo_engine::{BoardData, Color, Game, GameStatus};
use gmo_store::{Fielded, FinishedGame, Store};
use gmo_types::GameId;

/// Counts the ended `game` in the background (a failure is logged: the game itself is ended).
pub(crate) fn count_end(store: &Store, id: &GameId, game: &Game) {
    let white_won = match game.status() {
        GameStatus::WhiteWon => Some(true),
        GameStatus::BlackWon => Some(false),
        GameStatus::Draw => None,
        // Aborted games, or not over: nothing was played out.
        _ => return,
    };
    let Some(setup) = game.snapshot().setup else {
        return;
    };
    let (white, black) = (fielded(&setup, Color::White), fielded(&setup, Color::Black));
    let (store, id) = (store.clone(), id.to_string());
    tokio::spawn(async move {
        let finished = FinishedGame {
            game: &id,
            white,
            black,
            white_won,
            now: crate::time::now(),
        };
        if let Err(error) = store.count_library_game(&finished).await {
            tracing::warn!(game = id, %error, "could not count a game for the library");
        }
    });
}

/// What `color` fielded in the position a game started from.
pub(crate) fn fielded(setup: &BoardData, color: Color) -> Fielded {
    let back_rank = match color {
        Color::White => 0,
        Color::Black => setup.height.saturating_sub(1),
    };
    let dna = |index: usize| setup.genomes.get(index).cloned();
    let mut genomes: Vec<String> = Vec::new();
    let mut rank: Vec<(u8, String)> = Vec::new();
    for piece in setup.pieces.iter().filter(|piece| piece.color == color) {
        let Some(dna) = dna(piece.genome) else {
            continue;
        };
        if piece.square.y() == back_rank && !piece.pawn {
            rank.push((piece.square.x(), dna.clone()));
        }
        if !genomes.contains(&dna) {
            genomes.push(dna);
        }
    }
    rank.sort_by_key(|(file, _)| *file);
    let full = rank.len() == usize::from(setup.width);
    Fielded {
        genomes,
        back_rank: if full {
            rank.into_iter().map(|(_, dna)| dna).collect()
        } else {
            Vec::new()
        },
    }
}
