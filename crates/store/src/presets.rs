//! Presets: a back rank of stored genomes, coded over its canonical text (rules §2.5).

use crate::claim::{self, Coded, parse_code, parse_digest};
use crate::{Store, StoreError};
use gmo_genome::{Code, preset_text};

/// A stored preset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPreset {
    pub code: Code,
    /// SHA-256 of the preset's canonical text (the codes joined by `-`).
    pub digest: [u8; 32],
    /// The genome codes of the back rank, file a first.
    pub genomes: Vec<Code>,
    /// The names the preset answers to (`default`), sorted.
    pub names: Vec<String>,
}

const BY_REFERENCE: &str = "SELECT code, digest, text FROM presets \
     WHERE code = $1 OR code = (SELECT code FROM preset_names WHERE name = $1)";
const NAMES: &str = "SELECT name FROM preset_names WHERE code = $1 ORDER BY name";

impl Store {
    /// Stores the preset made of `genomes` (codes or names, file a first) for a board `width`
    /// files wide; `true` when it was not stored before. Every genome must be stored already.
    pub async fn put_preset<R: AsRef<str>>(
        &self,
        genomes: &[R],
        width: usize,
    ) -> Result<(StoredPreset, bool), StoreError> {
        if genomes.len() != width {
            return Err(StoreError::WrongPresetLength {
                expected: width,
                got: genomes.len(),
            });
        }
        let mut codes = Vec::with_capacity(width);
        for reference in genomes {
            let reference = reference.as_ref();
            let code = self.genome_code(reference).await?;
            codes.push(code.ok_or_else(|| StoreError::UnknownGenome(reference.to_owned()))?);
        }
        let (code, created) = claim::claim(self, Coded::Preset, &preset_text(&codes)).await?;
        Ok((self.preset(code.as_str()).await?, created))
    }

    /// A preset by code or name (`default`).
    pub async fn preset(&self, reference: &str) -> Result<StoredPreset, StoreError> {
        let key = reference.trim().to_ascii_lowercase();
        let row: Option<(String, Vec<u8>, String)> = reading!(self, pool => {
            sqlx::query_as(BY_REFERENCE).bind(&key).fetch_optional(pool).await
        })?;
        let (code, digest, text) = row.ok_or_else(|| StoreError::NotFound {
            what: "preset",
            key: reference.to_owned(),
        })?;
        let names: Vec<String> = reading!(self, pool => {
            sqlx::query_scalar(NAMES).bind(&code).fetch_all(pool).await
        })?;
        Ok(StoredPreset {
            code: parse_code(&code)?,
            digest: parse_digest(&digest)?,
            genomes: text.split('-').map(parse_code).collect::<Result<_, _>>()?,
            names,
        })
    }
}
