//! Who is calling, when signed in: an account, through its session or one of its personal tokens.

use gmo_types::{AccountId, Scope, Username};

/// A signed-in caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub account: AccountId,
    pub username: Username,
    pub via: Via,
    /// A bot account (issue 33): it plays only through its tokens with the `bot` scope.
    pub bot: bool,
}

/// How the caller proved who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// A browser's session (the SHA-256 of its id): it may do everything the account may.
    Session([u8; 32]),
    /// A personal token: only what its scopes allow, and never make another token.
    Token(Vec<Scope>),
}

impl Caller {
    /// Whether the caller may act in `scope`'s part of the service. A bot plays only through
    /// a token with the `bot` scope, and only a bot has that part: a person's play and a bot's
    /// never mix (lichess keeps bots out of the lobby the same way).
    pub fn may(&self, scope: Scope) -> bool {
        let accounts_part = match scope {
            Scope::Play => !self.bot,
            Scope::Bot => self.bot,
            Scope::Events => true,
        };
        accounts_part
            && match &self.via {
                Via::Session(_) => scope != Scope::Bot,
                Via::Token(scopes) => scopes.contains(&scope),
            }
    }

    /// Why [`Caller::may`] refuses `scope`, for the answer.
    pub fn refusal(&self, scope: Scope) -> String {
        match (scope, self.bot) {
            (Scope::Play, true) | (Scope::Bot, true) => "a bot account plays only through a \
                 personal token with the scope \"bot\""
                .to_owned(),
            (Scope::Bot, false) => {
                "this is for bot accounts only (POST /api/account/bot makes one)".to_owned()
            }
            _ => format!("this personal token lacks the scope {:?}", scope.name()),
        }
    }

    /// The session it came with, if it came with one.
    pub fn session(&self) -> Option<&[u8; 32]> {
        match &self.via {
            Via::Session(hash) => Some(hash),
            Via::Token(_) => None,
        }
    }
}
