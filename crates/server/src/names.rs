//! Names that cannot pass for another's, nor for the computer's.
//!
//! - At rename a name is normalised (NFKC: full-width and compatibility forms become
//!   their plain letters, invisible characters removed) and refused when it has a
//!   character outside the UTS #39 general security profile (small capitals, Lisu,
//!   mathematical alphabets: look-alikes of Latin with no other use in a name), a word mixes
//!   scripts (UTS #39 mixed-script detection: Latin with a Cyrillic, Greek or Armenian
//!   look-alike, the usual way to fake a name; scripts written together, such as Han with
//!   kana, are one script there), when a letter carries more than [`MAX_MARKS`] combining
//!   marks, or when it poses as the computer or the server's staff ([`reserved`]).
//! - For comparison a name is *folded*: decomposed, accents dropped, mapped to its UTS #39
//!   confusables skeleton (Cyrillic `а`, Greek `α` and Armenian `ɑ`-likes to Latin `a`,
//!   `0` to `O`, `1` and `I` to `l`, `m` to `rn`, small capitals and Lisu letters to
//!   their Latin look-alikes, ...), lower-cased and skeletonised again, and separators
//!   (`-`, `_`, `.`, spaces) collapsed to one space.
//! - Two people in one room whose folded names are equal are both shown with a short
//!   tag from their id (`Ala #3fa`), in the room's `people`, in seats and in chat.
//! - A guest whose name is an account's username is shown tagged everywhere
//!   ([`tagged`]): an account's name means that account only.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, MixedScript, skeleton};

/// Combining marks a letter of a name may carry (decomposed: Vietnamese needs two).
pub const MAX_MARKS: usize = 2;

/// What the computer is called in the languages the client speaks or is being
/// translated to (English, Polish, Russian, Portuguese, Spanish, Italian, Czech, Dutch,
/// French): no person's name may contain one of these, however written (compared
/// folded).
const COMPUTER_NAMES: [&str; 8] = [
    "Computer",
    "Komputer",
    "Компьютер",
    "Computador",
    "Computadora",
    "Ordenador",
    "Počítač",
    "Ordinateur",
];

/// Who a person must not pose as, in the same languages: the server's staff and the
/// server itself. A name is refused when one of its words is one of these (folded),
/// alone or followed by digits (`Admin`, `admin_2`, `The Admin`, `Moderátor 1`), or, for
/// the words of six letters or more, when a word contains one (`SuperModerator`).
const STAFF_NAMES: [&str; 44] = [
    // Administrators.
    "admin",
    "administrator",
    "админ",
    "администратор",
    "administrador",
    "amministratore",
    "beheerder",
    "administrateur",
    // Moderators.
    "moderator",
    "mod",
    "модератор",
    "moderador",
    "moderatore",
    "moderateur",
    // Operators.
    "operator",
    "оператор",
    "operador",
    "operatore",
    "operateur",
    "root",
    "sysop",
    // The system.
    "system",
    "система",
    "sistema",
    "systeem",
    "systeme",
    // Support.
    "support",
    "поддержка",
    "suporte",
    "soporte",
    "supporto",
    "assistenza",
    "podpora",
    "wsparcie",
    "ondersteuning",
    "helpdesk",
    // The server and the computer's seats.
    "damka",
    "дамка",
    "bot",
    "бот",
    "robot",
    "робот",
    "staff",
    "official",
];

/// What [`reserved`] compares: the folded name with `i` taken as `l` too (as usernames
/// are compared), so that `1`, `I`, `l` and `i` are one letter.
fn reserved_fold(name: &str) -> String {
    fold(name).replace('i', "l")
}

/// The folds of a name in lower case, upper case and as written: a skeleton is not
/// blind to case for every script (Cyrillic capital `М` looks like `M`, its small `м`
/// like nothing Latin), so a name and a reserved word are compared in each.
fn case_folds(name: &str) -> [String; 3] {
    [
        reserved_fold(&name.to_lowercase()),
        reserved_fold(&name.to_uppercase()),
        reserved_fold(name),
    ]
}

/// Reserved words folded, as [`reserved`] compares them.
struct ReservedFolds {
    /// [`STAFF_NAMES`] in each case, each with whether it has six letters or more.
    staff: Vec<(String, bool)>,
    /// [`COMPUTER_NAMES`] in each case.
    computer: Vec<String>,
    /// What digits fold to (`0` to `o`, `1` to `l`, ...).
    digits: String,
}

/// The folded forms, made once.
fn reserved_folds() -> &'static ReservedFolds {
    static FOLDS: std::sync::OnceLock<ReservedFolds> = std::sync::OnceLock::new();
    FOLDS.get_or_init(|| ReservedFolds {
        staff: STAFF_NAMES
            .iter()
            .flat_map(|n| case_folds(n).map(|f| (f, n.chars().count() >= 6)))
            .collect(),
        computer: COMPUTER_NAMES.iter().flat_map(|n| case_folds(n)).collect(),
        digits: reserved_fold("0123456789"),
    })
}

/// Whether a display name follows the rules: 2–24 characters of letters, digits, space,
/// `-` or `_`, not blank.
pub fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (2..=24).contains(&n)
        && name.trim() == name
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
}

/// The name as stored at rename: NFKC, invisible characters removed.
///
/// Fails (`None`) when a word mixes scripts, a letter carries too many marks, or the
/// name poses as the computer.
pub fn normalise(name: &str) -> Option<String> {
    let n: String = name
        .nfkc()
        .filter(|&c| !crate::text::invisible(c))
        .collect();
    // Only characters of the UTS #39 general security profile (the letters and digits
    // of the scripts in modern use, not small capitals, Lisu or mathematical letters).
    if !n.chars().all(|c| c == ' ' || c.identifier_allowed()) {
        return None;
    }
    if !n.split([' ', '-', '_']).all(MixedScript::is_single_script) {
        return None;
    }
    if crate::text::most_marks(&n.nfd().collect::<String>()) > MAX_MARKS {
        return None;
    }
    if reserved(&n) {
        return None;
    }
    Some(n)
}

/// Whether a name poses as the computer ("Computer level 3", "K0mputer", "bot-1") or
/// the server's staff ("Admin", "moderator_2", "Администратор"), compared folded, so
/// look-alike letters and digits, case, accents and separators do not help.
pub fn reserved(name: &str) -> bool {
    let folds = reserved_folds();
    let staff_word = |word: &str| {
        folds.staff.iter().any(|(s, long)| {
            let rest = word.strip_prefix(s.as_str());
            rest.is_some_and(|r| r.chars().all(|c| folds.digits.contains(c)))
                || (*long && word.contains(s.as_str()))
        })
    };
    case_folds(name).iter().any(|folded| {
        folds.computer.iter().any(|c| folded.contains(c.as_str()))
            // Each word, and the name run together (`a-d-m-i-n`, `bot 1`).
            || folded.split(' ').any(staff_word)
            || staff_word(&folded.replace(' ', ""))
    })
}

/// A name shown with a tag of its owner's id (`Bolek #3fa9`): a guest whose name an
/// account holds.
pub fn tagged(name: &str, id: &str) -> String {
    format!("{name} #{}", prefix(id, 4))
}

/// The folded form of a name, for comparing names (never shown).
pub fn fold(name: &str) -> String {
    let bare: String = name
        .nfkd()
        .filter(|&c| !crate::text::is_mark(c) && !crate::text::invisible(c))
        .collect();
    // The skeleton of the name as written (capitals first: Greek `Η` looks like `H`,
    // not like the `n` its small letter resembles), then of its lower case.
    let upper: String = skeleton(&bare)
        .filter(|&c| !crate::text::is_mark(c))
        .collect();
    let lower = upper.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut space = false;
    for c in skeleton(&lower).filter(|&c| !crate::text::is_mark(c)) {
        if c.is_whitespace() || matches!(c, '-' | '_' | '.' | '\u{2010}' | '\u{2011}') {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// Shown names for the people of one room: a person whose folded name equals
/// another's gets a tag from their id (`Name #a3f`, longer if the tags collide too).
pub fn disambiguate<'a>(
    people: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> HashMap<String, String> {
    let people: Vec<(&str, &str)> = people.into_iter().collect();
    let mut by_fold: HashMap<String, Vec<(&str, &str)>> = HashMap::new();
    for &(id, name) in &people {
        by_fold.entry(fold(name)).or_default().push((id, name));
    }
    let mut shown = HashMap::with_capacity(people.len());
    for group in by_fold.values() {
        if group.len() == 1 {
            let (id, name) = group[0];
            shown.insert(id.to_owned(), name.to_owned());
            continue;
        }
        let ids: Vec<&str> = group.iter().map(|(id, _)| *id).collect();
        let len = (3..=ids.iter().map(|i| i.len()).max().unwrap_or(3))
            .find(|&n| {
                let tags: std::collections::HashSet<&str> =
                    ids.iter().map(|i| prefix(i, n)).collect();
                tags.len() == ids.len()
            })
            .unwrap_or(32);
        for &(id, name) in group {
            shown.insert(id.to_owned(), format!("{name} #{}", prefix(id, len)));
        }
    }
    shown
}

fn prefix(id: &str, n: usize) -> &str {
    let end = id.char_indices().nth(n).map_or(id.len(), |(i, _)| i);
    &id[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_fold_to_the_same_name() {
        // Cyrillic а and о in an otherwise Latin name.
        assert_eq!(fold("B\u{043E}lek"), fold("Bolek"));
        assert_eq!(fold("\u{0410}la"), fold("Ala"));
        // Greek omicron, full-width letters, zero-width space, accents, case.
        assert_eq!(fold("B\u{03BF}lek"), fold("bolek"));
        assert_eq!(fold("\u{FF21}\u{FF4C}\u{FF41}"), fold("Ala"));
        assert_eq!(fold("Al\u{200B}a"), fold("Ala"));
        assert_eq!(fold("Łukasz"), fold("Lukasz"));
        assert_eq!(fold("Zając"), fold("zajac"));
        // Digits and letters that pass for each other, separators.
        assert_eq!(fold("B0lek"), fold("Bolek"));
        assert_eq!(fold("Al11"), fold("AlIl"));
        assert_eq!(fold("Ala_ma-kota"), fold("ala ma  kota"));
        assert_eq!(fold("rnarek"), fold("marek"));
        // Found by the review: Armenian o, Latin alpha, Cyrillic shha, Greek capitals,
        // Lisu letters, small capitals.
        assert_eq!(fold("B\u{0585}lek"), fold("Bolek"));
        assert_eq!(fold("\u{0251}la"), fold("ala"));
        assert_eq!(fold("\u{04BB}enio"), fold("henio"));
        assert_eq!(
            fold("\u{0397}\u{0395}\u{039D}\u{0399}\u{039F}"),
            fold("HENIO")
        );
        assert_eq!(fold("\u{03A1}\u{0391}\u{0397}\u{0391}"), fold("PAHA"));
        assert_ne!(
            fold("\u{0397}\u{0391}\u{039D}\u{0391}"),
            fold("nana"),
            "capital eta is H"
        );
        assert_eq!(
            fold("\u{A4D0}\u{A4F3}\u{A4E1}\u{A4F0}\u{A4D7}"),
            fold("Bolek")
        );
        assert_eq!(fold("\u{1D0F}la"), fold("ola"));
        // Different names stay different.
        assert_ne!(fold("Ala"), fold("Ola"));
        assert_ne!(fold("Bolek"), fold("Lolek"));
    }

    #[test]
    fn mixed_scripts_in_a_word_are_refused_and_forms_normalised() {
        assert_eq!(
            normalise("B\u{043E}lek"),
            None,
            "Cyrillic о in a Latin word"
        );
        assert_eq!(normalise("B\u{03BF}lek"), None, "Greek ο in a Latin word");
        assert_eq!(
            normalise("Ала Bolek").as_deref(),
            Some("Ала Bolek"),
            "one script per word"
        );
        assert_eq!(normalise("Борис").as_deref(), Some("Борис"));
        assert_eq!(normalise("\u{FF21}la").as_deref(), Some("Ala"), "NFKC");
        assert_eq!(normalise("Gość 4821").as_deref(), Some("Gość 4821"));
        assert_eq!(normalise("Al\u{200D}a").as_deref(), Some("Ala"));
        assert_eq!(
            normalise("B\u{0585}lek"),
            None,
            "Armenian o in a Latin word"
        );
        assert!(
            normalise("\u{4E2D}\u{6587}\u{3072}\u{30AB}").is_some(),
            "Han with kana"
        );
        assert_eq!(
            normalise("Nguy\u{1EC5}n").as_deref(),
            Some("Nguy\u{1EC5}n"),
            "two marks"
        );
        assert_eq!(
            normalise(&format!("Ala{}", "\u{0363}".repeat(5))),
            None,
            "Zalgo"
        );
        // Letters outside the general security profile: small capitals, Lisu.
        assert_eq!(
            normalise("\u{1D0F}\u{029F}\u{1D00}"),
            None,
            "small capitals"
        );
        assert_eq!(
            normalise("\u{A4D0}\u{A4F3}\u{A4E1}\u{A4F0}\u{A4D7}"),
            None,
            "Lisu"
        );
        for ok in [
            "Борис",
            "Ελένη",
            "한국",
            "עברית",
            "हिन्दी",
            "ไทย",
            "Zażółć Łukasz",
        ] {
            assert_eq!(normalise(ok).as_deref(), Some(ok));
        }
    }

    #[test]
    fn nobody_poses_as_the_computer() {
        for name in [
            "Computer level 3",
            "Komputer poziom 3",
            "computer",
            "K0mputer",
            "C\u{043E}mputer 1",
            "Kornputer",
        ] {
            assert!(reserved(name), "{name}");
            assert_eq!(normalise(name), None, "{name}");
        }
        assert!(!reserved("Komar"));
        assert!(!reserved("Compote"));
    }

    #[test]
    fn nobody_poses_as_staff_or_a_computer_seat_in_any_language() {
        for name in [
            "Admin",
            "ADMIN",
            "admin_2",
            "Adm1n",
            "The Admin",
            "a-d-m-i-n",
            "Administrator",
            "Администратор",
            "Админ Вася",
            "administrátor",
            "Administrador",
            "Amministratore",
            "Beheerder",
            "Administrateur",
            "Moderátor 1",
            "Модератор",
            "SuperModerator",
            "Opérateur",
            "root",
            "R00t",
            "System",
            "Système",
            "Systém",
            "Sistema",
            "Support",
            "Поддержка",
            "Damka",
            "Дамка",
            "bot",
            "bot-1",
            "Bot 12",
            "b0t_3",
            "Бот",
            "Компьютер",
            "Computador 2",
            "Ordenador",
            "Počítač",
            "pocitac",
            "Ordinateur",
        ] {
            assert!(reserved(name), "{name}");
            assert_eq!(normalise(name), None, "{name}");
        }
        for name in [
            "Abbott",
            "Botwinnik",
            "Badminton",
            "Rooted",
            "Damkarz",
            "Admiral",
            "Gość 4821",
            "Quick Fox",
            "Modest",
        ] {
            assert!(!reserved(name), "{name}");
        }
    }

    #[test]
    fn equal_looking_names_get_tags() {
        let shown = disambiguate([
            ("3fa91c", "Bolek"),
            ("77b210", "B\u{043E}lek"),
            ("aaaaaa", "Ala"),
        ]);
        assert_eq!(shown["3fa91c"], "Bolek #3fa");
        assert_eq!(shown["77b210"], "B\u{043E}lek #77b");
        assert_eq!(shown["aaaaaa"], "Ala");
        // Tags that collide grow until they differ.
        let shown = disambiguate([("abc123", "Ala"), ("abc456", "ala")]);
        assert_eq!(shown["abc123"], "Ala #abc1");
        assert_eq!(shown["abc456"], "ala #abc4");
    }

    #[test]
    fn names() {
        assert!(valid_name("Gość 4821"));
        assert!(valid_name("Ala_ma-kota"));
        assert!(!valid_name("A"));
        assert!(!valid_name(" Ala"));
        assert!(!valid_name("<script>"));
        assert!(!valid_name(&"x".repeat(25)));
    }
}
