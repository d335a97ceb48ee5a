//! File-level facts of a real robots.txt capture: what a parser meets besides rules.

use super::corpus::RealFile;

/// The names of the facts that hold for `file`, from a fixed list (`bom`, `crlf`, ...), in that
/// list's order.
pub fn of(file: &RealFile) -> Vec<&'static str> {
    let mut facts = Vec::new();
    if file.body.starts_with(b"\xEF\xBB\xBF") {
        facts.push("utf8-bom");
    }
    if std::str::from_utf8(&file.body).is_err() {
        facts.push("invalid-utf8");
    }
    facts
}
