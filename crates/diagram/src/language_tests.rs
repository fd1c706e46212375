//! The pictures in Slovak: the expected phrases in the legend, title, description and tooltips,
//! no English left in them, the same legend lines as in English, English still the default, and
//! every row of either language within the picture's width.

use crate::tests::{genome, marks};
use crate::{Language, Options, legend, render};
use gmo_engine::Color;
use gmo_genome::{Genome, standard};

/// English words of the pictures, none of which a Slovak picture may contain.
pub(crate) const ENGLISH: [&str; 21] = [
    "Legend", "Moves", "move", "onto", "square", "squares", "piece", "board", "Debuff", "edges",
    "owned", "leaves", "captures", "ordinary", "Marked", "enemy", "target", "below", "the",
    "mover", "opponent",
];

fn slovak(width: u8, height: u8, color: Color) -> Options {
    Options {
        width,
        height,
        color,
        label: None,
        language: Language::Sk,
    }
}

fn draw(genome: &Genome, options: &Options) -> String {
    render(genome, options).expect("a diagram")
}

fn standard_genome(name: &str) -> Genome {
    standard::by_name(name).expect("standard genome")
}

/// Every piece of text a reader or a screen reader gets: the drawn rows, the title, the
/// description and the marks' tooltips, joined by spaces.
pub(crate) fn all_text(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    texts.join(" ")
}

/// The English words a picture's text contains, the piece's code (which is no word) left out.
pub(crate) fn english_in(svg: &str, code: &str) -> Vec<&'static str> {
    let text = all_text(svg).replace(code, "");
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
    ENGLISH
        .into_iter()
        .filter(|word| words.contains(word))
        .collect()
}

/// A character's advance in thousandths of the font size, in Arial's (and Helvetica's,
/// Liberation Sans') metrics; a character not listed counts as a whole em.
fn advance(c: char) -> i32 {
    match c {
        '\'' => 191,
        'i' | 'j' | 'l' | 'ĺ' => 222,
        'f' | 't' | 'í' | 'I' | 'Í' | ' ' | '.' | ',' | ':' | ';' | '!' | '/' => 278,
        'ľ' => 292,
        'r' | 'ŕ' | '(' | ')' | '-' | '„' | '“' => 333,
        'ť' => 375,
        '°' => 400,
        'c' | 'k' | 's' | 'v' | 'x' | 'y' | 'z' | 'č' | 'š' | 'ý' | 'ž' | 'J' => 500,
        'a'
        | 'b'
        | 'd'
        | 'e'
        | 'g'
        | 'h'
        | 'n'
        | 'o'
        | 'p'
        | 'q'
        | 'u'
        | 'á'
        | 'ä'
        | 'é'
        | 'ň'
        | 'ó'
        | 'ô'
        | 'ú'
        | 'L'
        | 'Ľ'
        | '0'..='9'
        | '–' => 556,
        '×' | '<' | '>' => 584,
        'F' | 'T' | 'Z' | 'Ť' | 'Ž' => 611,
        'ď' => 615,
        'A' | 'B' | 'E' | 'K' | 'P' | 'S' | 'V' | 'X' | 'Y' | 'Á' | 'É' | 'Š' | 'Ý' | '&' => {
            667
        }
        'w' | 'C' | 'D' | 'H' | 'N' | 'R' | 'U' | 'Č' | 'Ď' | 'Ň' | 'Ú' => 722,
        'G' | 'O' | 'Q' | 'Ó' => 778,
        'm' | 'M' => 833,
        'W' => 944,
        _ => 1000,
    }
}

/// How wide a row of text is drawn, in pixels, at most: Arial's metrics with room for the wider
/// sans-serif fonts a browser may pick instead (DejaVu Sans is about a tenth wider), and for
/// bold (about a tenth wider again).
fn width(text: &str, size: i32, bold: bool) -> i32 {
    let ems: i32 = text.chars().map(advance).sum();
    let allowance = if bold { 121 } else { 110 };
    ems * size * allowance / 100_000
}

/// The drawn rows (the centred code on the piece aside) that reach past the picture's right
/// edge, with where they end.
pub(crate) fn overflowing(svg: &str) -> Vec<(String, i32)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let edge: i32 = doc
        .root_element()
        .attribute("width")
        .and_then(|w| w.parse().ok())
        .expect("the picture's width");
    let size_of = |node: roxmltree::Node| {
        node.ancestors()
            .find_map(|n| n.attribute("font-size"))
            .and_then(|s| s.parse::<i32>().ok())
            .expect("a font size")
    };
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter(|n| n.attribute("text-anchor").is_none())
        .filter_map(|n| {
            let text = n.text()?;
            let x: i32 = n.attribute("x")?.parse().ok()?;
            let bold = n.attribute("font-weight") == Some("bold");
            let right = x + width(text, size_of(n), bold);
            (right > edge).then(|| (text.to_owned(), right))
        })
        .collect()
}

#[test]
fn english_stays_the_default_and_slovak_is_asked_for() {
    assert_eq!(Options::default().language, Language::En);
    assert_eq!(Language::default(), Language::En);
    assert_eq!(
        Language::ALL.map(Language::tag),
        ["en", "sk"],
        "the API's and the page's tags"
    );
    let rook = standard_genome("rook");
    let english = Options {
        language: Language::En,
        ..Options::default()
    };
    assert_eq!(
        draw(&rook, &english),
        draw(&rook, &Options::default()),
        "asking for English changes nothing"
    );
    assert_ne!(
        draw(&rook, &slovak(7, 7, Color::White)),
        draw(&rook, &english)
    );
}

/// The Slovak picture's text, checked to hold no English.
fn slovak_text(genome: &Genome, options: &Options) -> String {
    let svg = draw(genome, options);
    let text = all_text(&svg);
    let english = english_in(&svg, &genome.code().to_string());
    assert_eq!(english, Vec::<&str>::new(), "English in {text}");
    text
}

fn assert_says(text: &str, phrases: &[&str]) {
    for phrase in phrases {
        assert!(text.contains(phrase), "missing {phrase:?} in {text}");
    }
}

#[test]
fn the_rook_in_slovak() {
    let text = slovak_text(&standard_genome("rook"), &slovak(7, 7, Color::White));
    assert_says(
        &text,
        &[
            "Legenda",
            ": biela figúrka, šachovnica 7×7",
            "Figúrka stojí na poli d4. Označené polia (12): ",
            "Môže sem ťahať (na prázdne pole).",
            "d5: Môže sem ťahať (na prázdne pole).",
            "Na prázdne pole (",
            "): obyčajný ťah.",
            "Na súperovu figúrku alebo vlastnú figúrku (tie isté polia): berie figúrku, ktorá \
             tam stojí.",
            "Plné bočné okraje: táto figúrka neprechádza cez ľavý a pravý okraj na druhú \
             stranu (bez obtáčania, HAA).",
            "Oslabenie „bez obtáčania“ (HAA): ľavý a pravý okraj šachovnice nie sú pre túto \
             figúrku spojené (bez obtáčania).",
        ],
    );
}

#[test]
fn the_black_pawn_takes_only_by_capture_and_moves_only_forward() {
    let text = slovak_text(&standard_genome("pawn"), &slovak(7, 7, Color::Black));
    assert_says(
        &text,
        &[
            ": čierna figúrka, šachovnica 7×7",
            "Môže sem ťahať len braním súperovej figúrky (potrebuje cieľ).",
            "Oslabenie „len dopredu“ (HAS): ponechá iba ciele, ktoré sú naozaj vpredu",
            "Oslabenie „jedno kolo“ (HAC):",
        ],
    );
}

#[test]
fn the_queen_freezes_in_slovak() {
    let text = slovak_text(&standard_genome("queen"), &slovak(8, 8, Color::White));
    assert_says(
        &text,
        &["Oslabenie „zmrazenie“ (HSC): ťah touto figúrkou zmrazí partiu"],
    );
}

#[test]
fn copies_owners_and_its_own_square_in_slovak() {
    // Block 1: a marking step of 0 (its own square), leaving a copy of itself, owned by the
    // opponent. Block 2: one square north, leaving a copy of itself behind (owned by the mover).
    let dna = "AHH HSH HSH AHA AHA AHA HHA SAA  AHH HAA HAC AHA AHA AHA HHA SAS";
    let text = slovak_text(&genome(dna), &slovak(7, 7, Color::White));
    assert_says(
        &text,
        &[
            "Môže ťahať na pole, na ktorom stojí (pozri nižšie).",
            "Môže sem ťahať (na prázdne pole); ťah zanechá kópie alebo zmení vlastníka \
             (pozri nižšie).",
            "na východiskovom poli bude kópia ťahajúcej figúrky (vlastník: ťahajúci hráč)",
            "(vlastník: súper)",
            "Na svoje pole (d4):",
        ],
    );
}

#[test]
fn a_copying_capture_is_the_longest_mark_and_still_wrapped_within_the_picture() {
    // Only onto an enemy piece, leaving a copy of itself behind: the longest mark wording.
    let capture = genome("AHH HSH HSH HHH AHA HHH HHA SAS");
    let options = slovak(4, 4, Color::White);
    let svg = draw(&capture, &options);
    assert!(
        marks(&svg)
            .iter()
            .any(|(_, class)| class == "mark needs-target special"),
        "{svg}"
    );
    assert_says(
        &slovak_text(&capture, &options),
        &[
            "Môže sem ťahať len braním súperovej figúrky (potrebuje cieľ); ťah zanechá kópie \
           alebo zmení vlastníka (pozri nižšie).",
        ],
    );
    assert_eq!(overflowing(&svg), []);
}

#[test]
fn wrapping_and_no_moves_in_slovak() {
    let wrapping = genome("AHH HSH HSH CHA CHA CHA HHA CSS SAA");
    assert_says(
        &slovak_text(&wrapping, &slovak(7, 7, Color::White)),
        &[
            "Prerušované bočné okraje: ľavý a pravý okraj sú pre túto figúrku spojené; ťah, \
           ktorý opustí šachovnicu na jednej strane, sa vráti na druhej.",
        ],
    );
    let closed = genome("AHH HSH HAA CHA CHA CHA HHA CSS SAA");
    let options = slovak(7, 7, Color::White);
    assert!(marks(&draw(&closed, &options)).is_empty());
    assert_says(
        &slovak_text(&closed, &options),
        &[
            "Nie je označené žiadne pole. Táto figúrka nemá zo stredu prázdnej šachovnice \
           žiadne ťahy.",
        ],
    );
}

#[test]
fn the_legend_has_the_same_lines_in_both_languages() {
    for (name, dna) in standard::STANDARD {
        let genome = genome(dna);
        let diagram = crate::Diagram::new(&genome, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let keys = |language| -> Vec<_> {
            legend(&diagram, language)
                .into_iter()
                .map(|line| line.key)
                .collect()
        };
        assert_eq!(keys(Language::En), keys(Language::Sk), "{name}");
    }
}

#[test]
fn every_row_fits_the_picture_in_either_language() {
    let mut genomes: Vec<Genome> = standard::STANDARD.iter().map(|(_, d)| genome(d)).collect();
    // Every debuff, and copies left on both squares: the longest legend lines there are.
    genomes.push(genome("AHH HCC HCA SHA AHS CHS HHA SAA CSC AAS"));
    genomes.push(genome("AHH HSC HSA HHH CHA HHH HHA SAS AAA AAA AAA"));
    for genome in &genomes {
        for language in Language::ALL {
            for width in 4..=8 {
                for color in [Color::White, Color::Black] {
                    let options = Options {
                        width,
                        height: 8,
                        color,
                        label: None,
                        language,
                    };
                    let svg = draw(genome, &options);
                    assert_eq!(overflowing(&svg), [], "{language:?} {width} wide");
                }
            }
        }
    }
}

#[test]
fn a_row_too_long_would_be_caught() {
    // The check itself: the longest legend sentence, left on one row, is found too wide.
    let row = "Môže sem ťahať len braním súperovej figúrky (potrebuje cieľ); ťah zanechá kópie";
    let svg =
        format!("<svg width=\"480\" font-size=\"13\"><text x=\"44\" y=\"10\">{row}</text></svg>");
    assert_eq!(overflowing(&svg).len(), 1, "{row}");
}
