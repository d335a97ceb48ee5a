//! A parser's divergences on the corpus, grouped by cause: the checks where its answer is not what
//! its claimed profile expects, each group under the knob or deviation its ledger names.

use std::collections::BTreeMap;

use robotstxt_matrix::cases::load::Corpus;
use robotstxt_matrix::ledger::Ledger;
use robotstxt_matrix::results::{Results, Row, Status};

use crate::causes::Cause;

/// The divergences one cause explains, for one parser.
pub struct CauseGroup<'a> {
    /// The cause.
    pub cause: Cause,
    /// The ledger's reasons, each once (empty for divergences the ledger does not list).
    pub reasons: Vec<String>,
    /// The deciding checks: every row where the parser diverges for this cause, in corpus order.
    pub rows: Vec<&'a Row>,
    /// How many of them the ledger does not list (they fail the run).
    pub unexpected: usize,
}

impl<'a> CauseGroup<'a> {
    /// The minimal example: the check on the shortest body (then the first in corpus order).
    pub fn example(&self, results: &Results) -> &'a Row {
        self.rows
            .iter()
            .min_by_key(|row| {
                results
                    .cases
                    .get(&row.case)
                    .map_or(usize::MAX, |c| c.body_len)
            })
            .copied()
            .expect("a group has a row")
    }
}

/// `adapter`'s divergences in `results`, grouped by the cause its ledger names; divergences the
/// ledger does not list are grouped as [`Cause::Unnamed`] "not in the ledger". Knobs and
/// deviations first, in their order, then the unnamed.
pub fn by_cause<'a>(
    results: &'a Results,
    adapter: &str,
    ledger: Option<&Ledger>,
) -> Vec<CauseGroup<'a>> {
    let mut groups: BTreeMap<Cause, CauseGroup<'a>> = BTreeMap::new();
    for row in &results.rows {
        let Some(cell) = row.adapters.get(adapter) else {
            continue;
        };
        if !matches!(
            cell.status,
            Status::ExpectedDivergence | Status::UnexpectedDivergence
        ) {
            continue;
        }
        let entry = ledger.and_then(|l| l.entries.get(&row.check_id()));
        let cause = match (cell.status, entry) {
            (Status::ExpectedDivergence, Some(entry)) => {
                Cause::of_ledger(entry.id.as_deref(), &entry.reason)
            }
            _ => Cause::Unnamed("not in the ledger (fails the run)".to_string()),
        };
        let group = groups.entry(cause.clone()).or_insert_with(|| CauseGroup {
            cause,
            reasons: Vec::new(),
            rows: Vec::new(),
            unexpected: 0,
        });
        if let Some(entry) = entry {
            if !group.reasons.contains(&entry.reason) {
                group.reasons.push(entry.reason.clone());
            }
        }
        if cell.status == Status::UnexpectedDivergence {
            group.unexpected += 1;
        }
        group.rows.push(row);
    }
    groups.into_values().collect()
}

/// The case's note and the check's note (the documents' sentences the verdict was written from).
pub fn notes<'c>(corpus: &'c Corpus, row: &Row) -> Vec<&'c str> {
    let Some(case) = corpus.cases.iter().find(|c| c.id == row.case) else {
        return Vec::new();
    };
    let mut notes: Vec<&str> = case.note.as_deref().into_iter().collect();
    if let Some(check) = case.checks.iter().find(|c| c.number == row.check) {
        notes.extend(check.note.as_deref());
    }
    notes
}
