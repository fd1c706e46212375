//! The piece library (migration 0018; docs/library.md): entries published by accounts, their
//! words for text search, stars, and the counts of games played with them. An entry only names
//! a stored genome or preset by code: withdrawing or hiding it never touches the design.

use crate::{Store, StoreError};
use gmo_types::{AccountId, EntryId, Timestamp};

/// One day, in milliseconds: publications are counted over the last one.
pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// An entry as stored, with its author's username.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct LibraryEntry {
    pub id: String,
    /// `genome` or `preset`.
    pub kind: String,
    pub code: String,
    pub name: String,
    pub description: String,
    pub author: String,
    pub author_name: String,
    pub created_ms: i64,
    pub withdrawn: bool,
    pub hidden: bool,
    /// Bits of what the piece does (the service's `Features`).
    pub features: i64,
    /// The strength estimate in pawns, once evaluated.
    pub value: Option<f64>,
    pub games: i64,
    pub wins: i64,
    pub stars: i64,
}

/// An entry to publish.
#[derive(Debug, Clone)]
pub struct NewEntry<'a> {
    pub kind: &'a str,
    pub code: &'a str,
    pub name: &'a str,
    pub description: &'a str,
    pub author: &'a AccountId,
    pub features: i64,
    pub value: Option<f64>,
    /// The words of the name and description, lower case, for search.
    pub words: &'a [String],
    pub now: Timestamp,
    /// How many entries an author may publish in a day.
    pub per_day: u32,
}

/// What publishing did.
#[derive(Debug, Clone, PartialEq)]
pub enum Published {
    Done(EntryId),
    /// The author has a live entry with this name (without regard to case).
    NameTaken,
    /// The author published `per_day` entries in the last day; the oldest of them at `oldest`.
    DayLimit {
        oldest: Timestamp,
    },
}

/// A change of an entry's name or description (none: unchanged).
#[derive(Debug, Clone)]
pub struct EntryEdit<'a> {
    pub name: Option<&'a str>,
    pub description: Option<&'a str>,
    /// The words of the entry after the change.
    pub words: &'a [String],
}

/// How search orders entries: each with the id as the tie-break, so pages are stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntrySort {
    /// Most games first.
    Popular,
    /// Newest first.
    New,
    /// Most stars first.
    Stars,
    /// Highest value first (only entries with a value).
    Value,
}

/// A search of the library: every filter given must hold.
#[derive(Debug, Clone)]
pub struct EntrySearch {
    pub kind: Option<String>,
    /// Each word must begin a word of the name or description.
    pub words: Vec<String>,
    /// The author's username, lower case.
    pub author: Option<String>,
    pub value_min: Option<f64>,
    pub value_max: Option<f64>,
    /// Every one of these feature bits.
    pub features: i64,
    pub sort: EntrySort,
    pub offset: u32,
    pub limit: u32,
}

/// What one side fielded in a game: the canonical DNA of each of its pieces at the start, and
/// its back rank's, file a first (the preset it played).
#[derive(Debug, Clone, Default)]
pub struct Fielded {
    pub genomes: Vec<String>,
    pub back_rank: Vec<String>,
}

/// A finished game, for the library's counts.
#[derive(Debug, Clone)]
pub struct FinishedGame<'a> {
    pub game: &'a str,
    pub white: Fielded,
    pub black: Fielded,
    /// `Some(true)`: White won; `Some(false)`: Black won; `None`: a draw.
    pub white_won: Option<bool>,
    pub now: Timestamp,
}

const COLUMNS: &str = "e.id, e.kind, e.code, e.name, e.description, e.author, \
     a.username AS author_name, e.created_ms, e.withdrawn, e.hidden, e.features, e.value, \
     e.games, e.wins, e.stars";
const FROM: &str = "FROM library_entries e JOIN accounts a ON a.id = e.author";
const RECENT: &str = "SELECT COUNT(*), MIN(created_ms) FROM library_entries \
     WHERE author = $1 AND created_ms > $2";
const NAME_USED: &str = "SELECT id FROM library_entries \
     WHERE author = $1 AND name_key = $2 AND NOT withdrawn";
const INSERT: &str = "INSERT INTO library_entries (id, kind, code, name, name_key, description, \
     author, created_ms, features, value) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
const INSERT_WORD: &str = "INSERT INTO library_words (word, entry) VALUES ($1, $2) \
     ON CONFLICT DO NOTHING";
const DELETE_WORDS: &str = "DELETE FROM library_words WHERE entry = $1";
const SET_NAME: &str = "UPDATE library_entries SET name = $2, name_key = $3 WHERE id = $1";
const SET_DESCRIPTION: &str = "UPDATE library_entries SET description = $2 WHERE id = $1";
const WITHDRAW: &str =
    "UPDATE library_entries SET withdrawn = TRUE WHERE id = $1 AND NOT withdrawn";
const HIDE: &str = "UPDATE library_entries SET hidden = TRUE WHERE id = $1";
const STAR: &str = "INSERT INTO library_stars (entry, account, created_ms) VALUES ($1, $2, $3) \
     ON CONFLICT DO NOTHING";
const UNSTAR: &str = "DELETE FROM library_stars WHERE entry = $1 AND account = $2";
const ADD_STARS: &str = "UPDATE library_entries SET stars = stars + $2 WHERE id = $1";
const STARRED: &str = "SELECT COUNT(*) FROM library_stars WHERE entry = $1 AND account = $2";
const SET_VALUE: &str = "UPDATE library_entries SET value = $2 WHERE kind = 'genome' AND code = $1";
const UNVALUED: &str = "SELECT DISTINCT e.code FROM library_entries e \
     WHERE e.kind = 'genome' AND e.value IS NULL AND NOT e.withdrawn \
     AND NOT EXISTS (SELECT 1 FROM jobs v WHERE v.kind = 'value' AND v.subject = e.code) LIMIT $1";
const COUNTED: &str = "INSERT INTO library_counted (game, counted_ms) VALUES ($1, $2) \
     ON CONFLICT DO NOTHING";
const CODE_OF_GENOME: &str = "SELECT code FROM genomes WHERE digest = $1";
const CODE_OF_PRESET: &str = "SELECT code FROM presets WHERE digest = $1";
const COUNT_GAME: &str = "UPDATE library_entries SET games = games + 1, wins = wins + $3 \
     WHERE kind = $1 AND code = $2";
const PARENTS: &str = "SELECT a, b FROM genome_parents WHERE child = $1";
const RECORD_PARENTS: &str = "INSERT INTO genome_parents (child, a, b) VALUES ($1, $2, $3) \
     ON CONFLICT DO NOTHING";

/// One value bound to a search's placeholder.
enum Bind {
    Text(String),
    Int(i64),
    Real(f64),
}

/// A search's SQL and its values, in placeholder order.
fn search_sql(search: &EntrySearch) -> (String, Vec<Bind>) {
    let mut binds = Vec::new();
    let mut sql = format!("SELECT {COLUMNS} {FROM} WHERE NOT e.withdrawn AND NOT e.hidden");
    let next = |bind: Bind, binds: &mut Vec<Bind>| {
        binds.push(bind);
        format!("${}", binds.len())
    };
    if let Some(kind) = &search.kind {
        let at = next(Bind::Text(kind.clone()), &mut binds);
        sql.push_str(&format!(" AND e.kind = {at}"));
    }
    if let Some(author) = &search.author {
        let at = next(Bind::Text(author.clone()), &mut binds);
        sql.push_str(&format!(" AND a.username_key = {at}"));
    }
    if let Some(min) = search.value_min {
        let at = next(Bind::Real(min), &mut binds);
        sql.push_str(&format!(" AND e.value >= {at}"));
    }
    if let Some(max) = search.value_max {
        let at = next(Bind::Real(max), &mut binds);
        sql.push_str(&format!(" AND e.value <= {at}"));
    }
    if search.features != 0 {
        let at = next(Bind::Int(search.features), &mut binds);
        sql.push_str(&format!(" AND (e.features & {at}) = {at}"));
    }
    for word in &search.words {
        // Every word that begins with `word`: a range of the index in byte order.
        let low = next(Bind::Text(word.clone()), &mut binds);
        let high = next(Bind::Text(format!("{word}\u{10FFFF}")), &mut binds);
        // Probed entry by entry in the order asked for (the `(entry, word)` index), so that a
        // common word fills a page after a few rows instead of sorting every entry it matches.
        sql.push_str(&format!(
            " AND EXISTS (SELECT 1 FROM library_words w WHERE w.entry = e.id \
             AND w.word >= {low} AND w.word < {high})"
        ));
    }
    let order = match search.sort {
        EntrySort::Popular => "e.games DESC, e.id DESC",
        EntrySort::New => "e.created_ms DESC, e.id DESC",
        EntrySort::Stars => "e.stars DESC, e.id DESC",
        EntrySort::Value => {
            sql.push_str(" AND e.value IS NOT NULL");
            "e.value DESC, e.id DESC"
        }
    };
    let limit = next(Bind::Int(i64::from(search.limit)), &mut binds);
    let offset = next(Bind::Int(i64::from(search.offset)), &mut binds);
    sql.push_str(&format!(" ORDER BY {order} LIMIT {limit} OFFSET {offset}"));
    (sql, binds)
}

/// Whether `error` is a unique index refusing a row.
fn unique_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(sqlx::error::DatabaseError::is_unique_violation)
}

impl Store {
    /// Publishes an entry, unless the author has a live one of this name or published
    /// `per_day` in the last day (counted under the database's write lock on SQLite, the
    /// author's row lock on PostgreSQL, so that it holds across processes).
    pub async fn publish_entry(&self, new: &NewEntry<'_>) -> Result<Published, StoreError> {
        let id = EntryId::from_bits(rand::random());
        let key = new.name.to_lowercase();
        let since = new.now.ms() - DAY_MS;
        let published = transaction!(self, |tx, dialect| {
            if dialect == crate::backend::Dialect::Postgres {
                sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
                    .bind(new.author.as_str())
                    .execute(&mut *tx)
                    .await?;
            }
            let (count, oldest): (i64, Option<i64>) = sqlx::query_as(RECENT)
                .bind(new.author.as_str())
                .bind(since)
                .fetch_one(&mut *tx)
                .await?;
            let used: Option<String> = sqlx::query_scalar(NAME_USED)
                .bind(new.author.as_str())
                .bind(&key)
                .fetch_optional(&mut *tx)
                .await?;
            if count >= i64::from(new.per_day) {
                Published::DayLimit {
                    oldest: Timestamp::from_ms(oldest.unwrap_or(new.now.ms())),
                }
            } else if used.is_some() {
                Published::NameTaken
            } else {
                sqlx::query(INSERT)
                    .bind(id.as_str())
                    .bind(new.kind)
                    .bind(new.code)
                    .bind(new.name)
                    .bind(&key)
                    .bind(new.description)
                    .bind(new.author.as_str())
                    .bind(new.now.ms())
                    .bind(new.features)
                    .bind(new.value)
                    .execute(&mut *tx)
                    .await?;
                for word in new.words {
                    sqlx::query(INSERT_WORD)
                        .bind(word)
                        .bind(id.as_str())
                        .execute(&mut *tx)
                        .await?;
                }
                Published::Done(id)
            }
        });
        Ok(published)
    }

    /// Entry `id` (withdrawn and hidden ones too), if it exists.
    pub async fn library_entry(&self, id: &EntryId) -> Result<Option<LibraryEntry>, StoreError> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE e.id = $1");
        Ok(reading!(self, pool => {
            sqlx::query_as(&sql).bind(id.as_str()).fetch_optional(pool).await
        })?)
    }

    /// Changes entry `id`'s name and description; `false` when the new name is taken by
    /// another live entry of the author.
    pub async fn edit_entry(
        &self,
        entry: &LibraryEntry,
        edit: &EntryEdit<'_>,
    ) -> Result<bool, StoreError> {
        let edited = transaction!(self, |tx, _dialect| {
            let mut taken = false;
            if let Some(name) = edit.name {
                let key = name.to_lowercase();
                let used: Option<String> = sqlx::query_scalar(NAME_USED)
                    .bind(&entry.author)
                    .bind(&key)
                    .fetch_optional(&mut *tx)
                    .await?;
                taken = used.is_some_and(|other| other != entry.id);
                if !taken {
                    sqlx::query(SET_NAME)
                        .bind(&entry.id)
                        .bind(name)
                        .bind(&key)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            if !taken {
                if let Some(description) = edit.description {
                    sqlx::query(SET_DESCRIPTION)
                        .bind(&entry.id)
                        .bind(description)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query(DELETE_WORDS)
                    .bind(&entry.id)
                    .execute(&mut *tx)
                    .await?;
                for word in edit.words {
                    sqlx::query(INSERT_WORD)
                        .bind(word)
                        .bind(&entry.id)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            !taken
        });
        Ok(edited)
    }

    /// Withdraws entry `id`: out of search and pages, its name free again for its author.
    pub async fn withdraw_entry(&self, id: &EntryId) -> Result<bool, StoreError> {
        let done = writing!(self, pool => {
            sqlx::query(WITHDRAW).bind(id.as_str()).execute(pool).await.map(|done| done.rows_affected())
        })?;
        Ok(done > 0)
    }

    /// Hides entry `id` (an operator's decision): out of search and pages; `false` if unknown.
    pub async fn hide_entry(&self, id: &EntryId) -> Result<bool, StoreError> {
        let done = writing!(self, pool => {
            sqlx::query(HIDE).bind(id.as_str()).execute(pool).await.map(|done| done.rows_affected())
        })?;
        Ok(done > 0)
    }

    /// `account` stars (`true`) or unstars entry `id`; the count changes only when the star
    /// did (starring twice counts once).
    pub async fn star_entry(
        &self,
        id: &EntryId,
        account: &AccountId,
        star: bool,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        transaction!(self, |tx, _dialect| {
            let changed = if star {
                sqlx::query(STAR)
                    .bind(id.as_str())
                    .bind(account.as_str())
                    .bind(now.ms())
                    .execute(&mut *tx)
                    .await?
            } else {
                sqlx::query(UNSTAR)
                    .bind(id.as_str())
                    .bind(account.as_str())
                    .execute(&mut *tx)
                    .await?
            };
            if changed.rows_affected() > 0 {
                sqlx::query(ADD_STARS)
                    .bind(id.as_str())
                    .bind(if star { 1_i64 } else { -1 })
                    .execute(&mut *tx)
                    .await?;
            }
        });
        Ok(())
    }

    /// Whether `account` starred entry `id`.
    pub async fn starred(&self, id: &EntryId, account: &AccountId) -> Result<bool, StoreError> {
        let count: i64 = reading!(self, pool => {
            sqlx::query_scalar(STARRED)
                .bind(id.as_str())
                .bind(account.as_str())
                .fetch_one(pool)
                .await
        })?;
        Ok(count > 0)
    }

    /// One page of the entries `search` finds.
    pub async fn search_entries(
        &self,
        search: &EntrySearch,
    ) -> Result<Vec<LibraryEntry>, StoreError> {
        let (sql, binds) = search_sql(search);
        Ok(reading!(self, pool => {
            let mut query = sqlx::query_as(&sql);
            for bind in binds {
                query = match bind {
                    Bind::Text(text) => query.bind(text),
                    Bind::Int(int) => query.bind(int),
                    Bind::Real(real) => query.bind(real),
                };
            }
            query.fetch_all(pool).await
        })?)
    }

    /// The live, shown entries of genomes whose codes are among `codes`.
    pub async fn genome_entries(&self, codes: &[String]) -> Result<Vec<LibraryEntry>, StoreError> {
        let mut found = Vec::new();
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE e.kind = 'genome' AND e.code = $1 \
             AND NOT e.withdrawn AND NOT e.hidden ORDER BY e.created_ms, e.id"
        );
        for code in codes {
            let entries: Vec<LibraryEntry> = reading!(self, pool => {
                sqlx::query_as(&sql).bind(code).fetch_all(pool).await
            })?;
            found.extend(entries);
        }
        Ok(found)
    }

    /// The live, shown entries of genomes bred from genome `code` (at most `limit`).
    pub async fn child_entries(
        &self,
        code: &str,
        limit: u32,
    ) -> Result<Vec<LibraryEntry>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} {FROM} JOIN genome_parents p ON p.child = e.code \
             WHERE (p.a = $1 OR p.b = $1) AND e.kind = 'genome' AND NOT e.withdrawn \
             AND NOT e.hidden ORDER BY e.created_ms, e.id LIMIT $2"
        );
        Ok(reading!(self, pool => {
            sqlx::query_as(&sql).bind(code).bind(i64::from(limit)).fetch_all(pool).await
        })?)
    }

    /// The parents genome `code` was first bred from, if it was bred.
    pub async fn genome_parents(&self, code: &str) -> Result<Option<(String, String)>, StoreError> {
        Ok(reading!(self, pool => {
            sqlx::query_as(PARENTS).bind(code).fetch_optional(pool).await
        })?)
    }

    /// Records that genome `child` was bred from `a` and `b` (the first breeding stays).
    pub async fn record_parents(&self, child: &str, a: &str, b: &str) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(RECORD_PARENTS).bind(child).bind(a).bind(b).execute(pool).await.map(|_| ())
        })?;
        Ok(())
    }

    /// Sets the value of every entry of genome `code` (its evaluation is done).
    pub async fn set_entry_value(&self, code: &str, pawns: f64) -> Result<(), StoreError> {
        writing!(self, pool => {
            sqlx::query(SET_VALUE).bind(code).bind(pawns).execute(pool).await.map(|_| ())
        })?;
        Ok(())
    }

    /// Codes of published genomes never evaluated (at most `limit`).
    pub async fn unvalued_entries(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        Ok(reading!(self, pool => {
            sqlx::query_scalar(UNVALUED).bind(i64::from(limit)).fetch_all(pool).await
        })?)
    }

    /// Counts a finished game for the entries its sides fielded, once per game (a second call
    /// for the same game changes nothing): `false` when it was counted before.
    pub async fn count_library_game(
        &self,
        finished: &FinishedGame<'_>,
    ) -> Result<bool, StoreError> {
        let counted = transaction!(self, |tx, _dialect| {
            let first = sqlx::query(COUNTED)
                .bind(finished.game)
                .bind(finished.now.ms())
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
            if first {
                let mut sides: Vec<(Vec<(&str, String)>, bool)> = Vec::new();
                for (fielded, won) in [
                    (&finished.white, finished.white_won == Some(true)),
                    (&finished.black, finished.white_won == Some(false)),
                ] {
                    let mut codes = Vec::new();
                    for dna in &fielded.genomes {
                        let code: Option<String> = sqlx::query_scalar(CODE_OF_GENOME)
                            .bind(gmo_genome::sha256(dna).to_vec())
                            .fetch_optional(&mut *tx)
                            .await?;
                        if let Some(code) = code {
                            codes.push(("genome", code));
                        }
                    }
                    let mut rank = Vec::new();
                    for dna in &fielded.back_rank {
                        let code: Option<String> = sqlx::query_scalar(CODE_OF_GENOME)
                            .bind(gmo_genome::sha256(dna).to_vec())
                            .fetch_optional(&mut *tx)
                            .await?;
                        rank.extend(code.and_then(|code| code.parse::<gmo_genome::Code>().ok()));
                    }
                    if !rank.is_empty() && rank.len() == fielded.back_rank.len() {
                        let text = gmo_genome::preset_text(&rank);
                        let code: Option<String> = sqlx::query_scalar(CODE_OF_PRESET)
                            .bind(gmo_genome::sha256(&text).to_vec())
                            .fetch_optional(&mut *tx)
                            .await?;
                        codes.extend(code.map(|code| ("preset", code)));
                    }
                    sides.push((codes, won));
                }
                // A design both sides fielded counts one game, won by whichever side won.
                let mut all: Vec<(&str, String, bool)> = Vec::new();
                for (codes, won) in sides {
                    for (kind, code) in codes {
                        match all.iter_mut().find(|(k, c, _)| *k == kind && *c == code) {
                            Some(known) => known.2 |= won,
                            None => all.push((kind, code, won)),
                        }
                    }
                }
                for (kind, code, won) in all {
                    sqlx::query(COUNT_GAME)
                        .bind(kind)
                        .bind(&code)
                        .bind(i64::from(won))
                        .execute(&mut *tx)
                        .await?;
                }
            }
            first
        });
        Ok(counted)
    }
}

/// Whether a store error is a unique index refusing a row (another writer won a race).
pub fn is_unique_violation(error: &StoreError) -> bool {
    matches!(error, StoreError::Database(error) if unique_violation(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_binds_every_filter_in_placeholder_order() {
        let search = EntrySearch {
            kind: Some("genome".into()),
            words: vec!["rook".into()],
            author: Some("ada".into()),
            value_min: Some(1.0),
            value_max: None,
            features: 3,
            sort: EntrySort::Value,
            offset: 50,
            limit: 50,
        };
        let (sql, binds) = search_sql(&search);
        assert_eq!(binds.len(), 8, "{sql}");
        assert!(
            sql.contains("e.kind = $1") && sql.contains("a.username_key = $2"),
            "{sql}"
        );
        assert!(sql.contains("(e.features & $4) = $4"), "{sql}");
        assert!(sql.contains("w.word >= $5 AND w.word < $6"), "{sql}");
        assert!(
            sql.ends_with("ORDER BY e.value DESC, e.id DESC LIMIT $7 OFFSET $8"),
            "{sql}"
        );
        assert!(sql.contains("e.value IS NOT NULL"), "{sql}");
    }
}
