//! Genomes named in requests: a stored reference (code or name) or raw DNA, checked against the
//! length limit before parsing.

use crate::app::AppState;
use crate::config::{MAX_DNA_LETTERS, MAX_DNA_TEXT};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
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

/// The stored genome a code or name refers to (404 when none).
pub async fn resolve_genome(state: &AppState, reference: &str) -> ApiResult<Genome> {
    let stored = state.store.genome(reference).await?;
    Genome::parse(&stored.dna).map_err(|error| {
        ApiError::internal(format!(
            "stored genome {} does not parse: {error}",
            stored.code
        ))
    })
}

/// The genomes of a stored preset, file a first.
pub async fn preset_genomes(state: &AppState, reference: &str) -> ApiResult<Vec<Genome>> {
    let preset = state.store.preset(reference).await?;
    let mut genomes = Vec::with_capacity(preset.genomes.len());
    for code in &preset.genomes {
        genomes.push(resolve_genome(state, code.as_str()).await?);
    }
    Ok(genomes)
}

/// A square named in a path.
pub fn square(name: &str) -> ApiResult<Square> {
    name.parse()
        .map_err(|error: BadSquare| ApiError::invalid(ServiceCode::BadSquare, error.to_string()))
}
