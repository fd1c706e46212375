//! The genomes a position's pieces refer to, compiled for its board size.

use crate::compile::CompiledGenome;
use crate::piece::GenomeId;
use crate::square::BoardSize;
use gmo_genome::Genome;
use std::collections::HashMap;
use std::sync::Arc;

/// Interned, compiled genomes: equal DNA gets one id. Entries are shared, so cloning the table
/// clones pointers, not walk tables.
#[derive(Debug, Clone)]
pub struct GenomeTable {
    size: BoardSize,
    entries: Vec<Arc<CompiledGenome>>,
    by_dna: HashMap<String, GenomeId>,
}

/// The table holds as many genomes as a [`GenomeId`] can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableFull;

impl std::fmt::Display for TableFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("too many different genomes in one position")
    }
}

impl std::error::Error for TableFull {}

impl GenomeTable {
    pub fn new(size: BoardSize) -> GenomeTable {
        GenomeTable {
            size,
            entries: Vec::new(),
            by_dna: HashMap::new(),
        }
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The id of a genome, compiling it (or sharing the process's compilation of it) the first
    /// time it is seen.
    pub fn intern(&mut self, genome: &Genome) -> Result<GenomeId, TableFull> {
        let dna = genome.to_string();
        if let Some(&id) = self.by_dna.get(&dna) {
            return Ok(id);
        }
        let id = GenomeId(u16::try_from(self.entries.len()).map_err(|_| TableFull)?);
        self.entries.push(crate::compiled_cache::compiled(
            genome,
            dna.clone(),
            self.size,
        ));
        self.by_dna.insert(dna, id);
        Ok(id)
    }

    /// The id of a genome already in the table.
    pub fn find(&self, genome: &Genome) -> Option<GenomeId> {
        self.by_dna.get(&genome.to_string()).copied()
    }

    pub fn get(&self, id: GenomeId) -> Option<&CompiledGenome> {
        self.entries.get(id.index()).map(|e| &**e)
    }

    /// Ids are only made by this table and boards only hold ids of their position's table.
    #[inline]
    pub(crate) fn compiled(&self, id: GenomeId) -> &CompiledGenome {
        &self.entries[id.index()]
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The shared entries, in id order: a cache computed from them can tell they are the same.
    pub(crate) fn entries(&self) -> &[Arc<CompiledGenome>] {
        &self.entries
    }

    pub fn iter(&self) -> impl Iterator<Item = (GenomeId, &CompiledGenome)> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| (GenomeId(i as u16), &**e))
    }
}
