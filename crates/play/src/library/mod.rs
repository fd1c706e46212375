//! The library of designs: genomes and presets stored under their codes (rules §2.5), named by a
//! code or a name wherever a request names one; and the piece library, where accounts publish
//! them (`entries`, docs/library.md).

mod ends;
pub mod entries;
pub mod features;
mod words;

pub(crate) use ends::count_end;

use crate::error::{PlayError, PlayResult};
use gmo_genome::{Code, Genome};
use gmo_store::{Store, StoredGenome, StoredPreset};

/// Genomes and presets. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Library {
    store: Store,
}

impl Library {
    pub fn new(store: Store) -> Library {
        Library { store }
    }

    /// Stores `genome` → its code, and whether this call stored it (false: it was already).
    pub async fn put_genome(&self, genome: &Genome) -> PlayResult<(Code, bool)> {
        Ok(self.store.put_genome(genome).await?)
    }

    /// Stores a child bred from the stored genomes `a` and `b` (codes) → its code, and whether
    /// this call stored it; the first breeding that made it is kept as its parents (lineage).
    pub async fn put_child(&self, child: &Genome, a: &str, b: &str) -> PlayResult<(Code, bool)> {
        let (code, created) = self.store.put_genome(child).await?;
        if code.as_str() != a && code.as_str() != b {
            self.store.record_parents(code.as_str(), a, b).await?;
        }
        Ok((code, created))
    }

    /// The stored genome a code or name refers to.
    pub async fn genome(&self, reference: &str) -> PlayResult<StoredGenome> {
        Ok(self.store.genome(reference).await?)
    }

    /// The stored genome a code or name refers to, parsed.
    pub async fn resolve(&self, reference: &str) -> PlayResult<Genome> {
        let stored = self.genome(reference).await?;
        Genome::parse(&stored.dna).map_err(|error| {
            PlayError::internal(format!(
                "stored genome {} does not parse: {error}",
                stored.code
            ))
        })
    }

    /// Stores a preset of genome codes (one per file of a board `width` wide) → the preset, and
    /// whether this call stored it.
    pub async fn put_preset<R: AsRef<str>>(
        &self,
        codes: &[R],
        width: usize,
    ) -> PlayResult<(StoredPreset, bool)> {
        Ok(self.store.put_preset(codes, width).await?)
    }

    /// The stored preset a code or name refers to.
    pub async fn preset(&self, reference: &str) -> PlayResult<StoredPreset> {
        Ok(self.store.preset(reference).await?)
    }

    /// The genomes of a stored preset, file a first.
    pub async fn preset_genomes(&self, reference: &str) -> PlayResult<Vec<Genome>> {
        self.genomes_of(&self.preset(reference).await?).await
    }

    /// The genomes of `preset`, file a first.
    pub async fn genomes_of(&self, preset: &StoredPreset) -> PlayResult<Vec<Genome>> {
        let mut genomes = Vec::with_capacity(preset.genomes.len());
        for code in &preset.genomes {
            genomes.push(self.resolve(code.as_str()).await?);
        }
        Ok(genomes)
    }
}
