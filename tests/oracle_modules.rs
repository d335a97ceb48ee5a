//! The oracle's module graph, read from its sources by `tests/common/module_graph.rs` (which says
//! what counts as a use; the crate root is `lib`): no import circle, the modules that state the
//! rules import no speed machinery, and the graph ARCHITECTURE.md shows is the real one.

use std::collections::BTreeMap;
use std::path::Path;

#[path = "common/module_graph.rs"]
mod reader;

/// Module name -> the modules it names.
type Graph = reader::Graph;

/// The modules a standards reader audits: they state the documents' rules and must not reach
/// the speed machinery (`memo`, `relevance`, `cause`, `crosscheck`), the fast path (`fast`,
/// `preference`) or the crate root that re-exports it (`lib`).
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
    "verdict",
];

/// What the rule modules may not name.
const MACHINERY: &[&str] = &[
    "memo",
    "relevance",
    "cause",
    "crosscheck",
    "fast",
    "preference",
    "lib",
];

/// The oracle's graph, its root named `lib`.
fn graph() -> Graph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/src/lib.rs");
    let rename = |m: &String| {
        if m == "crate" {
            "lib".to_string()
        } else {
            m.clone()
        }
    };
    reader::graph(&root)
        .iter()
        .map(|(module, uses)| (rename(module), uses.iter().map(rename).collect()))
        .collect::<BTreeMap<_, _>>()
}

#[test]
fn no_import_circle_inside_the_oracle() {
    let graph = graph();
    let circle = reader::circles(&graph);
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
