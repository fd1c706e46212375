//! Who is calling, when signed in: an account, through its session or one of its personal tokens.

use gmo_types::{AccountId, Scope, Username};

/// A signed-in caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub account: AccountId,
    pub username: Username,
    pub via: Via,
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
    /// Whether the caller may act in `scope`'s part of the service.
    pub fn may(&self, scope: Scope) -> bool {
        match &self.via {
            Via::Session(_) => true,
            Via::Token(scopes) => scopes.contains(&scope),
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
