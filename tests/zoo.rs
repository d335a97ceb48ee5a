//! The mutant zoo (`adapters/src/zoo`) through the three cause searches a user meets: the fuzzer,
//! `ledger rewrite` on the corpus, and the real-world report. Each mutant is a correct reading
//! with one injected change, so the right answer is known:
//!
//! - **precision**: every cause credited to a mutant is its own (a deviation mutant's deviation, a
//!   knob mutant's knob); a novel bug is credited nothing: no wrong name, anywhere;
//! - **recall**: of the deviation and knob mutants that diverge somewhere, at least 95% have their
//!   own cause credited somewhere;
//! - **groups**: no behaviour group (`unexplained <key>`) holds divergences of two different
//!   novel bugs.
//!
//! Small inputs and counted work (executions, corpus checks, files), no clock. The figures are
//! printed (`cargo test --test zoo -- --nocapture`) and given in `docs/fuzzing.md`.

use std::collections::{BTreeMap, BTreeSet};

use robotstxt_adapters::zoo::{mutants, Mutant, Truth};
use robotstxt_differential::campaign::{self, Options, BATCH};
use robotstxt_matrix::ask::{self, Selection};
use robotstxt_matrix::cases::Corpus;
use robotstxt_matrix::ledger;
use robotstxt_oracle::{Fetch, Verdict};
use robotstxt_realworld::corpus::Source;
use robotstxt_realworld::file::Shard;
use robotstxt_realworld::run::{self as realworld, Determinism, Plan, Scheduling};

/// How much work the zoo does: fuzz executions (one job, a fixed seed, every mutant), how many
/// mutants `ledger rewrite`'s cause search and the real-world report are run on (spread evenly
/// over the zoo's order: deviations, knob settings, novel bugs), how many of each such mutant's
/// divergences on the corpus the cause search examines (spread evenly over them by check id), and
/// how many of the corpus's distinct bodies the real-world report reads (spread evenly). `None` is
/// all of them. Most of the work is per mutant: each one answers the corpus's sample questions
/// before its first examination.
struct Size {
    fuzz_execs: u64,
    mutants_examined: Option<usize>,
    corpus_divergences_examined: Option<usize>,
    real_world_files: Option<usize>,
}

/// The size of this run: small by default, so that `cargo test` runs the zoo; larger with
/// `ROBOTSTXT_FULL_TESTS=1` (CI; docs/commands.md, "Quick and full"); every corpus divergence and
/// every corpus body with `ROBOTSTXT_ZOO_FULL=1`, for the figures in `docs/fuzzing.md`.
fn size() -> Size {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| v == "1");
    if set("ROBOTSTXT_ZOO_FULL") {
        Size {
            fuzz_execs: 1500,
            mutants_examined: None,
            corpus_divergences_examined: None,
            real_world_files: None,
        }
    } else if set("ROBOTSTXT_FULL_TESTS") {
        Size {
            fuzz_execs: 1500,
            mutants_examined: None,
            corpus_divergences_examined: Some(4),
            real_world_files: Some(100),
        }
    } else {
        Size {
            fuzz_execs: 1500,
            mutants_examined: Some(10),
            corpus_divergences_examined: Some(2),
            real_world_files: Some(30),
        }
    }
}

/// At most `n` of `items`, spread evenly over them (all of them when there are no more than `n`).
fn spread<T>(items: Vec<T>, n: usize) -> Vec<T> {
    let len = items.len();
    if len <= n {
        return items;
    }
    let picked: BTreeSet<usize> = (0..n).map(|i| i * len / n).collect();
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| picked.contains(i))
        .map(|(_, item)| item)
        .collect()
}

/// The mutants a search is run on: at most `n` of the zoo's, spread evenly over its order.
fn examined(n: Option<usize>) -> Vec<&'static Mutant> {
    let all: Vec<&'static Mutant> = mutants().iter().collect();
    match n {
        Some(n) => spread(all, n),
        None => all,
    }
}

/// What one search said of one mutant: each cause it credited, and each behaviour group.
#[derive(Default)]
struct Said {
    credited: BTreeMap<String, Vec<String>>,
    groups: BTreeMap<String, Vec<String>>,
    divergences: usize,
}

impl Said {
    fn add(&mut self, label: &str, whence: String) {
        self.divergences += 1;
        if robotstxt_oracle::behaviour::is_id(label) {
            self.groups
                .entry(label.to_string())
                .or_default()
                .push(whence);
        } else if label != robotstxt_oracle::cause::UNEXPLAINED && !label.is_empty() {
            self.credited
                .entry(label.to_string())
                .or_default()
                .push(whence);
        }
    }
}

fn corpus() -> Corpus {
    robotstxt_matrix::cases::load::Corpus::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec-cases"),
    )
    .expect("the corpus loads")
}

/// The fuzzer's buckets for every mutant.
fn fuzzed(said: &mut BTreeMap<String, Said>, execs: u64) {
    let out = tempfile::tempdir().expect("a temporary directory");
    let summary = campaign::run(
        &Options {
            duration: None,
            max_execs: Some(execs),
            seed: 11,
            adapters: mutants().iter().map(|m| m.id.clone()).collect(),
            adapter_options: Default::default(),
            recheck_every: 0,
            pairs: false,
            seeds: None,
            jobs: 1,
            batch: BATCH,
            out: out.path().to_path_buf(),
        },
        &|_, _, _| {},
    );
    assert_eq!(summary.execs, execs);
    for bucket in &summary.bucket_list {
        assert_eq!(
            bucket.signature.kind, "adapter-vs-profile",
            "{}",
            bucket.signature
        );
        said.entry(bucket.signature.adapter.clone())
            .or_default()
            .add(
                &bucket.signature.cause,
                format!("fuzz bucket {}", bucket.dir),
            );
    }
}

/// `ledger rewrite`'s causes on the corpus's divergences (as many of each mutant's as `size` says),
/// for the mutants `size` says.
fn rewritten(said: &mut BTreeMap<String, Said>, corpus: &Corpus, size: &Size) {
    let selection = Selection::new(corpus, None);
    let questions = robotstxt_spec::causes::questions(corpus);
    for m in examined(size.mutants_examined) {
        let mut adapter = robotstxt_adapters::registry::open_in_process(&m.id).expect("a mutant");
        let answers = ask::run_adapter(&mut adapter, corpus, &selection, &|_| {});
        let mut examinable = Vec::new();
        for case in &corpus.cases {
            if !case.fetches.is_empty()
                || case.robots_url.is_some()
                || case.fetch != Fetch::default()
            {
                continue;
            }
            for check in &case.checks {
                let id = ask::check_id(case, check);
                let Some(got) = answers[&id].verdict() else {
                    continue;
                };
                let expected = check.expect[&m.profile];
                if matches!(expected, Verdict::Allowed | Verdict::Disallowed) && got != expected {
                    let request = robotstxt_matrix::verify::request(case, check);
                    examinable.push((id, request, got == Verdict::Allowed));
                }
            }
        }
        if let Some(n) = size.corpus_divergences_examined {
            examinable = spread(examinable, n);
        }
        let causes = ledger::examine_divergences(
            &mut adapter,
            corpus,
            &questions,
            &selection,
            &answers,
            &examinable,
        );
        let entry = said.entry(m.id.clone()).or_default();
        for (check, credited) in causes {
            entry.add(&credited.label, format!("corpus check {check}"));
        }
    }
}

/// The real-world report's examined bucket examples, on the corpus's bodies written as files (as
/// many as `size` says), for the mutants `size` says.
fn realworld_examples(said: &mut BTreeMap<String, Said>, corpus: &Corpus, size: &Size) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut bodies = BTreeSet::new();
    let mut files = Vec::new();
    for case in &corpus.cases {
        if case.fetch == Fetch::default()
            && case.fetches.is_empty()
            && !case.body.is_empty()
            && bodies.insert(case.body.clone())
        {
            files.push(&case.body);
        }
    }
    if let Some(n) = size.real_world_files {
        files = spread(files, n);
    }
    for (n, body) in files.into_iter().enumerate() {
        std::fs::write(dir.path().join(format!("{n:04}.txt")), body).expect("written");
    }
    let plan = Plan {
        sources: vec![Source::Dir(dir.path().to_path_buf())],
        corpus_names: vec!["corpus bodies".to_string()],
        shard: Shard::ALL,
        limit: None,
        profiles: robotstxt_oracle::ProfileId::ALL.to_vec(),
        adapters: examined(size.mutants_examined)
            .iter()
            .map(|m| m.id.clone())
            .collect(),
        options: Default::default(),
        determinism: Determinism::Off,
        ledgers: None,
        parallel: false,
        scheduling: Scheduling::Fixed(1),
    };
    let (results, unavailable, _) = realworld::run(&plan, &mut |_| {}).expect("the run");
    assert!(unavailable.is_empty());
    for bucket in results.buckets.values() {
        if bucket.example.cause.is_empty() {
            continue;
        }
        said.entry(bucket.adapter.clone()).or_default().add(
            &bucket.example.cause,
            format!(
                "real-world bucket {} ({})",
                bucket.cause, bucket.example.file
            ),
        );
    }
}

#[test]
fn the_cause_search_names_only_the_right_cause_on_the_zoo() {
    let corpus = corpus();
    let size = size();
    // The three searches share nothing: each runs in a thread of its own, so that they take two
    // cores, not one after another on one.
    let (fuzz, rewrite, real) = std::thread::scope(|scope| {
        let fuzz = scope.spawn(|| {
            let mut said = BTreeMap::new();
            fuzzed(&mut said, size.fuzz_execs);
            said
        });
        let rewrite = scope.spawn(|| {
            let mut said = BTreeMap::new();
            rewritten(&mut said, &corpus, &size);
            said
        });
        let mut real = BTreeMap::new();
        realworld_examples(&mut real, &corpus, &size);
        (
            fuzz.join().expect("the fuzz thread"),
            rewrite.join().expect("the ledger rewrite thread"),
            real,
        )
    });
    let runs: Vec<(&str, BTreeMap<String, Said>)> = vec![
        ("fuzz", fuzz),
        ("ledger rewrite", rewrite),
        ("realworld", real),
    ];

    let by_id: BTreeMap<&str, &Mutant> = mutants().iter().map(|m| (m.id.as_str(), m)).collect();
    let mut wrong: Vec<String> = Vec::new();
    let mut named = 0usize;
    // Per knob or deviation mutant: whether it diverged, and whether its cause was credited.
    let mut recall: BTreeMap<&str, (bool, bool)> = BTreeMap::new();
    let mut novel_groups: BTreeMap<String, BTreeMap<&str, &Vec<String>>> = BTreeMap::new();
    for (search, said) in &runs {
        let (mut diverging, mut credited_right) = (0, 0);
        for (id, s) in said {
            let m = by_id[id.as_str()];
            for (label, whence) in &s.credited {
                named += whence.len();
                if Some(label.as_str()) != m.truth.label() {
                    wrong.push(format!(
                        "{search}: {id} credited {label} ({}: {})",
                        whence.len(),
                        whence[0]
                    ));
                }
            }
            if let Truth::Novel(_) = m.truth {
                for (group, whence) in &s.groups {
                    novel_groups
                        .entry(group.clone())
                        .or_default()
                        .insert(m.id.as_str(), whence);
                }
            } else if s.divergences > 0 {
                diverging += 1;
                let right = m.truth.label().is_some_and(|l| s.credited.contains_key(l));
                credited_right += usize::from(right);
                let slot = recall.entry(m.id.as_str()).or_default();
                slot.0 = true;
                slot.1 |= right;
            }
        }
        let groups: usize = said.values().map(|s| s.groups.len()).sum();
        println!(
            "{search}: {} mutants diverged; knob and deviation mutants credited their own cause: {credited_right} of {diverging}; {groups} behaviour groups",
            said.values().filter(|s| s.divergences > 0).count(),
        );
    }
    let diverging = recall.values().filter(|(d, _)| *d).count();
    let recalled = recall.values().filter(|(_, r)| *r).count();
    let missed: Vec<&&str> = recall
        .iter()
        .filter(|(_, (d, r))| *d && !r)
        .map(|(id, _)| id)
        .collect();
    let never: Vec<&str> = mutants()
        .iter()
        .filter(|m| !matches!(m.truth, Truth::Novel(_)) && !recall.contains_key(m.id.as_str()))
        .map(|m| m.id.as_str())
        .collect();
    let shared: Vec<(&String, &BTreeMap<&str, &Vec<String>>)> =
        novel_groups.iter().filter(|(_, m)| m.len() > 1).collect();
    println!(
        "precision: {} of {named} credited causes wrong; recall: {recalled} of {diverging} knob and deviation mutants ({:.1}%), missed {missed:?}; never diverged: {never:?}; novel behaviour groups: {}, shared by two novel bugs: {}",
        wrong.len(),
        100.0 * recalled as f64 / diverging.max(1) as f64,
        novel_groups.len(),
        shared.len()
    );
    for line in &wrong {
        println!("wrong name: {line}");
    }
    for (group, whence) in &shared {
        println!("shared group: {group}: {whence:?}");
    }
    assert!(wrong.is_empty(), "wrong names:\n{}", wrong.join("\n"));
    assert!(named > 0);
    assert!(
        recalled * 100 >= diverging * 95,
        "recall {recalled} of {diverging}; missed {missed:?}"
    );
    assert!(shared.is_empty(), "groups shared by novel bugs: {shared:?}");
}
