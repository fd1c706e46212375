//! Pearson's χ² goodness-of-fit test, for the statistical tests of the random debuffs (rules
//! §4.2) here and in the crates that build on this one (feature `proptest`).

/// Checks `observed` counts against the probabilities `expected` of the same categories: panics,
/// with a table of both, unless Pearson's statistic stays below `critical`, the upper-tail value
/// of the χ² distribution with `df` degrees of freedom at the chosen significance. Also panics
/// when a category's expected count is under 5, where the χ² approximation is not to be trusted.
/// Returns the statistic.
pub fn assert_fits(
    what: &str,
    observed: &[u64],
    expected: &[f64],
    df: usize,
    critical: f64,
) -> f64 {
    assert_eq!(
        observed.len(),
        expected.len(),
        "{what}: one probability per category"
    );
    assert_eq!(
        observed.len(),
        df + 1,
        "{what}: categories − 1 = degrees of freedom"
    );
    let total = expected.iter().sum::<f64>();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{what}: probabilities add up to {total}"
    );
    let n = observed.iter().sum::<u64>() as f64;
    let mut statistic = 0.0;
    let mut table = String::new();
    for (&seen, &p) in observed.iter().zip(expected) {
        let wanted = n * p;
        assert!(
            wanted >= 5.0,
            "{what}: expected count {wanted} < 5 in a category"
        );
        statistic += (seen as f64 - wanted).powi(2) / wanted;
        table.push_str(&format!("\n  observed {seen:>7}  expected {wanted:>10.1}"));
    }
    assert!(
        statistic < critical,
        "{what}: χ² = {statistic:.3} ≥ {critical} (df {df}): the draws do not fit{table}"
    );
    println!("{what}: χ² = {statistic:.3} < {critical} (df {df})");
    statistic
}
