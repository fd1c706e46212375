//! The words text search matches: runs of letters and digits, lower case, each cut to
//! [`MAX_WORD`] characters. An entry's words come from its name and description; a query's words
//! must each begin one of them.

/// The longest word kept, in characters.
pub const MAX_WORD: usize = 40;
/// The most words a query may have.
pub const MAX_QUERY_WORDS: usize = 5;

/// The distinct words of `texts`, in order of first appearance.
pub fn words(texts: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for text in texts {
        for word in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
        {
            let word: String = word.to_lowercase().chars().take(MAX_WORD).collect();
            if !found.contains(&word) {
                found.push(word);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_case_runs_of_letters_and_digits_once_each() {
        assert_eq!(
            words(&["Twin-Rook 2", "the twin ROOK; Šíp"]),
            vec!["twin", "rook", "2", "the", "šíp"]
        );
        assert!(words(&["  -- !! "]).is_empty());
        let long = "x".repeat(100);
        assert_eq!(words(&[&long])[0].chars().count(), MAX_WORD);
    }
}
