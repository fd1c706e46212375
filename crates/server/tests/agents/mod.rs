//! Issue 33, agents online, over HTTP: `GET /api/games/{id}/legal` gives a seat what an agent's
//! `turn` carries (docs/agents.md): every legal move of the side to move, and the promotion
//! choices while a pawn is due.

use crate::common::Server;
use serde_json::{Value, json};
use std::collections::BTreeSet;

mod online;

both!(
    a_seat_gets_every_legal_move_of_the_side_to_move,
    a_due_promotion_lists_the_choices_and_no_moves,
    only_a_seat_may_ask_for_the_legal_moves,
);

/// `GET /api/games/{id}/legal` with `token`: its status and body.
async fn legal(server: &Server, id: &str, token: Option<&str>) -> (u16, Value) {
    let answer = server.get(&format!("/api/games/{id}/legal"), token).await;
    (answer.status, answer.body)
}

/// The (from, to) pairs of a list of move views.
fn pairs(moves: &Value) -> BTreeSet<(String, String)> {
    moves
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|mv| {
            let square = |key: &str| mv[key].as_str().expect("a square").to_owned();
            (square("from"), square("to"))
        })
        .collect()
}

/// Every move listed is one of the side to move's pieces' moves as `/moves/{square}` lists
/// them, risks included, and every such move is listed; both seats get the same list.
async fn a_seat_gets_every_legal_move_of_the_side_to_move(server: Server) {
    let (id, white, black) = crate::lichess::started(&server, json!({})).await;
    crate::play(&server, &id, &white, "d2", "d3").await;
    let (status, body) = legal(&server, &id, Some(&black)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["promotion"], Value::Null, "{body}");
    let listed = body["legal"].as_array().expect("legal").clone();
    assert!(!listed.is_empty(), "{body}");
    let view = server.get(&format!("/api/games/{id}"), Some(&black)).await;
    let mut expected = Vec::new();
    for piece in view.body["board"].as_array().expect("board") {
        if piece["color"] != "black" {
            continue;
        }
        let square = piece["square"].as_str().expect("a square");
        let moves = server
            .get(&format!("/api/games/{id}/moves/{square}"), Some(&black))
            .await;
        expected.extend(moves.body.as_array().expect("moves").iter().cloned());
    }
    assert_eq!(pairs(&body["legal"]), pairs(&json!(expected)));
    for mv in &listed {
        let same = expected
            .iter()
            .find(|other| other["from"] == mv["from"] && other["to"] == mv["to"])
            .expect("listed by square too");
        assert_eq!(mv, same, "the same move view");
    }
    // The queen on e8 may take its own king on d8: the move says it loses the king.
    let takes_king = listed
        .iter()
        .find(|mv| mv["from"] == "e8" && mv["to"] == "d8")
        .expect("e8 takes d8");
    assert_eq!(takes_king["loses_own_king"], true, "{takes_king}");
    let (status, for_white) = legal(&server, &id, Some(&white)).await;
    assert_eq!(status, 200, "{for_white}");
    assert_eq!(
        pairs(&for_white["legal"]),
        pairs(&body["legal"]),
        "the side to move's"
    );
}

/// While White's pawn waits for its promotion, `legal` is empty and `promotion` names the
/// standard choices; any of them is then accepted.
async fn a_due_promotion_lists_the_choices_and_no_moves(server: Server) {
    let game = crate::promotion_game(&server).await;
    let id = &game.id;
    crate::set_up(&server, id, &game.white, &game.white_preset, "b1").await;
    crate::set_up(&server, id, &game.black, &game.black_preset, "c4").await;
    crate::play(&server, id, &game.white, "b2", "c3").await;
    crate::play(&server, id, &game.black, "b3", "b2").await;
    let due = crate::play(&server, id, &game.white, "c3", "d4").await;
    assert_eq!(due["game"]["promotion_due"], "d4");
    let (status, body) = legal(&server, id, Some(&game.white)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["legal"], json!([]), "{body}");
    assert_eq!(
        body["promotion"],
        json!(["rook", "knight", "bishop", "queen", "king"])
    );
    let promoted = server
        .post(
            &format!("/api/games/{id}/promotion"),
            Some(&game.white),
            json!({"genome": body["promotion"][3]}),
        )
        .await;
    assert_eq!(promoted.status, 200, "{}", promoted.text);
    let (_, after) = legal(&server, id, Some(&game.black)).await;
    assert_eq!(after["promotion"], Value::Null, "{after}");
    assert!(!pairs(&after["legal"]).is_empty(), "{after}");
}

/// No token is a 401, another game's seat token a 403, an unknown game a 404, a malformed id a
/// 400; after the end there is nothing to play.
async fn only_a_seat_may_ask_for_the_legal_moves(server: Server) {
    let (id, white, _black) = crate::lichess::started(&server, json!({})).await;
    let (other, other_white, _) = crate::lichess::started(&server, json!({})).await;
    assert_ne!(id, other);
    let (status, body) = legal(&server, &id, None).await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = legal(&server, &id, Some(&other_white)).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = legal(&server, &"0".repeat(32), Some(&white)).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = legal(&server, "nosuchgame", Some(&white)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "bad_path", "{body}");
    let resigned = server
        .post(&format!("/api/games/{id}/resign"), Some(&white), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let (status, body) = legal(&server, &id, Some(&white)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"legal": [], "promotion": null}));
}
