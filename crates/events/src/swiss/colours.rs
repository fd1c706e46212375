//! Who of a pair gets White (C.04.3 E): grant both preferences when they differ; else the
//! stronger preference (absolute over strong over mild, the larger imbalance among absolutes);
//! else alternate from the latest round in which the two had different colours; else the
//! higher-ranked team gets its preference, or, without one, the colour its pairing number gives
//! from the initial colour (odd numbers the initial colour, even the other, E.5).

use super::players::{Colour, Entry, Player};

/// The colour of `player`, paired with `opponent`; `initial` is the top seed's round-1 colour.
pub fn colour_of(player: &Player, opponent: &Player, initial: Colour) -> Colour {
    if let Some(colour) = neutral(player, opponent) {
        return colour;
    }
    let player_lower = ranks_below(player, opponent);
    match player.preference {
        None => {
            // Pairing number parity: the team at index 0, 2, ... has the initial colour.
            let (higher, player_is_higher) = if player_lower {
                (opponent, false)
            } else {
                (player, true)
            };
            let higher_colour = if higher.team % 2 == 0 {
                initial
            } else {
                initial.other()
            };
            if player_is_higher {
                higher_colour
            } else {
                higher_colour.other()
            }
        }
        Some(own) => {
            if player_lower {
                // Both prefer the same colour here: the higher-ranked opponent gets it.
                opponent.preference.map_or(own, Colour::other)
            } else {
                own
            }
        }
    }
}

/// Ranked below: a lower score, or the same score and a larger pairing number.
pub fn ranks_below(a: &Player, b: &Player) -> bool {
    (a.score, b.team) < (b.score, a.team)
}

pub fn compatible_preferences(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none()
}

/// The colour the rules give `player` before rank decides, if they decide.
fn neutral(player: &Player, opponent: &Player) -> Option<Colour> {
    let (p, o) = (player, opponent);
    if compatible_preferences(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Colour::other));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Colour::other);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::other);
    }
    first_difference(p, o)
}

/// Going back through both teams' games (byes skipped) to the latest round where their colours
/// differ: then each gets the colour the other had (alternation).
fn first_difference(p: &Player, o: &Player) -> Option<Colour> {
    let colours = |x: &Player| -> Vec<Colour> {
        x.rounds
            .iter()
            .rev()
            .filter_map(|r| match r.0 {
                Entry::Game { colour, .. } => Some(colour),
                Entry::Bye => None,
            })
            .collect()
    };
    let (a, b) = (colours(p), colours(o));
    let at = a.iter().zip(&b).position(|(x, y)| x != y)?;
    Some(b[at])
}
