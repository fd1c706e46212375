//! The genomes one side brings to a bot game: a back rank, file a first, and the file of its king
//! (pawns are the standard ones, as with every preset).
//!
//! A lineup is named by a *reference*: a preset name (`default`, `five`) or a preset's code, or a
//! comma list of genome references, each a standard name (`rook`), a standard genome's code
//! (`3gbkd6`) or DNA. In a list the king is the entry marked with a trailing `*`
//! (`rook,knight,bishop,queen*,...`), else the first standard king.

use crate::preset::{PRESETS, Preset};
use gmo_engine::{Color, Game, GameError, Timestamp};
use gmo_genome::{Code, Genome, preset_code, standard};
use std::fmt;

/// A back rank and the file of its king.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    /// What the lineup is called in reports: the preset's name or the reference it came from.
    pub name: String,
    /// File a first.
    pub genomes: Vec<Genome>,
    pub king_file: u8,
}

/// Why a lineup reference was not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLineup(pub String);

impl fmt::Display for BadLineup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadLineup {}

impl From<Preset> for Lineup {
    fn from(preset: Preset) -> Lineup {
        Lineup {
            name: preset.name.to_owned(),
            genomes: preset.genomes(),
            king_file: preset.king_file,
        }
    }
}

impl Lineup {
    pub fn width(&self) -> usize {
        self.genomes.len()
    }

    /// The code of this lineup as a preset (rules §2.5).
    pub fn code(&self) -> Code {
        let codes: Vec<Code> = self.genomes.iter().map(Genome::code).collect();
        preset_code(&codes)
    }

    /// A lineup from a reference: a preset name or code, or a comma list of genome references.
    pub fn parse(text: &str) -> Result<Lineup, BadLineup> {
        let text = text.trim();
        if let Some(preset) = PRESETS
            .into_iter()
            .find(|p| p.name == text || Lineup::from(*p).code().as_str() == text)
        {
            return Ok(preset.into());
        }
        if !text.contains(',') {
            return Err(BadLineup(format!(
                "`{text}` is neither a preset ({}) nor a preset's code nor a comma list of genomes",
                PRESETS.map(|p| p.name).join(", ")
            )));
        }
        Lineup::from_entries(text, text.split(','))
    }

    /// A lineup from one genome reference per file, file a first; `name` is how it is reported.
    /// An entry ending in `*` is the king; without one, the first standard king is.
    pub fn from_entries<'a>(
        name: &str,
        entries: impl IntoIterator<Item = &'a str>,
    ) -> Result<Lineup, BadLineup> {
        let mut genomes = Vec::new();
        let mut marked = Vec::new();
        for (file, entry) in entries.into_iter().enumerate() {
            let entry = entry.trim();
            let (reference, king) = match entry.strip_suffix('*') {
                Some(rest) => (rest.trim(), true),
                None => (entry, false),
            };
            let genome = genome_ref(reference)
                .map_err(|why| BadLineup(format!("file {}: {why}", file + 1)))?;
            if king {
                marked.push(file);
            }
            genomes.push(genome);
        }
        if !(4..=8).contains(&genomes.len()) {
            return Err(BadLineup(format!(
                "a lineup has 4 to 8 genomes (one per file), not {}",
                genomes.len()
            )));
        }
        let king = standard::by_name("king");
        let king_file = match marked.as_slice() {
            [file] => *file,
            [] => genomes
                .iter()
                .position(|g| Some(g) == king.as_ref())
                .ok_or_else(|| {
                    BadLineup(
                        "no king: mark one entry with a trailing * or include the standard king"
                            .to_owned(),
                    )
                })?,
            _ => {
                return Err(BadLineup(
                    "more than one entry is marked * (king)".to_owned(),
                ));
            }
        };
        Ok(Lineup {
            name: name.to_owned(),
            genomes,
            king_file: king_file as u8,
        })
    }

    /// This lineup with every standard `piece` replaced by `candidate`; `None` if it has none or
    /// `piece` is its king's genome.
    pub fn replacing(&self, piece: &Genome, candidate: &Genome) -> Option<Lineup> {
        if self.genomes.get(usize::from(self.king_file)) == Some(piece) {
            return None;
        }
        let mut replaced = self.clone();
        let mut any = false;
        for genome in &mut replaced.genomes {
            if genome == piece {
                *genome = candidate.clone();
                any = true;
            }
        }
        any.then_some(replaced)
    }

    /// Sets up `color`'s side of a game in setup: loads the lineup, marks the king, declares
    /// ready (the game starts at `now` once both sides are).
    pub fn seat(&self, game: &mut Game, color: Color, now: Timestamp) -> Result<(), GameError> {
        game.load_preset(color, &self.genomes)?;
        let size = game.position().size();
        let square =
            size.square(self.king_file, size.back_rank(color))
                .ok_or(GameError::PresetLength {
                    expected: size.width(),
                    got: self.width(),
                })?;
        game.toggle_king(color, square)?;
        game.ready(color, now)
    }
}

/// A genome by reference: a standard name, a standard genome's code, or DNA (white space and
/// lower case allowed; the empty DNA is the genome with no moves).
pub fn genome_ref(text: &str) -> Result<Genome, String> {
    let text = text.trim();
    if let Some(genome) = standard::by_name(text) {
        return Ok(genome);
    }
    let by_code = standard::STANDARD
        .iter()
        .filter_map(|(_, dna)| Genome::parse(dna).ok())
        .find(|g| g.code().as_str() == text);
    if let Some(genome) = by_code {
        return Ok(genome);
    }
    Genome::parse(text).map_err(|err| {
        format!(
            "`{text}` is not a standard genome's name or code, nor valid DNA ({err}); only \
             the standard genomes are known by code here: give other genomes as DNA"
        )
    })
}
