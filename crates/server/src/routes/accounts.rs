//! Accounts (`gmo_play::accounts`): sign up, sign in and out, the account itself, its password,
//! its deletion and its personal tokens. docs/api.md, "Accounts".

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiPath};
use crate::limits::{ClientAddress, CreationLimit};
use crate::responses::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
    Unavailable,
};
use crate::schema::{GivenPasswordText, Id, PasswordText, UsernameText};
use crate::signed::{Signed, cleared_cookie, session_cookie, session_id};
use crate::state::AppState;
use crate::views::rfc3339;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, post, put};
use gmo_play::accounts::{GivenPassword, Opened, Password};
use gmo_store::Account;
use gmo_types::{Scope, TokenId, Username};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/account", post(sign_up).get(show).delete(remove))
        .route("/api/account/password", put(change_password))
        .route("/api/account/bot", post(become_bot))
        .route("/api/session", post(sign_in).delete(sign_out))
        .route("/api/account/tokens", post(create_token).get(tokens))
        .route("/api/account/tokens/{id}", delete(revoke_token))
}

/// A username and a password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CredentialsRequest {
    #[schema(value_type = UsernameText)]
    pub username: Username,
    #[schema(value_type = PasswordText)]
    pub password: Password,
}

/// A username and the account's password, to sign in.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignInRequest {
    #[schema(value_type = UsernameText)]
    pub username: Username,
    #[schema(value_type = GivenPasswordText)]
    pub password: GivenPassword,
}

/// Who is now signed in (the session travels as the `gmo_session` cookie).
#[derive(Debug, Serialize, ToSchema)]
pub struct SignedInView {
    #[schema(value_type = UsernameText)]
    pub username: Username,
}

/// A rating as players read it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingView {
    /// The rating, rounded (a new player is 1500).
    pub value: i64,
    /// How unsure it is, rounded (a new player's is 500; it never falls below 45).
    pub deviation: i64,
    /// Whether the deviation is still 110 or more (shown with `?`).
    pub provisional: bool,
    /// Rated games played.
    pub games: u32,
}

impl RatingView {
    pub fn of(account: &Account) -> RatingView {
        RatingView {
            value: account.rating.round() as i64,
            deviation: account.deviation.round() as i64,
            provisional: account.deviation >= 110.0,
            games: account.rated_games,
        }
    }
}

/// The signed-in account.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountView {
    #[schema(value_type = UsernameText)]
    pub username: Username,
    pub rating: RatingView,
    /// When the account was made (RFC 3339, UTC).
    pub created_at: String,
    /// A bot account: it plays only through personal tokens with the `bot` scope, rated apart
    /// from people.
    pub bot: bool,
}

/// A change of password: the current one, and the new one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    #[schema(value_type = GivenPasswordText)]
    pub password: GivenPassword,
    #[schema(value_type = PasswordText)]
    pub new_password: Password,
}

/// The deletion of the account, confirmed by its password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AccountDeletion {
    #[schema(value_type = GivenPasswordText)]
    pub password: GivenPassword,
}

/// A new personal token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTokenRequest {
    /// What the token is for: 1 to 100 characters, no control characters.
    #[schema(min_length = 1, max_length = 100)]
    pub description: String,
    /// What it may do: `play` (seeks, games), `events` (events and teams), `bot` (a bot
    /// account's challenges and event stream; a bot's tokens have it, and only theirs); at least
    /// one.
    #[schema(min_items = 1, max_items = 3)]
    pub scopes: Vec<Scope>,
}

/// A personal token just made: its secret is shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewTokenView {
    #[schema(value_type = Id)]
    pub id: TokenId,
    /// `gmo_` and 32 hex digits; send it as `Authorization: Bearer gmo_…`.
    pub token: String,
}

/// A personal token as listed (never its secret).
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenView {
    #[schema(value_type = Id)]
    pub id: TokenId,
    pub description: String,
    pub scopes: Vec<String>,
    /// When it was made (RFC 3339, UTC).
    pub created_at: String,
}

/// The answer to a sign-up or sign-in: the name and the new session's cookie.
fn signed_in(state: &AppState, status: StatusCode, opened: Opened) -> Response {
    let cookie = session_cookie(&opened, state.settings.behind_tls);
    let view = SignedInView {
        username: opened.username,
    };
    (status, [cookie], Json(view)).into_response()
}

/// Makes an account and signs it in. The username keeps its case and is unique without regard
/// to it; the password is 8 to 128 characters (all of them count).
#[utoipa::path(post, path = "/api/account", tag = "accounts", operation_id = "sign_up",
    request_body = CredentialsRequest,
    responses((status = 201, description = "made and signed in: `Set-Cookie: gmo_session=…` \
(HttpOnly, SameSite=Lax, Path=/)", body = SignedInView),
              (status = 400, response = BadRequest), (status = 409, response = Conflict),
              (status = 413, response = TooLarge), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests),
              (status = 503, response = Unavailable)))]
pub async fn sign_up(
    _: CreationLimit,
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    ApiJson(body): ApiJson<CredentialsRequest>,
) -> ApiResult<impl IntoResponse> {
    let accounts = &state.play.accounts;
    let opened = accounts
        .sign_up(body.username, body.password, &address)
        .await?;
    Ok(signed_in(&state, StatusCode::CREATED, opened))
}

/// Signs in: a new session. An unknown username and a wrong password get the same answer, as does
/// a password that breaks the rules of new ones (any length); after
/// 10 failures in 10 minutes for one username or from one address, `429` until the oldest is 10
/// minutes old.
#[utoipa::path(post, path = "/api/session", tag = "accounts", operation_id = "sign_in",
    request_body = SignInRequest,
    responses((status = 200, description = "signed in: a new `gmo_session` cookie", body = SignedInView),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 413, response = TooLarge), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests),
              (status = 503, response = Unavailable)))]
pub async fn sign_in(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    ApiJson(body): ApiJson<SignInRequest>,
) -> ApiResult<impl IntoResponse> {
    let accounts = &state.play.accounts;
    let opened = accounts
        .sign_in(body.username, body.password, &address)
        .await?;
    Ok(signed_in(&state, StatusCode::OK, opened))
}

/// Signs out: the session stops working at once, on every process, and the cookie is cleared.
/// Without a session, nothing changes.
#[utoipa::path(delete, path = "/api/session", tag = "accounts", operation_id = "sign_out",
    responses((status = 204, description = "signed out (the cookie is cleared)")))]
pub async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<impl IntoResponse> {
    if let Some(session) = session_id(&headers) {
        state.play.accounts.sign_out(&session).await?;
    }
    let cookie = cleared_cookie(state.settings.behind_tls);
    Ok((StatusCode::NO_CONTENT, [cookie]))
}

/// The signed-in account (by its session or a personal token).
#[utoipa::path(get, path = "/api/account", tag = "accounts", operation_id = "show_account",
    security(("session" = []), ("bearer" = [])),
    responses((status = 200, description = "the account", body = AccountView),
              (status = 401, response = Unauthorized)))]
pub async fn show(
    State(state): State<AppState>,
    Signed(caller): Signed,
) -> ApiResult<Json<AccountView>> {
    let account = state.play.accounts.account(&caller).await?;
    Ok(Json(AccountView {
        rating: RatingView::of(&account),
        created_at: rfc3339(account.created_at),
        bot: account.bot,
        username: account.username,
    }))
}

/// Makes the account a bot, for good (issue 33): from now on it plays only through personal
/// tokens with the `bot` scope (challenges and the event stream; not the lobby), shown as a bot
/// wherever its name is, and rated apart from people. Refused (`409 rated_games_played`) once
/// the account has played a rated game; an account that is a bot already stays one (`200`).
#[utoipa::path(post, path = "/api/account/bot", tag = "accounts", operation_id = "become_bot",
    security(("session" = []), ("bearer" = [])),
    responses((status = 200, description = "the account, a bot now", body = AccountView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 409, response = Conflict)))]
pub async fn become_bot(
    State(state): State<AppState>,
    Signed(caller): Signed,
) -> ApiResult<Json<AccountView>> {
    let accounts = &state.play.accounts;
    accounts.become_bot(&caller).await?;
    show(State(state), Signed(caller)).await
}

/// Changes the password (the current one confirms it): this session gets a new cookie and every
/// other session of the account ends. Wrong passwords count as failed sign-ins.
#[utoipa::path(put, path = "/api/account/password", tag = "accounts",
    operation_id = "change_password", security(("session" = [])), request_body = PasswordChange,
    responses((status = 200, description = "changed; a new `gmo_session` cookie", body = SignedInView),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 413, response = TooLarge),
              (status = 422, response = Invalid), (status = 429, response = TooManyRequests),
              (status = 503, response = Unavailable)))]
pub async fn change_password(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    Signed(caller): Signed,
    ApiJson(body): ApiJson<PasswordChange>,
) -> ApiResult<impl IntoResponse> {
    let opened = state
        .play
        .accounts
        .change_password(&caller, body.password, body.new_password, &address)
        .await?;
    Ok(signed_in(&state, StatusCode::OK, opened))
}

/// Deletes the account (its password confirms it): sessions and tokens end, the name is free
/// again, its games stay and show a deleted player.
#[utoipa::path(delete, path = "/api/account", tag = "accounts", operation_id = "delete_account",
    security(("session" = [])), request_body = AccountDeletion,
    responses((status = 204, description = "deleted (the cookie is cleared)"),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 413, response = TooLarge),
              (status = 422, response = Invalid), (status = 429, response = TooManyRequests),
              (status = 503, response = Unavailable)))]
pub async fn remove(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    Signed(caller): Signed,
    ApiJson(body): ApiJson<AccountDeletion>,
) -> ApiResult<impl IntoResponse> {
    let accounts = &state.play.accounts;
    accounts.delete(&caller, body.password, &address).await?;
    let cookie = cleared_cookie(state.settings.behind_tls);
    Ok((StatusCode::NO_CONTENT, [cookie]))
}

/// Makes a personal token (with the session only: a token cannot make another). Its secret is
/// in this answer only; the server keeps its SHA-256.
#[utoipa::path(post, path = "/api/account/tokens", tag = "accounts", operation_id = "create_token",
    security(("session" = [])), request_body = NewTokenRequest,
    responses((status = 201, description = "made; the token is shown this once", body = NewTokenView),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 409, response = Conflict),
              (status = 413, response = TooLarge), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests)))]
pub async fn create_token(
    _: CreationLimit,
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiJson(body): ApiJson<NewTokenRequest>,
) -> ApiResult<impl IntoResponse> {
    let made = state
        .play
        .accounts
        .create_token(&caller, &body.description, &body.scopes)
        .await?;
    let view = NewTokenView {
        id: made.id,
        token: made.token,
    };
    Ok((StatusCode::CREATED, Json(view)))
}

/// The account's personal tokens, oldest first, without their secrets (with the session only).
#[utoipa::path(get, path = "/api/account/tokens", tag = "accounts", operation_id = "list_tokens",
    security(("session" = [])),
    responses((status = 200, description = "the tokens", body = [TokenView]),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden)))]
pub async fn tokens(
    State(state): State<AppState>,
    Signed(caller): Signed,
) -> ApiResult<Json<Vec<TokenView>>> {
    let tokens = state.play.accounts.tokens(&caller).await?;
    let views = tokens
        .into_iter()
        .map(|token| TokenView {
            id: token.id,
            description: token.description,
            scopes: token.scopes,
            created_at: rfc3339(token.created_at),
        })
        .collect();
    Ok(Json(views))
}

/// Revokes a personal token: it stops working at once, on every process.
#[utoipa::path(delete, path = "/api/account/tokens/{id}", tag = "accounts",
    operation_id = "revoke_token", security(("session" = [])),
    params(("id" = Id, Path, description = "the token's id")),
    responses((status = 204, description = "revoked"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn revoke_token(
    State(state): State<AppState>,
    Signed(caller): Signed,
    ApiPath(id): ApiPath<TokenId>,
) -> ApiResult<StatusCode> {
    state.play.accounts.revoke_token(&caller, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
