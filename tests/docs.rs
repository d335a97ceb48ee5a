//! The documentation holds together: every relative link in the Markdown files (README.md,
//! ARCHITECTURE.md, `docs/`, the crates' and folders' READMEs; not generated output) names a file
//! that exists and, for a Markdown file, a heading that exists; ARCHITECTURE.md stays a short map
//! (under 12,000 bytes); the README stays a newcomer's page (under 15,000 bytes), its set-up
//! installs the Debian packages `.ci/run` installs, and it shows the test command `.ci/run` runs,
//! as a command line of its own. Every row of `docs/verdict-changes.md` names a check of the
//! corpus, and the latest row of a check and profile gives the verdict the corpus holds now; every
//! verdict that differs from `docs/verdict-snapshot.txt` (the verdicts of the corpus version last
//! blessed) has a row from the snapshot's verdict, so no verdict changes without one.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The folders of the repository's sources and documentation, walked for `.md` files; the root is
/// read alone, so output written there (`conformance-results/`, a site) is not checked.
const SOURCE_FOLDERS: &[&str] = &[
    "adapters",
    "differential",
    "docs",
    "examples",
    "fuzz",
    "oracle",
    "playground",
    "spec",
    "spec-cases",
    "src",
    "tests",
];

/// Every `.md` file of the repository's root and source folders, outside build output,
/// dependencies and hidden folders.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, recurse: bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                let skipped = name.starts_with('.') || name == "target" || name == "node_modules";
                if recurse && !skipped {
                    walk(&path, true, out);
                }
            } else if name.ends_with(".md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), false, &mut out);
    for folder in SOURCE_FOLDERS {
        walk(&root().join(folder), true, &mut out);
    }
    out.sort();
    out
}

/// The lines of a Markdown text outside fenced code blocks, with their line numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            out.push((i + 1, line));
        }
    }
    out
}

/// A line with its inline code spans (`` `...` ``) removed: a link inside code is not a link.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        }
    }
    out
}

/// The link targets of a line: inline links `[text](target)` and reference definitions
/// `[name]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find([')', ' ']).unwrap_or(after.len());
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') {
        if let Some(at) = trimmed.find("]: ") {
            if let Some(target) = trimmed[at + 3..].split_whitespace().next() {
                out.push(target.to_string());
            }
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_` kept, spaces made `-`,
/// everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a Markdown text defines: one per heading (a repeated one numbered `-1`, `-2`, as
/// GitHub does), and every `id="..."` or `name="..."` written in HTML.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(line[hashes..].trim_end_matches('#'));
            let n = seen.entry(base.clone()).or_default();
            out.insert(if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            });
            *n += 1;
        }
        for key in ["id=\"", "name=\""] {
            for part in line.split(key).skip(1) {
                if let Some(end) = part.find('"') {
                    out.insert(part[..end].to_string());
                }
            }
        }
    }
    out
}

/// Every relative link of `file` (whose text is `text`) that names no existing file, or no heading
/// of an existing Markdown file, as `file:line: target (why)`.
fn broken_links(file: &Path, text: &str) -> Vec<String> {
    let dir = file.parent().expect("a file has a folder");
    let mut out = Vec::new();
    for (number, line) in prose_lines(text) {
        for target in link_targets(line) {
            let is_url = target
                .split_once(':')
                .is_some_and(|(scheme, _)| scheme.chars().all(|c| c.is_ascii_alphabetic()));
            if target.is_empty() || is_url {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.to_path_buf()
            } else {
                dir.join(path)
            };
            let at = format!("{}:{number}: {target}", file.display());
            if !resolved.exists() {
                out.push(format!("{at} (no such file)"));
                continue;
            }
            if let Some(fragment) = fragment {
                let is_markdown = resolved.extension().is_some_and(|e| e == "md");
                if is_markdown && !anchors(&read(&resolved)).contains(fragment) {
                    out.push(format!("{at} (no heading with that anchor)"));
                }
            }
        }
    }
    out
}

#[test]
fn every_relative_link_in_the_markdown_files_resolves() {
    let files = markdown_files();
    assert!(
        files.iter().any(|f| f.ends_with("README.md"))
            && files.iter().any(|f| f.ends_with("docs/performance.md")),
        "the walk found the README and docs/: {files:?}"
    );
    let broken: Vec<String> = files
        .iter()
        .flat_map(|f| broken_links(f, &read(f)))
        .collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_check_finds_a_missing_file_and_a_missing_heading() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("other.md"),
        "# Other page\n\n## `--bench` and more\n",
    )
    .unwrap();
    let page = dir.path().join("page.md");
    let text = "# Page\n\n\
        [fine](other.md) [fine](other.md#other-page) [fine](other.md#--bench-and-more) [fine](#page)\n\
        [in code](`missing.md`) `[in a span](missing.md)` [web](https://example.com/x.md)\n\
        ```sh\n[in a fence](missing.md)\n```\n\
        [gone](missing.md) [no heading](other.md#nowhere) [no heading here](#nowhere)\n";
    std::fs::write(&page, text).unwrap();
    let broken = broken_links(&page, text);
    assert_eq!(broken.len(), 3, "{broken:#?}");
    assert!(
        broken[0].ends_with(":8: missing.md (no such file)"),
        "{}",
        broken[0]
    );
    assert!(
        broken[1].ends_with(":8: other.md#nowhere (no heading with that anchor)"),
        "{}",
        broken[1]
    );
    assert!(
        broken[2].ends_with(":8: #nowhere (no heading with that anchor)"),
        "{}",
        broken[2]
    );
}

#[test]
fn headings_make_the_anchors_github_makes() {
    let text = "# Spark (`examples/spark/test.sh`)\n## The fuzzer's own side\n## Notes\n## Notes\n\
        ### K0 `scope` (step 0): which URL\n<a id=\"custom\"></a>\n";
    let expected = [
        "custom",
        "k0-scope-step-0-which-url",
        "notes",
        "notes-1",
        "spark-examplessparktestsh",
        "the-fuzzers-own-side",
    ];
    assert_eq!(anchors(text).into_iter().collect::<Vec<_>>(), expected);
}

#[test]
fn the_readme_is_a_newcomers_page_under_15_kb() {
    let size = read(&root().join("README.md")).len();
    assert!(
        size < 15_000,
        "README.md is {size} bytes: keep it under 15,000 and move details to docs/ (figures to docs/performance.md)"
    );
}

#[test]
fn the_architecture_is_a_short_map_under_12_kb() {
    let size = read(&root().join("ARCHITECTURE.md")).len();
    assert!(
        size < 12_000,
        "ARCHITECTURE.md is {size} bytes: keep it under 12,000, a map, the invariants and the order \
         to audit the oracle; details belong in the modules' own doc comments (`//!`)"
    );
}

/// The Debian packages a shell line installs: the words of `name=(...)`, `name+=(...)`,
/// `name="..."` or `name="$name ..."` assignments.
fn packages_assigned(text: &str, name: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        for (open, close) in [("=(", ')'), ("+=(", ')'), ("=\"", '"')] {
            for part in line.split(&format!("{name}{open}")).skip(1) {
                let words = part.split(close).next().unwrap_or_default();
                for word in words.split_whitespace() {
                    if !word.starts_with('$') {
                        out.insert(word.to_string());
                    }
                }
            }
        }
    }
    out
}

#[test]
fn the_readme_set_up_installs_what_ci_installs() {
    let ci = read(&root().join(".ci/run"));
    let readme = read(&root().join("README.md"));
    let in_ci = packages_assigned(&ci, "packages");
    let in_readme = packages_assigned(&readme, "pkgs");
    assert!(
        in_ci.contains("libabsl-dev"),
        ".ci/run's package list was read: {in_ci:?}"
    );
    assert_eq!(
        in_readme, in_ci,
        "README.md's set-up and .ci/run install different Debian packages"
    );
    for step in [
        "rustup target add wasm32-unknown-unknown",
        "-- peers install",
    ] {
        assert!(
            ci.contains(step),
            ".ci/run no longer runs `{step}`: update this test and the README"
        );
        assert!(
            readme.contains(step),
            "README.md's set-up lacks `{step}`, which .ci/run runs"
        );
    }
}

#[test]
fn the_readme_shows_the_test_command_ci_runs() {
    let ci = read(&root().join(".ci/run"));
    let announced = ci
        .lines()
        .filter(|line| line.trim_start().starts_with("step "))
        .find_map(|line| {
            line.split_once("the README's test command")
                .map(|(_, rest)| rest)
        })
        .expect(".ci/run announces the README's test command");
    let command = announced
        .rsplit(": ")
        .next()
        .unwrap()
        .trim_end_matches('"')
        .trim();
    assert!(
        command.starts_with("cargo test"),
        "the announced command: {command}"
    );
    // CI may add `--no-fail-fast`: the same tests, every failing binary named in one run.
    let runs = |line: &str| {
        let line = line.trim();
        line == command || line.strip_suffix(" --no-fail-fast") == Some(command)
    };
    assert!(
        ci.lines().any(runs),
        ".ci/run announces `{command}` but does not run it as a line of its own"
    );
    let readme = read(&root().join("README.md"));
    let in_fence: Vec<&str> = readme
        .split("```")
        .skip(1)
        .step_by(2)
        .flat_map(|block| block.lines().skip(1))
        .collect();
    assert!(
        in_fence.iter().any(|line| line.trim() == command),
        "README.md has no code block line `{command}`, the test command .ci/run runs"
    );
}

/// The rows of `docs/verdict-changes.md`'s tables: (case id, check number, profile, was, now), in
/// the page's order (oldest round first).
fn verdict_change_rows(text: &str) -> Vec<(String, usize, String, String, String)> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| check | agent and URL | profile | was | now |` splits into 7 pieces.
        let [_, check, _, profile, was, now, _] = cells[..] else {
            continue;
        };
        let Some((id, number)) = check
            .strip_prefix('`')
            .and_then(|c| c.strip_suffix('`'))
            .and_then(|c| c.rsplit_once('#'))
        else {
            continue;
        };
        let Ok(number) = number.parse() else { continue };
        rows.push((
            id.to_string(),
            number,
            profile.to_string(),
            was.to_string(),
            now.to_string(),
        ));
    }
    rows
}

#[test]
fn every_verdict_change_names_a_check_and_its_current_verdict() {
    use robotstxt_matrix::cases::Corpus;
    use robotstxt_oracle::ProfileId;
    let text = read(&root().join("docs/verdict-changes.md"));
    let rows = verdict_change_rows(&text);
    assert!(
        rows.len() > 200,
        "only {} rows read from docs/verdict-changes.md",
        rows.len()
    );
    let corpus = Corpus::load(&root().join("spec-cases")).expect("the corpus loads");
    // The latest row of each (check, profile) must give the verdict the corpus has now; an older
    // row may have been changed again by a later round.
    let mut latest = std::collections::BTreeMap::new();
    for (id, number, profile, was, now) in &rows {
        assert_ne!(
            was, now,
            "{id}#{number} under {profile}: a row that changes nothing"
        );
        latest.insert((id.clone(), *number, profile.clone()), now.clone());
    }
    let mut problems = Vec::new();
    for ((id, number, profile), now) in &latest {
        let Some(profile_id) = ProfileId::from_name(profile) else {
            problems.push(format!("{id}#{number}: no profile `{profile}`"));
            continue;
        };
        let check = corpus
            .cases
            .iter()
            .find(|c| &c.id == id)
            .and_then(|c| c.checks.iter().find(|k| k.number == *number));
        match check.and_then(|k| k.expect.get(&profile_id)) {
            None => problems.push(format!("{id}#{number}: no such check in spec-cases")),
            Some(verdict) if verdict.name() != now => problems.push(format!(
                "{id}#{number} under {profile}: the page's latest row says {now}, the corpus {}",
                verdict.name()
            )),
            Some(_) => {}
        }
    }
    assert!(
        problems.is_empty(),
        "docs/verdict-changes.md and spec-cases disagree:\n{}",
        problems.join("\n")
    );
}

/// Where the verdicts of a corpus version are kept: `docs/verdict-snapshot.txt`, a `# corpus
/// <version>` line, then one line per check, `<case-id>#<n>` and its four verdicts in
/// `ProfileId::ALL`'s order.
fn snapshot_path() -> PathBuf {
    root().join("docs/verdict-snapshot.txt")
}

/// The corpus's verdicts as the snapshot writes them: (version line, check id -> four verdicts).
fn verdicts_now() -> (String, std::collections::BTreeMap<String, Vec<String>>) {
    use robotstxt_matrix::cases::Corpus;
    use robotstxt_oracle::ProfileId;
    let corpus = Corpus::load(&root().join("spec-cases")).expect("the corpus loads");
    let version = read(&root().join("spec-cases/VERSION")).trim().to_string();
    let mut checks = std::collections::BTreeMap::new();
    for case in &corpus.cases {
        for check in &case.checks {
            let verdicts = ProfileId::ALL
                .iter()
                .map(|p| check.expect.get(p).map_or("-", |v| v.name()).to_string())
                .collect();
            checks.insert(format!("{}#{}", case.id, check.number), verdicts);
        }
    }
    (format!("# corpus {version}"), checks)
}

/// The snapshot's (version line, check id -> four verdicts).
fn snapshot() -> (String, std::collections::BTreeMap<String, Vec<String>>) {
    let text = read(&snapshot_path());
    let mut lines = text.lines();
    let version = lines.next().unwrap_or_default().to_string();
    let checks = lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut words = line.split_whitespace().map(str::to_string);
            let id = words.next().expect("a check id");
            (id, words.collect())
        })
        .collect();
    (version, checks)
}

/// Every (check, profile) whose verdict differs between the snapshot and the corpus and has no row
/// of `docs/verdict-changes.md` from the snapshot's verdict.
fn changes_without_a_row() -> Vec<String> {
    use robotstxt_oracle::ProfileId;
    let rows = verdict_change_rows(&read(&root().join("docs/verdict-changes.md")));
    let (_, then) = snapshot();
    let (_, now) = verdicts_now();
    let mut missing = Vec::new();
    for (id, verdicts) in &now {
        let Some(before) = then.get(id) else { continue };
        let (case, number) = id.rsplit_once('#').expect("an id with a number");
        for (i, profile) in ProfileId::ALL.iter().enumerate() {
            if before[i] == verdicts[i] {
                continue;
            }
            let has_row = rows.iter().any(|(c, n, p, was, _)| {
                c == case && n.to_string() == number && p == profile.name() && *was == before[i]
            });
            if !has_row {
                missing.push(format!(
                    "{id} under {}: {} in the snapshot, {} now",
                    profile.name(),
                    before[i],
                    verdicts[i]
                ));
            }
        }
    }
    missing
}

#[test]
fn every_verdict_changed_since_the_snapshot_has_a_row() {
    // With ROBOTSTXT_BLESS_VERDICTS=1 (after a corpus version bump), the snapshot is rewritten to
    // the corpus's verdicts, but only once every change has its row.
    let missing = changes_without_a_row();
    assert!(
        missing.is_empty(),
        "verdicts changed with no row in docs/verdict-changes.md (check, profile, was, now):\n{}",
        missing.join("\n")
    );
    let (version, checks) = verdicts_now();
    if std::env::var_os("ROBOTSTXT_BLESS_VERDICTS").is_some_and(|v| v == "1") {
        let mut text = format!("{version}\n");
        for (id, verdicts) in &checks {
            text.push_str(&format!("{id} {}\n", verdicts.join(" ")));
        }
        std::fs::write(snapshot_path(), text).expect("the snapshot written");
    }
    let (snapshot_version, snapshot_checks) = snapshot();
    assert_eq!(
        snapshot_version, version,
        "docs/verdict-snapshot.txt is of another corpus version: once every change has its row, \
         rewrite it with `ROBOTSTXT_BLESS_VERDICTS=1 cargo test --test docs`"
    );
    assert!(
        snapshot_checks.len() > 1000,
        "only {} checks in the snapshot",
        snapshot_checks.len()
    );
}
