//! Library search latency (docs/performance.md, "Library search"): fills a fresh database with
//! made-up entries, then times a mix of searches as the service runs them, and prints p50 and p99
//! per query kind and over the mix.
//!
//! cargo run -p gmo-store --features testing --example library_search -- sqlite 100000
//! cargo run -p gmo-store --features testing --example library_search -- postgres 100000
//!
//! PostgreSQL: a scratch database on `DATABASE_URL` (default the local server), dropped after.

use gmo_store::scratch::ScratchDatabase;
use gmo_store::{EntrySearch, EntrySort, Store, seed_library};
use gmo_types::{AccountId, Timestamp, Username};
use std::time::{Duration, Instant};

const AUTHORS: usize = 100;
/// How many times each query of the mix runs.
const ROUNDS: usize = 40;

fn search(words: &[&str], sort: EntrySort) -> EntrySearch {
    EntrySearch {
        kind: None,
        words: words.iter().map(|w| (*w).to_owned()).collect(),
        author: None,
        value_min: None,
        value_max: None,
        features: 0,
        sort,
        offset: 0,
        limit: 51,
    }
}

/// The mix: what the page asks most (a first page by popularity, newest), words (a common
/// prefix, a whole rare word, two words), filters, and a deep page.
fn mix() -> Vec<(&'static str, EntrySearch)> {
    let mut kind = search(&[], EntrySort::New);
    kind.kind = Some("genome".into());
    kind.features = 1 | 4;
    let mut range = search(&[], EntrySort::Value);
    range.value_min = Some(2.0);
    range.value_max = Some(3.0);
    let mut author = search(&[], EntrySort::New);
    author.author = Some("author7".into());
    let mut deep = search(&[], EntrySort::Stars);
    deep.offset = 50 * 19;
    vec![
        ("popular, page 1", search(&[], EntrySort::Popular)),
        ("new, page 1", search(&[], EntrySort::New)),
        ("q=ka (common prefix)", search(&["ka"], EntrySort::Popular)),
        (
            "q=rovekmi (one word)",
            search(&["rovekmi"], EntrySort::Popular),
        ),
        (
            "q=ro mi (two prefixes)",
            search(&["ro", "mi"], EntrySort::New),
        ),
        ("kind+does, new", kind),
        ("value 2..3, by value", range),
        ("author, new", author),
        ("stars, page 20", deep),
    ]
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

async fn run(store: &Store, entries: usize) {
    let mut authors: Vec<AccountId> = Vec::new();
    for n in 0..AUTHORS {
        let name = Username::parse(&format!("author{n}")).expect("a name");
        let id = store
            .create_account(&name, "x", Timestamp::from_ms(1))
            .await
            .expect("an account")
            .expect("new");
        authors.push(id);
    }
    let filling = Instant::now();
    seed_library(store, &authors, entries, 7)
        .await
        .expect("seeded");
    println!(
        "{entries} entries stored in {:.1} s",
        filling.elapsed().as_secs_f64()
    );
    let mix = mix();
    // Once each first, untimed (warm caches, as a running service has).
    for (_, query) in &mix {
        store.search_entries(query).await.expect("a search");
    }
    let mut all = Vec::new();
    println!("| query | found | p50 ms | p99 ms |");
    println!("|---|---|---|---|");
    for (name, query) in &mix {
        let mut times = Vec::new();
        let mut found = 0;
        for _ in 0..ROUNDS {
            let start = Instant::now();
            found = store.search_entries(query).await.expect("a search").len();
            times.push(start.elapsed());
        }
        times.sort();
        println!(
            "| {name} | {found} | {} | {} |",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99))
        );
        all.extend(times);
    }
    all.sort();
    println!(
        "| **the mix** ({} searches) | | {} | {} |",
        all.len(),
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99))
    );
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let backend = args.get(1).map_or("sqlite", String::as_str);
    let entries: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1_000);
    if backend == "postgres" {
        let database = ScratchDatabase::create("gmo_library_bench").await;
        let store = Store::connect(database.url()).await.expect("a store");
        run(&store, entries).await;
        store.close().await;
        database.drop_database().await;
    } else {
        let dir = tempfile::tempdir().expect("a directory");
        let url = format!("sqlite://{}", dir.path().join("bench.db").display());
        let store = Store::connect(&url).await.expect("a store");
        run(&store, entries).await;
        store.close().await;
    }
}
