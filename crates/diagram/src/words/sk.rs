//! The pictures in Slovak, in a Slovak chess player's words: figúrka, ťah, pole, šachovnica,
//! braním for a capture, oslabenie for a debuff (as the rules page says it), bez obtáčania for no
//! wrap. What a move leaves is said as what the square holds afterwards ("bude prázdno"), as
//! `gmo-genome`'s Slovak explanation says it; its debuff names and effects and what a move leaves
//! are that explanation's own words, so that the picture and the explanation beside it agree.

use super::{Case, Words};
use crate::marks::MarkKind;
use gmo_engine::{Color, Content, Party, Square};
use gmo_genome::{Debuff, Language};

#[derive(Debug)]
pub struct Slovak;

impl Words for Slovak {
    fn title(&self, name: &str, color: Color, width: u8, height: u8) -> String {
        let color = match color {
            Color::White => "biela",
            Color::Black => "čierna",
        };
        // Not "na šachovnici": the heading starts above the board, and on a board 4 files wide
        // the longer phrase reaches the picture's edge in the wider sans-serif fonts.
        format!("{name}: {color} figúrka, šachovnica {width}×{height}")
    }

    fn stands_on(&self, square: Square) -> String {
        format!("Figúrka stojí na poli {square}.")
    }

    fn no_marks(&self) -> &'static str {
        "Nie je označené žiadne pole."
    }

    fn marked(&self, count: usize, squares: &str) -> String {
        format!("Označené polia ({count}): {squares}.")
    }

    fn legend_heading(&self) -> &'static str {
        "Legenda"
    }

    fn no_moves(&self) -> &'static str {
        "Táto figúrka nemá zo stredu prázdnej šachovnice žiadne ťahy."
    }

    fn mark(&self, kind: MarkKind, special: bool) -> &'static str {
        match (kind, special) {
            (MarkKind::Move, false) => "Môže sem ťahať (na prázdne pole).",
            (MarkKind::Move, true) => {
                "Môže sem ťahať (na prázdne pole); ťah zanechá kópie alebo zmení vlastníka \
                 (pozri nižšie)."
            }
            (MarkKind::NeedsTarget, false) => {
                "Môže sem ťahať len braním súperovej figúrky (potrebuje cieľ)."
            }
            (MarkKind::NeedsTarget, true) => {
                "Môže sem ťahať len braním súperovej figúrky (potrebuje cieľ); ťah zanechá kópie \
                 alebo zmení vlastníka (pozri nižšie)."
            }
            (MarkKind::Home, _) => "Môže ťahať na pole, na ktorom stojí (pozri nižšie).",
        }
    }

    fn edges(&self, wraps: bool) -> &'static str {
        if wraps {
            "Prerušované bočné okraje: ľavý a pravý okraj sú pre túto figúrku spojené; ťah, ktorý \
             opustí šachovnicu na jednej strane, sa vráti na druhej."
        } else {
            "Plné bočné okraje: táto figúrka neprechádza cez ľavý a pravý okraj na druhú stranu \
             (bez obtáčania, HAA)."
        }
    }

    fn debuff(&self, debuff: Debuff) -> String {
        format!(
            "Oslabenie „{}“ ({}): {}.",
            debuff.name_in(Language::Sk),
            debuff.codon(),
            debuff.effect_in(Language::Sk)
        )
    }

    fn case(&self, case: Case) -> &'static str {
        match case {
            Case::Empty => "na prázdne pole",
            Case::Enemy => "na súperovu figúrku",
            Case::Own => "na vlastnú figúrku",
            Case::Home => "na svoje pole",
        }
    }

    fn preposition(&self) -> &'static str {
        "na "
    }

    fn or(&self) -> &'static str {
        " alebo "
    }

    fn same_squares(&self) -> &'static str {
        "tie isté polia"
    }

    fn captures(&self) -> &'static str {
        "berie figúrku, ktorá tam stojí"
    }

    fn ordinary(&self) -> &'static str {
        "obyčajný ťah"
    }

    fn content(&self, content: Content, occupied: bool) -> &'static str {
        content.describe_in(occupied, Language::Sk)
    }

    fn owned(&self, what: &str, owner: Party) -> String {
        match owner {
            Party::Mover => format!("{what} (vlastník: ťahajúci hráč)"),
            Party::Opponent => format!("{what} (vlastník: súper)"),
        }
    }

    fn leaves(&self, from: &str, to: &str) -> String {
        format!("na východiskovom poli bude {from} a na cieľovom poli {to}")
    }
}
