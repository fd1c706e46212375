//! A ply as each kind of viewer may see it: the mover's genome codes stay hidden from the
//! opponent until the end.

use crate::hub::PlyViews;
use gmo_engine::{Color, Game, MovePly, PromotionPly, Viewer};

pub fn move_plies(game: &Game, ply: &MovePly, mover: Color) -> PlyViews {
    let view = |viewer| Some(game.move_ply_view(ply, mover, viewer));
    PlyViews {
        white: view(Viewer::Player(Color::White)),
        black: view(Viewer::Player(Color::Black)),
        spectator: view(Viewer::Spectator),
    }
}

pub fn promotion_plies(game: &Game, ply: &PromotionPly) -> PlyViews {
    let view = |viewer| Some(game.promotion_ply_view(ply, viewer));
    PlyViews {
        white: view(Viewer::Player(Color::White)),
        black: view(Viewer::Player(Color::Black)),
        spectator: view(Viewer::Spectator),
    }
}
