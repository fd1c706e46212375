//! The board in a terminal: one letter per standard genome (`?` for any other), upper case for
//! White, `*` after a king, `.` for an empty square; rank 1 at the bottom.

use gmo_engine::{Color, Position};
use gmo_genome::standard;

/// The letter of a piece's genome, by its canonical DNA.
fn letter(dna: &str) -> char {
    let name = standard::STANDARD.iter().find(|(_, d)| *d == dna);
    match name.map(|(n, _)| *n) {
        Some("pawn") => 'p',
        Some("rook") => 'r',
        Some("knight") => 'n',
        Some("bishop") => 'b',
        Some("queen") => 'q',
        Some("king") => 'k',
        _ => '?',
    }
}

pub fn render(position: &Position) -> String {
    let size = position.size();
    let mut out = String::new();
    for y in (0..size.height()).rev() {
        out.push_str(&format!("{} ", y + 1));
        for x in 0..size.width() {
            let piece = size.square(x, y).and_then(|sq| position.piece_at(sq));
            let cell = match piece {
                None => ". ".to_string(),
                Some(p) => {
                    let dna = position.genome(p.genome).map_or("", |g| g.dna());
                    let mut c = letter(dna);
                    if p.color == Color::White {
                        c = c.to_ascii_uppercase();
                    }
                    format!("{c}{}", if p.king { '*' } else { ' ' })
                }
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out.push_str("  ");
    for x in 0..size.width() {
        out.push((b'a' + x) as char);
        out.push(' ');
    }
    out.push('\n');
    out
}
