//! The oracle's module graph, read from its sources: no import circle, the modules that state the
//! rules import no speed machinery, and the graph ARCHITECTURE.md shows is the real one.
//!
//! A module "uses" another when its text names `crate::<other>` or `super::<other>` anywhere
//! outside comments (a `use` line or a path in code), not as a call (`crate::verdict(...)` is the
//! root's function). `tests/module_graph.rs` checks every crate, the oracle's root included, for
//! circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name -> the crate modules it names.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The modules a standards reader audits: they state the documents' rules and must not reach
/// the speed machinery (`memo`, `relevance`, `cause`, `crosscheck`) or the fast path (`lib`).
const RULE_MODULES: &[&str] = &[
    "knobs",
    "deviation",
    "line",
    "group",
    "select",
    "pattern",
    "decide",
    "body",
    "encoding",
    "url",
    "scope",
    "fetch",
    "history",
    "request",
    "literal",
    "aipref",
];

/// What the rule modules may not name.
const MACHINERY: &[&str] = &["memo", "relevance", "cause", "crosscheck"];

fn source_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/src")
}

/// Strips `//` comments (doc comments included) so a module named in prose is no edge, and
/// `#[cfg(test)]` modules, whose imports are the tests' and not the module's.
fn code_of(text: &str) -> String {
    let mut code = text
        .lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    while let Some(start) = code.find("#[cfg(test)]\nmod ") {
        let rest = &code[start..];
        let end = match (rest.find('{'), rest.find(';')) {
            // `#[cfg(test)] mod tests { ... }`: up to the brace that closes the body.
            (Some(brace), semicolon) if semicolon.is_none_or(|s| brace < s) => {
                start + brace + closing_brace(&rest[brace..])
            }
            // `#[cfg(test)] mod tests;`: the tests live in a file of their own.
            (_, semicolon) => start + semicolon.map_or(rest.len(), |s| s + 1),
        };
        code.replace_range(start..end, "");
    }
    code
}

/// The length of `text` up to and including the brace that closes its first `{`.
fn closing_brace(text: &str) -> usize {
    let mut depth = 0;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => return at + 1,
            '}' => depth -= 1,
            _ => {}
        }
    }
    text.len()
}

fn graph() -> Graph {
    let dir = source_dir();
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).expect("oracle/src is readable") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            modules.insert(path.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    let mut graph = Graph::new();
    for module in &modules {
        let text = std::fs::read_to_string(dir.join(format!("{module}.rs"))).unwrap();
        let code = code_of(&text);
        let mut uses = BTreeSet::new();
        for other in &modules {
            if other == module || other == "lib" || other == "tests" {
                continue;
            }
            let named = [format!("crate::{other}"), format!("super::{other}")]
                .iter()
                .any(|prefix| {
                    code.match_indices(prefix.as_str()).any(|(at, _)| {
                        let next = code[at + prefix.len()..].chars().next();
                        // `crate::verdict(` calls a function of the root, not the module.
                        !next.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '(')
                    })
                });
            // `use crate::{a, b::C}` groups name modules without the `crate::` prefix.
            let grouped = code.split("crate::{").skip(1).any(|rest| {
                let group = &rest[..rest.find("};").unwrap_or(rest.len())];
                group
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .any(|path| path == other || path.starts_with(&format!("{other}::")))
            });
            if named || grouped {
                uses.insert(other.clone());
            }
        }
        graph.insert(module.clone(), uses);
    }
    graph
}

/// Every module that reaches itself again through its imports.
fn modules_on_a_circle(graph: &Graph) -> Vec<String> {
    let mut on_circle = Vec::new();
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = graph[start].iter().collect();
        while let Some(module) = stack.pop() {
            if module == start {
                on_circle.push(start.clone());
                break;
            }
            if seen.insert(module.clone()) {
                stack.extend(graph.get(module).into_iter().flatten());
            }
        }
    }
    on_circle
}

#[test]
fn no_import_circle_inside_the_oracle() {
    let graph = graph();
    let circle = modules_on_a_circle(&graph);
    assert!(
        circle.is_empty(),
        "these modules import themselves again through others: {circle:?}\n{graph:#?}"
    );
}

#[test]
fn rule_modules_import_no_speed_machinery() {
    let graph = graph();
    let mut faults = Vec::new();
    for module in RULE_MODULES {
        let Some(uses) = graph.get(*module) else {
            faults.push(format!("{module}: no such module (update RULE_MODULES)"));
            continue;
        };
        for used in uses {
            if MACHINERY.contains(&used.as_str()) {
                faults.push(format!("{module} imports {used}"));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn architecture_md_shows_the_real_module_graph() {
    let graph = graph();
    let expected: String = graph
        .iter()
        .filter(|(module, _)| *module != "lib" && *module != "tests")
        .map(|(module, uses)| {
            let uses: Vec<&str> = uses.iter().map(String::as_str).collect();
            format!(
                "{module} -> {}\n",
                if uses.is_empty() {
                    "(none)".to_string()
                } else {
                    uses.join(", ")
                }
            )
        })
        .collect();
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md at the repository root");
    let start = doc
        .find("<!-- oracle-module-graph -->")
        .expect("ARCHITECTURE.md has the marker <!-- oracle-module-graph -->");
    let block = &doc[start..];
    let body_start = block
        .find("```text\n")
        .expect("a ```text block after the marker")
        + "```text\n".len();
    let body_end = block[body_start..].find("```").expect("the block ends") + body_start;
    let shown = &block[body_start..body_end];
    assert_eq!(
        shown, expected,
        "ARCHITECTURE.md's oracle module graph is stale; replace the block with:\n{expected}"
    );
}
