//! Where a value is in a case file's text: a path such as `checks[2].agent` resolved to a line and
//! column for error messages. Case files are written in block style; a flow collection on one line
//! (`cite: [a, b]`, `expect: {rfc9309: allowed}`) is resolved to its item or key as well.

/// A 1-based line and column (in characters).
pub type Position = (usize, usize);

/// Where the entry at a path is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    /// Its key (for a sequence item, the item itself).
    pub key: Position,
    /// Its value: the value's first character, or the key when the value starts on a later line.
    pub value: Position,
}

/// The search state: a block of lines, or a flow collection opened on one line.
enum Scope {
    /// Lines `[from, to)` whose entries are indented at least `indent` bytes.
    Block {
        from: usize,
        to: usize,
        indent: usize,
    },
    /// A flow collection whose `[` or `{` is at byte `at` of line `line`.
    Flow { line: usize, at: usize },
    /// A scalar: nothing further can be found inside it.
    Scalar,
}

/// Finds the entry at `path` (`cite`, `cite[1]`, `checks[2].expect.google`,
/// `body_generated.parts[0]`); the empty path is the whole file. Where the text is written in a
/// way this does not follow, it returns the deepest entry of the path that it found, or `None`.
pub fn locate(text: &str, path: &str) -> Option<Spot> {
    let lines: Vec<&str> = text.lines().collect();
    let start = Spot {
        key: (1, 1),
        value: (1, 1),
    };
    if path.is_empty() {
        return Some(start);
    }
    let mut scope = Scope::Block {
        from: 0,
        to: lines.len(),
        indent: 0,
    };
    let mut found = None;
    for segment in path.split('.') {
        let (key, index) = match segment.split_once('[') {
            Some((k, i)) => (k, Some(i.trim_end_matches(']').parse::<usize>().ok()?)),
            None => (segment, None),
        };
        let Some((spot, inner)) = find_key(&lines, &scope, key) else {
            return found;
        };
        found = Some(spot);
        scope = inner;
        if let Some(n) = index {
            let Some((spot, inner)) = find_item(&lines, &scope, n) else {
                return found;
            };
            found = Some(spot);
            scope = inner;
        }
    }
    found
}

/// The lines where `key:` is written, at any indentation, with the key's position.
pub fn key_positions(text: &str, key: &str) -> Vec<Position> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let trimmed = l.trim_start().trim_start_matches("- ");
            let indent = l.len() - trimmed.len();
            (trimmed.starts_with(key) && trimmed[key.len()..].trim_start().starts_with(':'))
                .then(|| (i + 1, column(l, indent)))
        })
        .collect()
}

/// The 1-based character column of byte `at` of `line`.
fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(at, |before| before.chars().count()) + 1
}

/// The entry `key` in `scope`, and the scope of its value.
fn find_key(lines: &[&str], scope: &Scope, key: &str) -> Option<(Spot, Scope)> {
    match *scope {
        Scope::Block { from, to, indent } => {
            // The key's line within the block, at the block's indentation (after any "- ").
            let (key_line, key_at, value_at) = (from..to).find_map(|i| {
                let line = lines[i];
                let content = line.trim_start_matches([' ', '-']);
                let at = line.len() - content.len();
                let after = content.strip_prefix(key)?.trim_start().strip_prefix(':')?;
                (at >= indent
                    && (at == indent || line[indent..at].trim_start_matches([' ', '-']).is_empty()))
                .then(|| (i, at, line.len() - after.trim_start().len()))
            })?;
            let line = lines[key_line];
            let key_pos = (key_line + 1, column(line, key_at));
            if value_at < line.len() {
                let spot = Spot {
                    key: key_pos,
                    value: (key_line + 1, column(line, value_at)),
                };
                return Some((spot, opened(key_line, line, value_at)));
            }
            // The value is on the lines below, up to the next entry at the key's indentation.
            let block_end = (key_line + 1..to)
                .find(|&i| {
                    let l = lines[i];
                    !l.trim().is_empty()
                        && l.len() - l.trim_start().len() <= key_at
                        && !l.trim_start().starts_with("- ")
                })
                .unwrap_or(to);
            let spot = Spot {
                key: key_pos,
                value: key_pos,
            };
            let inner = Scope::Block {
                from: key_line + 1,
                to: block_end,
                indent: key_at + 1,
            };
            Some((spot, inner))
        }
        Scope::Flow { line, at } => {
            let text = lines[line];
            let entry = flow_entries(text, at)
                .into_iter()
                .find(|e| e.key.as_deref() == Some(key))?;
            let spot = Spot {
                key: (line + 1, column(text, entry.start)),
                value: (line + 1, column(text, entry.value)),
            };
            Some((spot, opened(line, text, entry.value)))
        }
        Scope::Scalar => None,
    }
}

/// Item `n` of the sequence in `scope`, and the scope of its value.
fn find_item(lines: &[&str], scope: &Scope, n: usize) -> Option<(Spot, Scope)> {
    match *scope {
        Scope::Block { from, to, .. } => {
            let items: Vec<usize> = (from..to)
                .filter(|&i| lines[i].trim_start().starts_with("- "))
                .collect();
            let item = *items.get(n)?;
            let line = lines[item];
            let item_indent = line.len() - line.trim_start().len();
            let item_end = items.iter().copied().find(|&i| i > item).unwrap_or(to);
            let value_at = item_indent
                + 2
                + (line[item_indent + 2..].len() - line[item_indent + 2..].trim_start().len());
            let position = (item + 1, column(line, value_at));
            let spot = Spot {
                key: position,
                value: position,
            };
            // A flow collection as the item; otherwise its entries follow the "- ".
            let inner = match line.as_bytes().get(value_at) {
                Some(b'[' | b'{') => Scope::Flow {
                    line: item,
                    at: value_at,
                },
                _ => Scope::Block {
                    from: item,
                    to: item_end,
                    indent: item_indent + 2,
                },
            };
            Some((spot, inner))
        }
        Scope::Flow { line, at } => {
            let text = lines[line];
            let entry = flow_entries(text, at).into_iter().nth(n)?;
            let position = (line + 1, column(text, entry.start));
            let spot = Spot {
                key: position,
                value: position,
            };
            Some((spot, opened(line, text, entry.start)))
        }
        Scope::Scalar => None,
    }
}

/// The scope of a value that starts at byte `at` of `text` (line `line`).
fn opened(line: usize, text: &str, at: usize) -> Scope {
    match text.as_bytes().get(at) {
        Some(b'[' | b'{') => Scope::Flow { line, at },
        _ => Scope::Scalar,
    }
}

/// One entry of a flow collection: where it starts, its key (in a map) and where its value starts.
struct FlowEntry {
    start: usize,
    key: Option<String>,
    value: usize,
}

/// The entries of the flow collection opened at byte `open` of `line`, as far as the line goes.
fn flow_entries(line: &str, open: usize) -> Vec<FlowEntry> {
    let bytes = line.as_bytes();
    let is_map = bytes.get(open) == Some(&b'{');
    let mut entries = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut current: Option<FlowEntry> = None;
    let mut i = open;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(q) = quote {
            if b == b'\\' && q == b'"' {
                i += 1;
            } else if b == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match b {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    entries.extend(current.take());
                    break;
                }
            }
            b',' if depth == 1 => entries.extend(current.take()),
            b'#' if i > 0 && bytes[i - 1] == b' ' => break,
            _ => {}
        }
        if depth == 1 && current.is_none() && !b" \t,[{".contains(&b) {
            current = Some(FlowEntry {
                start: i,
                key: None,
                value: i,
            });
        }
        if b == b'\'' || b == b'"' {
            quote = Some(b);
        }
        if b == b':' && depth == 1 && is_map {
            if let Some(entry) = current.as_mut().filter(|e| e.key.is_none()) {
                let next = bytes.get(i + 1).copied();
                if matches!(next, None | Some(b' ' | b',' | b'}')) {
                    let key = line[entry.start..i].trim().trim_matches(['\'', '"']);
                    entry.key = Some(key.to_string());
                    let rest = &line[i + 1..];
                    entry.value = i + 1 + (rest.len() - rest.trim_start().len());
                }
            }
        }
        i += 1;
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "title: t\ncite: [rfc9309#2.2, 'google#allow']\nchecks:\n  - agent: A\n    url: /a\n    expect: allowed\n  - agent: B\n    url: /b\n    expect: {rfc9309: allowed, bing: disallowed}\n";

    fn value(path: &str) -> Option<Position> {
        locate(TEXT, path).map(|s| s.value)
    }

    #[test]
    fn block_entries_and_items() {
        assert_eq!(value("title"), Some((1, 8)));
        assert_eq!(value("checks"), Some((3, 1)));
        assert_eq!(value("checks[1]"), Some((7, 5)));
        assert_eq!(value("checks[1].url"), Some((8, 10)));
        assert_eq!(locate(TEXT, "checks[0].url").unwrap().key, (5, 5));
    }

    #[test]
    fn flow_items_and_keys() {
        assert_eq!(value("cite"), Some((2, 7)));
        assert_eq!(value("cite[0]"), Some((2, 8)));
        assert_eq!(value("cite[1]"), Some((2, 21)));
        assert_eq!(value("checks[1].expect"), Some((9, 13)));
        let bing = locate(TEXT, "checks[1].expect.bing").unwrap();
        assert_eq!((bing.key, bing.value), ((9, 32), (9, 38)));
    }

    #[test]
    fn what_is_not_there_gives_the_deepest_entry_found() {
        assert_eq!(value("checks[1].expect.google"), Some((9, 13)));
        assert_eq!(value("checks[5]"), Some((3, 1)));
        assert_eq!(value("nothing"), None);
    }
}
