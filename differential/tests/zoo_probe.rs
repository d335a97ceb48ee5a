//! Probe (temporary): the evidence rule on the zoo, directly.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use robotstxt_adapters::zoo::{mutants, Truth};
use robotstxt_differential::generate;
use robotstxt_differential::input::Input;
use robotstxt_differential::minimize;
use robotstxt_oracle::behaviour::behaviour;
use robotstxt_oracle::cause::{cause_label, cause_of};
use robotstxt_oracle::evidence::{credit, neighbours, OtherAnswers};
use robotstxt_oracle::{verdict, Verdict};

fn generated(seed: u64, count: usize) -> impl Iterator<Item = Input> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buffer = vec![0u8; 4096];
    std::iter::from_fn(move || loop {
        if let Ok(input) = generate::from_stream(&mut rng, &mut buffer) {
            return Some(input);
        }
    })
    .take(count)
}

#[test]
#[ignore]
fn probe() {
    let n: usize = std::env::var("ZOO_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let only = std::env::var("ZOO_ONLY").ok();
    let inputs: Vec<Input> = generated(7, n).collect();
    let (mut right, mut wrong, mut none, mut total) = (0, 0, 0, 0);
    let mut groups: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for m in mutants() {
        if only.as_deref().is_some_and(|o| !m.id.contains(o)) {
            continue;
        }
        let truth = m.truth.label();
        let mut seen: std::collections::BTreeMap<String, (usize, usize, String)> =
            Default::default();
        let mut divergences = 0;
        let mut sample = OtherAnswers::none();
        let size: usize = std::env::var("ZOO_SAMPLE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(512);
        for i in inputs.iter().take(size) {
            sample.push(
                &i.body,
                &i.agent,
                &i.url,
                Some(m.allows(&i.body, &i.agent, &i.url)),
            );
        }
        for input in &inputs {
            let request = input.request();
            let v = verdict(m.profile, &request);
            let answer = m.allows(&input.body, &input.agent, &input.url);
            let diverges = match v {
                Verdict::Allowed => !answer,
                Verdict::Disallowed => answer,
                _ => false,
            };
            if !diverges {
                continue;
            }
            divergences += 1;
            let candidate = cause_label(cause_of(m.profile, &request, answer).as_deref());
            // One examination per candidate, as the fuzzer does.
            let entry = seen
                .entry(candidate.clone())
                .or_insert((0, 0, String::new()));
            entry.0 += 1;
            if entry.0 > 1 {
                continue;
            }
            let profile = m.profile;
            let minimal = minimize::minimize(
                input,
                &mut |c: &Input| {
                    let r = c.request();
                    let a = m.allows(&c.body, &c.agent, &c.url);
                    let v = verdict(profile, &r);
                    let d = match v {
                        Verdict::Allowed => !a,
                        Verdict::Disallowed => a,
                        _ => false,
                    };
                    d && cause_label(cause_of(profile, &r, a).as_deref()) == candidate
                },
                minimize::DEFAULT_BUDGET,
            );
            let r = minimal.request();
            let answer = m.allows(&minimal.body, &minimal.agent, &minimal.url);
            let ns = neighbours(&r);
            let answers: Vec<Option<bool>> = ns
                .iter()
                .map(|n| Some(m.allows(&n.body, &n.agent, &n.url)))
                .collect();
            let c = credit(profile, &r, answer, &ns, &answers, &mut [&mut sample]);
            let label = c.label();
            total += 1;
            let verdict_of = if label == "unexplained" {
                let b = behaviour(&r, answer, &ns, &answers, &c.base);
                let holders = groups.entry(b.key.clone()).or_default();
                if !holders.contains(&m.id) {
                    holders.push(m.id.clone());
                }
                if std::env::var("ZOO_GROUPS").is_ok() {
                    eprintln!("  {} group {}: {}", m.id, b.title(), b.shape);
                }
                none += 1;
                "none"
            } else if Some(label.as_str()) == truth {
                right += 1;
                "RIGHT"
            } else {
                wrong += 1;
                "WRONG"
            };
            entry.2 = format!("{verdict_of} {label}");
            if verdict_of == "WRONG" || std::env::var("ZOO_VERBOSE").is_ok() {
                eprintln!(
                    "  {} {verdict_of}: candidate {candidate} -> {}\n    {:?} {} {}\n    {}",
                    m.id,
                    label,
                    String::from_utf8_lossy(&minimal.body),
                    minimal.agent,
                    minimal.url,
                    c.words(&ns)
                );
            }
        }
        let named_right = seen.values().filter(|e| e.2.starts_with("RIGHT")).count();
        eprintln!(
            "{} [{}] truth {:?}: {divergences} divergences, {} candidates, right {named_right}: {:?}",
            m.id,
            m.profile.name(),
            truth,
            seen.len(),
            seen.iter().map(|(k, v)| format!("{k}={}({})", v.2, v.0)).collect::<Vec<_>>()
        );
        let _ = matches!(m.truth, Truth::Novel(_));
    }
    eprintln!("examined {total}: right {right}, wrong {wrong}, unexplained {none}");
    let shared: Vec<_> = groups.iter().filter(|(_, h)| h.len() > 1).collect();
    eprintln!(
        "{} behaviour groups, {} shared by mutants: {:?}",
        groups.len(),
        shared.len(),
        shared
    );
}

#[test]
#[ignore]
fn campaign_probe() {
    use robotstxt_differential::campaign::{run, Options, BATCH};
    let n: u64 = std::env::var("ZOO_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let only = std::env::var("ZOO_ONLY").ok();
    let ids: Vec<String> = mutants()
        .iter()
        .filter(|m| only.as_deref().is_none_or(|o| m.id.contains(o)))
        .map(|m| m.id.clone())
        .collect();
    let out = std::env::temp_dir().join("zoo-campaign");
    let _ = std::fs::remove_dir_all(&out);
    let started = std::time::Instant::now();
    let summary = run(
        &Options {
            duration: None,
            max_execs: Some(n),
            seed: 11,
            adapters: ids,
            adapter_options: Default::default(),
            recheck_every: 0,
            pairs: false,
            seeds: None,
            jobs: 1,
            batch: BATCH,
            out: out.clone(),
        },
        &|_, _, _| {},
    );
    let (mut right, mut wrong, mut unexplained) = (0, 0, 0);
    let mut groups: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for b in summary
        .bucket_list
        .iter()
        .filter(|b| b.signature.kind == "adapter-vs-profile")
    {
        let m = mutants()
            .iter()
            .find(|m| m.id == b.signature.adapter)
            .unwrap();
        let cause = &b.signature.cause;
        if let Some(key) = cause.strip_prefix("unexplained ") {
            unexplained += 1;
            let holders = groups.entry(key.to_string()).or_default();
            if !holders.contains(&m.id) {
                holders.push(m.id.clone());
            }
        } else if Some(cause.as_str()) == m.truth.label() {
            right += 1;
        } else {
            wrong += 1;
            eprintln!("WRONG {} {} : {}", m.id, cause, b.evidence);
        }
    }
    let mut missed = Vec::new();
    let mut diverging = 0;
    for m in mutants() {
        let Some(truth) = m.truth.label() else {
            continue;
        };
        let mine: Vec<_> = summary
            .bucket_list
            .iter()
            .filter(|b| b.signature.kind == "adapter-vs-profile" && b.signature.adapter == m.id)
            .collect();
        if mine.is_empty() {
            continue;
        }
        diverging += 1;
        if !mine.iter().any(|b| b.signature.cause == truth) {
            missed.push(m.id.clone());
        }
    }
    eprintln!("knob/deviation mutants diverging {diverging}, missed {missed:?}");
    let shared: Vec<_> = groups.iter().filter(|(_, h)| h.len() > 1).collect();
    eprintln!(
        "{} execs in {:?}: {} buckets, right {right}, wrong {wrong}, unexplained {unexplained}, not counted {}; shared groups {:?}; own/parsers {:.3}",
        summary.execs, started.elapsed(), summary.buckets, summary.findings_not_counted, shared,
        summary.time.own_side() as f64 / summary.time.parsers() as f64
    );
}
