//! Showing bodies and URLs with invisible octets made visible.

/// Renders octets for a human: CR, LF, tab, BOM, NUL and other control characters and invalid
/// UTF-8 are shown as `⟨CR⟩`, `⟨LF⟩`, `⟨TAB⟩`, `⟨BOM⟩`, `⟨NUL⟩`, `⟨x07⟩`, `⟨xFF⟩`; an LF also
/// breaks the line. Output longer than `max` octets of input is cut with a note.
pub fn visible(bytes: &[u8], max: usize) -> String {
    let shown = &bytes[..bytes.len().min(max)];
    let mut out = String::new();
    for chunk in shown.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\r' => out.push_str("⟨CR⟩"),
                '\n' => out.push_str("⟨LF⟩\n"),
                '\t' => out.push_str("⟨TAB⟩"),
                '\0' => out.push_str("⟨NUL⟩"),
                '\u{FEFF}' => out.push_str("⟨BOM⟩"),
                c if c.is_control() => out.push_str(&format!("⟨x{:02X}⟩", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("⟨x{b:02X}⟩"));
        }
    }
    if bytes.len() > max {
        out.push_str(&format!(
            "\n… ({} more octets not shown)",
            bytes.len() - max
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn shows_invisibles() {
        assert_eq!(
            super::visible(b"\xEF\xBB\xBFa\tb\r\n\xFF\0", 100),
            "⟨BOM⟩a⟨TAB⟩b⟨CR⟩⟨LF⟩\n⟨xFF⟩⟨NUL⟩"
        );
        assert!(super::visible(b"abcdef", 3).ends_with("(3 more octets not shown)"));
    }
}
