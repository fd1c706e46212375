//! The GMO chess genome language (rules §2): DNA is parsed into a typed [`Genome`], printed back in
//! canonical form, hashed into a 6-character [`Code`], explained in English or Slovak, mutated and
//! bred. No I/O.

mod ast;
pub mod breeding;
#[cfg(any(test, feature = "proptest"))]
pub mod chi_squared;
mod code;
mod display;
mod error;
mod explain;
mod language;
mod mutate;
mod parser;
pub mod standard;
#[cfg(any(test, feature = "proptest"))]
pub mod strategy;

pub use ast::{Block, Content, Debuff, DebuffSet, Genome, Outcome, Owner, Step, StepKind};
pub use breeding::{Breeding, breed};
pub use code::{BadCode, Code, preset_code, preset_text, sha256};
pub use display::Spaced;
pub use error::{ErrorKind, GenomeError};
pub use language::{Language, UnknownLanguage};
pub use mutate::{TRIES as MUTATION_TRIES, mutate};
pub use parser::canonicalize;

impl Genome {
    /// Parses DNA: white space is ignored and lower case accepted (rules §2.1).
    pub fn parse(dna: &str) -> Result<Genome, GenomeError> {
        parser::parse(dna)
    }

    /// The genome's code: over its canonical DNA.
    pub fn code(&self) -> Code {
        Code::of(&self.to_string())
    }
}

impl std::str::FromStr for Genome {
    type Err = GenomeError;

    fn from_str(dna: &str) -> Result<Genome, GenomeError> {
        Genome::parse(dna)
    }
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
