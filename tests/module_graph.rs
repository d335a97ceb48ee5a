//! Every workspace crate's module graph, read from its sources by `tests/common/module_graph.rs`
//! (which says what counts as a use): no module reaches itself again through its imports, in any
//! crate, the crate roots included.

#[path = "common/module_graph.rs"]
mod reader;

use reader::{circles, crates, graph};

#[test]
fn no_import_circle_in_any_workspace_crate() {
    let mut faults = Vec::new();
    for (name, root) in crates() {
        for circle in circles(&graph(&root)) {
            faults.push(format!("{name}: {circle}"));
        }
    }
    assert!(
        faults.is_empty(),
        "modules that import themselves again through others:\n{}",
        faults.join("\n")
    );
}

#[test]
fn the_graph_reader_sees_groups_supers_and_child_uses() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "pub mod a;\npub mod b;\nmod c;\npub use b::{One, Two};\npub use a::c;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("a/mod.rs"),
        "mod x;\nuse x::Thing;\n#[cfg(test)]\nmod tests {\n use crate::c;\n}\n",
    )
    .unwrap();
    std::fs::write(src.join("a/x.rs"), "use crate::{b::{One, Two}, c};\n").unwrap();
    std::fs::write(
        src.join("b.rs"),
        "// crate::c is prose\nfn f() { super::a::f(); crate::c(); }\n",
    )
    .unwrap();
    std::fs::write(src.join("c.rs"), "pub use crate::{One, Two};\n").unwrap();
    let graph = graph(&src.join("lib.rs"));
    let show = |m: &str| graph[m].iter().cloned().collect::<Vec<_>>().join(",");
    assert_eq!(show("a"), "a::x");
    assert_eq!(show("a::x"), "b,c");
    assert_eq!(show("b"), "a");
    assert_eq!(show("c"), "b");
    // `crate::c()` in b calls the function `a::c`, not the module `c`.
    assert_eq!(show("crate"), "a,b");
    assert_eq!(
        circles(&graph),
        [
            "a -> a::x -> b -> a",
            "a::x -> b -> a -> a::x",
            "b -> a -> a::x -> b",
            "c -> b -> a -> a::x -> c"
        ]
    );
}
