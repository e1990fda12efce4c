//! Names and one-line rules of each variant in the client's nine languages: the default
//! rooms and the `GET /api/variants` texts.

use damka_protocol::Texts;
use draughts::Variant;

/// One text in every language, in the order Polish, English, Russian, Portuguese,
/// Spanish, Italian, Czech, Dutch, French.
type Nine = [&'static str; 9];

/// `(names, rules)` of a variant.
pub fn variant_texts(variant: Variant) -> (Texts, Texts) {
    let (names, rules): (Nine, Nine) = match variant {
        Variant::American => (
            [
                "Warcaby amerykańskie",
                "American checkers",
                "Американские шашки",
                "Damas americanas",
                "Damas americanas",
                "Dama americana",
                "Americká dáma",
                "Amerikaans dammen",
                "Dames américaines",
            ],
            [
                "Warcaby 8×8: pionki tylko do przodu, damki o jedno pole",
                "8×8: men move and capture forward only, kings move one square",
                "8×8: простые ходят и бьют только вперёд, дамка ходит на одно поле",
                "8×8: pedras andam e tomam só para a frente, damas andam uma casa",
                "8×8: los peones mueven y capturan solo hacia delante, las damas mueven una casilla",
                "8×8: le pedine muovono e prendono solo in avanti, le dame muovono di una casella",
                "8×8: kameny táhnou a berou jen dopředu, dámy táhnou o jedno pole",
                "8×8: schijven zetten en slaan alleen vooruit, dammen zetten één veld",
                "8×8\u{a0}: les pions avancent et ne prennent qu’en avant, les dames se déplacent d’une case",
            ],
        ),
        Variant::Russian => (
            [
                "Warcaby rosyjskie",
                "Russian draughts",
                "Русские шашки",
                "Damas russas",
                "Damas rusas",
                "Dama russa",
                "Ruská dáma",
                "Russisch dammen",
                "Dames russes",
            ],
            [
                "Warcaby 8×8: pionki biją do tyłu, damki dalekobieżne, bicie obowiązkowe, wybór bicia dowolny",
                "8×8: men capture backward, flying kings, capturing is compulsory, any capture may be chosen",
                "8×8: простые бьют назад, дамки дальнобойные, бить обязательно, выбор взятия свободный",
                "8×8: pedras tomam para trás, damas de longo alcance, tomada obrigatória, qualquer tomada pode ser escolhida",
                "8×8: los peones capturan hacia atrás, damas de largo alcance, captura obligatoria, cualquier captura a elegir",
                "8×8: le pedine prendono all’indietro, dame a lungo raggio, presa obbligatoria, scelta libera della presa",
                "8×8: kameny berou dozadu, dámy s dlouhým tahem, braní je povinné, volba braní je volná",
                "8×8: schijven slaan achteruit, lange dammen, slagplicht, vrije keus van slag",
                "8×8\u{a0}: les pions prennent en arrière, dames volantes, prise obligatoire, choix de la prise libre",
            ],
        ),
        Variant::Brazilian => (
            [
                "Warcaby brazylijskie",
                "Brazilian draughts",
                "Бразильские шашки",
                "Damas brasileiras",
                "Damas brasileñas",
                "Dama brasiliana",
                "Brazilská dáma",
                "Braziliaans dammen",
                "Dames brésiliennes",
            ],
            [
                "Warcaby 8×8: pionki biją do tyłu",
                "8×8: men capture backward",
                "8×8: простые бьют назад",
                "8×8: pedras tomam para trás",
                "8×8: los peones capturan hacia atrás",
                "8×8: le pedine prendono all’indietro",
                "8×8: kameny berou dozadu",
                "8×8: schijven slaan achteruit",
                "8×8\u{a0}: les pions prennent en arrière",
            ],
        ),
        Variant::Spanish => (
            [
                "Warcaby hiszpańskie",
                "Spanish draughts",
                "Испанские шашки",
                "Damas espanholas",
                "Damas españolas",
                "Dama spagnola",
                "Španělská dáma",
                "Spaans dammen",
                "Dames espagnoles",
            ],
            [
                "Warcaby 8×8: pionki biją tylko do przodu, bicie największej liczby bierek",
                "8×8: men capture forward only, the most pieces must be taken",
                "8×8: простые бьют только вперёд, бить нужно наибольшее число шашек",
                "8×8: pedras tomam só para a frente, é obrigatório tomar o maior número de peças",
                "8×8: los peones capturan solo hacia delante, hay que capturar el mayor número de piezas",
                "8×8: le pedine prendono solo in avanti, bisogna prendere più pezzi possibile",
                "8×8: kameny berou jen dopředu, brát se musí nejvíc kamenů",
                "8×8: schijven slaan alleen vooruit, de meeste stukken moeten worden geslagen",
                "8×8\u{a0}: les pions ne prennent qu’en avant, prise majoritaire obligatoire",
            ],
        ),
        Variant::Italian => (
            [
                "Warcaby włoskie",
                "Italian draughts",
                "Итальянские шашки",
                "Damas italianas",
                "Damas italianas",
                "Dama italiana",
                "Italská dáma",
                "Italiaans dammen",
                "Dames italiennes",
            ],
            [
                "Warcaby 8×8: pionek nie bije damki, damki o jedno pole",
                "8×8: men cannot capture kings, kings move one square",
                "8×8: простая не бьёт дамку, дамка ходит на одно поле",
                "8×8: pedras não tomam damas, damas andam uma casa",
                "8×8: los peones no capturan damas, las damas mueven una casilla",
                "8×8: la pedina non prende la dama, le dame muovono di una casella",
                "8×8: kámen nebere dámu, dámy táhnou o jedno pole",
                "8×8: schijven slaan geen dammen, dammen zetten één veld",
                "8×8\u{a0}: les pions ne prennent pas les dames, les dames se déplacent d’une case",
            ],
        ),
        Variant::Czech => (
            [
                "Warcaby czeskie",
                "Czech draughts",
                "Чешские шашки",
                "Damas tchecas",
                "Damas checas",
                "Dama ceca",
                "Česká dáma",
                "Tsjechisch dammen",
                "Dames tchèques",
            ],
            [
                "Warcaby 8×8: jeśli damka może bić, musi bić damka",
                "8×8: if a king can capture, a king must capture",
                "8×8: если дамка может бить, бить должна дамка",
                "8×8: se uma dama pode tomar, a dama deve tomar",
                "8×8: si una dama puede capturar, debe capturar la dama",
                "8×8: se una dama può prendere, deve prendere la dama",
                "8×8: může-li brát dáma, musí brát dáma",
                "8×8: kan een dam slaan, dan moet een dam slaan",
                "8×8\u{a0}: si une dame peut prendre, c’est une dame qui doit prendre",
            ],
        ),
        Variant::International => (
            [
                "Warcaby międzynarodowe",
                "International draughts",
                "Международные шашки",
                "Damas internacionais",
                "Damas internacionales",
                "Dama internazionale",
                "Mezinárodní dáma",
                "Internationaal dammen",
                "Dames internationales",
            ],
            [
                "Warcaby 10×10: bicie największej liczby bierek, damki dalekobieżne",
                "10×10: the most pieces must be taken, flying kings",
                "10×10: бить нужно наибольшее число шашек, дамки дальнобойные",
                "10×10: é obrigatório tomar o maior número de peças, damas de longo alcance",
                "10×10: hay que capturar el mayor número de piezas, damas de largo alcance",
                "10×10: bisogna prendere più pezzi possibile, dame a lungo raggio",
                "10×10: brát se musí nejvíc kamenů, dámy s dlouhým tahem",
                "10×10: de meeste stukken moeten worden geslagen, lange dammen",
                "10×10\u{a0}: prise majoritaire obligatoire, dames volantes",
            ],
        ),
    };
    (texts(names), texts(rules))
}

/// The wire texts of one row of [`variant_texts`].
fn texts([pl, en, ru, pt, es, it, cs, nl, fr]: Nine) -> Texts {
    let some = |s: &str| Some(s.to_owned());
    Texts {
        pl: pl.to_owned(),
        en: en.to_owned(),
        ru: some(ru),
        pt: some(pt),
        es: some(es),
        it: some(it),
        cs: some(cs),
        nl: some(nl),
        fr: some(fr),
    }
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
