//! Room definitions: the JSON rooms file, or one room per variant.

use std::path::Path;

use damka_protocol::Texts;
use draughts::Variant;
use serde::Deserialize;

use super::defaults::{ROOM_ORDER, variant_texts};

/// One room as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomConfig {
    /// Room id (URL-safe).
    pub id: String,
    /// The variant played here.
    pub variant: Variant,
    /// Names.
    pub names: Texts,
    /// One-line rules.
    pub rules: Texts,
}

/// One entry of the rooms file: `names` and `rules` default to the variant's.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoomEntry {
    id: String,
    variant: String,
    names: Option<Texts>,
    rules: Option<Texts>,
}

/// Why the rooms file was rejected.
#[derive(Debug, thiserror::Error)]
pub enum RoomsError {
    /// The file could not be read.
    #[error("cannot read the rooms file: {0}")]
    Io(#[from] std::io::Error),
    /// The file is not the expected JSON.
    #[error("bad rooms file: {0}")]
    Json(#[from] serde_json::Error),
    /// An entry is invalid.
    #[error("bad room {id:?}: {why}")]
    Invalid {
        /// The room id.
        id: String,
        /// What is wrong.
        why: &'static str,
    },
}

/// One room per variant, with ids equal to the variant ids.
pub fn default_rooms() -> Vec<RoomConfig> {
    ROOM_ORDER
        .into_iter()
        .map(|v| {
            let (names, rules) = variant_texts(v);
            RoomConfig {
                id: v.name().to_owned(),
                variant: v,
                names,
                rules,
            }
        })
        .collect()
}

/// Parses a rooms file: `[{"id", "variant", "names"?: {"pl","en"}, "rules"?: {...}}]`.
///
/// Fails on unreadable or malformed files, unknown variants, bad or duplicate ids.
pub fn load_rooms(path: &Path) -> Result<Vec<RoomConfig>, RoomsError> {
    parse_rooms(&std::fs::read_to_string(path)?)
}

/// Parses the rooms file's text (see [`load_rooms`]).
pub fn parse_rooms(text: &str) -> Result<Vec<RoomConfig>, RoomsError> {
    let entries: Vec<RoomEntry> = serde_json::from_str(text)?;
    let mut rooms: Vec<RoomConfig> = Vec::with_capacity(entries.len());
    for e in entries {
        let invalid = |why| RoomsError::Invalid {
            id: e.id.clone(),
            why,
        };
        let valid_id = (1..=32).contains(&e.id.len())
            && e.id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if !valid_id {
            return Err(invalid("ids are 1-32 characters a-z, 0-9, '-', '_'"));
        }
        if rooms.iter().any(|r| r.id == e.id) {
            return Err(invalid("duplicate id"));
        }
        let Some(variant) = Variant::from_name(&e.variant) else {
            return Err(invalid("unknown variant"));
        };
        let (names, rules) = variant_texts(variant);
        rooms.push(RoomConfig {
            id: e.id,
            variant,
            names: e.names.unwrap_or(names),
            rules: e.rules.unwrap_or(rules),
        });
    }
    if rooms.is_empty() {
        return Err(RoomsError::Invalid {
            id: String::new(),
            why: "no rooms",
        });
    }
    Ok(rooms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_have_one_room_per_variant() {
        let rooms = default_rooms();
        assert_eq!(rooms.len(), 7);
        let brazilian = rooms
            .iter()
            .find(|r| r.id == "brazilian")
            .expect("brazilian room");
        assert_eq!(brazilian.rules.pl, "Warcaby 8×8: pionki biją do tyłu");
        assert_eq!(brazilian.names.ru.as_deref(), Some("Бразильские шашки"));
        assert_eq!(brazilian.names.fr.as_deref(), Some("Dames brésiliennes"));
    }

    #[test]
    fn a_rooms_file_may_name_a_room_in_polish_and_english_only() {
        let rooms = parse_rooms(
            r#"[{"id": "klub", "variant": "czech", "names": {"pl": "Klub", "en": "Club", "cs": "Klub"}}]"#,
        )
        .expect("valid");
        assert_eq!(rooms[0].names.cs.as_deref(), Some("Klub"));
        assert_eq!(rooms[0].names.nl, None);
        let json = serde_json::to_value(&rooms[0].names).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({"pl": "Klub", "en": "Club", "cs": "Klub"})
        );
        assert_eq!(
            rooms[0].rules.nl.as_deref(),
            Some("8×8: kan een dam slaan, dan moet een dam slaan")
        );
    }

    #[test]
    fn file_entries_default_their_texts() {
        let rooms = parse_rooms(
            r#"[{"id": "klub", "variant": "english", "names": {"pl": "Klub", "en": "Club"}}]"#,
        )
        .expect("valid");
        assert_eq!(rooms[0].variant, Variant::American);
        assert_eq!(rooms[0].names.en, "Club");
        assert!(rooms[0].rules.pl.starts_with("Warcaby 8×8"));
        assert!(parse_rooms(r#"[{"id": "x", "variant": "chess"}]"#).is_err());
        assert!(parse_rooms(r#"[{"id": "A B", "variant": "russian"}]"#).is_err());
        assert!(parse_rooms("[]").is_err());
    }
}
