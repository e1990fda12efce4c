//! Names and one-line rules of each variant, in Polish and English: the default rooms and
//! the `GET /api/variants` texts.

use damka_protocol::Texts;

/// `(names, rules)` of a variant id, or `None` for an unknown id.
pub fn variant_texts(variant: &str) -> Option<(Texts, Texts)> {
    let (name_pl, name_en, rules_pl, rules_en) = match variant {
        "american" => (
            "Warcaby amerykańskie",
            "American checkers",
            "Warcaby 8×8: pionki tylko do przodu, damki o jedno pole",
            "8×8: men move and capture forward only, kings move one square",
        ),
        "russian" => (
            "Warcaby rosyjskie",
            "Russian draughts",
            "Warcaby 8×8: pionki biją do tyłu, damki dalekobieżne, dowolne bicie",
            "8×8: men capture backward, flying kings, free choice of capture",
        ),
        "brazilian" => (
            "Warcaby brazylijskie",
            "Brazilian draughts",
            "Warcaby 8×8: pionki biją do tyłu",
            "8×8: men capture backward",
        ),
        "spanish" => (
            "Warcaby hiszpańskie",
            "Spanish draughts",
            "Warcaby 8×8: pionki biją tylko do przodu, bicie największej liczby bierek",
            "8×8: men capture forward only, the most pieces must be taken",
        ),
        "italian" => (
            "Warcaby włoskie",
            "Italian draughts",
            "Warcaby 8×8: pionek nie bije damki, damki o jedno pole",
            "8×8: men cannot capture kings, kings move one square",
        ),
        "czech" => (
            "Warcaby czeskie",
            "Czech draughts",
            "Warcaby 8×8: jeśli damka może bić, musi bić damka",
            "8×8: if a king can capture, a king must capture",
        ),
        "international" => (
            "Warcaby międzynarodowe",
            "International draughts",
            "Warcaby 10×10: bicie największej liczby bierek, damki dalekobieżne",
            "10×10: the most pieces must be taken, flying kings",
        ),
        _ => return None,
    };
    Some((
        Texts {
            pl: name_pl.to_owned(),
            en: name_en.to_owned(),
        },
        Texts {
            pl: rules_pl.to_owned(),
            en: rules_en.to_owned(),
        },
    ))
}

/// The variant ids in the order rooms are listed by default.
pub const VARIANT_IDS: [&str; 7] = [
    "russian",
    "brazilian",
    "international",
    "american",
    "spanish",
    "italian",
    "czech",
];
