//! Finding 5: a lab keeps the genomes on its board and no more, refuses to grow past its limit,
//! and checks the token before it decodes anything.

use crate::common::Server;
use gmo_genome::Genome;
use gmo_play::MAX_LAB_DNA_LETTERS;
use serde_json::{Value, json};

both!(
    a_lab_keeps_only_the_genomes_on_its_board,
    a_lab_refuses_more_dna_than_its_limit,
    a_refused_token_decodes_nothing,
);

/// A one-block genome without debuffs (both owners `HSH`), so that blocks can be chained.
const BLOCK: &str = "AHHHSHHSHCHACHACHAHHASASAAAAAAAAA";

/// `n` distinct valid genomes of two blocks, each a one-letter variant of [`BLOCK`].
fn distinct_genomes(n: usize) -> Vec<String> {
    let variants: Vec<String> = (0..BLOCK.len())
        .flat_map(|at| ['S', 'A', 'C', 'H'].map(|letter| (at, letter)))
        .map(|(at, letter)| {
            let mut dna = BLOCK.to_owned();
            dna.replace_range(at..=at, &letter.to_string());
            dna
        })
        .filter(|dna| Genome::parse(dna).is_ok_and(|g| g.debuffs().is_empty()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let genomes: Vec<String> = variants
        .iter()
        .flat_map(|a| variants.iter().map(move |b| format!("{a}{b}")))
        .filter(|dna| Genome::parse(dna).is_ok())
        .take(n)
        .collect();
    assert_eq!(genomes.len(), n, "{} variants", variants.len());
    genomes
}

async fn new_lab(server: &Server) -> (String, String) {
    let created = server.post("/api/labs", None, json!({})).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let text = |key: &str| created.body[key].as_str().expect(key).to_owned();
    (text("id"), text("token"))
}

async fn place(
    server: &Server,
    lab: &(String, String),
    square: &str,
    dna: &str,
) -> crate::common::Answer {
    let (id, token) = lab;
    let body = json!({"dna": dna, "color": "white"});
    server
        .put(
            &format!("/api/labs/{id}/squares/{square}"),
            Some(token),
            body,
        )
        .await
}

/// 1,200 different genomes placed one after another on one square: the stored lab lists one.
async fn a_lab_keeps_only_the_genomes_on_its_board(server: Server) {
    let lab = new_lab(&server).await;
    let genomes = distinct_genomes(1_200);
    for dna in &genomes {
        let placed = place(&server, &lab, "a1", dna).await;
        assert_eq!(placed.status, 200, "{}", placed.text);
    }
    let store = gmo_store::Store::connect(&server.url)
        .await
        .expect("the store opens");
    let stored = store
        .load_lab_encoded(&lab.0.parse().expect("a lab id"))
        .await
        .expect("the lab");
    let bytes = stored.board.len();
    let board: Value = stored.decode::<Value>().expect("JSON").board;
    assert_eq!(board["board"]["genomes"], json!([genomes.last()]));
    assert!(bytes < 1_000, "the stored lab is {bytes} bytes");
    store.close().await;
}

/// Distinct long genomes on distinct squares until the lab is full: the one too many is refused
/// with the limit named, and the lab is as it was.
async fn a_lab_refuses_more_dna_than_its_limit(server: Server) {
    let lab = new_lab(&server).await;
    let squares = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2",
    ];
    let mut kept = 0;
    for (square, blocks) in squares.iter().zip((100..=124).rev()) {
        let dna = BLOCK.repeat(blocks);
        let placed = place(&server, &lab, square, &dna).await;
        if kept + dna.len() <= MAX_LAB_DNA_LETTERS {
            assert_eq!(placed.status, 200, "{}", placed.text);
            kept += dna.len();
            continue;
        }
        assert_eq!(placed.status, 409, "{}", placed.text);
        assert_eq!(placed.body["error"]["code"], "lab_full");
        let message = placed.body["error"]["message"].as_str().expect("a message");
        assert!(
            message.contains(&MAX_LAB_DNA_LETTERS.to_string()),
            "{message}"
        );
        let (id, token) = &lab;
        let view = server.get(&format!("/api/labs/{id}"), Some(token)).await;
        let pieces = view.body["board"].as_array().expect("a board");
        let letters: usize = pieces
            .iter()
            .map(|p| p["dna"].as_str().map_or(0, str::len))
            .sum();
        assert_eq!(letters, kept, "the refused piece is not on the board");
        return;
    }
    panic!("{kept} letters were placed without refusal");
}

/// A lab whose stored board cannot be decoded: a wrong token is refused (401, 403) before the
/// board is read, so the refusal does not depend on it.
async fn a_refused_token_decodes_nothing(server: Server) {
    let store = gmo_store::Store::connect(&server.url)
        .await
        .expect("the store opens");
    let token = gmo_store::new_token();
    let hash = gmo_store::token_hash(&token);
    let broken = store
        .create_lab(&hash, 8, 8, &json!({"not": "a lab"}))
        .await
        .expect("a lab row");
    let (_, other) = new_lab(&server).await;
    let path = format!("/api/labs/{broken}");
    let unknown = server.get(&path, Some(&gmo_store::new_token())).await;
    assert_eq!(unknown.status, 401, "{}", unknown.text);
    let foreign = server.get(&path, Some(&other)).await;
    assert_eq!(foreign.status, 403, "{}", foreign.text);
    store.close().await;
}
