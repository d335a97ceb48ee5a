//! Corpus statistics (`cases stats`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::cases::{Corpus, DOCUMENTS};

/// Counts of the corpus.
#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    /// Number of cases.
    pub cases: usize,
    /// Number of checks.
    pub checks: usize,
    /// Checks per cited document (a check counts once for each document its case cites).
    pub by_document: BTreeMap<String, usize>,
    /// Checks per tag.
    pub by_tag: BTreeMap<String, usize>,
    /// Checks whose expectation differs between at least two profiles.
    pub checks_with_divergent_profiles: usize,
    /// Checks with `either` for at least one profile.
    pub checks_with_either: usize,
}

/// Computes the statistics.
pub fn stats(corpus: &Corpus) -> Stats {
    let mut by_document: BTreeMap<String, usize> =
        DOCUMENTS.iter().map(|d| (d.id.to_string(), 0)).collect();
    let mut by_tag = BTreeMap::new();
    let mut divergent = 0;
    let mut either = 0;
    for case in &corpus.cases {
        for doc in case.documents() {
            *by_document.entry(doc.to_string()).or_default() += case.checks.len();
        }
        for tag in &case.tags {
            *by_tag.entry(tag.clone()).or_default() += case.checks.len();
        }
        for check in &case.checks {
            let mut verdicts: Vec<_> = check.expect.values().collect();
            if verdicts
                .iter()
                .any(|v| **v == robotstxt_oracle::Verdict::Either)
            {
                either += 1;
            }
            verdicts.dedup();
            if verdicts.len() > 1 {
                divergent += 1;
            }
        }
    }
    Stats {
        cases: corpus.cases.len(),
        checks: corpus.check_count(),
        by_document,
        by_tag,
        checks_with_divergent_profiles: divergent,
        checks_with_either: either,
    }
}
