//! Tag names and values: normalizing what real files write, and the GameType tag.

use crate::Variant;

/// Localized tag names seen in real files (lower case, after HTML unescaping) and the
/// PDN name they stand for.
const ALIASES: [(&str, &str); 20] = [
    // French (Dambo exports with localized names).
    ("événement", "Event"),
    ("evenement", "Event"),
    ("lieu", "Site"),
    ("blanc", "White"),
    ("noir", "Black"),
    ("résultat", "Result"),
    ("resultat", "Result"),
    ("type de jeu", "GameType"),
    ("manche", "Round"),
    ("ronde", "Round"),
    // Italian (Campionato Assoluto files).
    ("bianco", "White"),
    ("nero", "Black"),
    ("risultato", "Result"),
    ("evento", "Event"),
    ("luogo", "Site"),
    ("turno", "Round"),
    // Dutch.
    ("wit", "White"),
    ("zwart", "Black"),
    ("uitslag", "Result"),
    ("toernooi", "Event"),
];

/// The PDN name for a tag name as written: HTML entities decoded, spaces trimmed, known
/// localized names (French, Italian, Dutch) translated, standard names in their usual case.
pub fn normalize_name(name: &str) -> String {
    let name = unescape_html(name.trim());
    let lower = name.to_lowercase();
    if let Some((_, pdn)) = ALIASES.iter().find(|(alias, _)| *alias == lower) {
        return (*pdn).to_owned();
    }
    const STANDARD: [&str; 12] = [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "GameType",
        "FEN",
        "SetUp",
        "TimeControl",
        "Termination",
    ];
    match STANDARD.iter().find(|s| s.eq_ignore_ascii_case(&name)) {
        Some(standard) => (*standard).to_owned(),
        None => name,
    }
}

/// A tag value as meant: HTML entities decoded, surrounding spaces trimmed.
pub fn normalize_value(value: &str) -> String {
    unescape_html(value.trim()).trim().to_owned()
}

/// Decodes `&#xHHHH;`, `&#DDD;` and the five XML entities; anything else is kept as is.
pub fn unescape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest.find(';').filter(|&end| end <= 10).and_then(|end| {
            let entity = &rest[1..end];
            let c = if let Some(hex) = entity.strip_prefix("#x").or(entity.strip_prefix("#X")) {
                u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
            } else if let Some(dec) = entity.strip_prefix('#') {
                dec.parse().ok().and_then(char::from_u32)
            } else {
                match entity {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    _ => None,
                }
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The variant named by a GameType tag value (`20`, `20,W,10,10,N2,0`, ...), from its
/// first number; `None` for a type we do not play or a malformed value.
pub fn variant_from_game_type(value: &str) -> Option<Variant> {
    let number: u32 = value.split(',').next()?.trim().parse().ok()?;
    Variant::ALL
        .iter()
        .copied()
        .find(|variant| variant.game_type().split(',').next() == Some(number.to_string().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn localized_and_escaped_names() {
        assert_eq!(normalize_name("&#x00c9;v&#x00e9;nement"), "Event");
        assert_eq!(normalize_name("R&#x00e9;sultat"), "Result");
        assert_eq!(normalize_name("Type de jeu"), "GameType");
        assert_eq!(normalize_name("Bianco"), "White");
        assert_eq!(normalize_name("Event       "), "Event");
        assert_eq!(normalize_name("fen"), "FEN");
        assert_eq!(normalize_name("DamboTopLine"), "DamboTopLine");
    }

    #[test]
    fn values_are_trimmed_and_unescaped() {
        assert_eq!(normalize_value(" 0-1"), "0-1");
        assert_eq!(normalize_value("A &amp; B &#233;"), "A & B é");
        assert_eq!(normalize_value("&bogus; &"), "&bogus; &");
    }

    #[test]
    fn game_types() {
        assert_eq!(variant_from_game_type("20"), Some(Variant::International));
        assert_eq!(
            variant_from_game_type("20,W,10,10,N1,0"),
            Some(Variant::International)
        );
        assert_eq!(variant_from_game_type(" 21"), Some(Variant::American));
        assert_eq!(
            variant_from_game_type("29,W,8,8,A0,0"),
            Some(Variant::Czech)
        );
        assert_eq!(variant_from_game_type("23"), None);
        assert_eq!(variant_from_game_type("x"), None);
    }
}
