//! Naming a bot on a command line: `random`, `greedy`, `search`, `search:200ms`, `search:5000n`,
//! `search:4d` (a fixed depth).

use crate::bot::{Bot, Budget};
use crate::greedy::GreedyBot;
use crate::random::RandomBot;
use crate::search::SearchBot;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The search budget when a spec names none.
pub const DEFAULT_BUDGET: Budget = Budget::millis(100);
/// The longest time a spec may name: an hour a ply (a service holds its bots to far less).
/// Bounded so that every spec's written form (in milliseconds) reads back as the same spec:
/// `search:320957358956892230s` was once taken and written as a number of milliseconds too
/// large to read.
pub const MAX_TIME: Duration = Duration::from_secs(3_600);
/// The most search nodes a spec may name.
pub const MAX_NODES: u64 = 1_000_000_000;
/// The deepest fixed depth a spec may name.
pub const MAX_DEPTH: u32 = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Greedy,
    Search,
}

impl BotKind {
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Greedy, BotKind::Search];

    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Search => "search",
        }
    }
}

/// A bot and its budget per ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotSpec {
    pub kind: BotKind,
    pub budget: Budget,
}

/// Why a bot spec was not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSpec(pub String);

impl fmt::Display for BadSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadSpec {}

impl BotSpec {
    /// A fresh bot of this kind; `seed` drives its random choices.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match self.kind {
            BotKind::Random => Box::new(RandomBot::new(seed)),
            BotKind::Greedy => Box::new(GreedyBot::new(seed)),
            BotKind::Search => Box::new(SearchBot::new()),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            BotKind::Search => write!(f, "search:{}", self.budget),
            kind => f.write_str(kind.name()),
        }
    }
}

impl FromStr for BotSpec {
    type Err = BadSpec;

    fn from_str(text: &str) -> Result<BotSpec, BadSpec> {
        let (name, budget) = match text.split_once(':') {
            Some((name, budget)) => (name, Some(budget)),
            None => (text, None),
        };
        let kind = BotKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                BadSpec(format!(
                    "unknown bot `{name}` in `{text}`: expected random, greedy or search"
                ))
            })?;
        let budget = match (kind, budget) {
            (_, None) => DEFAULT_BUDGET,
            (BotKind::Search, Some(budget)) => parse_budget(budget)?,
            (kind, Some(_)) => {
                return Err(BadSpec(format!(
                    "`{text}`: the {} bot takes no budget (only search does)",
                    kind.name()
                )));
            }
        };
        Ok(BotSpec { kind, budget })
    }
}

/// `200ms`, `2s`, `5000n` or `4d`: a positive number and a unit.
pub fn parse_budget(text: &str) -> Result<Budget, BadSpec> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = text.split_at(digits);
    let bad = |why: &str| {
        BadSpec(format!(
            "bad budget `{text}`: {why} (expected e.g. 200ms, 2s, 5000n or 4d)"
        ))
    };
    let n: u64 = number
        .parse()
        .map_err(|_| bad("it must start with a number"))?;
    if n == 0 {
        return Err(bad("it must be more than zero"));
    }
    match unit {
        "ms" | "s" => {
            let millis = if unit == "s" {
                n.checked_mul(1_000)
            } else {
                Some(n)
            };
            millis
                .map(Duration::from_millis)
                .filter(|time| *time <= MAX_TIME)
                .map(Budget::Time)
                .ok_or_else(|| bad("a time is at most 3600s (an hour)"))
        }
        "n" => Some(n)
            .filter(|&nodes| nodes <= MAX_NODES)
            .map(Budget::Nodes)
            .ok_or_else(|| bad(&format!("a node budget is at most {MAX_NODES}n"))),
        "d" => u32::try_from(n)
            .ok()
            .filter(|&d| d <= MAX_DEPTH)
            .map(Budget::Depth)
            .ok_or_else(|| bad(&format!("a depth is at most {MAX_DEPTH}"))),
        _ => Err(bad("unknown unit")),
    }
}

/// A bot by name or spec (`random`, `greedy`, `search`, `search:200ms`), seeded with 0; `None`
/// if the name is not understood. [`BotSpec::from_str`] says why.
pub fn bot_by_name(name: &str) -> Option<Box<dyn Bot>> {
    name.parse::<BotSpec>().ok().map(|spec| spec.build(0))
}
