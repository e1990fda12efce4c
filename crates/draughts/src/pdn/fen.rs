//! FEN tags written in another notation than the variant's.

use crate::Variant;

/// Rewrites the numeric squares of a FEN as the variant's square names, numbering the
/// playing squares from the top-left with White at the bottom (PDN's numeric 8x8
/// numbering, `W:W21-32:B1-12` for White on rows 1–3). Ranges (`21-32`) are expanded.
/// Squares out of range and non-numeric text are left as they are, for the FEN parser to
/// reject.
pub fn numeric_to_algebraic(variant: Variant, fen: &str) -> String {
    let mut squares: Vec<_> = variant.squares().collect();
    squares.sort_by_key(|&sq| {
        let (x, y) = variant.square_xy(sq);
        (y, x)
    });
    let name = |n: &str| -> Option<String> {
        let n: usize = n.parse().ok()?;
        squares
            .get(n.checked_sub(1)?)
            .map(|&sq| variant.square_name(sq))
    };
    fen.split(':')
        .map(|field| {
            let (color, list) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
            if !matches!(color, "W" | "B") || list.is_empty() {
                return field.to_owned();
            }
            let items: Vec<String> = list
                .split(',')
                .flat_map(|item| convert_item(item, &name))
                .collect();
            format!("{color}{}", items.join(","))
        })
        .collect::<Vec<_>>()
        .join(":")
}

/// One FEN list item: `K5`, `29` or a range `21-32`.
fn convert_item(item: &str, name: &impl Fn(&str) -> Option<String>) -> Vec<String> {
    let (king, body) = match item.strip_prefix('K') {
        Some(body) => ("K", body),
        None => ("", item),
    };
    if let Some((lo, hi)) = body.split_once('-')
        && let (Ok(lo), Ok(hi)) = (lo.parse::<usize>(), hi.parse::<usize>())
        && hi >= lo
        && hi - lo < 64
    {
        return (lo..=hi)
            .map(|n| match name(&n.to_string()) {
                Some(sq) => format!("{king}{sq}"),
                None => format!("{king}{n}"),
            })
            .collect();
    }
    match name(body) {
        Some(sq) => vec![format!("{king}{sq}")],
        None => vec![item.to_owned()],
    }
}
