//! The game service's settings: each written once, as a flag with its environment variable and
//! default, read by `gmo serve` (which flattens them beside the HTTP edge's) and by tests
//! through [`Settings::default`], which takes the defaults and ignores the environment.

use crate::analyses::AnalysisLimits;
use crate::labs::LabSearches;
use crate::retention::Retention;
use crate::values::ValueLimits;
use clap::builder::TypedValueParser;
use gmo_store::SeekLimits;
use std::time::Duration;

/// The service's settings.
#[derive(Debug, Clone, clap::Args)]
#[group(id = "game_service")]
pub struct Settings {
    /// `postgres://…` or `sqlite://path` (the file is created on first start).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://gmo.sqlite")]
    pub database_url: String,
    /// Connections to PostgreSQL (SQLite ignores it). Moves committing at once share a disk
    /// flush, so up to about the number of players moving at once this raises moves a second;
    /// PostgreSQL's own `max_connections` must leave room for every process's pool.
    #[arg(long, env = "GMO_DATABASE_CONNECTIONS",
          default_value_t = gmo_store::DEFAULT_POSTGRES_CONNECTIONS,
          value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub database_connections: u32,
    /// How often every process sweeps the database for games whose clock fell, bot turns nobody
    /// holds, evaluations to run and quiet seeks.
    #[arg(long, env = "GMO_SWEEP_INTERVAL", default_value = "1s",
          value_parser = duration_between(Duration::from_millis(10), Duration::from_secs(60)))]
    pub sweep_interval: Duration,
    /// Each side's time for its first move, before the clocks start (rules §5.4); a side that
    /// lets it run out aborts the game.
    #[arg(long, env = "GMO_FIRST_MOVE_TIME", default_value = "30",
          value_parser = duration_between(Duration::from_millis(1), Duration::from_secs(3_600)))]
    pub first_move_time: Duration,
    /// How long a player whose game page is closed (no stream of its seat) counts as still there;
    /// after it the other side is told "your opponent left".
    #[arg(long, env = "GMO_AWAY_AFTER", default_value = "12",
          value_parser = duration_between(Duration::from_millis(100), Duration::from_secs(600)))]
    pub away_after: Duration,
    /// How long a player must have been away before the other may claim the victory.
    #[arg(long, env = "GMO_CLAIM_AFTER", default_value = "60",
          value_parser = duration_between(Duration::from_millis(100), Duration::from_secs(3_600)))]
    pub claim_after: Duration,
    /// Discovery: the genome language kept secret, as at the camp GMO chess was made for.
    /// Genome answers explain nothing, invalid DNA is only "not a valid genome", diagrams,
    /// breeding and strength estimates are refused, and games show nobody the other side's
    /// genomes, after the end too (docs/operations.md, "Discovery").
    #[arg(long, env = "GMO_DISCOVERY", value_parser = switch())]
    pub discovery: bool,
    /// How long after a round of an event is paired its games start by themselves, whoever of
    /// the teams has not declared ready (any process starts them).
    #[arg(long, env = "GMO_EVENT_START_AFTER", default_value = "60",
          value_parser = duration_between(Duration::from_millis(100), Duration::from_secs(3_600)))]
    pub event_start_after: Duration,
    /// How long a challenge waits for an answer before it expires (issue 33; lichess: 60 s).
    #[arg(long, env = "GMO_CHALLENGE_EXPIRY", default_value = "60",
          value_parser = duration_between(Duration::from_millis(100), Duration::from_secs(3_600)))]
    pub challenge_expiry: Duration,
    /// The most live games with a bot seat in the whole deployment (counted in the database);
    /// creating one more is refused as unavailable. 0 refuses every game with a bot.
    #[arg(long, env = "GMO_MAX_BOT_GAMES", default_value_t = 32)]
    pub max_bot_games: u32,
    /// The most passwords hashed at once by this process (Argon2id, 19 MiB and some 20–50 ms of
    /// one core each), on threads of their own at the lowest CPU priority; more sign-ins wait
    /// their turn, so a flood of them cannot stall play.
    #[arg(long, env = "GMO_PASSWORD_HASHES", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub password_hashes: u32,
    /// The most of one core that password hashing may take over time, in percent: hashing time
    /// (CPU time) accrues at this rate, up to half a second saved, and a flood of sign-ins waits
    /// for it. At 3 % and some 45 ms a hash, a flood is held to about two sign-ins in three
    /// seconds, while some ten go through at once after a quiet spell.
    #[arg(long, env = "GMO_PASSWORD_HASH_SHARE", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub password_hash_share: u32,
    /// The most genome value evaluations running at once in the whole deployment (counted in the
    /// database); each takes one core while it runs.
    #[arg(long, env = "GMO_MAX_VALUE_JOBS", default_value_t = 1)]
    pub max_value_jobs: u32,
    /// The most value evaluations queued or running in the deployment; one more is refused as
    /// unavailable.
    #[arg(long, env = "GMO_MAX_VALUE_QUEUE", default_value_t = 16)]
    pub max_value_queue: u32,
    /// Games per value evaluation.
    #[arg(long, env = "GMO_VALUE_GAMES", default_value_t = gmo_bots::value::DEFAULT_GAMES,
          value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub value_games: u32,
    /// The most game analyses this process runs at once (`gmo serve` and `gmo work` alike); each
    /// takes one core while it runs, searching on a blocking thread.
    #[arg(long, env = "GMO_MAX_ANALYSES", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(0..=64))]
    pub max_analyses: u32,
    /// The most game analyses queued or running in the deployment; one more is refused as
    /// unavailable (503).
    #[arg(long, env = "GMO_MAX_ANALYSIS_QUEUE", default_value_t = 64)]
    pub max_analysis_queue: u32,
    /// The most game analyses queued or running asked by one client (address); one more is
    /// refused with 429 and `Retry-After`.
    #[arg(long, env = "GMO_MAX_ANALYSES_PER_CLIENT", default_value_t = 4)]
    pub max_analyses_per_client: u32,
    /// Search nodes per position of an analysis (docs/analysis.md): more judges better, slower.
    #[arg(long, env = "GMO_ANALYSIS_NODES", default_value_t = gmo_bots::analysis::NODES,
          value_parser = clap::value_parser!(u64).range(100..=10_000_000))]
    pub analysis_nodes: u64,
    /// The most lab searches (the engine's lines, `GET /api/labs/{id}/analysis`) this process
    /// runs at once, each on a blocking thread (one core); one more waits a few seconds for a
    /// place, then is refused as unavailable (503).
    #[arg(long, env = "GMO_MAX_LAB_SEARCHES", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_lab_searches: u32,
    /// The most open seeks one client (address) may have in the lobby at once.
    #[arg(long, env = "GMO_MAX_SEEKS_PER_CLIENT", default_value_t = 3)]
    pub max_seeks_per_client: u32,
    /// The most open seeks in the whole lobby (counted in the database).
    #[arg(long, env = "GMO_MAX_OPEN_SEEKS", default_value_t = 1_000)]
    pub max_open_seeks: u32,
    /// How long after its creation a game nobody started (still in setup) is deleted; 0 keeps
    /// them. Games that started stay for good.
    #[arg(long, env = "GMO_EXPIRE_UNSTARTED_GAMES_AFTER", default_value = "86400",
          value_parser = duration_between(Duration::ZERO, Duration::MAX))]
    pub expire_unstarted_games_after: Duration,
    /// How long after its last change a lab is deleted; 0 keeps them.
    #[arg(long, env = "GMO_EXPIRE_IDLE_LABS_AFTER", default_value = "2592000",
          value_parser = duration_between(Duration::ZERO, Duration::MAX))]
    pub expire_idle_labs_after: Duration,
    /// How often every process looks for games and labs to delete.
    #[arg(long, env = "GMO_RETENTION_INTERVAL", default_value = "60",
          value_parser = duration_between(Duration::from_millis(10), Duration::from_secs(86_400)))]
    pub retention_interval: Duration,
}

impl Default for Settings {
    /// Every setting's default, whatever the environment holds.
    fn default() -> Settings {
        defaults()
    }
}

impl Settings {
    /// What is deleted when nobody came back to it, and how often it is looked for.
    pub fn retention(&self) -> Retention {
        let kept = |age: Duration| (!age.is_zero()).then_some(age);
        Retention {
            unstarted_games: kept(self.expire_unstarted_games_after),
            idle_labs: kept(self.expire_idle_labs_after),
            every: self.retention_interval,
        }
    }

    /// How many open seeks there may be.
    pub fn seek_limits(&self) -> SeekLimits {
        SeekLimits {
            per_client: self.max_seeks_per_client,
            overall: self.max_open_seeks,
        }
    }

    /// How analyses are run.
    pub fn analysis_limits(&self) -> AnalysisLimits {
        AnalysisLimits {
            running: self.max_analyses,
            queued: self.max_analysis_queue,
            per_address: self.max_analyses_per_client,
            nodes: self.analysis_nodes,
        }
    }

    /// How the lab's searches are run.
    pub fn lab_searches(&self) -> LabSearches {
        LabSearches {
            running: self.max_lab_searches,
            nodes: self.analysis_nodes,
        }
    }

    /// How evaluations are run.
    pub fn value_limits(&self) -> ValueLimits {
        ValueLimits {
            running: self.max_value_jobs,
            queued: self.max_value_queue,
            games: self.value_games,
        }
    }
}

/// The defaults of a set of flags: parsed from no arguments, every environment fallback
/// ignored. The defaults are the flags' own, so they always parse (a test checks it).
pub fn defaults<T: clap::Args + clap::FromArgMatches>() -> T {
    let command = T::augment_args(clap::Command::new("defaults")).mut_args(|arg| arg.env(None));
    let parsed = command
        .try_get_matches_from(["defaults"])
        .and_then(|matches| T::from_arg_matches(&matches));
    match parsed {
        Ok(settings) => settings,
        // Only a broken default reaches here, which every test run would show.
        Err(error) => panic!("the settings' defaults do not parse: {error}"),
    }
}

/// The parser of an on/off flag's environment variable: `1`/`0`, `true`/`false`, `yes`/`no`
/// (and `on`/`off`, `y`/`n`, `t`/`f`), in any case, as operators write them; clap's own parser
/// of a `bool` takes only `true` and `false`, so `GMO_DISCOVERY=1` stopped the server at start.
/// Every boolean setting with a variable uses it (a test in `gmo serve` checks).
pub fn switch() -> clap::builder::BoolishValueParser {
    clap::builder::BoolishValueParser::new()
}

/// A parser of a duration between `min` and `max`: whole seconds (`90`), or a number with a unit
/// (`250ms`, `10s`, `5m`, `2h`, `30d`).
pub fn duration_between(min: Duration, max: Duration) -> impl TypedValueParser<Value = Duration> {
    clap::builder::StringValueParser::new().try_map(move |text| {
        let duration = parse_duration(&text)?;
        if duration < min || duration > max {
            return Err(format!(
                "{text} is out of range: from {} to {}",
                shown(min),
                shown(max)
            ));
        }
        Ok(duration)
    })
}

/// `90` (seconds), `250ms`, `10s`, `5m`, `2h`, `30d`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = text.split_at(digits);
    let number: u64 = number.parse().map_err(|_| {
        format!("{text:?} is not a duration: a whole number, then ms, s, m, h or d")
    })?;
    let millis_per = match unit {
        "ms" => 1,
        "" | "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        other => return Err(format!("{other:?} is not a unit of time: ms, s, m, h or d")),
    };
    number
        .checked_mul(millis_per)
        .map(Duration::from_millis)
        .ok_or_else(|| format!("{text} is too long"))
}

fn shown(duration: Duration) -> String {
    if duration == Duration::MAX {
        "any length".into()
    } else {
        format!("{duration:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_parse_and_ignore_the_environment() {
        let settings = Settings::default();
        assert_eq!(settings.database_url, "sqlite://gmo.sqlite");
        assert_eq!(settings.sweep_interval, Duration::from_secs(1));
        assert_eq!(settings.retention().every, Duration::from_secs(60));
        assert_eq!(
            settings.retention().unstarted_games,
            Some(Duration::from_secs(86_400))
        );
        assert_eq!(settings.max_bot_games, 32);
    }

    #[test]
    fn durations_take_seconds_or_a_unit() {
        for (text, ms) in [
            ("90", 90_000),
            ("250ms", 250),
            ("10s", 10_000),
            ("5m", 300_000),
        ] {
            assert_eq!(
                parse_duration(text),
                Ok(Duration::from_millis(ms)),
                "{text}"
            );
        }
        assert_eq!(parse_duration("2d"), Ok(Duration::from_secs(172_800)));
        for bad in [
            "",
            "ms",
            "-1",
            "1.5s",
            "10 parsecs",
            "99999999999999999999d",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn zero_ages_keep_for_good() {
        let settings = Settings {
            expire_idle_labs_after: Duration::ZERO,
            ..Settings::default()
        };
        assert_eq!(settings.retention().idle_labs, None);
    }

    #[test]
    fn out_of_range_durations_are_refused_naming_the_range() {
        let parser = duration_between(Duration::from_secs(1), Duration::from_secs(10));
        let command =
            clap::Command::new("t").arg(clap::Arg::new("d").long("d").value_parser(parser));
        let refused = command
            .try_get_matches_from(["t", "--d", "11"])
            .expect_err("11 s is too long");
        assert!(refused.to_string().contains("out of range"), "{refused}");
    }
}
