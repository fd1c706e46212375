//! Labs (rules §5.1): sandbox boards behind their own token. A change is load → check the token
//! (before the board is decoded) → the engine's lab call → save at the loaded version (a
//! concurrent save makes it a lost race).

use crate::error::{PlayCode, PlayError, PlayResult};
use crate::library::Library;
use gmo_engine::{BoardSize, Color, Lab, LabError, MoveView, Square};
use gmo_genome::Genome;
use gmo_store::{Store, StoredPreset};
use gmo_types::LabId;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The most DNA a lab keeps, in letters: each distinct genome on its board counted once (a full
/// 8×8 board of distinct standard-sized genomes needs a few thousand).
pub const MAX_LAB_DNA_LETTERS: usize = 32_768;

/// A lab just made, with its token (shown once).
#[derive(Debug)]
pub struct NewLab {
    pub id: LabId,
    pub token: String,
    pub lab: Lab,
}

/// How the lab's engine searches (`lab_lines`) are run.
#[derive(Debug, Clone, Copy)]
pub struct LabSearches {
    /// The most this process runs at once (each takes one core while it runs).
    pub running: u32,
    /// Search nodes per line.
    pub nodes: u64,
}

/// The labs of the service. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Labs {
    store: Store,
    pub(crate) library: Library,
    pub(crate) searches: LabSearches,
    /// Places for searches running in this process.
    pub(crate) slots: Arc<Semaphore>,
}

type StoredLab = gmo_store::Lab<Lab>;

impl Labs {
    pub fn new(store: Store, library: Library, searches: LabSearches) -> Labs {
        Labs {
            store,
            library,
            searches,
            slots: Arc::new(Semaphore::new(searches.running as usize)),
        }
    }

    /// Makes an empty lab of `size`.
    pub async fn create(&self, size: BoardSize) -> PlayResult<NewLab> {
        self.create_holding(Lab::new(size, rand::random())).await
    }

    /// Stores `lab` as a new lab.
    pub(crate) async fn create_holding(&self, lab: Lab) -> PlayResult<NewLab> {
        let size = lab.position().size();
        let token = gmo_store::new_token();
        let hash = gmo_store::token_hash(&token);
        let id = self
            .store
            .create_lab(&hash, size.width().into(), size.height().into(), &lab)
            .await?;
        let id = LabId::parse(&id).map_err(PlayError::internal)?;
        Ok(NewLab { id, token, lab })
    }

    /// The lab `token` opens: the token is checked before the board is decoded.
    pub async fn open(&self, id: &LabId, token: &str) -> PlayResult<Lab> {
        Ok(self.open_stored(id, token).await?.board)
    }

    async fn open_stored(&self, id: &LabId, token: &str) -> PlayResult<StoredLab> {
        let stored = self.store.load_lab_encoded(id).await?;
        if !stored.opens(token) {
            return Err(match self.store.knows_token(token).await? {
                true => PlayError::WrongToken { what: "this lab" },
                false => PlayError::UnknownToken,
            });
        }
        Ok(stored.decode()?)
    }

    /// Applies `op` to the lab and saves it → the lab and what `op` answered.
    pub async fn change<T>(
        &self,
        id: &LabId,
        token: &str,
        op: impl FnOnce(&mut Lab) -> Result<T, LabError>,
    ) -> PlayResult<(Lab, T)> {
        self.change_storing(id, token, |lab| op(lab).map(|out| (out, None)))
            .await
    }

    /// [`Labs::change`] for an op that may bring a new genome onto the board (a mutant): the
    /// genome is stored before the lab, so that its code resolves as soon as the lab shows it. A
    /// lab that would keep more than [`MAX_LAB_DNA_LETTERS`] is refused and stays as it was.
    pub async fn change_storing<T>(
        &self,
        id: &LabId,
        token: &str,
        op: impl FnOnce(&mut Lab) -> Result<(T, Option<Genome>), LabError>,
    ) -> PlayResult<(Lab, T)> {
        let stored = self.open_stored(id, token).await?;
        let mut lab = stored.board;
        let (out, new_genome) = op(&mut lab)?;
        within_dna_limit(&lab)?;
        if let Some(genome) = &new_genome {
            self.library.put_genome(genome).await?;
        }
        self.store.save_lab(id, stored.version, &lab).await?;
        Ok((lab, out))
    }

    /// The legal moves of the piece on `at`.
    pub async fn moves(&self, id: &LabId, token: &str, at: Square) -> PlayResult<Vec<MoveView>> {
        let lab = self.open(id, token).await?;
        if !lab.position().size().contains(at) {
            return Err(LabError::NotOnBoard(at).into());
        }
        Ok(lab.move_views(at))
    }

    /// Fills `color`'s back rank from the stored preset `reference`, and its pawn rank with
    /// pawns. The token is checked before the preset, so a stranger learns nothing about presets
    /// here.
    pub async fn load_preset(
        &self,
        id: &LabId,
        token: &str,
        color: Color,
        reference: &str,
    ) -> PlayResult<Lab> {
        self.open_stored(id, token).await?;
        let genomes = self.library.preset_genomes(reference).await?;
        let (lab, ()) = self
            .change(id, token, |lab| lab.load_preset(color, &genomes))
            .await?;
        Ok(lab)
    }

    /// Stores `color`'s full back rank as a preset.
    pub async fn save_preset(
        &self,
        id: &LabId,
        token: &str,
        color: Color,
    ) -> PlayResult<StoredPreset> {
        let lab = self.open(id, token).await?;
        let genomes = lab.save_preset(color)?;
        let mut codes = Vec::with_capacity(genomes.len());
        for genome in &genomes {
            codes.push(self.library.put_genome(genome).await?.0.to_string());
        }
        let (preset, _) = self.library.put_preset(&codes, codes.len()).await?;
        Ok(preset)
    }
}

/// Refuses a lab that would keep more than [`MAX_LAB_DNA_LETTERS`].
pub(crate) fn within_dna_limit(lab: &Lab) -> PlayResult<()> {
    let letters = lab.dna_letters();
    if letters > MAX_LAB_DNA_LETTERS {
        return Err(PlayError::refused(
            PlayCode::LabFull,
            format!(
                "a lab keeps at most {MAX_LAB_DNA_LETTERS} letters of DNA (each distinct \
                 genome on its board once); this would make it {letters}: erase pieces or use \
                 shorter DNA"
            ),
        ));
    }
    Ok(())
}
