//! What a change did. Every change of a game is one engine call, an [`Act`]; [`happened`] turns
//! it, with the game before and after, into what the game's streams are told, in order: the
//! act itself, then what followed from it (a declined draw offer, a freeze, the end). This is
//! the only place that decides it (as lila's `Progress` does).

use crate::hub::{Happened, PlyViews};
use gmo_engine::{Color, DrawOffer, Game, MovePly, PromotionPly};

/// The engine call a change was, with the engine's answer.
#[derive(Debug, Clone)]
pub enum Act {
    /// A seat loaded its preset or toggled a king.
    SetUp,
    /// A seat declared ready (the game starts when both have).
    Ready,
    /// A move by `mover`.
    Moved {
        ply: MovePly,
        mover: Color,
    },
    /// A promotion.
    Promoted(PromotionPly),
    /// A draw offer, or its acceptance.
    Draw(DrawOffer),
    Resigned,
    Aborted,
    /// The creator of a game between bots stopped it.
    Stopped,
    /// A seat claimed the victory: its opponent had left.
    Claimed,
    /// A bot kept failing to act and the service gave up: the game is aborted.
    BotFailed,
    /// No act: a clock found fallen (the flag fell).
    Nothing,
}

/// What the change from `before` into `after` by `act` did, in order.
pub fn happened(before: &Game, after: &Game, act: &Act) -> Vec<Happened> {
    let over = after.is_over();
    let mut happened = match act {
        Act::SetUp => vec![Happened::SetUp],
        Act::Ready if after.started().is_some() => vec![Happened::Started],
        Act::Ready => vec![Happened::SetUp],
        Act::Moved { ply, mover } => {
            let mut moved = vec![Happened::Moved(PlyViews::of(|viewer| {
                after.move_ply_view(ply, *mover, viewer)
            }))];
            // A move answers the other seat's pending offer: it declines it.
            if before.draw_offer().is_some() && after.draw_offer().is_none() && !over {
                moved.push(Happened::DrawDeclined);
            }
            if ply.froze && !over {
                moved.push(Happened::Froze);
            }
            moved
        }
        Act::Promoted(ply) => vec![Happened::Promoted(PlyViews::of(|viewer| {
            after.promotion_ply_view(ply, viewer)
        }))],
        Act::Draw(DrawOffer::Made | DrawOffer::AlreadyPending) => vec![Happened::DrawOffered],
        Act::Draw(DrawOffer::Agreed) => vec![Happened::DrawAgreed],
        Act::Resigned
        | Act::Aborted
        | Act::Stopped
        | Act::Claimed
        | Act::BotFailed
        | Act::Nothing => Vec::new(),
    };
    if over && !before.is_over() {
        happened.push(Happened::Ended);
    }
    happened
}
