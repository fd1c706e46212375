//! Made-up library entries in bulk, for the search benchmark (feature `testing`;
//! `examples/library_search.rs`, docs/performance.md, "Library search").

use crate::{Store, StoreError};
use gmo_types::{AccountId, EntryId};

/// Fills the library with `count` made-up entries by `authors`, in batches (benchmarks only:
/// `examples/library_search.rs`). Names and descriptions are drawn from a vocabulary of 600
/// made-up words by a generator seeded with `seed`, so two runs hold the same entries.
pub async fn seed_library(
    store: &Store,
    authors: &[AccountId],
    count: usize,
    seed: u64,
) -> Result<(), StoreError> {
    const BATCH: usize = 200;
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let syllables = [
        "ka", "ro", "mi", "tes", "lun", "dra", "vek", "or", "sil", "pa", "zen", "qu",
    ];
    let vocabulary: Vec<String> = (0..600)
        .map(|n| {
            let (a, b, c) = (n % 12, (n / 12) % 12, (n / 144) % 12);
            format!("{}{}{}", syllables[a], syllables[b], syllables[c])
        })
        .collect();
    let mut done = 0;
    while done < count {
        let size = BATCH.min(count - done);
        let mut entries = Vec::with_capacity(size);
        for n in done..done + size {
            let mut pick = |how_many: usize| -> Vec<String> {
                (0..how_many)
                    .map(|_| vocabulary[(next() % 600) as usize].clone())
                    .collect()
            };
            let name = format!("{} {n}", pick(2).join(" "));
            let description = pick(10).join(" ");
            let mut words: Vec<String> = name
                .split(' ')
                .chain(description.split(' '))
                .map(str::to_owned)
                .collect();
            words.sort();
            words.dedup();
            let r = next();
            entries.push((
                EntryId::from_bits(u128::from(next()) << 64 | u128::from(r)),
                name,
                description,
                authors[(r % authors.len() as u64) as usize].clone(),
                r % 4 == 0,
                (r >> 8) as i64 & 0x3fff,
                ((r >> 24) % 2000) as f64 / 100.0 - 5.0,
                ((r >> 40) % 500) as i64,
                words,
            ));
        }
        transaction!(store, |tx, _dialect| {
            for (id, name, description, author, preset, features, value, games, words) in &entries {
                sqlx::query(
                    "INSERT INTO library_entries (id, kind, code, name, name_key, description, \
                     author, created_ms, features, value, games, wins, stars) \
                     VALUES ($1, $2, '3gbkd6', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                )
                .bind(id.as_str())
                .bind(if *preset { "preset" } else { "genome" })
                .bind(name)
                .bind(name.to_lowercase())
                .bind(description)
                .bind(author.as_str())
                .bind(1_700_000_000_000_i64 + i64::try_from(done).unwrap_or(0))
                .bind(features)
                .bind((!preset).then_some(*value))
                .bind(games)
                .bind(games / 2)
                .bind(games % 37)
                .execute(&mut *tx)
                .await?;
                // One statement for all of the entry's words.
                let rows: Vec<String> = (0..words.len())
                    .map(|at| format!("(${}, $1)", at + 2))
                    .collect();
                let sql = format!(
                    "INSERT INTO library_words (word, entry) VALUES {}",
                    rows.join(", ")
                );
                let mut insert = sqlx::query(&sql).bind(id.as_str());
                for word in words {
                    insert = insert.bind(word);
                }
                insert.execute(&mut *tx).await?;
            }
        });
        done += size;
    }
    // A running PostgreSQL server has analysed the table by the time it is this large
    // (autovacuum); right after a bulk load its planner would guess. SQLite is left as the
    // service leaves it: never analysed.
    if let crate::backend::Backend::Postgres(pool) = &store.backend {
        sqlx::query("ANALYZE").execute(pool).await?;
    }
    Ok(())
}
