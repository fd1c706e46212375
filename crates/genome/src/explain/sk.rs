//! The explanation in Slovak, in a Slovak chess player's words: figúrka, ťah, pole, šachovnica;
//! the genome's own terms as the English ones (blok, krok, trasa for a walk, kolo for a lap,
//! oslabenie for a debuff, bez obtáčania for no wrap). What a move leaves is said as what the
//! square holds afterwards ("bude prázdno"), which keeps Slovak's double negation out of the way.

use super::words::{Case, MoveKind, Words};
use crate::{Content, Debuff, Owner, StepKind};

#[derive(Debug)]
pub struct Slovak;

/// "1 pole", "2 polia", "5 polí": Slovak counts in three forms.
fn squares(count: usize) -> String {
    match count {
        1 => "1 pole".to_owned(),
        2..=4 => format!("{count} polia"),
        n => format!("{n} polí"),
    }
}

impl Words for Slovak {
    fn empty_genome(&self) -> &'static str {
        "Prázdny genóm: táto figúrka nemá žiadne ťahy.\n"
    }

    fn block_heading(&self, number: usize, count: usize) -> String {
        format!("Blok {number} z {count}:\n")
    }

    fn earlier_block_wins(&self) -> &'static str {
        "Keď dva bloky dosiahnu to isté pole, platí ťah skoršieho bloku.\n\n"
    }

    fn steps_heading(&self) -> &'static str {
        "  Kroky (po každom kroku sa figúrka otočí o 90° v smere otáčania trasy):\n"
    }

    fn step(&self, kind: StepKind, length: u8) -> String {
        let squares = squares(usize::from(length));
        match kind {
            StepKind::Marking if length == 0 => {
                "označujúci krok o 0 polí: možným cieľom je pole, na ktorom trasa práve stojí"
                    .to_owned()
            }
            StepKind::Marking => {
                format!("označujúci krok o {squares}: možným cieľom je pole, kde krok skončí")
            }
            StepKind::Plain => {
                format!("obyčajný krok o {squares}: prejde ďalej bez ohľadu na to, čo tam stojí")
            }
            StepKind::Still => "krok na mieste: posunie sa o 0 polí, iba sa otočí".to_owned(),
        }
    }

    fn walk(&self, one_lap: bool) -> String {
        let end = if one_lap {
            "Kroky prejde iba raz (jedno kolo, oslabenie HAC) a skončí skôr, ak opustí \
             šachovnicu alebo ak označujúci krok dopadne na obsadené pole."
        } else {
            "Kroky opakuje, kým neopustí šachovnicu, nevráti sa do stavu, v ktorom už bola, alebo \
             kým označujúci krok nedopadne na obsadené pole."
        };
        format!(
            "  Trasa: z poľa figúrky, najprv v smere hodinových ručičiek a potom proti nemu, so \
             začiatkom na sever, východ, juh a západ (osem trás); každý krok posunie trasu o svoju \
             dĺžku v aktuálnom smere a potom sa trasa otočí o 90°. {end}\n"
        )
    }

    fn marks_nothing(&self) -> &'static str {
        "  Na prázdnej šachovnici trasa v smere hodinových ručičiek so začiatkom na sever \
         neoznačí žiadne pole: blok nemá označujúci krok, takže nedáva žiadne ťahy.\n"
    }

    fn first_lap_marks(&self, marks: &str) -> String {
        format!(
            "  Na prázdnej šachovnici trasa v smere hodinových ručičiek so začiatkom na sever \
             označí vo svojom prvom kole: {marks}.\n"
        )
    }

    fn stops_at_home(&self) -> &'static str {
        "  To je vlastné pole figúrky, ktoré je obsadené (samotnou figúrkou), takže trasa tam \
         skončí.\n"
    }

    fn lap_comes_home(&self) -> &'static str {
        "Kolo skončí tam, kde začalo, a trasa je otočená rovnako, takže po ňom skončí."
    }

    fn lap_slides(&self, moved: &str) -> String {
        format!(
            "Kolo posunie trasu o {moved} a nechá ju otočenú rovnako, takže ďalšie kolá opakujú \
             vzor ďalej po tej istej priamke: figúrka sa posúva, kým ju niečo nezablokuje alebo \
             kým neopustí šachovnicu."
        )
    }

    fn lap_turns(&self, moved: &str, degrees: usize) -> String {
        format!(
            "Kolo posunie trasu o {moved} a otočí ju o {degrees}°, takže ďalšie kolá opakujú vzor \
             otočený, kým sa trasa nevráti do stavu, v ktorom už bola, alebo kým neopustí \
             šachovnicu."
        )
    }

    fn all_walks_mark(&self, count: usize, marks: &str) -> String {
        format!(
            "  Všetkých osem trás spolu označí vo svojich prvých kolách {}: {marks}.\n",
            squares(count)
        )
    }

    fn directions(&self) -> [&'static str; 4] {
        ["doprava", "doľava", "hore", "dole"]
    }

    fn own_square(&self) -> &'static str {
        "vlastné pole figúrky"
    }

    fn outcomes_heading(&self) -> &'static str {
        "  Čo ťah spraví:\n"
    }

    fn case(&self, case: Case) -> &'static str {
        match case {
            Case::Own => "na figúrku vlastnej strany",
            Case::Opponent => "na súperovu figúrku",
            Case::Empty => "na prázdne pole",
        }
    }

    fn not_allowed(&self) -> &'static str {
        "nie je dovolený"
    }

    fn allowed(&self, kind: MoveKind, from: &str, to: &str) -> String {
        let summary = match kind {
            MoveKind::Capture => "dovolený, berie figúrku, ktorá tam stojí: ",
            MoveKind::Ordinary => "dovolený, obyčajný ťah: ",
            MoveKind::Other => "dovolený: ",
        };
        format!("{summary}na východiskovom poli bude {from} a na cieľovom poli {to}")
    }

    fn content(&self, content: Content, occupied: bool) -> &'static str {
        match (content, occupied) {
            (Content::Mover, _) => "kópia ťahajúcej figúrky",
            (Content::Target, true) => "kópia figúrky z cieľového poľa",
            (Content::Target, false) => "prázdno (z prázdneho cieľového poľa sa nemá čo kopírovať)",
            (Content::Nothing, _) => "prázdno",
        }
    }

    fn owners(&self, from: &str, note: &str, to: &str) -> String {
        format!(
            "  Komu patrí, čo ťah zanechá: na východiskovom poli {from}{note}; na cieľovom poli \
             {to}.\n"
        )
    }

    fn nothing_left_note(&self, owner: Owner) -> &'static str {
        match owner {
            Owner::Opponent => " (nič tam nikdy nezostane, takže na tom nikdy nezáleží)",
            Owner::Mover(_) => " (nič tam nikdy nezostane, takže záleží iba na oslabení)",
        }
    }

    fn owner(&self, owner: Owner) -> String {
        match owner {
            Owner::Opponent => "súperovi ťahajúceho hráča (HSH)".to_owned(),
            Owner::Mover(debuff) => format!(
                "ťahajúcemu hráčovi ({debuff}, čo do genómu pridá aj oslabenie „{}“)",
                self.debuff_name(debuff)
            ),
        }
    }

    fn no_debuffs(&self) -> &'static str {
        "Oslabenia: žiadne.\n"
    }

    fn debuffs_heading(&self) -> &'static str {
        "Oslabenia (každé platí pre všetky bloky):\n"
    }

    fn debuff_name(&self, debuff: Debuff) -> &'static str {
        match debuff {
            Debuff::ForwardOnly => "len dopredu",
            Debuff::OneLap => "jedno kolo",
            Debuff::NoWrap => "bez obtáčania",
            Debuff::SameShade => "rovnaká farba",
            Debuff::OtherShade => "opačná farba",
            Debuff::AdjacentOnly => "len susedné",
            Debuff::Freeze => "zmrazenie",
            Debuff::Mutation => "mutácia",
            Debuff::Deviation => "odchýlka",
        }
    }

    fn debuff_effect(&self, debuff: Debuff) -> &'static str {
        match debuff {
            Debuff::ForwardOnly => {
                "ponechá iba ciele, ktoré sú naozaj vpredu (pre bieleho smerom hore po \
                 šachovnici, pre čierneho smerom dole)"
            }
            Debuff::OneLap => "každá trasa skončí po jednom prechode krokmi bloku",
            Debuff::NoWrap => {
                "ľavý a pravý okraj šachovnice nie sú pre túto figúrku spojené (bez obtáčania)"
            }
            Debuff::SameShade => "ponechá iba ciele rovnakej farby, ako má východiskové pole",
            Debuff::OtherShade => "ponechá iba ciele opačnej farby, než má východiskové pole",
            Debuff::AdjacentOnly => {
                "ponechá iba ciele susediace s východiskovým poľom (najviac o 1 stĺpec a 1 rad \
                 ďalej, bez obtáčania)"
            }
            Debuff::Freeze => {
                "ťah touto figúrkou zmrazí partiu: hodiny ťahajúceho stratia 5 s, súperove získajú \
                 5 s a 5 s sa neprijme žiadny ťah ani premena"
            }
            Debuff::Mutation => {
                "ťah touto figúrkou najprv zmutuje jej genóm: zmení sa jedno náhodné písmeno jej \
                 DNA, ak z toho vznikne platný genóm (najviac 20 pokusov)"
            }
            Debuff::Deviation => {
                "cieľ sa posunie na náhodné susedné pole (alebo zostane), ak je na šachovnici; ťah \
                 si ponechá výsledok poľa, na ktoré mieril"
            }
        }
    }

    fn in_plain_words(&self, debuff: Debuff) -> &'static str {
        match debuff {
            Debuff::ForwardOnly => "Ťahá iba dopredu.",
            Debuff::OneLap => "Jej línie skončia po jednom kole.",
            Debuff::NoWrap => "Neprechádza cez ľavý a pravý okraj šachovnice na druhú stranu.",
            Debuff::SameShade => "Ťahá iba na polia rovnakej farby, ako je pole, na ktorom stojí.",
            Debuff::OtherShade => "Ťahá iba na polia opačnej farby, než je pole, na ktorom stojí.",
            Debuff::AdjacentOnly => "Ťahá iba na susedné pole.",
            Debuff::Freeze => {
                "Ťah ňou zmrazí partiu na 5 sekúnd a presunie 5 sekúnd z hodín jej strany na \
                 hodiny súpera."
            }
            Debuff::Mutation => "Pri každom ťahu sa jej DNA trochu zmení.",
            Debuff::Deviation => "Môže skončiť na poli vedľa toho, na ktoré ňou hráč potiahol.",
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::standard::{self, STANDARD};
    use crate::{Genome, Language};

    fn genome(dna: &str) -> Genome {
        Genome::parse(dna).expect("test DNA")
    }

    fn explain(name: &str) -> String {
        standard::by_name(name)
            .expect("standard genome")
            .explain_in(Language::Sk)
    }

    fn assert_mentions(text: &str, phrases: &[&str]) {
        for phrase in phrases {
            assert!(text.contains(phrase), "missing {phrase:?} in:\n{text}");
        }
    }

    #[test]
    fn the_empty_genome_has_no_moves() {
        assert_eq!(
            Genome::default().explain_in(Language::Sk),
            "Prázdny genóm: táto figúrka nemá žiadne ťahy.\n"
        );
    }

    #[test]
    fn the_rook_slides_and_may_take_its_own_pieces() {
        let text = explain("rook");
        assert_mentions(
            &text,
            &[
                "Blok 1 z 1:\n",
                "    1. označujúci krok o 1 pole: možným cieľom je pole, kde krok skončí (SAS)\n",
                "    2. krok na mieste: posunie sa o 0 polí, iba sa otočí (AAA)\n",
                "označí vo svojom prvom kole: 1 hore.\n",
                "figúrka sa posúva, kým ju niečo nezablokuje alebo kým neopustí šachovnicu.",
                "vo svojich prvých kolách 4 polia: 1 hore; 1 doprava; 1 dole; 1 doľava.\n",
                "    - na figúrku vlastnej strany: dovolený, berie figúrku, ktorá tam stojí: na \
                 východiskovom poli bude prázdno a na cieľovom poli kópia ťahajúcej figúrky (CHA)\n",
                "na východiskovom poli súperovi ťahajúceho hráča (HSH) (nič tam nikdy nezostane, \
                 takže na tom nikdy nezáleží); na cieľovom poli ťahajúcemu hráčovi (HAA, čo do \
                 genómu pridá aj oslabenie „bez obtáčania“).\n",
                "Oslabenia (každé platí pre všetky bloky):\n  - bez obtáčania (HAA): ľavý a pravý \
                 okraj šachovnice nie sú pre túto figúrku spojené (bez obtáčania)\n",
            ],
        );
        assert!(!text.contains("jedno kolo"), "{text}");
    }

    #[test]
    fn the_knight_jumps_one_lap_to_eight_squares() {
        assert_mentions(
            &explain("knight"),
            &[
                "Kroky prejde iba raz (jedno kolo, oslabenie HAC)",
                "    1. obyčajný krok o 2 polia: prejde ďalej bez ohľadu na to, čo tam stojí (CAC)\n",
                "označí vo svojom prvom kole: 1 doprava 2 hore.\n",
                "vo svojich prvých kolách 8 polí: 1 doprava 2 hore; 2 doprava 1 dole;",
                "    - na figúrku vlastnej strany: nie je dovolený (HHH)\n",
                "    - na prázdne pole: dovolený, obyčajný ťah: na východiskovom poli bude prázdno a \
                 na cieľovom poli kópia ťahajúcej figúrky (CHA)\n",
            ],
        );
    }

    #[test]
    fn the_queen_freezes_the_game_and_the_earlier_block_wins() {
        assert_mentions(
            &explain("queen"),
            &[
                "Blok 1 z 2:\n",
                "Blok 2 z 2:\n",
                "Kolo posunie trasu o 1 doprava 1 hore a nechá ju otočenú rovnako",
                "Keď dva bloky dosiahnu to isté pole, platí ťah skoršieho bloku.\n\n",
                "  - zmrazenie (HSC): ťah touto figúrkou zmrazí partiu: hodiny ťahajúceho stratia \
                 5 s, súperove získajú 5 s a 5 s sa neprijme žiadny ťah ani premena\n",
            ],
        );
    }

    #[test]
    fn the_pawn_moves_forward_only() {
        let text = explain("pawn");
        assert_mentions(
            &text,
            &[
                "  - len dopredu (HAS): ponechá iba ciele, ktoré sú naozaj vpredu (pre bieleho \
                 smerom hore po šachovnici, pre čierneho smerom dole)\n",
                "ťahajúcemu hráčovi (HAC, čo do genómu pridá aj oslabenie „jedno kolo“) (nič tam \
                 nikdy nezostane, takže záleží iba na oslabení)",
                "    - na prázdne pole: nie je dovolený (HHH)\n",
            ],
        );
        assert_eq!(
            standard::by_name("pawn")
                .expect("the pawn")
                .traits_in(Language::Sk),
            [
                "Ťahá iba dopredu.",
                "Jej línie skončia po jednom kole.",
                "Neprechádza cez ľavý a pravý okraj šachovnice na druhú stranu.",
            ]
        );
    }

    #[test]
    fn a_custom_piece_that_copies_and_marks_its_own_square() {
        // Marks its own square (SAA), leaves copies on both squares, mutates, other shade.
        let odd = genome("AHH HCC HCA SHA AHS CHS HHA SAA CSC AAS");
        assert_mentions(
            &odd.explain_in(Language::Sk),
            &[
                "    1. označujúci krok o 0 polí: možným cieľom je pole, na ktorom trasa práve \
                 stojí (SAA)\n",
                "    2. obyčajný krok o 0 polí",
                "označí vo svojom prvom kole: vlastné pole figúrky.\n  To je vlastné pole \
                 figúrky, ktoré je obsadené (samotnou figúrkou), takže trasa tam skončí.\n",
                "vo svojich prvých kolách 1 pole: vlastné pole figúrky.\n",
                "    - na súperovu figúrku: dovolený: na východiskovom poli bude kópia ťahajúcej \
                 figúrky a na cieľovom poli kópia figúrky z cieľového poľa (AHS)\n",
                "    - na prázdne pole: dovolený: na východiskovom poli bude prázdno a na cieľovom \
                 poli prázdno (z prázdneho cieľového poľa sa nemá čo kopírovať) (CHS)\n",
                "  - mutácia (HCC): ťah touto figúrkou najprv zmutuje jej genóm",
            ],
        );
        assert_eq!(
            odd.traits_in(Language::Sk),
            [
                "Ťahá iba na polia opačnej farby, než je pole, na ktorom stojí.",
                "Pri každom ťahu sa jej DNA trochu zmení.",
            ]
        );
    }

    #[test]
    fn a_custom_piece_that_freezes_and_drifts() {
        let odd = genome("AHH HSC HSA HHH CHA HHH HHA SAS AAA AAA AAA");
        assert_eq!(
            odd.traits_in(Language::Sk),
            [
                "Ťah ňou zmrazí partiu na 5 sekúnd a presunie 5 sekúnd z hodín jej strany na \
                 hodiny súpera.",
                "Môže skončiť na poli vedľa toho, na ktoré ňou hráč potiahol.",
            ]
        );
        assert!(odd.explain_in(Language::Sk).ends_with(
            "  - odchýlka (HSA): cieľ sa posunie na náhodné susedné pole (alebo zostane), ak je na \
             šachovnici; ťah si ponechá výsledok poľa, na ktoré mieril\n"
        ));
    }

    #[test]
    fn a_lap_that_turns_and_a_genome_without_debuffs() {
        // Marks 1 north and 2 east each lap, turning the walk by 180°: no debuffs at all.
        let text = genome("AHH HSH HSH CHA CHA CHA HHA SAS SAC").explain_in(Language::Sk);
        assert_mentions(
            &text,
            &[
                "Kolo posunie trasu o 2 doprava 1 hore a otočí ju o 180°",
                "Oslabenia: žiadne.\n",
            ],
        );
    }

    #[test]
    fn every_step_codon_and_debuff_of_every_standard_genome_is_shown_in_slovak() {
        for (name, dna) in STANDARD {
            let genome = genome(dna);
            let (english, slovak) = (genome.explain(), genome.explain_in(Language::Sk));
            assert_ne!(english, slovak, "{name}");
            for step in genome.blocks.iter().flat_map(|b| &b.steps) {
                assert!(slovak.contains(&format!("({step})")), "{name}: no {step}");
            }
            for debuff in genome.debuffs().iter() {
                assert!(
                    slovak.contains(&format!("({debuff}): ")),
                    "{name}: no {debuff}"
                );
            }
            // The same lines, one for one: only the words differ.
            assert_eq!(english.lines().count(), slovak.lines().count(), "{name}");
        }
    }

    #[test]
    fn english_stays_the_default() {
        let rook = genome(standard::ROOK);
        assert_eq!(rook.explain_in(Language::En), rook.explain());
        assert_eq!(rook.traits_in(Language::default()), rook.traits());
    }
}
