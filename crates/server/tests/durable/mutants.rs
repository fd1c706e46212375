//! Finding 8: the genome a move brings onto the board (a mutant) is stored before the move
//! commits. Its code resolves as soon as the move is answered, and when storing it fails the
//! move is refused as a whole: never a 500 for a move that was made.

use crate::common::Server;
use crate::{new_game, play, preset, set_up};
use serde_json::{Value, json};

both!(a_mutant_is_stored_before_its_move_commits);

/// A rook whose moves mutate it (owner `HCC`); it may also take its own pieces.
pub const MUTANT_ROOK: &str = "AHHHCCHAACHACHACHAHHASASAAAAAAAAA";
/// A king-like piece that mutates, six letters from the rook: no mutant of one is the other's.
const MUTANT_KING: &str = "AHHHCCHAACHACHACHAHHASASSASSASSAS";

async fn a_mutant_is_stored_before_its_move_commits(server: Server) {
    let rook = store_genome(&server, MUTANT_ROOK).await;
    let king = store_genome(&server, MUTANT_KING).await;
    let rank = [
        &rook, "knight", "bishop", "king", "queen", "bishop", "knight", &king,
    ];
    let mutants = preset(&server, &rank).await;
    let (id, white, black, _) = new_game(&server, json!({})).await;
    set_up(&server, &id, &white, &mutants, "d1").await;
    set_up(&server, &id, &black, "default", "d8").await;
    let lab = lab_with_mutant(&server, &king).await;

    let moved = play(&server, &id, &white, "a1", "a2").await;
    let code = moved["ply"]["mutated_to"].as_str().expect("a mutant");
    let found = server.get(&format!("/api/genomes/{code}"), None).await;
    assert_eq!(
        found.status, 200,
        "the mutant resolves at once: {}",
        found.text
    );
    play(&server, &id, &black, "e7", "e6").await;

    let store = gmo_store::Store::connect(&server.url)
        .await
        .expect("the store opens");
    store.refuse_new_genomes().await.expect("the trigger");
    let before = server.get(&format!("/api/games/{id}"), None).await.body;
    let path = format!("/api/games/{id}/moves");
    let refused = server
        .post(&path, Some(&white), json!({"from": "h1", "to": "h2"}))
        .await;
    let after = server.get(&format!("/api/games/{id}"), None).await.body;
    // Unless no letter of it could change (the mutant is then the stored genome itself).
    if refused.status == 200 && refused.body["ply"]["mutated_to"] == king.as_str() {
        return;
    }
    assert_eq!(refused.status, 500, "{}", refused.text);
    assert_eq!(
        frozen_clock(after),
        frozen_clock(before),
        "a refused move changes nothing"
    );

    let (lab, token) = lab;
    let path = format!("/api/labs/{lab}/moves");
    let refused = server
        .post(&path, Some(&token), json!({"from": "a1", "to": "a2"}))
        .await;
    if refused.status == 200 && refused.body["ply"]["mutated_to"] == king.as_str() {
        return;
    }
    assert_eq!(refused.status, 500, "{}", refused.text);
    let after = server.get(&format!("/api/labs/{lab}"), Some(&token)).await;
    assert_eq!(after.body["moves_played"], 0, "the lab did not move");
    store.close().await;
}

async fn store_genome(server: &Server, dna: &str) -> String {
    let stored = server.post("/api/genomes", None, json!({"dna": dna})).await;
    assert_eq!(stored.status, 201, "{}", stored.text);
    stored.body["code"].as_str().expect("a code").to_owned()
}

/// The view as it will be seen again: only the running clock differs.
fn frozen_clock(mut view: Value) -> Value {
    view["clocks"] = Value::Null;
    view
}

/// A lab with a mutant on a1 and a white pawn on a2 → (id, token).
async fn lab_with_mutant(server: &Server, mutant: &str) -> (String, String) {
    let created = server.post("/api/labs", None, json!({})).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_str().expect("an id").to_owned();
    let token = created.body["token"].as_str().expect("a token").to_owned();
    for (square, genome, pawn) in [("a1", mutant, false), ("a2", "pawn", true)] {
        let body = json!({"genome": genome, "color": "white", "pawn": pawn});
        let placed = server
            .put(
                &format!("/api/labs/{id}/squares/{square}"),
                Some(&token),
                body,
            )
            .await;
        assert_eq!(placed.status, 200, "{}", placed.text);
    }
    (id, token)
}
