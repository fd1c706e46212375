//! The six standard genomes (rules §2.5), stored from the start and known by name.

use crate::ast::Genome;

pub const PAWN: &str = "AHHHACHASHHHHHHCHAHHASASAHHHSHHAAHHHCHAHHHHHACASSAS";
pub const ROOK: &str = "AHHHSHHAACHACHACHAHHASASAAAAAAAAA";
pub const KNIGHT: &str = "AHHHAAHACHHHCHACHAHHACACSASAACACA";
pub const BISHOP: &str = "AHHHCSHAAHHHCHACHAHHACASSASASSACS";
pub const KING: &str = "AHHHACHAAHHHCHACHAHHASASSASACSAAC";
pub const QUEEN: &str = "AHHHSHHAAHHHCHACHAHHACASSASASSACSAHHHSHHSCCHACHACHAHHASASAAAAAAAAA";

/// The standard genomes by name, in the rules' order.
pub const STANDARD: [(&str, &str); 6] = [
    ("pawn", PAWN),
    ("rook", ROOK),
    ("knight", KNIGHT),
    ("bishop", BISHOP),
    ("king", KING),
    ("queen", QUEEN),
];

/// The `default` preset, file a first: rook, knight, bishop, king, queen, bishop, knight, rook.
pub const DEFAULT_PRESET: [&str; 8] = [
    "rook", "knight", "bishop", "king", "queen", "bishop", "knight", "rook",
];

/// The DNA of a standard genome by its name.
pub fn dna_by_name(name: &str) -> Option<&'static str> {
    STANDARD
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, dna)| *dna)
}

/// The name of the standard genome whose canonical DNA is `dna`, if it is one: the six named
/// genomes are public knowledge (rules §5.6), so every viewer may see a piece by its name.
pub fn name_of(dna: &str) -> Option<&'static str> {
    STANDARD
        .iter()
        .find(|(_, standard)| *standard == dna)
        .map(|(name, _)| *name)
}

/// A standard genome by its name, parsed.
pub fn by_name(name: &str) -> Option<Genome> {
    dna_by_name(name).and_then(|dna| Genome::parse(dna).ok())
}
