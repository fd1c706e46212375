//! Naming a side of a match: a built-in bot (`random`, `search:200ms`, …) or an agent program
//! (`exec:python3 my_agent.py`), whose command is split as a shell would split it and run
//! without a shell.

use gmo_bots::BotSpec;
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Side {
    Bot(BotSpec),
    /// An agent: the command as given, and its words.
    Exec {
        command: String,
        argv: Vec<String>,
    },
}

impl Side {
    /// The built-in bot, if this side is one.
    pub fn bot(&self) -> Option<BotSpec> {
        match self {
            Side::Bot(spec) => Some(*spec),
            Side::Exec { .. } => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::Bot(spec) => spec.fmt(f),
            Side::Exec { command, .. } => write!(f, "exec:{command}"),
        }
    }
}

impl FromStr for Side {
    type Err = String;

    fn from_str(text: &str) -> Result<Side, String> {
        let Some(command) = text.strip_prefix("exec:") else {
            return text.parse().map(Side::Bot).map_err(|e| {
                format!("{e}; or exec:COMMAND to run an agent program (docs/agents.md)")
            });
        };
        let argv = shlex::split(command).ok_or_else(|| {
            format!("`{command}` cannot be split into words: a quote is not closed")
        })?;
        if argv.is_empty() {
            return Err("exec: needs a command, e.g. exec:python3 random_agent.py".to_string());
        }
        Ok(Side::Exec {
            command: command.trim().to_string(),
            argv,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_a_bot_or_a_command_split_as_a_shell_would() {
        assert_eq!(
            "random".parse::<Side>().map(|s| s.to_string()),
            Ok("random".to_string())
        );
        let Ok(Side::Exec { argv, .. }) = "exec:python3 'my agent.py' --depth 2".parse() else {
            panic!("an exec side");
        };
        assert_eq!(argv, ["python3", "my agent.py", "--depth", "2"]);
        let open = "exec:python3 'my agent.py"
            .parse::<Side>()
            .expect_err("open quote");
        assert!(open.contains("quote"), "{open}");
        assert!("exec:  ".parse::<Side>().is_err());
        let unknown = "sarch".parse::<Side>().expect_err("no such bot");
        assert!(unknown.contains("exec:COMMAND"), "{unknown}");
    }
}
