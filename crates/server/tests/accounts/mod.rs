//! Issue 23, accounts over HTTP on both backends: signing up, in and out, the session cookie,
//! usernames and passwords refused at the edge, throttled failures, the account itself, its
//! password, its deletion, personal tokens, cross-origin changes, and the public reads of a new
//! player. Rated games and who plays them are the `ratings` module's.

use crate::common::{Answer, Server};
use reqwest::Method;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};

both!(
    signing_up_answers_the_name_and_a_lax_http_only_cookie,
    usernames_are_checked_and_unique_without_regard_to_case,
    passwords_are_8_to_128_characters_counted_as_characters,
    signing_in_opens_a_new_session_and_tells_no_names,
    a_sign_in_with_a_password_no_rule_allows_is_only_a_wrong_password,
    ten_failures_for_one_username_are_throttled,
    signing_out_ends_the_session_at_once,
    the_account_shows_itself_to_its_session_and_its_tokens,
    a_password_change_ends_the_old_password_and_other_sessions,
    a_deleted_account_is_gone_but_its_games_stay,
    personal_tokens_are_shown_once_listed_without_secrets_and_revocable,
    bad_token_requests_are_refused_naming_the_field,
    cross_origin_changes_with_the_cookie_are_refused,
    oversized_bodies_are_refused_and_create_nothing,
    a_new_player_has_an_empty_profile,
);

const PASSWORD: &str = "correct horse battery";

/// An answer with its headers.
struct Reply {
    answer: Answer,
    headers: HeaderMap,
}

impl Reply {
    /// The single `Set-Cookie` header of the answer.
    fn set_cookie(&self) -> String {
        let all: Vec<_> = self.headers.get_all("set-cookie").iter().collect();
        assert_eq!(all.len(), 1, "one Set-Cookie: {all:?}");
        all[0].to_str().expect("ascii").to_owned()
    }

    /// `gmo_session=…`, the part of `Set-Cookie` a client sends back.
    fn cookie(&self) -> String {
        let cookie = self
            .set_cookie()
            .split(';')
            .next()
            .expect("name=value")
            .trim()
            .to_owned();
        let id = cookie
            .strip_prefix("gmo_session=")
            .unwrap_or_else(|| panic!("a session cookie: {cookie}"));
        assert!(
            id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()),
            "a 128-bit id: {cookie}"
        );
        cookie
    }
}

/// A request as the test builds it: a cookie, a bearer token, extra headers, a JSON body or a raw one.
#[derive(Default)]
struct Ask<'a> {
    cookie: Option<&'a str>,
    bearer: Option<&'a str>,
    headers: Vec<(&'static str, &'a str)>,
    json: Option<Value>,
    raw: Option<String>,
}

async fn send(server: &Server, method: Method, path: &str, ask: Ask<'_>) -> Reply {
    let mut request = server
        .client
        .request(method, format!("{}{path}", server.base));
    if let Some(cookie) = ask.cookie {
        request = request.header("cookie", cookie);
    }
    if let Some(token) = ask.bearer {
        request = request.bearer_auth(token);
    }
    for (name, value) in ask.headers {
        request = request.header(name, value);
    }
    if let Some(body) = ask.json {
        request = request.json(&body);
    }
    if let Some(raw) = ask.raw {
        request = request.header("content-type", "application/json").body(raw);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("a body");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        answer: Answer { status, body, text },
        headers,
    }
}

fn credentials(username: &str, password: &str) -> Value {
    json!({"username": username, "password": password})
}

/// `POST /api/account` → the reply (any status).
async fn try_sign_up(server: &Server, username: &str, password: &str) -> Reply {
    let ask = Ask {
        json: Some(credentials(username, password)),
        ..Ask::default()
    };
    send(server, Method::POST, "/api/account", ask).await
}

/// `POST /api/session` → the reply (any status).
async fn try_sign_in(server: &Server, username: &str, password: &str) -> Reply {
    let ask = Ask {
        json: Some(credentials(username, password)),
        ..Ask::default()
    };
    send(server, Method::POST, "/api/session", ask).await
}

/// A new account with [`PASSWORD`] → its session cookie.
async fn sign_up(server: &Server, username: &str) -> String {
    let reply = try_sign_up(server, username, PASSWORD).await;
    assert_eq!(reply.answer.status, 201, "{}", reply.answer.text);
    reply.cookie()
}

/// Signs in (it must work) → the new session cookie.
async fn sign_in(server: &Server, username: &str, password: &str) -> String {
    let reply = try_sign_in(server, username, password).await;
    assert_eq!(reply.answer.status, 200, "{}", reply.answer.text);
    reply.cookie()
}

/// `GET /api/account` with a cookie.
async fn account(server: &Server, cookie: &str) -> Answer {
    let ask = Ask {
        cookie: Some(cookie),
        ..Ask::default()
    };
    send(server, Method::GET, "/api/account", ask).await.answer
}

/// `method path` with a cookie and a JSON body.
async fn with_cookie(
    server: &Server,
    method: Method,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> Reply {
    let ask = Ask {
        cookie: Some(cookie),
        json: body,
        ..Ask::default()
    };
    send(server, method, path, ask).await
}

/// A personal token made with the session `cookie` → (id, token).
async fn new_token(server: &Server, cookie: &str, scopes: Value) -> (String, String) {
    let body = json!({"description": "a script", "scopes": scopes});
    let made = with_cookie(
        server,
        Method::POST,
        "/api/account/tokens",
        cookie,
        Some(body),
    )
    .await
    .answer;
    assert_eq!(made.status, 201, "{}", made.text);
    let field = |name: &str| made.body[name].as_str().expect("a string").to_owned();
    (field("id"), field("token"))
}

async fn token_list(server: &Server, cookie: &str) -> Answer {
    with_cookie(server, Method::GET, "/api/account/tokens", cookie, None)
        .await
        .answer
}

fn assert_error(answer: &Answer, status: u16, code: &str) {
    assert_eq!(answer.status, status, "{}", answer.text);
    assert_eq!(answer.body["error"]["code"], code, "{}", answer.text);
}

/// The cookie's attributes, lower-cased, without its value.
fn attributes(set_cookie: &str) -> Vec<String> {
    set_cookie
        .split(';')
        .skip(1)
        .map(|part| part.trim().to_ascii_lowercase())
        .collect()
}

// ---------------------------------------------------------------------------------------------

async fn signing_up_answers_the_name_and_a_lax_http_only_cookie(server: Server) {
    let reply = try_sign_up(&server, "Ada_L-1", PASSWORD).await;
    assert_eq!(reply.answer.status, 201, "{}", reply.answer.text);
    assert_eq!(reply.answer.body, json!({"username": "Ada_L-1"}));
    let set_cookie = reply.set_cookie();
    let attributes = attributes(&set_cookie);
    for wanted in ["httponly", "samesite=lax", "path=/"] {
        assert!(
            attributes.iter().any(|a| a == wanted),
            "{set_cookie} lacks {wanted}"
        );
    }
    assert!(
        !attributes.iter().any(|a| a == "secure"),
        "not Secure unless behind TLS: {set_cookie}"
    );
    let cookie = reply.cookie();
    let shown = account(&server, &cookie).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert_eq!(shown.body["username"], "Ada_L-1", "signed in at once");
    // Without the cookie nobody is signed in.
    let anonymous = server.get("/api/account", None).await;
    assert_error(&anonymous, 401, "sign_in_needed");
    let forged = account(&server, "gmo_session=0123456789abcdef0123456789abcdef").await;
    assert_error(&forged, 401, "sign_in_needed");
}

async fn usernames_are_checked_and_unique_without_regard_to_case(server: Server) {
    let long = "a".repeat(21);
    for bad in [
        "ab",
        long.as_str(),
        "ada lovelace",
        "émile",
        "ab.cd",
        "nul\0byte",
        "",
    ] {
        let reply = try_sign_up(&server, bad, PASSWORD).await;
        assert!(
            reply.headers.get("set-cookie").is_none(),
            "no session for {bad:?}"
        );
        let refused = reply.answer;
        assert_error(&refused, 422, "invalid_field");
        let message = refused.body["error"]["message"]
            .as_str()
            .expect("a message");
        assert!(
            message.contains("username") && message.contains("3 to 20"),
            "{bad:?}: {message}"
        );
    }
    // The longest and shortest names are fine.
    sign_up(&server, &"z".repeat(20)).await;
    sign_up(&server, "abc").await;
    let cookie = sign_up(&server, "Ada").await;
    for variant in ["ada", "ADA", "aDa"] {
        let taken = try_sign_up(&server, variant, "another password").await;
        assert_error(&taken.answer, 409, "username_taken");
        assert_eq!(
            taken.answer.body["error"]["message"],
            format!("the username \"{variant}\" is taken (without regard to case); choose another")
        );
        assert!(taken.headers.get("set-cookie").is_none());
    }
    // The name keeps the case it was given; signing in takes any case.
    assert_eq!(account(&server, &cookie).await.body["username"], "Ada");
    let again = try_sign_in(&server, "aDA", PASSWORD).await.answer;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body, json!({"username": "Ada"}));
    // The refused sign-ups made nothing: the variant's password opens nothing.
    let refused = try_sign_in(&server, "ada", "another password").await.answer;
    assert_error(&refused, 401, "bad_credentials");
    // Wrong fields: missing, unknown, not a string.
    for body in [
        json!({"username": "bob"}),
        json!({"password": PASSWORD}),
        json!({"username": "bob", "password": PASSWORD, "admin": true}),
        json!({"username": 7, "password": PASSWORD}),
    ] {
        let ask = Ask {
            json: Some(body.clone()),
            ..Ask::default()
        };
        let refused = send(&server, Method::POST, "/api/account", ask)
            .await
            .answer;
        assert_error(&refused, 422, "invalid_field");
    }
    assert_eq!(server.get("/api/users/bob", None).await.status, 404);
}

async fn passwords_are_8_to_128_characters_counted_as_characters(server: Server) {
    // 128 characters of two bytes each (256 bytes): accepted, and all of them count.
    let long = "é".repeat(128);
    assert_eq!(long.len(), 256);
    let cookie = {
        let reply = try_sign_up(&server, "ada", &long).await;
        assert_eq!(reply.answer.status, 201, "{}", reply.answer.text);
        reply.cookie()
    };
    assert_eq!(account(&server, &cookie).await.status, 200);
    sign_in(&server, "ada", &long).await;
    let shorter = "é".repeat(127);
    let refused = try_sign_in(&server, "ada", &shorter).await.answer;
    assert_error(&refused, 401, "bad_credentials");
    let mut other_last = "é".repeat(127);
    other_last.push('e');
    let refused = try_sign_in(&server, "ada", &other_last).await.answer;
    assert_error(&refused, 401, "bad_credentials");

    let cases = [
        ("é".repeat(129), "129"),
        ("x".repeat(129), "129"),
        ("sevench".to_owned(), "7"),
        ("ééééééé".to_owned(), "7"),
        (String::new(), "0"),
        ("with a \0 inside".to_owned(), "NUL"),
    ];
    for (password, said) in &cases {
        let refused = try_sign_up(&server, "bob", password).await;
        assert_error(&refused.answer, 422, "invalid_field");
        let message = refused.answer.body["error"]["message"]
            .as_str()
            .expect("a message");
        assert!(
            message.contains("password") && message.contains(said),
            "{password:?}: {message}"
        );
        if !password.is_empty() {
            assert!(!message.contains(password.as_str()), "never shown");
        }
        assert!(refused.headers.get("set-cookie").is_none());
    }
    // Nothing was made: Bob is unknown.
    assert_eq!(server.get("/api/users/bob", None).await.status, 404);
    let unknown = try_sign_in(&server, "bob", &"x".repeat(128)).await;
    assert_error(&unknown.answer, 401, "bad_credentials");
    // The shortest password is 8 characters, also of several bytes each.
    let eight = try_sign_up(&server, "dee", "éééééééé").await;
    assert_eq!(eight.answer.status, 201, "{}", eight.answer.text);
    sign_in(&server, "dee", "éééééééé").await;
}

async fn signing_in_opens_a_new_session_and_tells_no_names(server: Server) {
    let first = sign_up(&server, "ada").await;
    let second = sign_in(&server, "ada", PASSWORD).await;
    let third = sign_in(&server, "ADA", PASSWORD).await;
    assert_ne!(first, second, "a new session id at every sign-in");
    assert_ne!(second, third, "a new session id at every sign-in");
    for cookie in [&second, &third] {
        assert_eq!(account(&server, cookie).await.body["username"], "ada");
    }
    let signed_in = try_sign_in(&server, "ada", PASSWORD).await;
    assert_eq!(signed_in.answer.body, json!({"username": "ada"}));
    let attributes = attributes(&signed_in.set_cookie());
    assert!(attributes.iter().any(|a| a == "httponly"), "{attributes:?}");

    let wrong = try_sign_in(&server, "ada", "not the password").await;
    let unknown = try_sign_in(&server, "nobody", "not the password").await;
    assert_error(&wrong.answer, 401, "bad_credentials");
    assert_eq!(
        wrong.answer.text, unknown.answer.text,
        "an unknown name and a wrong password get the same answer"
    );
    assert_eq!(unknown.answer.status, 401);
    for refused in [&wrong, &unknown] {
        assert!(refused.headers.get("set-cookie").is_none());
    }
}

/// The rules of new passwords (8 to 128 characters, no NUL) are not applied when signing in: a
/// password that breaks them is a wrong password like any other — the same status, the same
/// body, checked against the hash (or the decoy) and counted as a failure — so that a sign-in
/// tells nothing of the rules, and a change of them locks nobody out. Sign-up keeps its 422.
async fn a_sign_in_with_a_password_no_rule_allows_is_only_a_wrong_password(server: Server) {
    sign_up(&server, "ada").await;
    let eve = sign_up(&server, "eve").await;
    // Confirming a change takes the current password as given too: 401, not 422 (2 failures).
    let change = json!({"password": "short", "new_password": "a new password"});
    let deletion = json!({"password": "x".repeat(129)});
    for (method, path, body) in [
        (Method::PUT, "/api/account/password", change),
        (Method::DELETE, "/api/account", deletion),
    ] {
        let refused = with_cookie(&server, method, path, &eve, Some(body)).await;
        assert_error(&refused.answer, 401, "bad_credentials");
    }
    // A new password still keeps the rules (refused before any check: no failure).
    let short = json!({"password": PASSWORD, "new_password": "short"});
    let path = "/api/account/password";
    let refused = with_cookie(&server, Method::PUT, path, &eve, Some(short)).await;
    assert_error(&refused.answer, 422, "invalid_field");

    let wrong = try_sign_in(&server, "ada", "not the password").await;
    assert_error(&wrong.answer, 401, "bad_credentials");
    let ada = [
        "sevench".to_owned(),
        "x".repeat(129),
        "é".repeat(129),
        String::new(),
        "with a \0 inside".to_owned(),
    ];
    let nobody = ["ééééééé".to_owned(), "x".repeat(4_000)];
    let tries = ada.iter().map(|password| ("ada", password));
    for (name, password) in tries.chain(nobody.iter().map(|password| ("nobody", password))) {
        let refused = try_sign_in(&server, name, password).await;
        assert_eq!(
            (refused.answer.status, &refused.answer.text),
            (401, &wrong.answer.text),
            "{name} with {} characters: as a wrong password",
            password.chars().count()
        );
        assert!(refused.headers.get("set-cookie").is_none());
    }
    // Each was counted as a failure of this address, as a wrong password is: 2 + 1 + 7 = 10.
    let throttled = try_sign_in(&server, "ada", PASSWORD).await;
    assert_error(&throttled.answer, 429, "rate_limited");
}

async fn ten_failures_for_one_username_are_throttled(server: Server) {
    sign_up(&server, "ada").await;
    for n in 0..10 {
        let refused = try_sign_in(&server, "ada", &format!("wrong password {n}")).await;
        assert_error(&refused.answer, 401, "bad_credentials");
    }
    let throttled = try_sign_in(&server, "ada", "wrong password again").await;
    assert_error(&throttled.answer, 429, "rate_limited");
    let retry_after: u64 = throttled.headers["retry-after"]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!(
        (500..=600).contains(&retry_after),
        "until the oldest failure is 10 minutes old: {retry_after}"
    );
    let message = throttled.answer.body["error"]["message"]
        .as_str()
        .expect("a message");
    assert!(message.contains("10"), "{message}");
    // Now even the right password waits.
    let right = try_sign_in(&server, "ada", PASSWORD).await;
    assert_eq!(right.answer.status, 429, "{}", right.answer.text);
    assert!(right.headers.get("set-cookie").is_none());
    assert!(right.headers.contains_key("retry-after"));
}

async fn signing_out_ends_the_session_at_once(server: Server) {
    let cookie = sign_up(&server, "ada").await;
    let other = sign_in(&server, "ada", PASSWORD).await;
    let out = with_cookie(&server, Method::DELETE, "/api/session", &cookie, None).await;
    assert_eq!(out.answer.status, 204, "{}", out.answer.text);
    let cleared = out.set_cookie();
    assert!(cleared.starts_with("gmo_session=;"), "{cleared}");
    assert!(
        attributes(&cleared).iter().any(|a| a == "max-age=0"),
        "{cleared}"
    );
    assert_error(&account(&server, &cookie).await, 401, "sign_in_needed");
    let made = with_cookie(
        &server,
        Method::POST,
        "/api/account/tokens",
        &cookie,
        Some(json!({"description": "late", "scopes": ["play"]})),
    )
    .await;
    assert_eq!(made.answer.status, 401, "{}", made.answer.text);
    assert_eq!(
        account(&server, &other).await.status,
        200,
        "another session of the account holds"
    );
    // Signing out again, or without a session, changes nothing.
    let again = with_cookie(&server, Method::DELETE, "/api/session", &cookie, None).await;
    assert_eq!(again.answer.status, 204);
    assert_eq!(server.delete("/api/session", None).await.status, 204);
    assert_eq!(account(&server, &other).await.status, 200);
}

async fn the_account_shows_itself_to_its_session_and_its_tokens(server: Server) {
    let cookie = sign_up(&server, "Ada").await;
    let by_session = account(&server, &cookie).await;
    assert_eq!(by_session.status, 200, "{}", by_session.text);
    let body = &by_session.body;
    let mut keys: Vec<&String> = body.as_object().expect("an object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["bot", "created_at", "rating", "username"], "{body}");
    assert_eq!(body["bot"], false, "a person until it asks to be a bot");
    assert_eq!(body["username"], "Ada");
    assert_eq!(
        body["rating"],
        json!({"value": 1500, "deviation": 500, "provisional": true, "games": 0})
    );
    let created = body["created_at"].as_str().expect("a time");
    assert!(
        created.ends_with('Z') && created.contains('T'),
        "RFC 3339 UTC: {created}"
    );
    let (_, token) = new_token(&server, &cookie, json!(["events"])).await;
    let by_token = server.get("/api/account", Some(&token)).await;
    assert_eq!(by_token.status, 200, "{}", by_token.text);
    assert_eq!(by_token.body, by_session.body, "the same account");
    // A token never issued is refused, not read as anonymous.
    let forged = server
        .get("/api/account", Some("gmo_0123456789abcdef0123456789abcdef"))
        .await;
    assert_error(&forged, 401, "unauthorized");
    // Two credentials at once are refused, whether the cookie is live or not.
    for sent_cookie in [
        cookie.as_str(),
        "gmo_session=00000000000000000000000000000000",
    ] {
        let ask = Ask {
            cookie: Some(sent_cookie),
            bearer: Some(&token),
            ..Ask::default()
        };
        let both = send(&server, Method::GET, "/api/account", ask).await;
        assert_error(&both.answer, 401, "unauthorized");
        assert!(
            both.answer.text.contains("send one"),
            "{}",
            both.answer.text
        );
    }
    // A seat token is no personal token.
    let (_, white, _, _) = crate::new_game(&server, json!({})).await;
    assert_error(
        &server.get("/api/account", Some(&white)).await,
        401,
        "sign_in_needed",
    );
}

async fn a_password_change_ends_the_old_password_and_other_sessions(server: Server) {
    let cookie = sign_up(&server, "ada").await;
    let elsewhere = sign_in(&server, "ada", PASSWORD).await;
    let (_, token) = new_token(&server, &cookie, json!(["play"])).await;
    let path = "/api/account/password";
    let change = |current: &str, new: &str| json!({"password": current, "new_password": new});

    let wrong = with_cookie(
        &server,
        Method::PUT,
        path,
        &cookie,
        Some(change("not the password", "a new password")),
    )
    .await;
    assert_error(&wrong.answer, 401, "bad_credentials");
    let short = with_cookie(
        &server,
        Method::PUT,
        path,
        &cookie,
        Some(change(PASSWORD, "short")),
    )
    .await;
    assert_error(&short.answer, 422, "invalid_field");
    assert!(
        short.answer.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("new_password")),
        "{}",
        short.answer.text
    );
    let by_token = server
        .put(path, Some(&token), change(PASSWORD, "a new password"))
        .await;
    assert_eq!(by_token.status, 403, "needs the session: {}", by_token.text);
    // None of these changed it.
    sign_in(&server, "ada", PASSWORD).await;

    let changed = with_cookie(
        &server,
        Method::PUT,
        path,
        &cookie,
        Some(change(PASSWORD, "a new password")),
    )
    .await;
    assert_eq!(changed.answer.status, 200, "{}", changed.answer.text);
    assert_eq!(changed.answer.body, json!({"username": "ada"}));
    let renewed = changed.cookie();
    assert_ne!(renewed, cookie);
    assert_eq!(account(&server, &renewed).await.status, 200);
    for ended in [&cookie, &elsewhere] {
        assert_error(&account(&server, ended).await, 401, "sign_in_needed");
    }
    let old = try_sign_in(&server, "ada", PASSWORD).await.answer;
    assert_error(&old, 401, "bad_credentials");
    sign_in(&server, "ada", "a new password").await;
}

async fn a_deleted_account_is_gone_but_its_games_stay(server: Server) {
    let cookie = sign_up(&server, "ada").await;
    let (_, token) = new_token(&server, &cookie, json!(["play", "events"])).await;
    // Ada opens White's invite signed in: the seat is hers.
    let (id, white, black, _) = crate::new_game(&server, json!({})).await;
    let game = format!("/api/games/{id}");
    let ask = Ask {
        cookie: Some(&cookie),
        bearer: Some(&white),
        ..Ask::default()
    };
    let opened = send(&server, Method::GET, &game, ask).await.answer;
    assert_eq!(opened.body["players"]["white"]["username"], "ada");
    crate::set_up(&server, &id, &white, "default", "d1").await;
    crate::set_up(&server, &id, &black, "default", "d8").await;
    let resigned = server
        .post(&format!("{game}/resign"), Some(&black), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let counts = server.get("/api/users/ada", None).await.body;
    assert_eq!(counts["counts"]["wins"], 1, "{counts}");

    let delete = |password: Value| {
        with_cookie(
            &server,
            Method::DELETE,
            "/api/account",
            &cookie,
            Some(json!({ "password": password })),
        )
    };
    let wrong = delete(json!("not the password")).await;
    assert_error(&wrong.answer, 401, "bad_credentials");
    let missing = with_cookie(
        &server,
        Method::DELETE,
        "/api/account",
        &cookie,
        Some(json!({})),
    )
    .await;
    assert_error(&missing.answer, 422, "invalid_field");
    let by_token = server
        .call(
            Method::DELETE,
            "/api/account",
            Some(&token),
            Some(json!({ "password": PASSWORD })),
        )
        .await;
    assert_eq!(by_token.status, 403, "needs the session: {}", by_token.text);
    assert_eq!(account(&server, &cookie).await.status, 200, "still there");

    let deleted = delete(json!(PASSWORD)).await;
    assert_eq!(deleted.answer.status, 204, "{}", deleted.answer.text);
    assert!(deleted.set_cookie().starts_with("gmo_session=;"));
    assert_error(&account(&server, &cookie).await, 401, "sign_in_needed");
    assert_error(
        &server.get("/api/account", Some(&token)).await,
        401,
        "unauthorized",
    );
    let signed_in = try_sign_in(&server, "ada", PASSWORD).await.answer;
    assert_error(&signed_in, 401, "bad_credentials");
    for path in [
        "/api/users/ada",
        "/api/users/ada/games",
        "/api/users/ada/rating-history",
    ] {
        assert_error(&server.get(path, None).await, 404, "not_found");
    }
    // The game stays, with a deleted player in White's seat.
    let view = server.get(&game, None).await;
    assert_eq!(view.status, 200, "{}", view.text);
    let player = &view.body["players"]["white"];
    assert_eq!(player["deleted"], true, "{}", view.text);
    assert_eq!(player["username"], Value::Null, "{}", view.text);
    assert_eq!(view.body["status"], "white_won");
    assert!(!view.text.contains("\"ada\""), "{}", view.text);
    let record = server.get(&format!("{game}/record"), None).await;
    assert_eq!(record.status, 200, "{}", record.text);
    // The name is free again, for a new account with nothing of the old one's.
    let fresh = sign_up(&server, "ADA").await;
    assert_eq!(account(&server, &fresh).await.body["username"], "ADA");
    let games = server.get("/api/users/ada/games", None).await;
    assert_eq!(games.body, json!([]), "{}", games.text);
    let profile = server.get("/api/users/ada", None).await.body;
    assert_eq!(profile["counts"]["games"], 0, "{profile}");
    assert_eq!(
        server.get(&game, None).await.body["players"]["white"]["deleted"],
        true
    );
}

async fn personal_tokens_are_shown_once_listed_without_secrets_and_revocable(server: Server) {
    let cookie = sign_up(&server, "ada").await;
    let made = with_cookie(
        &server,
        Method::POST,
        "/api/account/tokens",
        &cookie,
        Some(json!({"description": "my bot ♞", "scopes": ["play", "events", "play"]})),
    )
    .await
    .answer;
    assert_eq!(made.status, 201, "{}", made.text);
    let mut keys: Vec<&String> = made.body.as_object().expect("an object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["id", "token"]);
    let (id, token) = (
        made.body["id"].as_str().expect("an id").to_owned(),
        made.body["token"].as_str().expect("a token").to_owned(),
    );
    let secret = token.strip_prefix("gmo_").expect("gmo_…");
    assert!(
        secret.len() == 32 && secret.chars().all(|c| c.is_ascii_hexdigit()),
        "{token}"
    );
    let (other_id, other) = new_token(&server, &cookie, json!(["events"])).await;
    assert_ne!(other, token);

    let listed = token_list(&server, &cookie).await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    for shown in [&token, &other] {
        assert!(!listed.text.contains(shown.as_str()), "{}", listed.text);
        assert!(!listed.text.contains(&shown[4..]), "{}", listed.text);
    }
    let rows = listed.body.as_array().expect("a list");
    assert_eq!(rows.len(), 2, "{}", listed.text);
    assert_eq!(rows[0]["id"], id.as_str(), "oldest first");
    assert_eq!(rows[0]["description"], "my bot ♞");
    assert_eq!(rows[0]["scopes"], json!(["play", "events"]));
    assert_eq!(rows[1]["id"], other_id.as_str());
    assert_eq!(rows[1]["scopes"], json!(["events"]));
    assert!(
        rows[0]["created_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );

    // A token cannot make, list or revoke tokens: that needs the session.
    let body = json!({"description": "a child", "scopes": ["play"]});
    let child = server.post("/api/account/tokens", Some(&token), body).await;
    assert_eq!(child.status, 403, "{}", child.text);
    assert_eq!(
        server.get("/api/account/tokens", Some(&token)).await.status,
        403
    );
    let path = format!("/api/account/tokens/{other_id}");
    assert_eq!(server.delete(&path, Some(&token)).await.status, 403);
    assert_eq!(
        token_list(&server, &cookie)
            .await
            .body
            .as_array()
            .map(Vec::len),
        Some(2),
        "nothing made or revoked by a token"
    );
    // Without anything: 401.
    let anonymous = server
        .post(
            "/api/account/tokens",
            None,
            json!({"description": "x", "scopes": ["play"]}),
        )
        .await;
    assert_error(&anonymous, 401, "sign_in_needed");

    // Another account cannot revoke Ada's token.
    let bob = sign_up(&server, "bob").await;
    let stolen = with_cookie(&server, Method::DELETE, &path, &bob, None).await;
    assert_error(&stolen.answer, 404, "not_found");
    assert_eq!(server.get("/api/account", Some(&other)).await.status, 200);

    let revoked = with_cookie(&server, Method::DELETE, &path, &cookie, None).await;
    assert_eq!(revoked.answer.status, 204, "{}", revoked.answer.text);
    assert_error(
        &server.get("/api/account", Some(&other)).await,
        401,
        "unauthorized",
    );
    assert_eq!(
        server.get("/api/account", Some(&token)).await.status,
        200,
        "the other token holds"
    );
    let again = with_cookie(&server, Method::DELETE, &path, &cookie, None).await;
    assert_error(&again.answer, 404, "not_found");
    let left = token_list(&server, &cookie).await.body;
    assert_eq!(left.as_array().map(Vec::len), Some(1), "{left}");
    let bad_id = with_cookie(
        &server,
        Method::DELETE,
        "/api/account/tokens/nosuch",
        &cookie,
        None,
    )
    .await;
    assert_error(&bad_id.answer, 400, "bad_path");
}

async fn bad_token_requests_are_refused_naming_the_field(server: Server) {
    let cookie = sign_up(&server, "ada").await;
    let long = "d".repeat(101);
    let cases = [
        (
            json!({"description": "x", "scopes": []}),
            "bad_scopes",
            "scopes",
        ),
        (
            json!({"description": "x", "scopes": ["admin"]}),
            "invalid_field",
            "scopes[0]",
        ),
        (
            json!({"description": "x", "scopes": "play"}),
            "invalid_field",
            "scopes",
        ),
        (json!({"description": "x"}), "invalid_field", "scopes"),
        (json!({"scopes": ["play"]}), "invalid_field", "description"),
        (
            json!({"description": "", "scopes": ["play"]}),
            "bad_description",
            "description",
        ),
        (
            json!({"description": long, "scopes": ["play"]}),
            "bad_description",
            "description",
        ),
        (
            json!({"description": "two\nlines", "scopes": ["play"]}),
            "bad_description",
            "description",
        ),
        (
            json!({"description": "x", "scopes": ["play"], "expires": 5}),
            "invalid_field",
            "expires",
        ),
    ];
    for (body, code, field) in cases {
        let refused = with_cookie(
            &server,
            Method::POST,
            "/api/account/tokens",
            &cookie,
            Some(body.clone()),
        )
        .await
        .answer;
        assert_error(&refused, 422, code);
        let message = refused.body["error"]["message"]
            .as_str()
            .expect("a message");
        assert!(message.contains(field), "{body}: {message}");
    }
    assert_eq!(
        token_list(&server, &cookie).await.body,
        json!([]),
        "nothing made"
    );
    // The longest description is 100 characters, whatever their bytes.
    let hundred = "é".repeat(100);
    let made = with_cookie(
        &server,
        Method::POST,
        "/api/account/tokens",
        &cookie,
        Some(json!({"description": hundred, "scopes": ["events"]})),
    )
    .await
    .answer;
    assert_eq!(made.status, 201, "{}", made.text);
}

async fn cross_origin_changes_with_the_cookie_are_refused(server: Server) {
    let cookie = sign_up(&server, "ada").await;
    let own = server.base.clone();
    let elsewhere: [(&'static str, &str); 4] = [
        ("origin", "http://evil.example"),
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-site", "same-site"),
        ("origin", "null"),
    ];
    let changes = [
        (
            Method::POST,
            "/api/account/tokens",
            Some(json!({"description": "stolen", "scopes": ["play"]})),
        ),
        (
            Method::PUT,
            "/api/account/password",
            Some(json!({"password": PASSWORD, "new_password": "chosen by evil"})),
        ),
        (
            Method::DELETE,
            "/api/account",
            Some(json!({ "password": PASSWORD })),
        ),
        (Method::DELETE, "/api/session", None),
        (
            Method::POST,
            "/api/seeks",
            Some(json!({"clock": {"initial_ms": 300_000}, "rated": true})),
        ),
    ];
    for (header, value) in elsewhere {
        for (method, path, body) in &changes {
            let ask = Ask {
                cookie: Some(&cookie),
                headers: vec![(header, value)],
                json: body.clone(),
                ..Ask::default()
            };
            let refused = send(&server, method.clone(), path, ask).await.answer;
            assert_error(&refused, 403, "cross_origin");
        }
    }
    // Nothing changed: the session holds, the password is the old one, no token, no seek.
    assert_eq!(account(&server, &cookie).await.status, 200);
    assert_eq!(token_list(&server, &cookie).await.body, json!([]));
    assert_eq!(server.get("/api/seeks", None).await.body, json!([]));
    sign_in(&server, "ada", PASSWORD).await;
    // Reading cross-origin is fine; so is a change from the server's own origin, or one that
    // carries no cookie (a script with a personal token).
    let ask = Ask {
        cookie: Some(&cookie),
        headers: vec![("origin", "http://evil.example")],
        ..Ask::default()
    };
    assert_eq!(
        send(&server, Method::GET, "/api/account", ask)
            .await
            .answer
            .status,
        200
    );
    for headers in [
        vec![("origin", own.as_str())],
        vec![("sec-fetch-site", "same-origin"), ("origin", own.as_str())],
    ] {
        let ask = Ask {
            cookie: Some(&cookie),
            headers,
            json: Some(json!({"description": "from the page", "scopes": ["play"]})),
            ..Ask::default()
        };
        let made = send(&server, Method::POST, "/api/account/tokens", ask).await;
        assert_eq!(made.answer.status, 201, "{}", made.answer.text);
    }
    let (_, token) = new_token(&server, &cookie, json!(["play"])).await;
    let ask = Ask {
        bearer: Some(&token),
        headers: vec![("origin", "http://evil.example")],
        json: Some(json!({"clock": {"initial_ms": 300_000}, "rated": true})),
        ..Ask::default()
    };
    let seek = send(&server, Method::POST, "/api/seeks", ask).await.answer;
    assert_eq!(seek.status, 201, "{}", seek.text);
}

async fn oversized_bodies_are_refused_and_create_nothing(server: Server) {
    let padding = "x".repeat(gmo_server::BODY_LIMIT + 10);
    let huge = format!(r#"{{"username": "ada", "password": "{PASSWORD}", "pad": "{padding}"}}"#);
    for path in ["/api/account", "/api/session"] {
        let ask = Ask {
            raw: Some(huge.clone()),
            ..Ask::default()
        };
        let refused = send(&server, Method::POST, path, ask).await;
        assert_error(&refused.answer, 413, "too_large");
        assert!(refused.headers.get("set-cookie").is_none());
    }
    let huge_password = format!(r#"{{"username": "ada", "password": "{padding}"}}"#);
    let ask = Ask {
        raw: Some(huge_password),
        ..Ask::default()
    };
    let refused = send(&server, Method::POST, "/api/account", ask)
        .await
        .answer;
    assert_error(&refused, 413, "too_large");
    assert_error(&server.get("/api/users/ada", None).await, 404, "not_found");
    let cookie = sign_up(&server, "ada").await;
    let ask = Ask {
        cookie: Some(&cookie),
        raw: Some(format!(
            r#"{{"description": "{padding}", "scopes": ["play"]}}"#
        )),
        ..Ask::default()
    };
    let refused = send(&server, Method::POST, "/api/account/tokens", ask).await;
    assert_error(&refused.answer, 413, "too_large");
    assert_eq!(token_list(&server, &cookie).await.body, json!([]));
    // Malformed JSON is 400.
    let ask = Ask {
        raw: Some(r#"{"username": "bob", "password": "#.to_owned()),
        ..Ask::default()
    };
    let malformed = send(&server, Method::POST, "/api/account", ask)
        .await
        .answer;
    assert_error(&malformed, 400, "malformed_json");
    assert_eq!(server.get("/api/users/bob", None).await.status, 404);
}

async fn a_new_player_has_an_empty_profile(server: Server) {
    let cookie = sign_up(&server, "Ada").await;
    let created_at = account(&server, &cookie).await.body["created_at"].clone();
    let profile = server.get("/api/users/aDA", None).await;
    assert_eq!(profile.status, 200, "{}", profile.text);
    assert_eq!(
        profile.body,
        json!({
            "username": "Ada",
            "bot": false,
            "rating": {"value": 1500, "deviation": 500, "provisional": true, "games": 0},
            "counts": {"games": 0, "wins": 0, "draws": 0, "losses": 0},
            "created_at": created_at,
        })
    );
    for path in ["/api/users/ada/games", "/api/users/ADA/rating-history"] {
        let empty = server.get(path, None).await;
        assert_eq!(empty.status, 200, "{path}: {}", empty.text);
        assert_eq!(empty.body, json!([]), "{path}");
    }
    let leaders = server.get("/api/leaderboard", None).await;
    assert_eq!(leaders.status, 200);
    assert_eq!(
        leaders.body,
        json!([]),
        "a provisional rating is not listed"
    );
    for path in [
        "/api/users/nobody",
        "/api/users/nobody/games",
        "/api/users/nobody/rating-history",
    ] {
        assert_error(&server.get(path, None).await, 404, "not_found");
    }
    assert_error(&server.get("/api/users/a b", None).await, 400, "bad_path");
    // An anonymous game lists nobody.
    crate::new_game(&server, json!({})).await;
    assert_eq!(
        server.get("/api/users/ada/games", None).await.body,
        json!([])
    );
}

/// On servers behind a TLS proxy that they trust to name the client (`X-Forwarded-For`).
mod behind_a_proxy {
    use super::*;

    both_with!(
        super::proxied;
        the_cookie_is_secure_behind_tls,
        failures_for_one_username_are_throttled_from_any_address,
        failures_from_one_address_are_throttled_for_any_username,
    );

    fn proxied(settings: &mut gmo_server::Settings) {
        settings.behind_tls = true;
        settings.trusted_proxies = vec![[127, 0, 0, 1].into()];
    }

    /// `POST path` with credentials, from `address` as the proxy says.
    async fn from(
        server: &Server,
        address: &str,
        path: &str,
        username: &str,
        password: &str,
    ) -> Reply {
        let ask = Ask {
            headers: vec![("x-forwarded-for", address)],
            json: Some(credentials(username, password)),
            ..Ask::default()
        };
        send(server, Method::POST, path, ask).await
    }

    fn secure(reply: &Reply) {
        let set_cookie = reply.set_cookie();
        let attributes = attributes(&set_cookie);
        for wanted in ["secure", "httponly", "samesite=lax", "path=/"] {
            assert!(
                attributes.iter().any(|a| a == wanted),
                "{set_cookie} lacks {wanted}"
            );
        }
    }

    async fn the_cookie_is_secure_behind_tls(server: Server) {
        let up = try_sign_up(&server, "ada", PASSWORD).await;
        assert_eq!(up.answer.status, 201, "{}", up.answer.text);
        secure(&up);
        let cookie = up.cookie();
        let renewed = try_sign_in(&server, "ada", PASSWORD).await;
        secure(&renewed);
        let out = with_cookie(&server, Method::DELETE, "/api/session", &cookie, None).await;
        assert_eq!(out.answer.status, 204);
        secure(&out);
        assert_eq!(account(&server, &renewed.cookie()).await.status, 200);
    }

    async fn failures_for_one_username_are_throttled_from_any_address(server: Server) {
        sign_up(&server, "ada").await;
        sign_up(&server, "bob").await;
        for n in 0..10 {
            let address = format!("192.0.2.{n}");
            let refused = from(&server, &address, "/api/session", "ada", "wrong password").await;
            assert_error(&refused.answer, 401, "bad_credentials");
        }
        // Ada's name is throttled from a new address, her right password too.
        for password in ["wrong password", PASSWORD] {
            let throttled = from(&server, "198.51.100.1", "/api/session", "ADA", password).await;
            assert_error(&throttled.answer, 429, "rate_limited");
            let seconds: u64 = throttled.headers["retry-after"]
                .to_str()
                .expect("ascii")
                .parse()
                .expect("seconds");
            assert!((1..=600).contains(&seconds), "{seconds}");
        }
        // Another name from an address that failed is not.
        let bob = from(&server, "192.0.2.0", "/api/session", "bob", PASSWORD).await;
        assert_eq!(bob.answer.status, 200, "{}", bob.answer.text);
    }

    async fn failures_from_one_address_are_throttled_for_any_username(server: Server) {
        sign_up(&server, "ada").await;
        let evil = "203.0.113.7";
        for n in 0..10 {
            let name = format!("guess{n}");
            let refused = from(&server, evil, "/api/session", &name, "wrong password").await;
            assert_error(&refused.answer, 401, "bad_credentials");
        }
        let throttled = from(&server, evil, "/api/session", "ada", PASSWORD).await;
        assert_error(&throttled.answer, 429, "rate_limited");
        assert!(throttled.headers.contains_key("retry-after"));
        // Sign-ups from that address wait too, and make nothing.
        let up = from(&server, evil, "/api/account", "carol", PASSWORD).await;
        assert_error(&up.answer, 429, "rate_limited");
        assert_error(
            &server.get("/api/users/carol", None).await,
            404,
            "not_found",
        );
        // Ada herself, from elsewhere, is not throttled.
        let ada = from(&server, "198.51.100.2", "/api/session", "ada", PASSWORD).await;
        assert_eq!(ada.answer.status, 200, "{}", ada.answer.text);
    }
}

/// With a budget of 3 creations a minute per address.
mod creation_budget {
    use super::*;

    both_with!(
        super::three_a_minute;
        sign_ups_and_personal_tokens_spend_the_creation_budget,
    );

    fn three_a_minute(settings: &mut gmo_server::Settings) {
        settings.rate_limit = 3;
    }

    async fn sign_ups_and_personal_tokens_spend_the_creation_budget(server: Server) {
        // A bucket of 3 that refills one every 20 s.
        let cookie = sign_up(&server, "ada").await;
        new_token(&server, &cookie, json!(["play"])).await;
        // A refused sign-up spends one too: the budget is taken first.
        let refused = try_sign_up(&server, "ab", PASSWORD).await.answer;
        assert_error(&refused, 422, "invalid_field");
        let spent = try_sign_up(&server, "bob", PASSWORD).await;
        assert_error(&spent.answer, 429, "rate_limited");
        let seconds: u64 = spent.headers["retry-after"]
            .to_str()
            .expect("ascii")
            .parse()
            .expect("seconds");
        assert!((1..=20).contains(&seconds), "{seconds}");
        assert!(spent.headers.get("set-cookie").is_none());
        assert_error(&server.get("/api/users/bob", None).await, 404, "not_found");
        let body = json!({"description": "one more", "scopes": ["play"]});
        let token = with_cookie(
            &server,
            Method::POST,
            "/api/account/tokens",
            &cookie,
            Some(body),
        )
        .await;
        assert_error(&token.answer, 429, "rate_limited");
        let listed = token_list(&server, &cookie).await.body;
        assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
        // Sign-ins and reads spend nothing: they go through with the budget empty.
        for _ in 0..3 {
            sign_in(&server, "ada", PASSWORD).await;
        }
        assert_eq!(account(&server, &cookie).await.status, 200);
    }
}

/// A sign-out through one process is refused at once by another on the same database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_sign_out_reaches_every_process() {
    crate::common::two_on_postgres(|one, two| async move {
        let cookie = sign_up(&one, "ada").await;
        let (_, token) = new_token(&one, &cookie, json!(["play"])).await;
        assert_eq!(account(&two, &cookie).await.status, 200, "shared sessions");
        assert_eq!(two.get("/api/account", Some(&token)).await.status, 200);
        let out = with_cookie(&one, Method::DELETE, "/api/session", &cookie, None).await;
        assert_eq!(out.answer.status, 204, "{}", out.answer.text);
        assert_error(&account(&two, &cookie).await, 401, "sign_in_needed");
        assert_error(&account(&one, &cookie).await, 401, "sign_in_needed");
        // A token revoked through the second process is refused by the first.
        let cookie = sign_in(&two, "ada", PASSWORD).await;
        let tokens = token_list(&two, &cookie).await.body;
        let id = tokens[0]["id"].as_str().expect("an id");
        let path = format!("/api/account/tokens/{id}");
        let revoked = with_cookie(&two, Method::DELETE, &path, &cookie, None).await;
        assert_eq!(revoked.answer.status, 204);
        assert_error(
            &one.get("/api/account", Some(&token)).await,
            401,
            "unauthorized",
        );
    })
    .await;
}
