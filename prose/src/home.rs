//! Paths without the machine's home directory: a published report names no path of the machine
//! it ran on.

/// `text` (an unavailable adapter's reason or fix) with the home directory of the machine it ran
/// on written `~`, so a published report names no path of that machine.
pub fn without_home(text: &str) -> String {
    match std::env::var("HOME") {
        Ok(home) if home.len() > 3 => text.replace(home.trim_end_matches('/'), "~"),
        _ => text.to_string(),
    }
}
