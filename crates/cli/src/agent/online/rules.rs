//! Which challenges the bridge accepts (`--accept`): a clock range, board sizes, rated or not.
//! A challenge outside them is declined with the reason lichess's bots give.

use serde_json::Value;

/// What a challenge must be for the bridge to accept it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptRules {
    /// The initial clock, in seconds, from and to (inclusive).
    pub clock: (u64, u64),
    /// Board sizes, `(width, height)`; empty accepts every size.
    pub sizes: Vec<(u64, u64)>,
    /// `Some(true)` only rated games, `Some(false)` only casual ones, `None` both.
    pub rated: Option<bool>,
}

impl Default for AcceptRules {
    fn default() -> Self {
        AcceptRules {
            clock: (0, u64::MAX),
            sizes: Vec::new(),
            rated: None,
        }
    }
}

/// Parses `clock=MIN..MAX,size=8x8+5x5,rated=yes|no|any` (each part optional, any order; clock
/// in seconds of the initial time, either end may be left out).
pub fn parse_rules(text: &str) -> Result<AcceptRules, String> {
    let mut rules = AcceptRules::default();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("`{part}`: expected key=value (clock, size or rated)"))?;
        match key.trim() {
            "clock" => rules.clock = parse_range(value)?,
            "size" => rules.sizes = value.split('+').map(parse_size).collect::<Result<_, _>>()?,
            "rated" => {
                rules.rated = match value.trim() {
                    "yes" | "true" => Some(true),
                    "no" | "false" => Some(false),
                    "any" => None,
                    other => return Err(format!("rated={other}: expected yes, no or any")),
                }
            }
            other => return Err(format!("`{other}`: unknown rule (clock, size or rated)")),
        }
    }
    Ok(rules)
}

fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let (low, high) = text
        .split_once("..")
        .ok_or_else(|| format!("clock={text}: expected MIN..MAX seconds, e.g. 30..600"))?;
    let number = |part: &str, default: u64| -> Result<u64, String> {
        let part = part.trim();
        if part.is_empty() {
            return Ok(default);
        }
        part.parse()
            .map_err(|_| format!("clock={text}: `{part}` is not a number of seconds"))
    };
    let range = (number(low, 0)?, number(high, u64::MAX)?);
    if range.0 > range.1 {
        return Err(format!("clock={text}: the lower end is above the upper"));
    }
    Ok(range)
}

fn parse_size(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("size={text}: expected WIDTHxHEIGHT, e.g. 8x8");
    let (w, h) = text.trim().split_once('x').ok_or_else(bad)?;
    Ok((w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?))
}

impl AcceptRules {
    /// `Ok` to accept `challenge` (as the event stream shows it), or the reason to decline.
    pub fn judge(&self, challenge: &Value) -> Result<(), &'static str> {
        let initial_s = challenge["clock"]["initial_ms"].as_u64().unwrap_or(0) / 1000;
        if initial_s < self.clock.0 {
            return Err("too_fast");
        }
        if initial_s > self.clock.1 {
            return Err("too_slow");
        }
        let size = (
            challenge["width"].as_u64().unwrap_or(8),
            challenge["height"].as_u64().unwrap_or(8),
        );
        if !self.sizes.is_empty() && !self.sizes.contains(&size) {
            return Err("board_size");
        }
        match (self.rated, challenge["rated"].as_bool().unwrap_or(false)) {
            (Some(true), false) => Err("casual"),
            (Some(false), true) => Err("rated"),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rules_parse_and_judge_challenges() {
        let rules = parse_rules("clock=30..600, size=8x8+5x5, rated=no").expect("rules");
        assert_eq!(rules.clock, (30, 600));
        assert_eq!(rules.sizes, vec![(8, 8), (5, 5)]);
        let challenge = |initial_ms: u64, width: u64, rated: bool| json!({"clock": {"initial_ms": initial_ms}, "width": width, "height": width, "rated": rated});
        assert_eq!(rules.judge(&challenge(60_000, 8, false)), Ok(()));
        assert_eq!(rules.judge(&challenge(60_000, 5, false)), Ok(()));
        assert_eq!(rules.judge(&challenge(10_000, 8, false)), Err("too_fast"));
        assert_eq!(rules.judge(&challenge(900_000, 8, false)), Err("too_slow"));
        assert_eq!(rules.judge(&challenge(60_000, 6, false)), Err("board_size"));
        assert_eq!(rules.judge(&challenge(60_000, 8, true)), Err("rated"));
        let open = parse_rules("").expect("no rules");
        assert_eq!(open.judge(&challenge(1_000, 6, true)), Ok(()));
        assert_eq!(
            parse_rules("clock=..60").expect("upper only").clock,
            (0, 60)
        );
    }

    #[test]
    fn bad_rules_say_what_is_wrong() {
        for (text, says) in [
            ("clock=60", "expected MIN..MAX"),
            ("clock=600..60", "lower end is above"),
            ("size=8", "expected WIDTHxHEIGHT"),
            ("rated=maybe", "expected yes, no or any"),
            ("speed=fast", "unknown rule"),
            ("clock", "expected key=value"),
        ] {
            let error = parse_rules(text).expect_err(text);
            assert!(error.contains(says), "{text}: {error}");
        }
    }
}
