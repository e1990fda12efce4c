//! The server's modules form layers: no module uses, directly or through others, a module
//! that uses it (the map is in `src/lib.rs` and `docs/architecture.md`), and only the
//! storage crate speaks SQL (no file of the server names `sqlx`). Read from the source
//! text: every `crate::<module>` a module's files name, `use crate::{a, b}` groups
//! included.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The top-level modules a text names through `crate::`.
fn named_modules(text: &str) -> BTreeSet<String> {
    named_after(text, "crate::")
}

/// The first names after each `prefix` (`crate::`, `super::`) in a text, outside comments.
fn named_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            rest = &rest[at + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `crate::{a, b::c, d::{e, f}}`: the first name of each top-level item.
                let mut depth = 0;
                let mut item_start = true;
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => item_start = true,
                        c if item_start && (c.is_alphanumeric() || c == '_') => {
                            out.insert(ident(&group[i..]));
                            item_start = false;
                        }
                        _ => {}
                    }
                }
            } else {
                let name = ident(rest);
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// The modules of `uses` (each with the modules it names) ground floor first; panics
/// with the path of a circle if there is one.
fn layers(uses: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    // A circle shows as a module met again on the path that led to it.
    fn visit(
        m: &str,
        uses: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        order: &mut Vec<String>,
    ) {
        if done.contains(m) {
            return;
        }
        if let Some(at) = path.iter().position(|p| p == m) {
            panic!("modules in a circle: {} -> {m}", path[at..].join(" -> "));
        }
        path.push(m.to_owned());
        for n in &uses[m] {
            visit(n, uses, path, done, order);
        }
        path.pop();
        done.insert(m.to_owned());
        order.push(m.to_owned());
    }
    let (mut done, mut order) = (BTreeSet::new(), Vec::new());
    for m in uses.keys() {
        visit(m, uses, &mut Vec::new(), &mut done, &mut order);
    }
    order
}

#[test]
fn server_modules_form_layers_and_none_speaks_sql() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Each module (a file or a folder right under src/, but the crate roots) and the
    // modules its files name.
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files(&src) {
        let text = std::fs::read_to_string(&path).unwrap();
        let rel = path.strip_prefix(&src).unwrap();
        assert!(
            !text.contains("sqlx"),
            "{} names sqlx: the store crate speaks SQL",
            rel.display()
        );
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_owned();
        if module == "lib" || module == "main" {
            continue;
        }
        uses.entry(module).or_default().extend(named_modules(&text));
    }
    let modules: BTreeSet<String> = uses.keys().cloned().collect();
    for (m, named) in &mut uses {
        named.retain(|n| n != m && modules.contains(n));
    }
    let order = layers(&uses);
    // The layers, ground floor first (shown with `--nocapture`).
    println!("{}", order.join(" < "));
    // The ones the review found in a circle, now one way only.
    let below = |low: &str, high: &str| {
        let (l, h) = (
            order.iter().position(|m| m == low).unwrap(),
            order.iter().position(|m| m == high).unwrap(),
        );
        assert!(
            l < h && !uses[low].contains(high),
            "{low} must stay below {high}"
        );
    };
    below("table", "cluster");
    below("table", "tournament");
    below("session", "http");
    below("session", "ws");
    below("ws", "http");
}

/// The files of `table/` form layers too: the actor stands on its parts (the game and its
/// rules, seating, presence, the computer's plan, the correspondence timers, what a new
/// game starts from, the views, the registry, …), none of which names the actor or a file
/// above it; its handlers, parking, opening a table and restoring stand above it. Only
/// `actor.rs` and `handlers.rs` implement `TableActor`. Read from each file's `super::`
/// names, its tests left out.
#[test]
fn table_files_form_layers_below_and_above_the_actor() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/table");
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut text_of = BTreeMap::new();
    for path in files(&dir) {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "mod" || name == "tests" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or("")
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        uses.insert(name.clone(), named_after(&code, "super::"));
        text_of.insert(name, code);
    }
    let files: BTreeSet<String> = uses.keys().cloned().collect();
    for (f, named) in &mut uses {
        named.retain(|n| n != f && files.contains(n));
    }
    let order = layers(&uses);
    println!("{}", order.join(" < "));
    // Everything the actor stands on, directly or not.
    let mut below = BTreeSet::new();
    let mut todo = vec!["actor".to_owned()];
    while let Some(f) = todo.pop() {
        for n in &uses[&f] {
            if below.insert(n.clone()) {
                todo.push(n.clone());
            }
        }
    }
    for part in [
        "computer",
        "correspondence",
        "presence",
        "registry",
        "referee",
        "seating",
        "subscribers",
    ] {
        assert!(below.contains(part), "the actor stands on table/{part}.rs");
    }
    for f in &below {
        assert!(
            !text_of[f].contains("TableActor"),
            "table/{f}.rs is below the actor and names it"
        );
    }
    // The actor's behaviour is in two files: the task (`actor`) and what each message,
    // command and timer does (`handlers`); every other file is state and decisions.
    for (f, code) in &text_of {
        if f != "actor" && f != "handlers" {
            assert!(
                !code.contains("impl TableActor"),
                "table/{f}.rs adds to the actor: only actor.rs and handlers.rs do"
            );
        }
    }
}

#[test]
fn groups_and_paths_are_read() {
    let named = named_modules(
        "use crate::{a, b::c, d::{e, f}};\nlet x = crate::g::h(); // crate::ignored\n",
    );
    let want: BTreeSet<String> = ["a", "b", "d", "g"].iter().map(|s| s.to_string()).collect();
    assert_eq!(named, want);
}

/// The table's rules are pure: the referee and what it rules on (the step, the move
/// check, the game, its offers, colours and sides), the computer's plan, the
/// correspondence timers, the parked tables' list, what a new game starts from, the
/// views, the chat's and people's rules name neither the actor nor the other files that
/// drive it, and do no I/O (no store, no sending on sockets, no clock read, no task);
/// only [`Write::run`](../../src/table/step.rs) hands a step's write to the store. So
/// they are tested without a database, and a new action is three files.
#[test]
fn the_tables_rules_are_pure() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/table");
    let pure = [
        "referee",
        "step",
        "moves",
        "game",
        "offers",
        "sides",
        "computer",
        "correspondence",
        "parked",
        "lifecycle",
        "view",
        "social",
    ];
    // Files that drive a table (the actor, its handlers, opening, parking and restoring
    // tables) and what does I/O. (Seating, the sockets' list and presence are state the
    // rules may read: presence reads the clock only to coalesce its own announcements.)
    let drivers = [
        "actor",
        "handlers",
        "registry",
        "restore",
        "open",
        "parking",
        "tournament",
        "notices",
    ];
    let io = [
        "TableActor",
        "tokio",
        "axum",
        ".await",
        "now_ms()",
        "crate::core",
        "crate::push",
        "Instant::now",
        "SystemTime",
        "unix_ms()",
        // The sockets: read, never written to.
        ".broadcast",
        ".send_to",
        ".send_state",
        "encode(",
    ];
    for name in pure {
        let text = std::fs::read_to_string(dir.join(format!("{name}.rs"))).unwrap();
        // The file's own code, its tests and the one writer excepted.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let code = match name {
            "step" => {
                let at = code.find("impl Write {").expect("step.rs runs its write");
                let end = at + code[at..].find("\n}\n").expect("the impl's end");
                format!("{}{}", &code[..at], &code[end..])
            }
            _ => code.to_owned(),
        };
        for line in code.lines() {
            let line = line.split("//").next().unwrap_or("");
            for d in drivers {
                assert!(
                    !line.contains(&format!("super::{d}"))
                        && !line.contains(&format!("table::{d}")),
                    "table/{name}.rs names table/{d}.rs: {line}"
                );
            }
            for word in io {
                assert!(
                    !line.contains(word),
                    "table/{name}.rs does I/O ({word}): {line}"
                );
            }
        }
    }
}
