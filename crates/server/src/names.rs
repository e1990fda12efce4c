//! Names that cannot pass for another's.
//!
//! - At rename a name is normalised (NFKC: full-width and compatibility forms become
//!   their plain letters) and a word that mixes scripts (Latin with Cyrillic or Greek,
//!   the usual way to fake a look-alike) is refused.
//! - For comparison a name is *folded*: decomposed, accents dropped, lower-cased,
//!   confusable letters mapped to one representative (Cyrillic `а` and Greek `α` to
//!   Latin `a`, `0` to `o`, `1`/`I` to `l`, ...), invisible characters removed and
//!   separators (`-`, `_`, spaces) collapsed to one space.
//! - Two people in one room whose folded names are equal are both shown with a short
//!   tag from their id (`Ala #3fa`), in the room's `people`, in seats and in chat.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The script of a letter, as far as look-alikes go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    /// Anything else (digits, other scripts).
    Other,
}

fn script(c: char) -> Script {
    match c {
        'a'..='z' | 'A'..='Z' => Script::Latin,
        '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}' if c.is_alphabetic() => Script::Latin,
        '\u{0370}'..='\u{03FF}' | '\u{1F00}'..='\u{1FFF}' => Script::Greek,
        '\u{0400}'..='\u{052F}' | '\u{1C80}'..='\u{1C8F}' | '\u{2DE0}'..='\u{2DFF}' => {
            Script::Cyrillic
        }
        _ => Script::Other,
    }
}

/// The name as stored at rename: NFKC, invisible characters removed.
///
/// Fails (`None`) when a word mixes Latin, Greek or Cyrillic letters.
pub fn normalise(name: &str) -> Option<String> {
    let n: String = name
        .nfkc()
        .filter(|&c| !crate::chat::invisible(c))
        .collect();
    for word in n.split([' ', '-', '_']) {
        let mut seen = None;
        for s in word.chars().map(script).filter(|&s| s != Script::Other) {
            match seen {
                None => seen = Some(s),
                Some(first) if first != s => return None,
                Some(_) => {}
            }
        }
    }
    Some(n)
}

/// One representative for letters that look alike (after lower-casing and dropping
/// accents).
fn confusable(c: char) -> char {
    match c {
        // Cyrillic
        'а' => 'a',
        'в' => 'b',
        'е' | 'ё' | 'є' => 'e',
        'к' => 'k',
        'м' => 'm',
        'н' => 'h',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'т' => 't',
        'у' | 'ү' => 'y',
        'х' => 'x',
        'і' | 'ї' | 'ӏ' => 'l',
        'ј' => 'j',
        'ѕ' => 's',
        'ԁ' => 'd',
        'ԛ' => 'q',
        'ԝ' => 'w',
        'ɡ' => 'g',
        // Greek
        'α' => 'a',
        'β' => 'b',
        'ε' => 'e',
        'η' => 'n',
        'ι' => 'l',
        'κ' => 'k',
        'μ' => 'u',
        'ν' => 'v',
        'ο' => 'o',
        'ρ' => 'p',
        'τ' => 't',
        'υ' => 'u',
        'χ' => 'x',
        'ω' => 'w',
        'ζ' => 'z',
        // Latin and digits that pass for each other
        'i' | '1' | '|' | 'ı' => 'l',
        '0' => 'o',
        '5' => 's',
        'ł' => 'l',
        'ø' => 'o',
        'đ' => 'd',
        'ß' => 's',
        c => c,
    }
}

/// The folded form of a name, for comparing names (never shown).
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for c in name
        .nfkd()
        .filter(|&c| !is_combining_mark(c) && !crate::chat::invisible(c))
    {
        if c.is_whitespace() || c == '-' || c == '_' || c == '.' {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        for l in c.to_lowercase() {
            out.push(confusable(l));
        }
    }
    // "rn" passes for "m", "vv" for "w".
    out.replace("rn", "m").replace("vv", "w")
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
        assert_eq!(fold("Ali1"), fold("AlIl"));
        assert_eq!(fold("Ala_ma-kota"), fold("ala ma  kota"));
        assert_eq!(fold("rnarek"), fold("marek"));
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
}
