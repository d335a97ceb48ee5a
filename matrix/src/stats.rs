//! Corpus statistics (`cases stats`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::cases::{Corpus, DOCUMENTS};

/// Counts of the corpus.
#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    /// Number of cases.
    pub cases: usize,
    /// Number of checks asked of parsers (allowed or disallowed).
    pub checks: usize,
    /// Number of `aipref` checks (which usage preference applies), answered by the oracle's
    /// `aipref` reading and asked of no parser; not in [`Stats::checks`] nor in the other counts.
    pub preference_checks: usize,
    /// Checks per cited document (a check counts once for each document its case cites). Keys are
    /// profile names where a document defines a profile (`norobots-1994` citations count under
    /// `original-1994`), else the citation id (`guide-ch9`, `draft-2019`).
    pub by_document: BTreeMap<String, usize>,
    /// Checks citing the 1996 draft or its secondary reading, the Guide (each check once).
    pub draft_1996_or_guide: usize,
    /// Checks per top-level corpus directory (the document a case was drawn from, or `knobs`).
    pub by_directory: BTreeMap<String, usize>,
    /// Checks per tag.
    pub by_tag: BTreeMap<String, usize>,
    /// Checks whose expectation differs between at least two profiles.
    pub checks_with_divergent_profiles: usize,
    /// Checks with `either` for at least one profile.
    pub checks_with_either: usize,
    /// Checks with `not-governed` for at least one profile (the case gives its robots.txt URL).
    pub checks_with_not_governed: usize,
}

/// Computes the statistics.
pub fn stats(corpus: &Corpus) -> Stats {
    let key = |doc: &str| {
        if doc == "norobots-1994" {
            "original-1994".to_string()
        } else {
            doc.to_string()
        }
    };
    let mut by_document: BTreeMap<String, usize> =
        DOCUMENTS.iter().map(|d| (key(d.id), 0)).collect();
    let mut by_directory: BTreeMap<String, usize> = BTreeMap::new();
    let mut draft_1996_or_guide = 0;
    let mut by_tag = BTreeMap::new();
    let mut divergent = 0;
    let mut either = 0;
    let mut not_governed = 0;
    for case in &corpus.cases {
        let documents = case.documents();
        for doc in &documents {
            *by_document.entry(key(doc)).or_default() += case.checks.len();
        }
        if documents
            .iter()
            .any(|d| *d == "draft-1996" || *d == "guide-ch9")
        {
            draft_1996_or_guide += case.checks.len();
        }
        let directory = case.id.split('/').next().unwrap_or_default().to_string();
        *by_directory.entry(directory).or_default() += case.checks.len();
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
            if verdicts
                .iter()
                .any(|v| **v == robotstxt_oracle::Verdict::NotGoverned)
            {
                not_governed += 1;
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
        preference_checks: corpus.preference_count(),
        by_document,
        draft_1996_or_guide,
        by_directory,
        by_tag,
        checks_with_divergent_profiles: divergent,
        checks_with_either: either,
        checks_with_not_governed: not_governed,
    }
}
