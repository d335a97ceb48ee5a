//! The adapter programs we ship for parsers in other languages, and their runtimes.
//!
//! TODO(helper): embedded programs, `command`, `install`.

use std::path::{Path, PathBuf};

use crate::adapter::Unavailable;

/// The subprocess adapters we ship, in report order.
pub const SUBPROCESS_IDS: [&str; 8] = [
    "py-urllib",
    "py-protego",
    "py-robotspy",
    "py-rerp",
    "py-jwm",
    "js-robots-parser",
    "pl-www-robotrules",
    "rb-webrobots",
];

/// Where peers are installed unless told otherwise: `$ROBOTSTXT_PEERS_DIR`, else
/// `$XDG_CACHE_HOME/robotstxt-conformance/peers`, else `~/.cache/robotstxt-conformance/peers`.
pub fn default_peers_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOTSTXT_PEERS_DIR") {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("robotstxt-conformance").join("peers")
}

/// The command line (program and arguments) that starts adapter `id`, with its program file
/// written into `peers_dir`; unavailable when its runtime or library is missing.
pub fn command(id: &str, peers_dir: &Path) -> Result<Vec<String>, Unavailable> {
    let _ = peers_dir;
    Err(Unavailable {
        id: id.to_string(),
        reason: "not written yet".to_string(),
        fix: String::new(),
    })
}
