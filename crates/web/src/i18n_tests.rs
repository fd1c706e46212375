//! The message catalogues (`assets/i18n/{lang}.json`) checked against each other and against
//! the modules that use them: the same messages in every language, every id a module asks for
//! present, and no user-facing text written into any script.

use crate::assets::{ASSETS, find};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The languages the page speaks; English is the reference.
const LANGUAGES: &[&str] = &["en", "sk"];

/// Every error code the API can send (its OpenAPI `ErrorCode` enum), one a line; `#` starts a
/// comment. The server's own test checks that it is exactly `ErrorCode::names()`.
const ERROR_CODES: &str = include_str!("error_codes.txt");

fn error_codes() -> Vec<&'static str> {
    ERROR_CODES
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

const PLURAL_CATEGORIES: &[&str] = &["zero", "one", "two", "few", "many", "other"];

fn catalogue(lang: &str) -> Map<String, Value> {
    let path = format!("i18n/{lang}.json");
    let asset = find(&path).unwrap_or_else(|| panic!("{path} is not embedded"));
    match serde_json::from_slice(asset.bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) => panic!("{path} is not an object keyed by message id"),
        Err(error) => panic!("{path} is not JSON: {error}"),
    }
}

/// The `{name}` placeholders of a message (all its plural forms together).
fn placeholders(message: &Value) -> BTreeSet<String> {
    let texts: Vec<&str> = match message {
        Value::String(text) => vec![text],
        Value::Object(forms) => forms.values().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut found = BTreeSet::new();
    for text in texts {
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            let name = &after[..close];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                found.insert(name.to_owned());
            }
            rest = &after[close + 1..];
        }
    }
    found
}

#[test]
fn catalogues_have_the_same_messages() {
    let english = catalogue("en");
    assert!(!english.is_empty(), "the English catalogue is empty");
    for &lang in LANGUAGES {
        let other = catalogue(lang);
        let missing: Vec<_> = english
            .keys()
            .filter(|key| !other.contains_key(*key))
            .collect();
        let extra: Vec<_> = other
            .keys()
            .filter(|key| !english.contains_key(*key))
            .collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{lang}.json differs from en.json: missing {missing:?}, extra {extra:?}"
        );
        for (key, message) in &other {
            match message {
                Value::String(text) => assert!(!text.is_empty(), "{lang}: {key} is empty"),
                Value::Object(forms) => {
                    assert!(
                        forms.contains_key("other"),
                        "{lang}: {key} has no 'other' form"
                    );
                    for (category, form) in forms {
                        assert!(
                            PLURAL_CATEGORIES.contains(&category.as_str()),
                            "{lang}: {key} has an unknown plural category {category}"
                        );
                        assert!(
                            form.as_str().is_some_and(|text| !text.is_empty()),
                            "{lang}: {key}.{category} is not a text"
                        );
                    }
                }
                _ => panic!("{lang}: {key} is neither a text nor plural forms"),
            }
            let reference = &english[key];
            assert_eq!(
                message.is_object(),
                reference.is_object(),
                "{lang}: {key} is plural in one language only"
            );
            assert_eq!(
                placeholders(message),
                placeholders(reference),
                "{lang}: {key} has other placeholders than in English"
            );
        }
    }
    // Slovak counts in one, few (2–4) and other (5+): a plural message needs all three.
    for (key, message) in &catalogue("sk") {
        if let Value::Object(forms) = message {
            for category in ["one", "few", "other"] {
                assert!(forms.contains_key(category), "sk: {key} lacks '{category}'");
            }
        }
    }
}

#[test]
fn every_error_code_has_a_message() {
    let codes = error_codes();
    assert!(
        codes.len() > 40,
        "only {} error codes: {codes:?}",
        codes.len()
    );
    for &lang in LANGUAGES {
        let messages = catalogue(lang);
        let missing: Vec<_> = codes
            .iter()
            .filter(|code| !messages.contains_key(&format!("error.{code}")))
            .collect();
        assert!(
            missing.is_empty(),
            "{lang}.json has no error.{{code}} message for {missing:?}"
        );
    }
}

/// The message ids a file asks for: `t('id')` (exact), `t(`prefix.${…}`)` (a prefix some id
/// must start with), and index.html's `data-i18n="id"` / `data-i18n-label="id"`.
fn used_ids(text: &str) -> Vec<(String, bool)> {
    let mut ids = Vec::new();
    for (marker, close) in [
        ("t('", '\''),
        ("t(`", '`'),
        ("data-i18n=\"", '"'),
        ("data-i18n-label=\"", '"'),
    ] {
        let mut from = 0;
        while let Some(at) = text[from..].find(marker) {
            let start = from + at;
            from = start + marker.len();
            // `t(` must be the function, not the end of another name (`split(`, `at(`).
            let before = text[..start].chars().next_back();
            if marker.starts_with('t')
                && before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            {
                continue;
            }
            let rest = &text[from..];
            let Some(end) = rest.find(close) else {
                continue;
            };
            let id = &rest[..end];
            match id.find("${") {
                Some(hole) => ids.push((id[..hole].to_owned(), true)),
                None => ids.push((id.to_owned(), false)),
            }
        }
    }
    ids
}

#[test]
fn every_message_asked_for_exists() {
    let catalogues: Vec<_> = LANGUAGES
        .iter()
        .map(|lang| (*lang, catalogue(lang)))
        .collect();
    let mut asked = 0;
    for asset in ASSETS
        .iter()
        .filter(|asset| asset.path.ends_with(".js") || asset.path.ends_with(".html"))
    {
        let text = std::str::from_utf8(asset.bytes).expect("UTF-8");
        for (id, prefix) in used_ids(text) {
            asked += 1;
            for (lang, messages) in &catalogues {
                let known = if prefix {
                    messages.keys().any(|key| key.starts_with(&id))
                } else {
                    messages.contains_key(&id)
                };
                assert!(
                    known,
                    "{} asks for {id:?}, which {lang}.json lacks",
                    asset.path
                );
            }
        }
    }
    assert!(
        asked > 100,
        "only {asked} messages asked for: is the scan broken?"
    );
}

/// The string literals of a script, each with the code just before it (comments skipped).
fn literals(text: &str) -> Vec<(String, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut code = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            continue;
        }
        if c == '\'' || c == '"' || c == '`' {
            let mut literal = String::new();
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' {
                    i += 1;
                }
                if let Some(&ch) = chars.get(i) {
                    literal.push(ch);
                }
                i += 1;
            }
            i += 1;
            let tail: String = code
                .chars()
                .rev()
                .take(40)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            code.push('"');
            code.push_str(&literal);
            code.push('"');
            found.push((literal, tail));
            continue;
        }
        code.push(c);
        i += 1;
    }
    found
}

/// Whether a literal looks like text for people: a capitalised word followed by more words, or
/// any words where the page shows text (an accessible name, a placeholder, a title, a notice).
fn shown(literal: &str, before: &str) -> bool {
    let mut chars = literal.chars();
    let sentence = matches!((chars.next(), chars.next()), (Some(a), Some(b)) if a.is_ascii_uppercase() && b.is_ascii_lowercase())
        && literal.contains(' ');
    let before = before.trim_end();
    let shows = [
        "\"aria-label\":",
        "placeholder:",
        "title:",
        "toast(",
        "textContent =",
        "alt:",
    ]
    .iter()
    .any(|marker| before.ends_with(marker));
    // Protocol words, not text: an Authorization header.
    if literal.starts_with("Bearer ") {
        return false;
    }
    let words = literal.chars().any(|c| c.is_ascii_alphabetic()) && !literal.starts_with('#');
    sentence || (shows && words)
}

#[test]
fn no_script_shows_literal_text() {
    let scripts: Vec<_> = ASSETS
        .iter()
        .filter(|asset| asset.path.ends_with(".js"))
        .collect();
    assert!(
        scripts.len() > 30,
        "only {} scripts embedded",
        scripts.len()
    );
    for asset in scripts {
        let path = asset.path;
        let text = std::str::from_utf8(asset.bytes).expect("UTF-8");
        let left: Vec<_> = literals(text)
            .into_iter()
            .filter(|(literal, before)| shown(literal, before))
            .map(|(literal, _)| literal)
            .collect();
        assert!(
            left.is_empty(),
            "{path} shows text that is not in the catalogues: {left:?}"
        );
    }
}

#[test]
fn the_checks_see_what_they_should() {
    assert_eq!(
        used_ids("t('a.b') x.split('c') t(`color.${x}`)"),
        vec![("a.b".to_owned(), false), ("color.".to_owned(), true)]
    );
    let found = literals("h('p', {}, 'Hello there') // 'Not me'\n'aria-label': 'name'");
    assert!(shown(&found[1].0, &found[1].1), "{found:?}");
    assert!(shown(&found[3].0, &found[3].1), "{found:?}");
    assert!(!shown(&found[0].0, &found[0].1));
    assert!(!shown(&found[2].0, &found[2].1));
}
