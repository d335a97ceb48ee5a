//! The module graph of a crate, read from its sources (shared by `tests/module_graph.rs`, which
//! checks every workspace crate for circles, and `tests/oracle_modules.rs`, the oracle's own rules).
//!
//! A crate's modules are found from its root file by following `mod name;` declarations (test
//! modules left out). A module "uses" another when its code, comments and `#[cfg(test)]` modules
//! left out, names it through `crate::`, `super::` or `self::` (a `use` line or a path in code,
//! `{...}` groups included), or starts a `use` path with one of its own child modules. A path that
//! names an item resolves to the module the item is written in, following `pub use` re-exports of
//! a module's own children (`pub use answer::Answer` at the root makes `crate::Answer` name
//! `answer`); a called path (`crate::verdict(...)`) names a function, looked for the same way.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`realworld::html`; the crate root is `crate`) -> the modules it names.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every crate of the workspace: its name and root file, relative to the repository root.
pub fn crates() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members_start = manifest
        .find("members = [")
        .expect("the workspace manifest lists its members");
    let members = &manifest[members_start..];
    let members = &members[..members.find(']').expect("the members list ends")];
    let mut crates = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        for root_file in ["src/lib.rs", "src/main.rs"] {
            let path = root.join(member).join(root_file);
            if path.is_file() {
                let kind = root_file.trim_start_matches("src/").trim_end_matches(".rs");
                let name = if member == "." {
                    "robotstxt-conformance"
                } else {
                    member
                };
                crates.push((format!("{name} ({kind})"), path));
            }
        }
    }
    assert!(crates.len() >= 8, "too few crates found: {crates:?}");
    crates
}

/// Strips `//` comments (doc comments included) and `#[cfg(test)]` modules, whose imports are the
/// tests' and not the module's.
pub fn code_of(text: &str) -> String {
    let mut code = text
        .lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].ends_with(':') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    while let Some(start) = code.find("#[cfg(test)]\nmod ") {
        let rest = &code[start..];
        let end = match (rest.find('{'), rest.find(';')) {
            (Some(brace), semicolon) if semicolon.is_none_or(|s| brace < s) => {
                start + brace + closing_brace(&rest[brace..])
            }
            (_, semicolon) => start + semicolon.map_or(rest.len(), |s| s + 1),
        };
        code.replace_range(start..end, "");
    }
    code
}

/// The length of `text` up to and including the brace that closes its first `{`.
pub fn closing_brace(text: &str) -> usize {
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

/// The `mod name;` declarations of a file's code (not inline modules).
pub fn declared_modules(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines() {
        let line = line.trim();
        let line = line
            .strip_prefix("pub(crate) ")
            .or_else(|| line.strip_prefix("pub "))
            .unwrap_or(line);
        if let Some(rest) = line.strip_prefix("mod ") {
            if let Some(name) = rest.strip_suffix(';') {
                names.push(name.trim().to_string());
            }
        }
    }
    names
}

/// One module: its path from the crate root and its code.
pub struct Module {
    pub path: Vec<String>,
    pub code: String,
}

/// Every module of the crate whose root file is `root`, found through `mod` declarations.
pub fn modules(root: &Path) -> Vec<Module> {
    let mut found = Vec::new();
    let mut todo = vec![(Vec::<String>::new(), root.to_path_buf())];
    while let Some((path, file)) = todo.pop() {
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let children_dir = if path.is_empty() || stem == "mod" {
            file.parent().unwrap().to_path_buf()
        } else {
            file.parent().unwrap().join(&stem)
        };
        for name in declared_modules(&code) {
            let flat = children_dir.join(format!("{name}.rs"));
            let nested = children_dir.join(&name).join("mod.rs");
            let child_file = if flat.is_file() { flat } else { nested };
            assert!(
                child_file.is_file(),
                "{}: mod {name} not found",
                file.display()
            );
            let mut child = path.clone();
            child.push(name);
            todo.push((child, child_file));
        }
        found.push(Module { path, code });
    }
    found
}

pub fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path written after `start` in `text` (`a::b`, `a::{b, c::d}` gives `a::b`, `a::c::d`).
pub fn paths_after(text: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let ident: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if ident.is_empty() {
            if let Some(group) = rest.strip_prefix('{') {
                // The group's text: up to its closing brace, or to the end if it has none.
                let end = closing_brace(rest).saturating_sub(2).min(group.len());
                for part in split_top_level(&group[..end]) {
                    for mut tail in paths_after(part.trim()) {
                        let mut full = segments.clone();
                        full.append(&mut tail);
                        paths.push(full);
                    }
                }
            }
            break;
        }
        rest = &rest[ident.len()..];
        segments.push(ident);
        // A call (`crate::verdict(...)`) names a function, not a module of that name: marked so.
        if rest.starts_with('(') {
            segments.push(CALL.to_string());
        }
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => break,
        }
    }
    if !segments.is_empty() && paths.is_empty() {
        paths.push(segments);
    }
    paths
}

/// `text` split at the commas that are not inside braces.
pub fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A module's `pub use` re-exports of its own modules' items: (module, name) -> the full path.
pub type Reexports = BTreeMap<(Vec<String>, String), Vec<String>>;

/// The re-exports of every module, written `pub use child::Item` or `pub use self::child::Item`.
pub fn reexports(modules: &[Module], known: &BTreeSet<Vec<String>>) -> Reexports {
    let mut found = Reexports::new();
    for module in modules {
        for rest in use_statements(&module.code, "pub use ") {
            let rest = rest.strip_prefix("self::").unwrap_or(rest);
            for tail in paths_after(rest) {
                let mut child = module.path.clone();
                child.push(tail[0].clone());
                if tail.len() > 1 && known.contains(&child) {
                    let full: Vec<String> =
                        module.path.iter().cloned().chain(tail.clone()).collect();
                    found.insert((module.path.clone(), tail.last().unwrap().clone()), full);
                }
            }
        }
    }
    found
}

/// The paths of every statement starting with `keyword` at the start of a line (`use `,
/// `pub use `), each up to its `;`, however many lines it spans.
pub fn use_statements<'c>(code: &'c str, keyword: &str) -> Vec<&'c str> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices(keyword) {
        let line_start = code[..at].rfind('\n').map_or(0, |n| n + 1);
        let before = code[line_start..at].trim();
        if !(before.is_empty() || before == "pub" || before == "pub(crate)") {
            continue;
        }
        let rest = &code[at + keyword.len()..];
        found.push(&rest[..rest.find(';').unwrap_or(rest.len())]);
    }
    found
}

/// The last segment of a path that is called (`crate::verdict(...)`).
pub const CALL: &str = "()";

/// The module a path names: its longest prefix that is a module, following re-exports; a called
/// path's function is looked for among the re-exports of the module its prefix names.
pub fn resolve(
    path: &[String],
    known: &BTreeSet<Vec<String>>,
    reexports: &Reexports,
) -> Vec<String> {
    if let [prefix @ .., function, last] = path {
        if last == CALL {
            let module = resolve(prefix, known, reexports);
            return match reexports.get(&(module.clone(), function.clone())) {
                Some(full) => resolve(full, known, reexports),
                None => module,
            };
        }
    }
    let module = (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| known.contains(prefix))
        .unwrap_or_default();
    match path.get(module.len()) {
        Some(name) => match reexports.get(&(module.clone(), name.clone())) {
            Some(full) if full.as_slice() != path => resolve(full, known, reexports),
            _ => module,
        },
        None => module,
    }
}

/// The crate's module graph.
pub fn graph(root: &Path) -> Graph {
    let modules = modules(root);
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    let reexports = reexports(&modules, &known);
    let name = |path: &[String]| {
        if path.is_empty() {
            "crate".to_string()
        } else {
            path.join("::")
        }
    };
    let mut graph = Graph::new();
    for module in &modules {
        let mut uses = BTreeSet::new();
        let code = &module.code;
        let mut named: Vec<Vec<String>> = Vec::new();
        for (at, _) in code.match_indices("crate::") {
            if code[..at].ends_with(|c: char| is_ident(c) || c == '$') {
                continue;
            }
            named.extend(paths_after(&code[at + "crate::".len()..]));
        }
        for (at, _) in code.match_indices("super::") {
            if code[..at].ends_with(|c: char| is_ident(c) || c == ':') {
                continue;
            }
            let mut base = module.path.clone();
            let mut rest = &code[at..];
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
            for tail in paths_after(rest) {
                named.push(base.iter().cloned().chain(tail).collect());
            }
        }
        for (at, _) in code.match_indices("self::") {
            if code[..at].ends_with(|c: char| is_ident(c) || c == ':') {
                continue;
            }
            for tail in paths_after(&code[at + "self::".len()..]) {
                named.push(module.path.iter().cloned().chain(tail).collect());
            }
        }
        {
            for rest in use_statements(code, "use ") {
                for tail in paths_after(rest) {
                    let mut child = module.path.clone();
                    child.push(tail[0].clone());
                    if known.contains(&child) {
                        named.push(module.path.iter().cloned().chain(tail).collect());
                    }
                }
            }
        }
        for path in named {
            let target = resolve(&path, &known, &reexports);
            if target != module.path {
                uses.insert(name(&target));
            }
        }
        graph.insert(name(&module.path), uses);
    }
    graph
}

/// Every module that reaches itself again through its imports, with one such circle.
pub fn circles(graph: &Graph) -> Vec<String> {
    let mut found = Vec::new();
    for start in graph.keys() {
        let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue: std::collections::VecDeque<&String> = std::collections::VecDeque::new();
        for next in &graph[start] {
            came_from.entry(next).or_insert(start);
            queue.push_back(next);
        }
        while let Some(module) = queue.pop_front() {
            if module == start {
                let mut circle = vec![start.as_str()];
                let mut at = came_from[start];
                while at != start {
                    circle.push(at);
                    at = came_from[at];
                }
                circle.push(start);
                circle.reverse();
                found.push(circle.join(" -> "));
                break;
            }
            for next in graph.get(module).into_iter().flatten() {
                if !came_from.contains_key(next) {
                    came_from.insert(next, module);
                    queue.push_back(next);
                }
            }
        }
    }
    found
}
