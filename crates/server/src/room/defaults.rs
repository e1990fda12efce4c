//! Names and one-line rules of each variant, in Polish and English: the default rooms and
//! the `GET /api/variants` texts.

use damka_protocol::Texts;
use draughts::Variant;

/// `(names, rules)` of a variant.
pub fn variant_texts(variant: Variant) -> (Texts, Texts) {
    let (name_pl, name_en, rules_pl, rules_en) = match variant {
        Variant::American => (
            "Warcaby amerykańskie",
            "American checkers",
            "Warcaby 8×8: pionki tylko do przodu, damki o jedno pole",
            "8×8: men move and capture forward only, kings move one square",
        ),
        Variant::Russian => (
            "Warcaby rosyjskie",
            "Russian draughts",
            "Warcaby 8×8: pionki biją do tyłu, damki dalekobieżne, bicie obowiązkowe, wybór bicia dowolny",
            "8×8: men capture backward, flying kings, capturing is compulsory, any capture may be chosen",
        ),
        Variant::Brazilian => (
            "Warcaby brazylijskie",
            "Brazilian draughts",
            "Warcaby 8×8: pionki biją do tyłu",
            "8×8: men capture backward",
        ),
        Variant::Spanish => (
            "Warcaby hiszpańskie",
            "Spanish draughts",
            "Warcaby 8×8: pionki biją tylko do przodu, bicie największej liczby bierek",
            "8×8: men capture forward only, the most pieces must be taken",
        ),
        Variant::Italian => (
            "Warcaby włoskie",
            "Italian draughts",
            "Warcaby 8×8: pionek nie bije damki, damki o jedno pole",
            "8×8: men cannot capture kings, kings move one square",
        ),
        Variant::Czech => (
            "Warcaby czeskie",
            "Czech draughts",
            "Warcaby 8×8: jeśli damka może bić, musi bić damka",
            "8×8: if a king can capture, a king must capture",
        ),
        Variant::International => (
            "Warcaby międzynarodowe",
            "International draughts",
            "Warcaby 10×10: bicie największej liczby bierek, damki dalekobieżne",
            "10×10: the most pieces must be taken, flying kings",
        ),
    };
    (
        Texts {
            pl: name_pl.to_owned(),
            en: name_en.to_owned(),
        },
        Texts {
            pl: rules_pl.to_owned(),
            en: rules_en.to_owned(),
        },
    )
}

/// The variants in the order their rooms are listed by default.
pub const ROOM_ORDER: [Variant; 7] = [
    Variant::Russian,
    Variant::Brazilian,
    Variant::International,
    Variant::American,
    Variant::Spanish,
    Variant::Italian,
    Variant::Czech,
];
