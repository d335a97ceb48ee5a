//! The corpus harness: every (profile, case, check) is a named test,
//! `oracle::<profile>::<case-id>#<n>`, so `cargo test -- longest` filters and `-- --list` lists.
//! Each also has a `literal::<profile>::<case-id>#<n>` test: the fast path answers what the literal
//! mode answers (`robotstxt_oracle::literal`, every reading of every open knob), whatever the case
//! expects, on the check's request (on each fetch's, and on the whole history at the check's time,
//! for a case with a history of fetches); a failure names the check, both verdicts and the readings
//! behind the difference. Unless `ROBOTSTXT_FULL_TESTS=1`, a few of these under RFC 9309 are
//! ignored with the reason ([`large_body_left_to_full`]).
//!
//! Besides the checks, three tidy tests keep the corpus honest: the JSON Schema is up to date, every
//! RFC 9309 statement has a case or a reason, and the corpus meets its minimum counts.

use std::path::PathBuf;
use std::sync::Arc;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use robotstxt_matrix::cases::Case;
use robotstxt_matrix::cases::Corpus;
use robotstxt_matrix::{coverage, stats, verify};
use robotstxt_oracle::profile::FIVE_HUNDRED_KIB;
use robotstxt_oracle::{crosscheck, ProfileId};

/// Whether to run at full size: `ROBOTSTXT_FULL_TESTS=1` (CI sets it; docs/commands.md, "Quick and
/// full").
fn full() -> bool {
    std::env::var_os("ROBOTSTXT_FULL_TESTS").is_some_and(|v| v == "1")
}

/// Why a quick run leaves a `literal::` test to the full size ([`large_body_left_to_full`]).
const LARGE_BODY_LEFT_TO_FULL: &str = "a body over 500 KiB read under every reading of RFC 9309's \
     open knobs: left to ROBOTSTXT_FULL_TESTS=1; the case's first check is compared in every run";

/// Whether a quick run leaves the literal comparison of `case`'s check `check_index` under
/// `profile` to the full size: under RFC 9309, every check but the first of a case whose body is
/// over 500 KiB. The literal mode reads such a body once per reading of every open knob (seconds
/// each in a debug build); these few checks were three quarters of this binary's time. Every check
/// still goes through the fast path (`oracle::`), and every other profile's comparison runs.
fn large_body_left_to_full(profile: ProfileId, case: &Case, check_index: usize) -> bool {
    profile == ProfileId::Rfc9309 && case.body.len() > FIVE_HUNDRED_KIB && check_index > 0
}

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases")
}

fn main() {
    let args = Arguments::from_args();
    let corpus = match Corpus::load(&cases_dir()) {
        Ok(corpus) => Arc::new(corpus),
        Err(errors) => {
            // A corpus that does not load is one failing test, not a crash.
            let message: String = errors.iter().map(|e| format!("{e}\n")).collect();
            let trial = Trial::test("corpus::loads", move || Err(Failed::from(message.clone())));
            libtest_mimic::run(&args, vec![trial]).exit();
        }
    };
    let mut trials = vec![Trial::test("corpus::loads", || Ok(()))];
    for profile in ProfileId::ALL {
        for (case_index, case) in corpus.cases.iter().enumerate() {
            for (check_index, check) in case.checks.iter().enumerate() {
                let name = verify::test_name(profile, case, check);
                let literal_corpus = Arc::clone(&corpus);
                let corpus = Arc::clone(&corpus);
                trials.push(Trial::test(name, move || {
                    let case = &corpus.cases[case_index];
                    let check = &case.checks[check_index];
                    let outcome = verify::run_oracle(case, check, profile);
                    if outcome.passed() {
                        Ok(())
                    } else {
                        Err(verify::failure_report(case, check, &outcome).into())
                    }
                }));
                let name = format!("literal::{}::{}#{}", profile.name(), case.id, check.number);
                let corpus = Arc::clone(&literal_corpus);
                trials.push(Trial::ignorable_test(name, move || {
                    let case = &corpus.cases[case_index];
                    let check = &case.checks[check_index];
                    if !full() && large_body_left_to_full(profile, case, check_index) {
                        return Ok(Completion::ignored_with(LARGE_BODY_LEFT_TO_FULL));
                    }
                    let requests = verify::single_fetch_requests(case, check);
                    let each = requests.len();
                    for (n, request) in requests.iter().enumerate() {
                        if let Err(disagreement) = crosscheck::check_profile(profile, request) {
                            let fetch = if each > 1 {
                                format!(", fetch {} of its history", n + 1)
                            } else {
                                String::new()
                            };
                            return Err(format!(
                                "case {}#{}{fetch} ({}): {disagreement}",
                                case.id,
                                check.number,
                                case.path.display()
                            )
                            .into());
                        }
                    }
                    // A history: the whole question, scope, the /robots.txt URI's exemption and
                    // the permitted bases, against the literal mode's.
                    if !case.fetches.is_empty() {
                        let fetches = case.timed_fetches();
                        let request = robotstxt_oracle::HistoryRequest {
                            fetches: &fetches,
                            agent: &check.agent,
                            url: &check.url,
                            at: check.at.unwrap_or_default(),
                            robots_url: case.robots_url.as_deref(),
                        };
                        let fast = robotstxt_oracle::verdict_history(profile, &request);
                        let literal = robotstxt_oracle::literal::verdict_history(profile, &request);
                        if fast != literal {
                            return Err(format!(
                                "case {}#{} ({}): at {}, the fast path answers {} but the literal \
                                 mode answers {}",
                                case.id,
                                check.number,
                                case.path.display(),
                                robotstxt_oracle::history::format_minutes(request.at),
                                fast.name(),
                                literal.name()
                            )
                            .into());
                        }
                    }
                    Ok(Completion::Completed)
                }));
            }
        }
    }
    // The `aipref` checks: the reading's answer against the case, and its fast path against its
    // literal form (`robotstxt_oracle::literal::preference`).
    for (case_index, case) in corpus.cases.iter().enumerate() {
        for (check_index, check) in case.preferences.iter().enumerate() {
            let corpus_for_literal = Arc::clone(&corpus);
            let corpus = Arc::clone(&corpus);
            trials.push(Trial::test(
                verify::preference_test_name(case, check),
                move || {
                    let case = &corpus.cases[case_index];
                    let check = &case.preferences[check_index];
                    let outcome = verify::run_preference(case, check);
                    if outcome.passed() {
                        Ok(())
                    } else {
                        Err(verify::preference_failure_report(case, check, &outcome).into())
                    }
                },
            ));
            let name = format!("literal::aipref::{}#{}", case.id, check.number);
            trials.push(Trial::test(name, move || {
                let case = &corpus_for_literal.cases[case_index];
                let check = &case.preferences[check_index];
                let request = verify::preference_request(case, check);
                let fast = robotstxt_oracle::preference(&request, &check.category);
                let literal = robotstxt_oracle::literal::preference(&request, &check.category);
                if fast == literal {
                    Ok(())
                } else {
                    Err(format!(
                        "case {}#{} ({}): the fast path answers {} but the literal mode answers {}",
                        case.id,
                        check.number,
                        case.path.display(),
                        fast.name(),
                        literal.name()
                    )
                    .into())
                }
            }));
        }
    }
    trials.extend(tidy_trials(&corpus));
    libtest_mimic::run(&args, trials).exit();
}

fn tidy_trials(corpus: &Arc<Corpus>) -> Vec<Trial> {
    let schema_corpus = Arc::clone(corpus);
    let coverage_corpus = Arc::clone(corpus);
    let counts_corpus = Arc::clone(corpus);
    let map_corpus = Arc::clone(corpus);
    vec![
        Trial::test("tidy::schema-up-to-date", move || {
            let _ = &schema_corpus;
            let path = cases_dir().join("schema.json");
            let committed =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let current =
                serde_json::to_string_pretty(&robotstxt_matrix::cases::model::case_schema())
                    .unwrap()
                    + "\n";
            if committed == current {
                Ok(())
            } else {
                let diff = similar::TextDiff::from_lines(&committed, &current);
                Err(format!(
                    "spec-cases/schema.json is out of date; run `cargo run -- cases schema > spec-cases/schema.json`\n{}",
                    diff.unified_diff().header("committed", "generated")
                )
                .into())
            }
        }),
        Trial::test("tidy::rfc9309-coverage-has-no-gap", move || {
            let gaps: Vec<String> = coverage::coverage(&coverage_corpus)
                .into_iter()
                .filter(|r| r.is_gap())
                .map(|r| r.id)
                .collect();
            if gaps.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "RFC 9309 statements with no case and no reason: {}",
                    gaps.join(", ")
                )
                .into())
            }
        }),
        Trial::test("tidy::coverage-map-up-to-date", move || {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/rfc9309-coverage.md");
            let committed =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let current = coverage::to_markdown(&coverage::coverage(&map_corpus));
            if committed == current {
                Ok(())
            } else {
                Err("docs/rfc9309-coverage.md is out of date; run \
                     `cargo run -- cases coverage --format markdown > docs/rfc9309-coverage.md`"
                    .into())
            }
        }),
        Trial::test("tidy::corpus-minimum-counts", move || {
            let s = stats::stats(&counts_corpus);
            let doc = |d: &str| s.by_document.get(d).copied().unwrap_or(0);
            let wanted = [
                ("cases", s.cases, 120),
                ("checks", s.checks, 500),
                ("checks citing rfc9309", doc("rfc9309"), 150),
                ("checks citing google", doc("google"), 80),
                (
                    "checks citing draft-1996 or guide-ch9",
                    doc("draft-1996").max(doc("guide-ch9")),
                    40,
                ),
                ("checks citing norobots-1994", doc("original-1994"), 25),
            ];
            let short: Vec<String> = wanted
                .iter()
                .filter(|(_, have, want)| have < want)
                .map(|(what, have, want)| format!("{what}: {have} < {want}"))
                .collect();
            if short.is_empty() {
                Ok(())
            } else {
                Err(short.join("; ").into())
            }
        }),
    ]
}
