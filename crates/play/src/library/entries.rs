//! The piece library's entries (docs/library.md): an account publishes a stored genome or preset
//! under a name, edits and withdraws its own entries, stars others'; everyone searches them and
//! reads one with its value, its games and its lineage. A withdrawn or hidden entry leaves search
//! and pages; the design it named stays stored, its code working everywhere.

use super::{Library, features, words};
use crate::accounts::Caller;
use crate::error::{PlayCode, PlayError, PlayResult};
use crate::time::now;
use crate::values::{Values, estimate};
use gmo_genome::Genome;
use gmo_store::{
    DAY_MS, EntryEdit, EntrySearch, EntrySort, LibraryEntry, NewEntry, Published, Store, ValueJob,
    is_unique_violation,
};
use gmo_types::{EntryId, EvaluationState, Scope, Username};
use std::time::Duration;

/// A name's length, in characters.
pub const MIN_NAME: usize = 3;
pub const MAX_NAME: usize = 40;
/// A description's longest length, in characters.
pub const MAX_DESCRIPTION: usize = 500;
/// How many entries one account may publish in a day.
pub const PER_DAY: u32 = 20;
/// Entries a search page holds.
pub const PAGE: u32 = 50;
/// The last page a search reaches (10,000 entries deep).
pub const MAX_PAGE: u32 = 200;
/// The most published children an entry lists.
pub const MAX_CHILDREN: u32 = 50;
/// How many unevaluated entries one look asks evaluations for.
const VALUE_ASKS: u32 = 4;

/// What an entry publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Genome,
    Preset,
}

impl EntryKind {
    pub const fn name(self) -> &'static str {
        match self {
            EntryKind::Genome => "genome",
            EntryKind::Preset => "preset",
        }
    }
}

/// A publication.
#[derive(Debug, Clone)]
pub struct Publish {
    pub kind: EntryKind,
    /// A code or a name of a stored genome or preset.
    pub code: String,
    pub name: String,
    pub description: Option<String>,
}

/// An edit: the fields given change.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    pub name: Option<String>,
    pub description: Option<String>,
}

/// A search, as the caller asked it (checked at the edge).
#[derive(Debug, Clone)]
pub struct Search {
    pub kind: Option<EntryKind>,
    pub query: String,
    pub sort: EntrySort,
    pub value_min: Option<f64>,
    pub value_max: Option<f64>,
    pub author: Option<Username>,
    /// Feature bits that must all hold ([`features`]).
    pub does: i64,
    /// From 1.
    pub page: u32,
}

/// Where an entry's genome came from, and what came of it.
#[derive(Debug, Clone, Default)]
pub struct Lineage {
    /// The two parents it was bred from, each with its published entries (none: not bred here).
    pub parents: Vec<(String, Vec<LibraryEntry>)>,
    /// Published entries of genomes bred from it.
    pub children: Vec<LibraryEntry>,
}

/// One entry with everything its page shows.
#[derive(Debug, Clone)]
pub struct EntryPage {
    pub entry: LibraryEntry,
    /// Its genome's strength evaluation, if one was asked for.
    pub evaluation: Option<ValueJob>,
    pub lineage: Lineage,
    /// Whether the caller starred it (false when not signed in).
    pub starred: bool,
}

/// The library's entries. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Entries {
    store: Store,
    library: Library,
    values: Values,
}

impl Entries {
    pub fn new(store: Store, library: Library, values: Values) -> Entries {
        Entries {
            store,
            library,
            values,
        }
    }

    /// Publishes a design as `caller` → the entry.
    pub async fn publish(&self, caller: &Caller, publish: &Publish) -> PlayResult<LibraryEntry> {
        may_publish(caller)?;
        let name = checked_name(&publish.name)?;
        let description = checked_description(publish.description.as_deref().unwrap_or(""))?;
        let (code, features, value) = match publish.kind {
            EntryKind::Genome => {
                let stored = self.library.genome(&publish.code).await?;
                let genome = parsed(&stored.dna, stored.code.as_str())?;
                let code = stored.code.to_string();
                let value = self.value_of(&code).await?;
                (code, features::of(&genome), value)
            }
            EntryKind::Preset => {
                let preset = self.library.preset(&publish.code).await?;
                let genomes = self.library.genomes_of(&preset).await?;
                let features = genomes.iter().map(features::of).fold(0, |a, b| a | b);
                (preset.code.to_string(), features, None)
            }
        };
        let words = words::words(&[&name, &description]);
        let new = NewEntry {
            kind: publish.kind.name(),
            code: &code,
            name: &name,
            description: &description,
            author: &caller.account,
            features,
            value,
            words: &words,
            now: now(),
            per_day: PER_DAY,
        };
        let id = match self.store.publish_entry(&new).await {
            Ok(Published::Done(id)) => id,
            Ok(Published::NameTaken) => return Err(name_taken(&name)),
            Err(error) if is_unique_violation(&error) => return Err(name_taken(&name)),
            Ok(Published::DayLimit { oldest }) => {
                let free = oldest.ms() + DAY_MS - now().ms();
                return Err(PlayError::Throttled {
                    message: format!(
                        "an account publishes at most {PER_DAY} entries a day; the next may be \
                         published when the oldest of today's is a day old"
                    ),
                    retry_after: u64::try_from(free.max(1_000) / 1_000).unwrap_or(1),
                });
            }
            Err(error) => return Err(error.into()),
        };
        if publish.kind == EntryKind::Genome && value.is_none() {
            self.evaluate(&code).await;
        }
        tracing::info!(entry = %id, username = %caller.username, "library entry published");
        self.entry(&id).await
    }

    /// Entry `id` as shown (404 once withdrawn or hidden).
    pub async fn entry(&self, id: &EntryId) -> PlayResult<LibraryEntry> {
        match self.store.library_entry(id).await? {
            Some(entry) if !entry.withdrawn && !entry.hidden => Ok(entry),
            _ => Err(PlayError::not_found("library entry", id)),
        }
    }

    /// Entry `id` with its evaluation, lineage, and whether `caller` starred it.
    pub async fn page(&self, id: &EntryId, caller: Option<&Caller>) -> PlayResult<EntryPage> {
        let entry = self.entry(id).await?;
        let (evaluation, lineage) = if entry.kind == EntryKind::Genome.name() {
            let parents = match self.store.genome_parents(&entry.code).await? {
                Some((a, b)) => {
                    let mut parents = Vec::new();
                    for code in [a, b] {
                        let entries = self
                            .store
                            .genome_entries(std::slice::from_ref(&code))
                            .await?;
                        parents.push((code, entries));
                    }
                    parents
                }
                None => Vec::new(),
            };
            let children = self.store.child_entries(&entry.code, MAX_CHILDREN).await?;
            let evaluation = self.values.job(&entry.code).await?;
            (evaluation, Lineage { parents, children })
        } else {
            (None, Lineage::default())
        };
        let starred = match caller {
            Some(caller) => self.store.starred(id, &caller.account).await?,
            None => false,
        };
        Ok(EntryPage {
            entry,
            evaluation,
            lineage,
            starred,
        })
    }

    /// Changes the name or description of the caller's own entry `id`.
    pub async fn edit(&self, caller: &Caller, id: &EntryId, edit: &Edit) -> PlayResult<()> {
        let entry = self.own(caller, id).await?;
        if edit.name.is_none() && edit.description.is_none() {
            return Err(PlayError::invalid(
                PlayCode::BadEntry,
                "an edit changes `name`, `description` or both; neither was given",
            ));
        }
        let name = edit.name.as_deref().map(checked_name).transpose()?;
        let description = edit
            .description
            .as_deref()
            .map(checked_description)
            .transpose()?;
        let words = words::words(&[
            name.as_deref().unwrap_or(&entry.name),
            description.as_deref().unwrap_or(&entry.description),
        ]);
        let change = EntryEdit {
            name: name.as_deref(),
            description: description.as_deref(),
            words: &words,
        };
        match self.store.edit_entry(&entry, &change).await {
            Ok(true) => Ok(()),
            Ok(false) => Err(name_taken(name.as_deref().unwrap_or_default())),
            Err(error) if is_unique_violation(&error) => {
                Err(name_taken(name.as_deref().unwrap_or_default()))
            }
            Err(error) => Err(error.into()),
        }
    }

    /// Withdraws the caller's own entry `id`: out of search and pages (its design stays).
    pub async fn withdraw(&self, caller: &Caller, id: &EntryId) -> PlayResult<()> {
        self.own(caller, id).await?;
        self.store.withdraw_entry(id).await?;
        Ok(())
    }

    /// An operator hides entry `id` from search and pages (`false`: no such entry).
    pub async fn hide(&self, id: &EntryId) -> PlayResult<bool> {
        Ok(self.store.hide_entry(id).await?)
    }

    /// Stars (`true`) or unstars entry `id` as `caller`; starring twice counts once.
    pub async fn star(&self, caller: &Caller, id: &EntryId, star: bool) -> PlayResult<()> {
        may_publish(caller)?;
        self.entry(id).await?;
        Ok(self
            .store
            .star_entry(id, &caller.account, star, now())
            .await?)
    }

    /// One page of entries, and whether a next page has any.
    pub async fn search(&self, search: &Search) -> PlayResult<(Vec<LibraryEntry>, bool)> {
        let mut query = words::words(&[&search.query]);
        query.truncate(words::MAX_QUERY_WORDS);
        let found = EntrySearch {
            kind: search.kind.map(|kind| kind.name().to_owned()),
            words: query,
            author: search.author.as_ref().map(Username::key),
            value_min: search.value_min,
            value_max: search.value_max,
            features: search.does,
            sort: search.sort,
            offset: (search.page.clamp(1, MAX_PAGE) - 1) * PAGE,
            // One more than a page tells whether there is a next.
            limit: PAGE + 1,
        };
        let mut entries = self.store.search_entries(&found).await?;
        let more = entries.len() > PAGE as usize;
        entries.truncate(PAGE as usize);
        Ok((entries, more))
    }

    /// Asks for evaluations of published genomes that never had one, every `every` (at least
    /// ten seconds), until the server stops: the queue's bound holds, so a full queue only
    /// waits for the next look.
    pub async fn value_forever(self, every: Duration) {
        let mut ticks = tokio::time::interval(every.max(Duration::from_secs(10)));
        loop {
            ticks.tick().await;
            match self.store.unvalued_entries(VALUE_ASKS).await {
                Ok(codes) => {
                    for code in codes {
                        if !self.evaluate(&code).await {
                            break;
                        }
                    }
                }
                Err(error) => tracing::warn!(%error, "could not look for entries to evaluate"),
            }
        }
    }

    /// Starts the evaluation of genome `code` → whether the queue took it.
    async fn evaluate(&self, code: &str) -> bool {
        match self.values.ask(code).await {
            Ok(_) => true,
            Err(PlayError::Full(_)) => false,
            Err(error) => {
                tracing::warn!(genome = code, %error, "could not ask for an evaluation");
                false
            }
        }
    }

    /// The value of genome `code` when its evaluation is done.
    async fn value_of(&self, code: &str) -> PlayResult<Option<f64>> {
        let job = self.values.job(code).await?;
        Ok(job.as_ref().and_then(done_value))
    }

    /// Entry `id`, which must be the caller's.
    async fn own(&self, caller: &Caller, id: &EntryId) -> PlayResult<LibraryEntry> {
        may_publish(caller)?;
        let entry = match self.store.library_entry(id).await? {
            Some(entry) if !entry.withdrawn => entry,
            _ => return Err(PlayError::not_found("library entry", id)),
        };
        if entry.author != caller.account.as_str() {
            return Err(PlayError::WrongToken {
                what: "this library entry: only its author may change it",
            });
        }
        Ok(entry)
    }
}

/// The value in pawns of a done evaluation.
pub fn done_value(job: &ValueJob) -> Option<f64> {
    (job.state == EvaluationState::Done)
        .then(|| estimate(job))
        .flatten()
        .map(|estimate| (estimate.pawns * 100.0).round() / 100.0)
}

/// A session, or a personal token with the `play` scope.
fn may_publish(caller: &Caller) -> PlayResult<()> {
    if caller.may(Scope::Play) {
        Ok(())
    } else {
        Err(PlayError::WrongToken {
            what: "the library: the personal token lacks the `play` scope",
        })
    }
}

fn parsed(dna: &str, code: &str) -> PlayResult<Genome> {
    Genome::parse(dna).map_err(|error| {
        PlayError::internal(format!("stored genome {code} does not parse: {error}"))
    })
}

fn name_taken(name: &str) -> PlayError {
    PlayError::refused(
        PlayCode::EntryNameTaken,
        format!(
            "you have an entry named {name:?} already (names are compared without regard to \
             case); choose another or withdraw it"
        ),
    )
}

/// A name: trimmed, 3 to 40 characters, no control characters.
pub fn checked_name(raw: &str) -> PlayResult<String> {
    let name = raw.trim();
    let length = name.chars().count();
    if (MIN_NAME..=MAX_NAME).contains(&length) && !name.chars().any(char::is_control) {
        return Ok(name.to_owned());
    }
    Err(PlayError::invalid(
        PlayCode::BadEntry,
        format!(
            "`name`: {MIN_NAME} to {MAX_NAME} characters without control characters; got \
             {length} characters{}",
            if name.chars().any(char::is_control) {
                " with a control character"
            } else {
                ""
            }
        ),
    ))
}

/// A description: trimmed, at most 500 characters, no control characters.
pub fn checked_description(raw: &str) -> PlayResult<String> {
    let description = raw.trim();
    let length = description.chars().count();
    if length <= MAX_DESCRIPTION && !description.chars().any(char::is_control) {
        return Ok(description.to_owned());
    }
    Err(PlayError::invalid(
        PlayCode::BadEntry,
        format!(
            "`description`: plain text of at most {MAX_DESCRIPTION} characters without control \
             characters (no line breaks); got {length} characters"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_descriptions_are_checked_naming_the_field() {
        assert_eq!(checked_name("  Twin Rook ").expect("fine"), "Twin Rook");
        for bad in ["ab", "  ab  ", &"x".repeat(41), "tab\there"] {
            let error = checked_name(bad).expect_err(bad).to_string();
            assert!(error.starts_with("`name`"), "{bad}: {error}");
        }
        assert_eq!(
            checked_name(&"é".repeat(40)).expect("40 characters").len(),
            80
        );
        assert!(checked_description("").is_ok());
        for bad in [&"x".repeat(501), "line\nbreak"] {
            let error = checked_description(bad).expect_err("refused").to_string();
            assert!(error.starts_with("`description`"), "{error}");
        }
    }
}
