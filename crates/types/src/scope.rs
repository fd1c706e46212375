//! What a personal token may do for its account.

use serde::{Deserialize, Serialize};

/// A personal token's permission: `play` (seeks, games), `events` (events and teams) or `bot`
/// (a bot account's play: challenges and the event stream; only a bot's tokens have it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Play,
    Events,
    Bot,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Play, Scope::Events, Scope::Bot];

    pub const fn name(self) -> &'static str {
        match self {
            Scope::Play => "play",
            Scope::Events => "events",
            Scope::Bot => "bot",
        }
    }

    /// The scope named `name`, if any.
    pub fn named(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|scope| scope.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Scope;

    #[test]
    fn scopes_are_named_as_the_wire_spells_them() {
        for scope in Scope::ALL {
            let wire = serde_json::to_value(scope).expect("serialised");
            assert_eq!(wire, scope.name());
            assert_eq!(Scope::named(scope.name()), Some(scope));
        }
        assert_eq!(Scope::named("admin"), None);
    }
}
