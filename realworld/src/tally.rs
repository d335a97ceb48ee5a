//! The real-world results: counts that add up, file lists and examples chosen by a fixed order,
//! so that results of shards [`Results::merge`] into exactly the results of one run over all of
//! their files (`docs/realworld.md` documents the JSON).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::derive::UrlKind;

/// The format's name and version, the first field of `realworld.json`.
/// Version 2 added the kinds of derived URLs (`checks_by_kind`, `against_by_kind`, `by_kind`);
/// version 3 each bucket example's `cause` and `evidence`; version 4 what each adapter's figures
/// rest on (`answered`, `not_asked`); version 5 the AI-usage lines (`ai_usage`, and each adapter's
/// `ai_usage_removed`).
pub const FORMAT: &str = "robotstxt-realworld/5";

/// How many verdicts changed by removing the AI-usage lines each adapter keeps as examples (the
/// first ones in (file id, check number) order).
pub const AI_USAGE_EXAMPLES: usize = 5;

/// An adapter that answered less than this share of its checks or files is marked in every
/// rendering, and its rates carry the note: they rest on the answers it gave.
pub const ANSWERED_AT_LEAST: f64 = 0.99;

/// How many file ids a [`FileList`] keeps (the first ones in id order).
pub const LISTED_FILES: usize = 20;

/// Everything one run (or several merged) found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    /// [`FORMAT`].
    pub format: String,
    /// What was read (`protego-0.7.0`, directory and file names: never a path on the machine),
    /// sorted, without duplicates.
    pub corpus: Vec<String>,
    /// `--limit`: at most this many files of each corpus were read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The profiles asked, in `ProfileId::ALL` order.
    pub profiles: Vec<String>,
    /// Files read.
    pub files: u64,
    /// Checks derived (each asked of every profile and adapter).
    pub checks: u64,
    /// Checks derived per kind of URL (`as-written`, `query-added`, ...:
    /// `crate::derive::UrlKind`).
    #[serde(default)]
    pub checks_by_kind: BTreeMap<String, u64>,
    /// Wall-clock seconds of the run (summed over merged shards; not compared by merge tests).
    pub seconds: f64,
    /// File-level fact → files with it (`realworld/src/facts.rs`).
    pub facts: BTreeMap<String, u64>,
    /// Per profile: how its verdicts came out.
    pub oracle: BTreeMap<String, ProfileTally>,
    /// Per adapter id.
    pub adapters: BTreeMap<String, AdapterTally>,
    /// Per pair of adapters (`a|b`, ids in order): where both gave a verdict.
    pub pairs: BTreeMap<String, Compared>,
    /// Divergences from the adapter's claimed profile, by (adapter, cause): key `adapter|cause`.
    pub buckets: BTreeMap<String, Bucket>,
    /// Files each adapter was asked twice, in fresh processes, to test its determinism.
    pub determinism_files: u64,
    /// Adapters asked for that could not run, with the reason.
    pub unavailable: BTreeMap<String, String>,
    /// The files that carry AI-usage lines (`Content-Usage`, `Content-Signal`: `robotstxt_matrix::aiusage`).
    #[serde(default)]
    pub ai_usage: AiUsageFiles,
}

/// The files that carry AI-usage lines (`robotstxt_matrix::aiusage`), and the oracle's verdicts on them with
/// and without the lines.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiUsageFiles {
    /// Files with at least one AI-usage line.
    pub files: FileList,
    /// `Content-Usage` lines in them.
    pub content_usage: u64,
    /// `Content-Signal` lines in them.
    pub content_signal: u64,
    /// Lines that start with one of the two names but have no colon: no AI-usage lines, never
    /// removed, counted apart (in any file).
    pub without_colon: u64,
    /// Files with at least one such line.
    pub files_without_colon: u64,
    /// Per profile, the oracle's verdicts on every check of those files, with the lines against
    /// without them (`checks`: both obtained; `disagree`: they differ).
    pub oracle: BTreeMap<String, Compared>,
}

impl AiUsageFiles {
    /// Adds another tally's counts.
    pub fn merge(&mut self, other: &AiUsageFiles) {
        self.files.merge(&other.files);
        self.content_usage += other.content_usage;
        self.content_signal += other.content_signal;
        self.without_colon += other.without_colon;
        self.files_without_colon += other.files_without_colon;
        for (profile, compared) in &other.oracle {
            self.oracle
                .entry(profile.clone())
                .or_default()
                .merge(compared);
        }
    }
}

/// One adapter asked every check of the files with AI-usage lines twice: on the file as it is and
/// on the file with those lines removed (`robotstxt_matrix::aiusage::find`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiUsageRemoved {
    /// Files with AI-usage lines asked both ways.
    pub files: u64,
    /// Their checks (each asked both ways).
    pub checks: u64,
    /// Checks both asks answered with a verdict (`checks`), of which the verdict changed
    /// (`disagree`), and their files.
    pub compared: Compared,
    /// Checks not compared, because one ask gave no verdict, by what it gave and on which body
    /// (`crash with the lines`, `timeout without the lines`, `unsupported with the lines`, ...).
    pub not_compared: BTreeMap<String, u64>,
    /// Files where a verdict changed.
    pub changed: FileList,
    /// The first changed verdicts in (file id, check number) order, at most
    /// [`AI_USAGE_EXAMPLES`].
    pub examples: Vec<AiUsageChange>,
}

impl AiUsageRemoved {
    /// Checks not compared, whatever the reason.
    pub fn not_compared_checks(&self) -> u64 {
        self.not_compared.values().sum()
    }

    /// Adds a changed verdict as an example if it is among the first ones.
    pub fn add_example(&mut self, example: AiUsageChange) {
        self.examples.push(example);
        self.examples
            .sort_by(|a, b| (&a.file, a.check).cmp(&(&b.file, b.check)));
        self.examples.truncate(AI_USAGE_EXAMPLES);
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, other: &AiUsageRemoved) {
        self.files += other.files;
        self.checks += other.checks;
        self.compared.merge(&other.compared);
        for (why, n) in &other.not_compared {
            *self.not_compared.entry(why.clone()).or_default() += n;
        }
        self.changed.merge(&other.changed);
        for example in &other.examples {
            self.add_example(example.clone());
        }
    }
}

/// A verdict that removing a file's AI-usage lines changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiUsageChange {
    /// The file.
    pub file: String,
    /// The check's number in the file's derived checks.
    pub check: u64,
    /// The agent asked.
    pub agent: String,
    /// The URL asked.
    pub url: String,
    /// The verdict on the file as it is.
    pub with_lines: String,
    /// The verdict on the file without its AI-usage lines.
    pub without_lines: String,
    /// The file's first AI-usage lines (`\xHH`-escaped), at most three.
    pub lines: Vec<String>,
}

/// How one profile's verdicts came out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileTally {
    /// Checks answered `allowed`.
    pub allowed: u64,
    /// Checks answered `disallowed`.
    pub disallowed: u64,
    /// Checks the document leaves open (`either`).
    pub either: u64,
    /// Checks outside the file's scope (`not-governed`).
    pub not_governed: u64,
    /// Checks where the oracle panicked (always a bug of ours).
    pub panics: u64,
}

/// One adapter's answers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdapterTally {
    /// Who it is: `library version (language)`.
    pub library: String,
    /// The profile it claims.
    pub profile: String,
    /// Files asked.
    pub files: u64,
    /// Checks asked.
    pub checks: u64,
    /// Answer kind (`allowed`, `disallowed`, `unsupported`, `error`, `crash`, `timeout`, and
    /// `not-asked` for a check the adapter was not asked: declared hung or broken) → checks.
    pub answers: BTreeMap<String, u64>,
    /// What its figures rest on: checks it answered (a verdict or `unsupported`: a reading of the
    /// file, not a failure or a check not asked), and files whose every check it answered.
    pub answered: Counted,
    /// Checks not asked (the adapter was declared hung or broken), by reason, with the files:
    /// the list's first file is where it stopped being asked.
    pub not_asked: BTreeMap<String, FileList>,
    /// Against each profile, where that profile's verdict is definite.
    pub against: BTreeMap<String, Compared>,
    /// The same per kind of derived URL: profile → kind (`as-written`, ...) → compared.
    #[serde(default)]
    pub against_by_kind: BTreeMap<String, BTreeMap<String, Compared>>,
    /// Failures (`crash`, `error`, `timeout`) by kind and message, with the files.
    pub failures: BTreeMap<String, FileList>,
    /// Files with at least one failure, whatever its kind and message.
    #[serde(default)]
    pub failed_files: FileList,
    /// Files whose answers changed between two fresh processes, with the first differing check.
    pub nondeterministic: FileList,
    /// Seconds spent in the adapter (summed over merged shards).
    pub seconds: f64,
    /// Its verdicts on the files with AI-usage lines, with the lines against without them.
    #[serde(default)]
    pub ai_usage_removed: AiUsageRemoved,
}

/// Answers compared: an adapter's against a profile's definite verdicts, or two adapters'
/// verdicts against each other.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compared {
    /// Checks where both sides gave a verdict (for a profile: a definite one).
    pub checks: u64,
    /// ... of which the verdicts differ.
    pub disagree: u64,
    /// Files with at least one compared check.
    pub files: u64,
    /// Files with at least one differing check.
    pub files_disagree: u64,
}

impl Compared {
    /// Adds one file's `checks` compared, `disagree` of them differing.
    pub fn add_file(&mut self, checks: u64, disagree: u64) {
        self.checks += checks;
        self.disagree += disagree;
        self.files += u64::from(checks > 0);
        self.files_disagree += u64::from(disagree > 0);
    }

    /// `disagree / checks` (0 when nothing was compared).
    pub fn share(&self) -> f64 {
        if self.checks == 0 {
            0.0
        } else {
            self.disagree as f64 / self.checks as f64
        }
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, other: &Compared) {
        self.checks += other.checks;
        self.disagree += other.disagree;
        self.files += other.files;
        self.files_disagree += other.files_disagree;
    }
}

/// Checks, and the files with at least one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counted {
    /// Checks.
    pub checks: u64,
    /// Files with at least one.
    pub files: u64,
}

impl Counted {
    /// Adds another count.
    pub fn merge(&mut self, other: &Counted) {
        self.checks += other.checks;
        self.files += other.files;
    }
}

/// `part / whole`, 1 when `whole` is 0 (nothing was asked, so nothing was lost).
fn share_of(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

impl AdapterTally {
    /// Adds one file's answers compared against `profile`: for each check, its URL's kind and,
    /// when the profile is definite and the adapter gave a verdict, whether they differ (`None`:
    /// not compared). Adds to `against` and `against_by_kind` alike.
    pub fn add_compared(
        &mut self,
        profile: &str,
        checks: impl IntoIterator<Item = (UrlKind, Option<bool>)>,
    ) {
        let mut all = (0, 0);
        let mut by_kind: BTreeMap<UrlKind, (u64, u64)> = BTreeMap::new();
        for (kind, differs) in checks {
            let Some(differs) = differs else { continue };
            let counts = by_kind.entry(kind).or_default();
            counts.0 += 1;
            counts.1 += u64::from(differs);
            all.0 += 1;
            all.1 += u64::from(differs);
        }
        self.against
            .entry(profile.to_string())
            .or_default()
            .add_file(all.0, all.1);
        let kinds = self.against_by_kind.entry(profile.to_string()).or_default();
        for (kind, (checks, disagree)) in by_kind {
            kinds
                .entry(kind.name().to_string())
                .or_default()
                .add_file(checks, disagree);
        }
    }

    /// Checks answered `crash`, `error` or `timeout` (not those not asked).
    pub fn failed_checks(&self) -> u64 {
        ["crash", "error", "timeout"]
            .iter()
            .filter_map(|kind| self.answers.get(*kind))
            .sum()
    }

    /// The share of its checks it answered ([`AdapterTally::answered`]); 1 when it was asked none.
    pub fn answered_checks_share(&self) -> f64 {
        share_of(self.answered.checks, self.checks)
    }

    /// The share of its files whose every check it answered; 1 when it was asked none.
    pub fn answered_files_share(&self) -> f64 {
        share_of(self.answered.files, self.files)
    }

    /// Whether it answered less than [`ANSWERED_AT_LEAST`] of its checks or of its files: its
    /// rates rest on part of the corpus, and every rendering says so.
    pub fn answered_too_little(&self) -> bool {
        self.answered_checks_share() < ANSWERED_AT_LEAST
            || self.answered_files_share() < ANSWERED_AT_LEAST
    }

    /// The note its rates carry when it answered too little ([`AdapterTally::answered_too_little`]):
    /// "answered 31.0% of checks, 31.2% of files: its rates rest on those", and where it stopped
    /// being asked; `None` otherwise.
    pub fn answered_note(&self) -> Option<String> {
        if !self.answered_too_little() {
            return None;
        }
        let percent = |share: f64| format!("{:.1}%", (share * 1000.0).floor() / 10.0);
        let mut note = format!(
            "answered {} of its checks and {} of its files: its rates rest on those",
            percent(self.answered_checks_share()),
            percent(self.answered_files_share())
        );
        for (why, files) in &self.not_asked {
            note.push_str(&format!(
                "; {} file(s) not asked from {} on ({why})",
                files.count,
                files.first.first().map_or("?", String::as_str)
            ));
        }
        Some(note)
    }
}

/// The files with some property: how many, and the first [`LISTED_FILES`] ids in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileList {
    /// How many files.
    pub count: u64,
    /// The first ids, in order.
    pub first: Vec<String>,
}

impl FileList {
    /// Adds a file (each file is added at most once per list by the caller).
    pub fn add(&mut self, id: &str) {
        self.count += 1;
        self.first.push(id.to_string());
        self.first.sort();
        self.first.truncate(LISTED_FILES);
    }

    /// Adds another list's files.
    pub fn merge(&mut self, other: &FileList) {
        self.count += other.count;
        self.first.extend(other.first.iter().cloned());
        self.first.sort();
        self.first.dedup();
        self.first.truncate(LISTED_FILES);
    }
}

/// One (adapter, cause): the adapter's answers where its claimed profile says otherwise, and one
/// knob alternative or deviation set (or `unexplained`) gives that answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bucket {
    /// The adapter.
    pub adapter: String,
    /// The profile it claims.
    pub profile: String,
    /// The cause: knob alternatives and deviations joined by ` + ` (`K4 precedence`,
    /// `D-typo-fields`), or `unexplained`.
    pub cause: String,
    /// Where each part of the cause is written down: the profile's section for a knob, the
    /// sentences a deviation breaks.
    pub citations: Vec<String>,
    /// Whether the adapter's ledger already records a divergence with this cause on the corpus.
    pub in_ledger: bool,
    /// Checks in the bucket.
    pub checks: u64,
    /// Checks where the adapter answered `allowed` (the rest: `disallowed`).
    pub allowed: u64,
    /// Files with at least one of its checks.
    pub files: FileList,
    /// Its checks and files per kind of derived URL (`as-written`, ...).
    #[serde(default)]
    pub by_kind: BTreeMap<String, Counted>,
    /// The example: the first check in (file id, check number) order, minimised.
    pub example: Example,
}

/// A bucket's example.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// The file it came from.
    pub file: String,
    /// The check's number in the file's derived checks.
    pub check: u64,
    /// The agent asked.
    pub agent: String,
    /// The URL asked.
    pub url: String,
    /// The fetch's HTTP status (0: unreachable).
    pub status: u16,
    /// The profile's verdict.
    pub expected: String,
    /// The adapter's answer.
    pub got: String,
    /// The file's size in octets.
    pub original_octets: u64,
    /// The minimised body (a `\xHH` escaped string, `spec-cases/README.md`); the whole body when it
    /// could not be minimised (a non-200 fetch).
    pub body: String,
    /// Whether `body`, `agent` and `url` are minimised.
    pub minimised: bool,
    /// The minimised input as a corpus case, ready for `spec-cases/regressions/` once its verdicts
    /// are confirmed (empty when not minimised).
    pub case_yaml: String,
    /// The cause examining the minimised example found ([`robotstxt_oracle::examine`]): the
    /// credited knob or deviation label (`K4 precedence`), or the behaviour group's id
    /// (`unexplained <key>`); empty when the example was not examined (a non-200 fetch, or no
    /// minimisation). Only a credited cause counts the bucket's files towards it.
    #[serde(default)]
    pub cause: String,
    /// What [`Example::cause`] rests on, in words.
    #[serde(default)]
    pub evidence: String,
}

impl Example {
    /// The credited knob or deviation label, if examining the example credited one.
    pub fn credited(&self) -> Option<&str> {
        (!self.cause.is_empty()
            && self.cause != robotstxt_oracle::cause::UNEXPLAINED
            && !robotstxt_oracle::behaviour::is_id(&self.cause))
        .then_some(self.cause.as_str())
    }
}

impl Example {
    /// The order examples are chosen in: the first file id, then the first check.
    pub fn key(&self) -> (&str, u64) {
        (&self.file, self.check)
    }
}

impl Results {
    /// Empty results for these profiles.
    pub fn new(profiles: Vec<String>) -> Results {
        Results {
            format: FORMAT.to_string(),
            profiles,
            ..Results::default()
        }
    }

    /// Adds `other` (another shard's results over other files) to these.
    pub fn merge(&mut self, other: &Results) -> Result<(), String> {
        if other.format != FORMAT {
            return Err(format!(
                "results of format `{}` cannot be merged with `{FORMAT}`",
                other.format
            ));
        }
        if self.profiles != other.profiles && self.files > 0 && other.files > 0 {
            return Err(format!(
                "the results asked different profiles ({} and {})",
                self.profiles.join(", "),
                other.profiles.join(", ")
            ));
        }
        if self.limit != other.limit && self.files > 0 && other.files > 0 {
            return Err(format!(
                "the results read different numbers of files per corpus (--limit {} and {})",
                self.limit.map_or("none".to_string(), |n| n.to_string()),
                other.limit.map_or("none".to_string(), |n| n.to_string())
            ));
        }
        if self.files == 0 {
            self.profiles = other.profiles.clone();
            self.limit = other.limit;
        }
        self.corpus.extend(other.corpus.iter().cloned());
        self.corpus.sort();
        self.corpus.dedup();
        self.files += other.files;
        self.checks += other.checks;
        for (kind, n) in &other.checks_by_kind {
            *self.checks_by_kind.entry(kind.clone()).or_default() += n;
        }
        self.seconds += other.seconds;
        self.determinism_files += other.determinism_files;
        for (id, reason) in &other.unavailable {
            self.unavailable.insert(id.clone(), reason.clone());
        }
        self.ai_usage.merge(&other.ai_usage);
        for (fact, n) in &other.facts {
            *self.facts.entry(fact.clone()).or_default() += n;
        }
        for (profile, tally) in &other.oracle {
            let mine = self.oracle.entry(profile.clone()).or_default();
            mine.allowed += tally.allowed;
            mine.disallowed += tally.disallowed;
            mine.either += tally.either;
            mine.not_governed += tally.not_governed;
            mine.panics += tally.panics;
        }
        for (id, tally) in &other.adapters {
            let mine = self.adapters.entry(id.clone()).or_default();
            if mine.library.is_empty() {
                mine.library = tally.library.clone();
                mine.profile = tally.profile.clone();
            } else if mine.library != tally.library || mine.profile != tally.profile {
                return Err(format!(
                    "adapter {id} differs between the results: {} ({}) and {} ({})",
                    mine.library, mine.profile, tally.library, tally.profile
                ));
            }
            mine.files += tally.files;
            mine.checks += tally.checks;
            mine.seconds += tally.seconds;
            for (kind, n) in &tally.answers {
                *mine.answers.entry(kind.clone()).or_default() += n;
            }
            for (profile, against) in &tally.against {
                mine.against
                    .entry(profile.clone())
                    .or_default()
                    .merge(against);
            }
            for (profile, kinds) in &tally.against_by_kind {
                let mine = mine.against_by_kind.entry(profile.clone()).or_default();
                for (kind, against) in kinds {
                    mine.entry(kind.clone()).or_default().merge(against);
                }
            }
            for (what, files) in &tally.failures {
                mine.failures.entry(what.clone()).or_default().merge(files);
            }
            mine.answered.merge(&tally.answered);
            for (why, files) in &tally.not_asked {
                mine.not_asked.entry(why.clone()).or_default().merge(files);
            }
            mine.nondeterministic.merge(&tally.nondeterministic);
            mine.failed_files.merge(&tally.failed_files);
            mine.ai_usage_removed.merge(&tally.ai_usage_removed);
        }
        for (pair, tally) in &other.pairs {
            self.pairs.entry(pair.clone()).or_default().merge(tally);
        }
        for (key, bucket) in &other.buckets {
            match self.buckets.get_mut(key) {
                None => {
                    self.buckets.insert(key.clone(), bucket.clone());
                }
                Some(mine) => {
                    mine.checks += bucket.checks;
                    mine.allowed += bucket.allowed;
                    mine.files.merge(&bucket.files);
                    for (kind, counted) in &bucket.by_kind {
                        mine.by_kind.entry(kind.clone()).or_default().merge(counted);
                    }
                    if bucket.example.key() < mine.example.key() {
                        mine.example = bucket.example.clone();
                    }
                }
            }
        }
        Ok(())
    }

    /// The share of answers that differ from the adapter's claimed profile, over every adapter's
    /// checks where that profile is definite and the adapter gave a verdict, whatever the kind of
    /// URL (0 when there is none).
    pub fn disagreement(&self) -> f64 {
        self.compared_all().share()
    }

    /// [`Results::disagreement`] over the URLs as written in the files (kind `as-written`): the
    /// headline figure.
    pub fn disagreement_as_written(&self) -> f64 {
        self.compared_of(UrlKind::AsWritten).share()
    }

    /// Every adapter's checks compared against its claimed profile, all kinds of URL together.
    pub fn compared_all(&self) -> Compared {
        let mut sum = Compared::default();
        for tally in self.adapters.values() {
            if let Some(against) = tally.against.get(&tally.profile) {
                sum.merge(against);
            }
        }
        sum
    }

    /// Every adapter's checks of one kind of URL compared against its claimed profile.
    pub fn compared_of(&self, kind: UrlKind) -> Compared {
        let mut sum = Compared::default();
        for tally in self.adapters.values() {
            if let Some(against) = tally
                .against_by_kind
                .get(&tally.profile)
                .and_then(|kinds| kinds.get(kind.name()))
            {
                sum.merge(against);
            }
        }
        sum
    }

    /// The buckets, largest first (by files, then checks, then key).
    pub fn buckets_by_size(&self) -> Vec<&Bucket> {
        let mut buckets: Vec<&Bucket> = self.buckets.values().collect();
        buckets.sort_by(|a, b| {
            (b.files.count, b.checks)
                .cmp(&(a.files.count, a.checks))
                .then_with(|| (&a.adapter, &a.cause).cmp(&(&b.adapter, &b.cause)))
        });
        buckets
    }

    /// A copy without the timing fields (every `seconds`), for comparing runs.
    pub fn without_timing(&self) -> Results {
        let mut copy = self.clone();
        copy.seconds = 0.0;
        for tally in copy.adapters.values_mut() {
            tally.seconds = 0.0;
        }
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_lists_keep_the_first_ids_in_order_whatever_the_merge_order() {
        let mut a = FileList::default();
        let mut b = FileList::default();
        for i in (0..30).rev() {
            if i % 2 == 0 {
                a.add(&format!("f{i:02}"));
            } else {
                b.add(&format!("f{i:02}"));
            }
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.count, 30);
        assert_eq!(ab.first.len(), LISTED_FILES);
        assert_eq!(ab.first[0], "f00");
        assert_eq!(ab.first[19], "f19");
    }

    #[test]
    fn merge_keeps_the_first_example_and_adds_counts() {
        let bucket = |file: &str| Bucket {
            adapter: "x".into(),
            checks: 2,
            files: FileList {
                count: 1,
                first: vec![file.into()],
            },
            example: Example {
                file: file.into(),
                ..Example::default()
            },
            ..Bucket::default()
        };
        let mut a = Results::new(vec!["rfc9309".into()]);
        a.files = 1;
        a.buckets.insert("x|c".into(), bucket("b"));
        let mut b = Results::new(vec!["rfc9309".into()]);
        b.files = 1;
        b.buckets.insert("x|c".into(), bucket("a"));
        let mut ab = a.clone();
        ab.merge(&b).unwrap();
        let mut ba = b.clone();
        ba.merge(&a).unwrap();
        assert_eq!(ab, ba);
        assert_eq!(ab.buckets["x|c"].example.file, "a");
        assert_eq!(ab.buckets["x|c"].checks, 4);
        assert_eq!(ab.files, 2);
    }

    #[test]
    fn an_adapter_that_answered_under_99_percent_carries_a_note() {
        let mut tally = AdapterTally {
            files: 1000,
            checks: 40_000,
            answered: Counted {
                checks: 39_700,
                files: 995,
            },
            ..AdapterTally::default()
        };
        assert!(!tally.answered_too_little());
        assert_eq!(tally.answered_note(), None);
        tally.answered.files = 980;
        tally.not_asked.insert(
            "declared hung".into(),
            FileList {
                count: 20,
                first: vec!["f0981".into()],
            },
        );
        assert!(tally.answered_too_little());
        let note = tally.answered_note().unwrap();
        assert!(
            note.starts_with("answered 99.2% of its checks and 98.0% of its files")
                && note.contains("20 file(s) not asked from f0981 on (declared hung)"),
            "{note}"
        );
        // Nothing asked, nothing lost.
        assert!(!AdapterTally::default().answered_too_little());
    }

    #[test]
    fn merge_refuses_other_formats_and_other_profiles() {
        let mut a = Results::new(vec!["rfc9309".into()]);
        a.files = 1;
        let mut b = Results::new(vec!["google".into()]);
        b.files = 1;
        assert!(a
            .clone()
            .merge(&b)
            .unwrap_err()
            .contains("different profiles"));
        b.format = "other/1".into();
        assert!(a.merge(&b).unwrap_err().contains("other/1"));
    }
}
