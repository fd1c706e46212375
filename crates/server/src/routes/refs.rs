//! Genomes named in requests: a stored reference (code or name) or raw DNA, checked against the
//! length limit before parsing; squares named in paths.

use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::settings::{MAX_DNA_LETTERS, MAX_DNA_TEXT};
use gmo_engine::{BadSquare, Square};
use gmo_genome::Genome;

/// Parses submitted DNA, refusing more than [`MAX_DNA_TEXT`] characters or [`MAX_DNA_LETTERS`]
/// letters first.
pub fn genome_of_dna(dna: &str) -> ApiResult<Genome> {
    let characters = dna.chars().count();
    if characters > MAX_DNA_TEXT {
        return Err(ApiError::invalid(
            ServiceCode::DnaTooLong,
            format!("DNA may have at most {MAX_DNA_TEXT} characters; this one has {characters}"),
        ));
    }
    let letters = dna.chars().filter(|c| !c.is_whitespace()).count();
    if letters > MAX_DNA_LETTERS {
        return Err(ApiError::invalid(
            ServiceCode::DnaTooLong,
            format!("DNA may have at most {MAX_DNA_LETTERS} letters; this one has {letters}"),
        ));
    }
    Ok(Genome::parse(dna)?)
}

/// A square named in a path.
pub fn square(name: &str) -> ApiResult<Square> {
    name.parse()
        .map_err(|error: BadSquare| ApiError::invalid(ServiceCode::BadSquare, error.to_string()))
}
