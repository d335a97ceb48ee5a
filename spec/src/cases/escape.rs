//! The escape syntax of `body_escaped` and generated-body parts (`spec-cases/README.md`, "Bodies").

/// Decodes `\n \r \t \0 \\ \xHH \u{HHHH}`; any other backslash sequence is an error naming its
/// character position.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let position = text[..at].chars().count() + 1;
        let bad = |what: &str| {
            Err(format!(
                "malformed escape at character {position} of the string: {what}; valid escapes are \\n \\r \\t \\0 \\\\ \\xHH \\u{{HHHH}}"
            ))
        };
        match chars.next().map(|(_, c)| c) {
            Some('n') => out.push(b'\n'),
            Some('r') => out.push(b'\r'),
            Some('t') => out.push(b'\t'),
            Some('0') => out.push(0),
            Some('\\') => out.push(b'\\'),
            Some('x') => {
                let hex: String = (0..2)
                    .filter_map(|_| chars.next().map(|(_, c)| c))
                    .collect();
                match u8::from_str_radix(&hex, 16) {
                    Ok(byte) if hex.len() == 2 => out.push(byte),
                    _ => return bad(&format!("`\\x{hex}` needs two hex digits")),
                }
            }
            Some('u') => {
                if chars.next().map(|(_, c)| c) != Some('{') {
                    return bad("`\\u` must be followed by `{`");
                }
                let mut hex = String::new();
                loop {
                    match chars.next().map(|(_, c)| c) {
                        Some('}') => break,
                        Some(c) if hex.len() < 6 => hex.push(c),
                        _ => return bad("`\\u{` needs 1 to 6 hex digits and a closing `}`"),
                    }
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(c) => {
                        let mut buf = [0; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                    None => return bad(&format!("`\\u{{{hex}}}` is not a Unicode scalar value")),
                }
            }
            Some(other) => return bad(&format!("unknown escape `\\{other}`")),
            None => return bad("a lone backslash at the end"),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_every_escape() {
        assert_eq!(
            decode(r"a\r\n\t\0\\\xFF\u{FEFF}").unwrap(),
            b"a\r\n\t\0\\\xFF\xEF\xBB\xBF"
        );
    }

    #[test]
    fn rejects_malformed() {
        assert!(decode(r"\q").unwrap_err().contains("unknown escape `\\q`"));
        assert!(decode(r"ab\xZ1").unwrap_err().contains("character 3"));
        assert!(decode(r"\u{D800}")
            .unwrap_err()
            .contains("not a Unicode scalar"));
        assert!(decode("\\").unwrap_err().contains("lone backslash"));
    }
}
