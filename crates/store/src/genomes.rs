//! Genomes: DNA stored under its code (rules §2.5), found again by code or by name.

use crate::claim::{self, Coded, parse_code, parse_digest};
use crate::{Store, StoreError};
use gmo_genome::{Code, Genome, sha256};

/// A stored genome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGenome {
    pub code: Code,
    /// SHA-256 of `dna`: the identity the code is cut from.
    pub digest: [u8; 32],
    /// Canonical DNA.
    pub dna: String,
    /// The names the genome answers to (standard pieces only), sorted.
    pub names: Vec<String>,
}

const BY_REFERENCE: &str = "SELECT code, digest, dna FROM genomes \
     WHERE code = $1 OR code = (SELECT code FROM genome_names WHERE name = $1)";
const NAMES: &str = "SELECT name FROM genome_names WHERE code = $1 ORDER BY name";

impl Store {
    /// Stores a genome under its code; `true` when it was not stored before. The same DNA always
    /// gets the same code back, and a code taken by another DNA is never shared.
    pub async fn put_genome(&self, genome: &Genome) -> Result<(Code, bool), StoreError> {
        claim::claim(self, Coded::Genome, &genome.to_string()).await
    }

    /// A genome by code or name (either case).
    pub async fn genome(&self, reference: &str) -> Result<StoredGenome, StoreError> {
        let key = reference.trim().to_ascii_lowercase();
        let row: Option<(String, Vec<u8>, String)> = reading!(self, pool => {
            sqlx::query_as(BY_REFERENCE).bind(&key).fetch_optional(pool).await
        })?;
        let (code, digest, dna) = row.ok_or_else(|| StoreError::NotFound {
            what: "genome",
            key: reference.to_owned(),
        })?;
        let names: Vec<String> = reading!(self, pool => {
            sqlx::query_scalar(NAMES).bind(&code).fetch_all(pool).await
        })?;
        Ok(StoredGenome {
            code: parse_code(&code)?,
            digest: parse_digest(&digest)?,
            dna,
            names,
        })
    }

    /// The code a reference stands for, if it is stored.
    pub(crate) async fn genome_code(&self, reference: &str) -> Result<Option<Code>, StoreError> {
        match self.genome(reference).await {
            Ok(stored) => Ok(Some(stored.code)),
            Err(StoreError::NotFound { .. }) => Ok(None),
            Err(other) => Err(other),
        }
    }

    /// Makes every later insert of a genome fail (a trigger), so that tests can see what a
    /// change does when storing its new genome fails. Tests only.
    #[cfg(feature = "testing")]
    pub async fn refuse_new_genomes(&self) -> Result<(), StoreError> {
        let statements: &[&str] = match &self.backend {
            crate::backend::Backend::Postgres(_) => &[
                "CREATE FUNCTION gmo_refuse_genomes() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'genome inserts are refused for a test'; END $$",
                "CREATE TRIGGER gmo_refuse_genomes BEFORE INSERT ON genomes \
                 FOR EACH ROW EXECUTE FUNCTION gmo_refuse_genomes()",
            ],
            crate::backend::Backend::Sqlite { .. } => &[
                "CREATE TRIGGER gmo_refuse_genomes BEFORE INSERT ON genomes \
                 BEGIN SELECT RAISE(ABORT, 'genome inserts are refused for a test'); END",
            ],
        };
        for sql in statements {
            writing!(self, pool => sqlx::query(sql).execute(pool).await.map(drop))?;
        }
        Ok(())
    }

    /// Stores a row claiming `code` for `dna` whatever their hash says, so that tests can force
    /// the collision of rules §2.5. Never call it outside tests: it breaks the code invariant.
    #[doc(hidden)]
    pub async fn force_genome_row(&self, code: Code, dna: &str) -> Result<bool, StoreError> {
        claim::insert(self, Coded::Genome, code, &sha256(dna), dna, 0).await
    }
}
