//! Property tests: every bot returns a legal ply on positions reached by random play.

use crate::bot::Budget;
use crate::spec::BotSpec;
use crate::tests::{all_bots, is_legal, random_prefix};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_bot_returns_a_legal_ply(seed in any::<u64>(), plies in 0usize..80, small in any::<bool>()) {
        let position = random_prefix(seed, plies, small);
        let over = position.to_move().is_none();
        for mut bot in all_bots() {
            let ply = bot.choose(&position, Budget::Nodes(1_500));
            match ply {
                None => prop_assert!(over, "{} found no ply in a game in progress", bot.name()),
                Some(ply) => {
                    prop_assert!(!over, "{} chose {ply} after the end", bot.name());
                    prop_assert!(is_legal(&position, &ply), "{} chose {ply}", bot.name());
                    let mut child = position.clone();
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    prop_assert!(ply.play_on(&mut child, &mut rng).is_ok());
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Every spec accepted is written (`Display`, as a service stores it) in a form that reads
    /// back as the same spec, and writes the same again.
    #[test]
    fn every_accepted_spec_reads_back_as_itself(
        text in "(random|greedy|search|serch)(:[0-9]{0,24}(ms|s|n|d|x)?)?|.{0,12}"
    ) {
        if let Ok(spec) = text.parse::<BotSpec>() {
            let written = spec.to_string();
            prop_assert_eq!(written.parse::<BotSpec>(), Ok(spec), "{} written as {}", text, written);
            let again = written.parse::<BotSpec>().map(|spec| spec.to_string());
            prop_assert_eq!(again, Ok(written));
        }
    }
}
