//! `gmo library hide ID` against a real database file: the entry leaves search, its genome
//! stays; an unknown entry and a malformed id fail with a message.

use gmo_store::{EntrySearch, EntrySort, NewEntry, Published, Store};
use gmo_types::{EntryId, Timestamp, Username};
use std::process::Command;

fn hide(id: &str, url: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gmo"))
        .args(["library", "hide", id, "--database-url", url])
        .output()
        .expect("gmo runs")
}

fn everything() -> EntrySearch {
    EntrySearch {
        kind: None,
        words: Vec::new(),
        author: None,
        value_min: None,
        value_max: None,
        features: 0,
        sort: EntrySort::New,
        offset: 0,
        limit: 50,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_hides_an_entry_from_search_and_its_genome_stays() {
    let dir = tempfile::tempdir().expect("a directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    let store = Store::connect(&url).await.expect("a store");
    let name = Username::parse("ada").expect("a name");
    let author = store
        .create_account(&name, "not a real hash", Timestamp::from_ms(1))
        .await
        .expect("stored")
        .expect("a new account");
    let rook = store.genome("rook").await.expect("the rook");
    let new = NewEntry {
        kind: "genome",
        code: rook.code.as_str(),
        name: "Rooky",
        description: "",
        author: &author,
        features: 0,
        value: None,
        words: &["rooky".to_owned()],
        now: Timestamp::from_ms(1),
        per_day: 20,
    };
    let Published::Done(id) = store.publish_entry(&new).await.expect("published") else {
        panic!("not published");
    };
    assert_eq!(
        store
            .search_entries(&everything())
            .await
            .expect("found")
            .len(),
        1
    );

    let hidden = hide(id.as_str(), &url);
    assert!(hidden.status.success(), "{hidden:?}");
    assert!(String::from_utf8_lossy(&hidden.stdout).contains("hidden"));
    assert!(
        store
            .search_entries(&everything())
            .await
            .expect("searched")
            .is_empty()
    );
    let entry = store.library_entry(&id).await.expect("read").expect("kept");
    assert!(entry.hidden && !entry.withdrawn);
    assert_eq!(
        store
            .genome(rook.code.as_str())
            .await
            .expect("still there")
            .code,
        rook.code
    );

    let unknown = hide(EntryId::from_bits(5).as_str(), &url);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no library entry"));
    let malformed = hide("nope", &url);
    assert_eq!(malformed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&malformed.stderr).contains("32 hex digits"));
    store.close().await;
}
