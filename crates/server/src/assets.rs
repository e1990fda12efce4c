//! The web client's files as one version: a short hash of the contents of every file of
//! `static/`, computed at start-up and again whenever a file's size or modification time
//! changes, and the page rewritten to load the client under that version
//! (`/v/{version}/…`). How they are served and cached: `http::assets`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

/// `Cache-Control` of a versioned file: a year, never revalidated.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of what may change under its URL: always revalidated.
pub const REVALIDATE: &str = "no-cache";

/// The client's directory and its current version.
pub struct Assets {
    /// The directory served (`--static-dir`).
    dir: PathBuf,
    /// The version, and the list of (path, size, modified) it was computed from. A std
    /// mutex: held only to read or replace the pair, never across `.await`.
    version: Mutex<(Vec<FileStamp>, String)>,
}

/// A file's relative path, size and modification time: what tells that it changed.
type FileStamp = (String, u64, Option<SystemTime>);

impl Assets {
    /// The assets of `dir`, versioned now (an unreadable directory has version `0`).
    pub fn new(dir: PathBuf) -> Assets {
        let stamps = stamps(&dir);
        let version = content_version(&dir, &stamps);
        Assets {
            dir,
            version: Mutex::new((stamps, version)),
        }
    }

    /// The directory served.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The current version, computed again if a file changed since the last time.
    pub fn current(&self) -> String {
        let now = stamps(&self.dir);
        let mut v = self.version.lock().unwrap_or_else(|e| e.into_inner());
        if v.0 != now {
            let version = content_version(&self.dir, &now);
            *v = (now, version);
        }
        v.1.clone()
    }

    /// The version as last computed (no file system access).
    pub fn known(&self) -> String {
        self.version
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
            .clone()
    }
}

/// Every file under `dir`, sorted by path.
fn stamps(dir: &Path) -> Vec<FileStamp> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            if meta.is_dir() {
                todo.push(path);
            } else if let Ok(rel) = path.strip_prefix(dir) {
                out.push((
                    rel.to_string_lossy().into_owned(),
                    meta.len(),
                    meta.modified().ok(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// A short hash of the files' paths and contents.
fn content_version(dir: &Path, files: &[FileStamp]) -> String {
    let mut hash = Sha256::new();
    for (path, _, _) in files {
        hash.update(path.as_bytes());
        hash.update([0]);
        if let Ok(bytes) = std::fs::read(dir.join(path)) {
            hash.update(&bytes);
        }
        hash.update([0]);
    }
    hash.finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Points the page's own files at the versioned prefix.
pub fn rewrite_index(html: &str, version: &str) -> String {
    let prefix = format!("v/{version}/");
    html.replace("href=\"css/", &format!("href=\"{prefix}css/"))
        .replace("src=\"js/", &format!("src=\"{prefix}js/"))
        .replace(
            "href=\"favicon.svg\"",
            &format!("href=\"{prefix}favicon.svg\""),
        )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_page_points_at_the_version() {
        let html = r#"<link rel="icon" href="favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="css/style.css">
<script type="module" src="js/app.js"></script>"#;
        let out = rewrite_index(html, "abc123");
        assert!(out.contains(r#"href="v/abc123/favicon.svg""#), "{out}");
        assert!(out.contains(r#"href="v/abc123/css/style.css""#), "{out}");
        assert!(out.contains(r#"src="v/abc123/js/app.js""#), "{out}");
    }

    #[test]
    fn the_version_follows_the_content() {
        let dir = std::env::temp_dir().join(format!("damka-assets-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("js")).unwrap();
        std::fs::write(dir.join("index.html"), "<html>").unwrap();
        std::fs::write(dir.join("js/app.js"), "one").unwrap();
        let assets = Assets::new(dir.clone());
        let first = assets.current();
        assert_eq!(first, assets.current(), "nothing changed");
        // Same size, new content: a new version (the content is hashed, once the
        // file's time or size says it may have changed).
        std::fs::write(dir.join("js/app.js"), "two").unwrap();
        let file = std::fs::File::options()
            .write(true)
            .open(dir.join("js/app.js"))
            .unwrap();
        file.set_modified(SystemTime::now() + std::time::Duration::from_secs(5))
            .unwrap();
        let second = assets.current();
        assert_ne!(first, second);
        assert_eq!(second, Assets::new(dir.clone()).current(), "content only");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
