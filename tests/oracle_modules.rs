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

/// The functions that state steps 2 and 4 to 7 as the documents write them, by module. A deviation is a
/// layer around them (a `_deviating` function beside them, `oracle/src/deviation.rs`), never a
/// branch inside.
const STEP_FUNCTIONS: &[(&str, &[&str])] = &[
    (
        "line",
        &[
            "classify",
            "classify_noting_spacing",
            "kind_of",
            "field_kind",
            "names_field",
        ],
    ),
    (
        "select",
        &[
            "agent_names",
            "agent_name",
            "name_matches",
            "select",
            "names_crawler",
            "names_every_crawler",
            "select_by",
        ],
    ),
    ("url", &["split", "match_target", "normalised_target"]),
    ("pattern", &["compile", "compile_with", "match_end"]),
    (
        "decide",
        &[
            "decide",
            "allows",
            "path_specificity",
            "outcome",
            "specificity",
            "deciding_rule",
        ],
    ),
];

/// The body of the function `name` in `source`: from its `fn` line to the closing brace at the
/// same indent.
fn function_body<'s>(source: &'s str, name: &str) -> Option<&'s str> {
    let lines: Vec<&str> = source.lines().collect();
    let start = lines.iter().position(|line| {
        let code = line.trim_start();
        let code = code.strip_prefix("pub ").unwrap_or(code);
        code.strip_prefix("fn ")
            .and_then(|rest| rest.strip_prefix(name))
            .is_some_and(|rest| rest.starts_with('(') || rest.starts_with('<'))
    })?;
    let indent = lines[start].len() - lines[start].trim_start().len();
    let end = (start..lines.len()).find(|&i| {
        lines[i].len() - lines[i].trim_start().len() == indent && lines[i].trim() == "}"
    })?;
    let from = lines[..start].iter().map(|l| l.len() + 1).sum::<usize>();
    let to = lines[..=end].iter().map(|l| l.len() + 1).sum::<usize>();
    Some(&source[from..to.min(source.len())])
}

#[test]
fn the_steps_own_functions_read_no_deviation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/src");
    let mut faults = Vec::new();
    for &(module, functions) in STEP_FUNCTIONS {
        let source = std::fs::read_to_string(dir.join(format!("{module}.rs"))).unwrap();
        for &function in functions {
            let Some(body) = function_body(&source, function) else {
                faults.push(format!("{module}::{function}: not found"));
                continue;
            };
            for word in ["Deviation", "deviations", "_deviating"] {
                if body.contains(word) {
                    faults.push(format!("{module}::{function} names `{word}`"));
                }
            }
        }
    }
    assert!(faults.is_empty(), "{faults:#?}");
    // The check can fail: a step function that branched on a deviation would be named.
    let branching =
        "fn match_end(&self) {\n    if deviations.has(Deviation::NoBacktracking) {}\n}\n";
    assert!(function_body(branching, "match_end").is_some_and(|b| b.contains("Deviation")));
}
