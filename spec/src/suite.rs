//! The suite a downstream crate runs: chosen profiles, an optional ledger, a parser; every check
//! a libtest-mimic trial named `<profile>::<case-id>#<n>`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use libtest_mimic::{Arguments, Completion, Conclusion, Failed, Trial};
use robotstxt_oracle::{Fetch, ProfileId, Verdict};

use crate::answer::Answer;
use crate::ask::ask;
#[cfg(feature = "causes")]
use crate::ask::ask_one;
use crate::badge::Figures;
use crate::cases::{Case, Check, Corpus};
use crate::ledger::{self, Ledger, Standing};
use crate::parser::Parser;
use crate::verify::{describe_fetch, parser_failure_report};
use crate::versions::{CheckVersions, Version};

/// The environment variable that rewrites the ledger from the current answers: `1` to bless,
/// unset, empty or `0` not to; any other value is an error, and so is `1` when `CI` is set.
pub const BLESS_VAR: &str = "ROBOTSTXT_SPEC_BLESS";

/// A conformance suite for one parser.
///
/// ```no_run
/// use robotstxt_spec::{ProfileId, Suite};
///
/// fn main() {
///     Suite::new("my-parser")
///         .profile(ProfileId::Rfc9309)
///         .ledger("tests/robotstxt-spec.yaml")
///         .run(|body: &[u8], agent: &str, url: &str| {
///             // Your parser here: may `agent` crawl `url` under `body`?
///             !body.is_empty() || !agent.is_empty() || url.is_empty()
///         });
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Suite {
    name: String,
    profiles: Vec<ProfileId>,
    ledger: Option<PathBuf>,
    badge: Option<PathBuf>,
}

/// What a run's checks came to per profile (in `ProfileId::ALL` order), for the line to cite:
/// checks asked, answers the profile expects, and divergences the ledger accepts with a reason.
type Counts = Arc<std::sync::Mutex<[Figures; 4]>>;

/// Empty counts, one per profile.
fn new_counts() -> Counts {
    Arc::new(std::sync::Mutex::new(ProfileId::ALL.map(|profile| {
        Figures {
            profile,
            checks: 0,
            agree: 0,
            documented: 0,
        }
    })))
}

/// Adds one asked check's `answer` (the profile expects `expected`; `entry` is its ledger entry)
/// to `counts`.
fn count(
    counts: &Counts,
    profile: ProfileId,
    answer: &Answer,
    expected: Verdict,
    entry: Option<&ledger::Entry>,
) {
    let mut counts = counts.lock().unwrap_or_else(|e| e.into_inner());
    let figures = &mut counts[profile.index()];
    figures.checks += 1;
    match ledger::standing(answer, expected, entry) {
        Standing::Pass | Standing::Fixed(_) => figures.agree += 1,
        Standing::Listed(entry)
            if !answer.is_failure() && !ledger::is_unexplained(&entry.reason) =>
        {
            figures.documented += 1
        }
        _ => {}
    }
}

/// Why a check is not put to the parser (its test is ignored with this reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotAsked {
    /// The case is a history of fetches over time; the parser answers about one body.
    History,
    /// The profile finds that the robots.txt file does not govern the URL (scope, step 0); the
    /// parser is never told the robots.txt URL.
    NotGoverned,
    /// The fetch was not a plain 200 and the parser does not take fetch outcomes.
    Fetch(Fetch),
}

impl NotAsked {
    /// The reason shown for the ignored test.
    pub fn reason(&self, profile: ProfileId) -> String {
        match self {
            NotAsked::History => "a history of robots.txt fetches over time; the parser answers \
                                  about one fetched body"
                .to_string(),
            NotAsked::NotGoverned => format!(
                "under {} the robots.txt file does not govern this URL (not-governed); the \
                 parser is not told the robots.txt URL",
                profile.name()
            ),
            NotAsked::Fetch(fetch) => format!(
                "the fetch was {}; the parser does not take fetch outcomes \
                 (Parser::takes_fetch_outcomes)",
                describe_fetch(*fetch)
            ),
        }
    }
}

/// Why a check cannot be asked of `parser` under `profile`; `None` when it can.
pub fn not_asked(
    parser: &dyn Parser,
    profile: ProfileId,
    case: &Case,
    check: &Check,
) -> Option<NotAsked> {
    if !case.fetches.is_empty() {
        return Some(NotAsked::History);
    }
    if check.expect[&profile] == Verdict::NotGoverned {
        return Some(NotAsked::NotGoverned);
    }
    if case.fetch != Fetch::default() && !parser.takes_fetch_outcomes() {
        return Some(NotAsked::Fetch(case.fetch));
    }
    None
}

/// The test name of a check under a profile: `<profile>::<case-id>#<n>` (also its ledger key).
pub fn test_name(profile: ProfileId, case: &Case, check: &Check) -> String {
    format!("{}::{}#{}", profile.name(), case.id, check.number)
}

/// How one check came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The parser agrees with the profile and the ledger lists nothing.
    Pass,
    /// Ignored, with the reason: not askable, or a divergence the ledger accepts.
    Ignored(String),
    /// Failed, with what to do.
    Fail(String),
}

/// Judges an answer against the profile's expectation and the ledger. `new_in` is the corpus
/// version the check first shipped in when that is newer than the ledger's corpus version (see
/// [`new_in`]): an unlisted divergence on such a check is reported as new, not as a failure.
pub fn judge(
    answer: &Answer,
    expected: Verdict,
    entry: Option<&ledger::Entry>,
    new_in: Option<Version>,
    ledger_path: Option<&Path>,
    name: &str,
) -> Outcome {
    let file = ledger_path.map_or_else(
        || "a ledger file (Suite::ledger)".to_string(),
        |p| p.display().to_string(),
    );
    let bless = format!("{BLESS_VAR}=1 cargo test");
    // A failure the ledger does not accept by its message: fix it (a known exception of the
    // library can be listed by hand, never by bless).
    if answer.is_failure() && !entry.is_some_and(|e| e.accepts(answer)) {
        let what = match answer.panic_message() {
            Some(message) => format!("crash: the parser panicked ({message})"),
            None => format!("{}: the parser answered {answer}", answer.kind()),
        };
        let listed = entry.map_or(String::new(), |e| {
            format!(" (the ledger accepts {} here)", e.describe())
        });
        return Outcome::Fail(format!(
            "{what}{listed}; fix the parser: a failure is not a reading of the file, and bless \
             does not record it. If it is a known exception of the library, list `{name}: {}` \
             by hand in {file}, in a group with its reason and `message:`, the pattern its \
             message must match",
            answer.kind()
        ));
    }
    match ledger::standing(answer, expected, entry) {
        Standing::Pass => Outcome::Pass,
        Standing::Fixed(entry) => Outcome::Fail(format!(
            "fixed: the ledger lists `{name}` as a divergence ({}), but the parser now agrees; \
             remove the entry from {file} (or run {bless} to rewrite the ledger)",
            entry.reason
        )),
        Standing::Listed(entry) => {
            if ledger::is_unexplained(&entry.reason) {
                Outcome::Fail(format!(
                    "unexplained: the ledger accepts `{name}` but gives no reason yet; replace \
                     the UNEXPLAINED reason of its group ({}) with the reason in {file}",
                    entry.reason
                ))
            } else if answer.is_failure() {
                Outcome::Ignored(format!("accepted failure: {}", entry.reason))
            } else {
                Outcome::Ignored(format!("accepted divergence: {}", entry.reason))
            }
        }
        Standing::Changed(entry) => Outcome::Fail(format!(
            "changed: the ledger expects {} ({}) for `{name}`; fix the parser, or update the \
             entry in {file} (or run {bless})",
            entry.describe(),
            entry.reason
        )),
        Standing::Unlisted => match new_in {
            Some(version) => Outcome::Ignored(format!(
                "new in corpus {version}: bless to accept; the check is newer than the corpus \
                 version {file} was written against, so its divergence is reported, not failed, \
                 until {bless} lists it (then write its reason) or the parser is fixed"
            )),
            None => Outcome::Fail(format!(
                "unexpected divergence: not in the ledger; fix the parser, or, if the divergence \
                 is intended, list `{name}: {}` with its reason in {file} (or run {bless}, then \
                 write the reason)",
                answer.kind()
            )),
        },
    }
}

/// The version check `id` first shipped in, when it is newer than `ledger`'s corpus version
/// (`None` for a check the ledger's corpus already had, and for a ledger not written yet).
pub fn new_in(versions: &CheckVersions, ledger: &Ledger, id: &str) -> Option<Version> {
    let seen: Version = ledger.corpus.as_deref()?.parse().ok()?;
    versions.of(id).filter(|v| *v > seen)
}

/// Whether the environment asks for a bless: `value` is [`BLESS_VAR`]'s, `ci` is `CI`'s.
pub fn bless_requested(value: Option<&str>, ci: Option<&str>) -> Result<bool, String> {
    let bless = match value {
        None | Some("") | Some("0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(format!(
                "{BLESS_VAR}={other:?} is not understood: set it to 1 to rewrite the ledger, or \
                 unset it"
            ))
        }
    };
    if bless && ci.is_some() {
        return Err(format!(
            "{BLESS_VAR}=1 is refused when CI is set: bless on a developer's machine and commit \
             the ledger"
        ));
    }
    Ok(bless)
}

/// What a bless wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blessed {
    /// The ledger file.
    pub path: PathBuf,
    /// Entries written.
    pub entries: usize,
    /// Of them, entries marked UNEXPLAINED (new, or with a changed answer), one group per cause.
    pub unexplained: usize,
    /// Checks where the parser panicked (`<test name>: <message>`), or gave another failure
    /// answer (`<test name>: <answer>`): not written, their tests fail.
    pub crashes: Vec<String>,
}

impl Suite {
    /// A suite for the parser called `name` (shown in reports and written in the ledger). With no
    /// [`Suite::profile`] call it checks RFC 9309.
    pub fn new(name: impl Into<String>) -> Suite {
        Suite {
            name: name.into(),
            profiles: Vec::new(),
            ledger: None,
            badge: None,
        }
    }

    /// Also writes the badge of a whole run (`cargo test` with no filter): the profile and the
    /// pass rate as a self-contained SVG ([`crate::badge`]), or `failing` when a test failed.
    /// With several profiles, one file per profile, its name before the extension
    /// (`badge.rfc9309.svg`).
    pub fn badge(mut self, path: impl AsRef<Path>) -> Suite {
        self.badge = Some(path.as_ref().to_path_buf());
        self
    }

    /// Adds a profile to check against (`rfc9309`, `google`, `draft-1996`, `original-1994`).
    pub fn profile(mut self, profile: ProfileId) -> Suite {
        if !self.profiles.contains(&profile) {
            self.profiles.push(profile);
        }
        self
    }

    /// The ledger of accepted divergences (relative paths are from the crate's root, where cargo
    /// runs tests). A missing file is an empty ledger.
    pub fn ledger(mut self, path: impl AsRef<Path>) -> Suite {
        self.ledger = Some(path.as_ref().to_path_buf());
        self
    }

    /// The profiles checked.
    pub fn profiles(&self) -> Vec<ProfileId> {
        if self.profiles.is_empty() {
            vec![ProfileId::Rfc9309]
        } else {
            self.profiles.clone()
        }
    }

    /// Runs the suite as a test binary (`[[test]] harness = false`): reads the command line
    /// (`--list`, `--ignored`, `--exact`, filters, `--format`), blesses the ledger first when
    /// [`BLESS_VAR`] asks, runs every check and exits.
    ///
    /// A whole run (no filter, not `--list` or `--ignored`) ends with the line to cite for each
    /// profile ("RFC 9309: 97.2% of 1,224 checks; 34 documented divergences; corpus 0.2.0",
    /// marked `NOT PASSING` when a test failed) and writes the badge ([`Suite::badge`]). With
    /// [`crate::serve::SERVE_VAR`] set to `1` the binary serves the parser over
    /// `adapters/PROTOCOL.md` on standard input and output instead ([`crate::serve`]).
    pub fn run<P: Parser + 'static>(self, parser: P) -> ! {
        if crate::serve::requested() {
            let served = crate::serve::Served {
                name: self.name.clone(),
                profile: self.profiles()[0],
            };
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            let code = match crate::serve::serve(&served, &parser, stdin, stdout) {
                Ok(()) => 0,
                Err(_) => 1,
            };
            std::process::exit(code);
        }
        let args = Arguments::from_args();
        let bless = bless_requested(
            std::env::var(BLESS_VAR).ok().as_deref(),
            std::env::var("CI").ok().as_deref(),
        );
        let whole = args.filter.is_none()
            && args.skip.is_empty()
            && !args.list
            && !args.ignored
            && !args.include_ignored;
        let counts = new_counts();
        let conclusion = self.conclude_counting(&args, parser, bless, &counts);
        if whole {
            let figures = *counts.lock().unwrap_or_else(|e| e.into_inner());
            for line in self.lines(&figures, conclusion.num_failed as usize) {
                println!("{line}");
            }
            if let Err(message) = self.write_badges(&figures, conclusion.num_failed as usize) {
                eprintln!("{message}");
                std::process::exit(101);
            }
        }
        conclusion.exit()
    }

    /// The lines to cite of a run, one per profile checked (`failed`: the tests that failed; a
    /// failing run's lines are marked `NOT PASSING`).
    pub fn lines(&self, figures: &[Figures; 4], failed: usize) -> Vec<String> {
        self.profiles()
            .into_iter()
            .map(|p| {
                let line = crate::badge::line(&figures[p.index()]);
                match failed {
                    0 => line,
                    n => format!(
                        "NOT PASSING ({n} failed test{}): {line}",
                        if n == 1 { "" } else { "s" }
                    ),
                }
            })
            .collect()
    }

    /// Writes the badges of a run ([`Suite::badge`]), `failing` ones when `failed` tests failed.
    pub fn write_badges(&self, figures: &[Figures; 4], failed: usize) -> Result<(), String> {
        let Some(path) = &self.badge else {
            return Ok(());
        };
        let profiles = self.profiles();
        for &profile in &profiles {
            let target = if profiles.len() == 1 {
                path.clone()
            } else {
                let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                let extension = path
                    .extension()
                    .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
                path.with_file_name(format!("{stem}.{}{extension}", profile.name()))
            };
            let f = &figures[profile.index()];
            let svg = match failed {
                0 => crate::badge::svg_of(&self.name, f),
                n => crate::badge::failing_svg(&self.name, f, n),
            };
            std::fs::write(&target, svg).map_err(|e| format!("{}: {e}", target.display()))?;
        }
        Ok(())
    }

    /// The figures of the line to cite, per profile in `ProfileId::ALL` order, from running every
    /// check of `parser` as [`Suite::outcomes`] does, and how many of its trials failed.
    pub fn figures<P: Parser + 'static>(&self, parser: P) -> ([Figures; 4], usize) {
        let counts = new_counts();
        let failed = self
            .plan(parser, Ok(false), &counts)
            .into_iter()
            .map(|planned| (planned.run)().0)
            .filter(|outcome| matches!(outcome, Outcome::Fail(_)))
            .count();
        let figures = *counts.lock().unwrap_or_else(|e| e.into_inner());
        (figures, failed)
    }

    /// Runs the suite with `args` through libtest-mimic's runner and printer; `bless` is what
    /// [`bless_requested`] said (an error fails the run with its message).
    pub fn conclude<P: Parser + 'static>(
        &self,
        args: &Arguments,
        parser: P,
        bless: Result<bool, String>,
    ) -> Conclusion {
        self.conclude_counting(args, parser, bless, &new_counts())
    }

    /// [`Suite::conclude`], adding each asked check to `counts`.
    fn conclude_counting<P: Parser + 'static>(
        &self,
        args: &Arguments,
        parser: P,
        bless: Result<bool, String>,
        counts: &Counts,
    ) -> Conclusion {
        let planned = self.plan(parser, bless, counts);
        if !(args.ignored || args.include_ignored) {
            let trials = planned.into_iter().map(Planned::into_trial).collect();
            return libtest_mimic::run(args, trials);
        }
        // `--ignored` / `--include-ignored`: which checks a plain run ignores is known only once
        // they are asked, so every check runs here first. A divergence the plain run ignores (one
        // the ledger accepts, or one new in the corpus) then fails with its full report, to be
        // read; a check that cannot be asked stays ignored with its reason; with `--ignored`
        // the checks that pass are left out.
        let only_ignored = args.ignored;
        let mut args = args.clone();
        args.ignored = false;
        args.include_ignored = false;
        let trials = planned
            .into_iter()
            .filter_map(|planned| {
                let (outcome, shown) = (planned.run)();
                let outcome = match (outcome, shown) {
                    (Outcome::Ignored(_), Some(report)) => Outcome::Fail(report),
                    (Outcome::Pass, _) if only_ignored => return None,
                    (outcome, _) => outcome,
                };
                Some(Planned::new(planned.name, move || (outcome, None)).into_trial())
            })
            .collect();
        libtest_mimic::run(&args, trials)
    }

    /// Runs every trial [`Suite::conclude`] would run, in the same order and judged the same
    /// way, but prints nothing: each trial's name and outcome ([`Outcome::Fail`] carries the full
    /// failure report). For tools and tests that judge a suite without a test runner's output.
    pub fn outcomes<P: Parser + 'static>(
        &self,
        parser: P,
        bless: Result<bool, String>,
    ) -> Vec<(String, Outcome)> {
        self.plan(parser, bless, &new_counts())
            .into_iter()
            .map(|planned| (planned.name, (planned.run)().0))
            .collect()
    }

    /// The trials of a run, not yet run: blesses first when asked; a corpus, ledger or bless
    /// that cannot be used is a single failing trial.
    fn plan<P: Parser + 'static>(
        &self,
        parser: P,
        bless: Result<bool, String>,
        counts: &Counts,
    ) -> Vec<Planned> {
        let parser: Arc<dyn Parser> = Arc::new(parser);
        let corpus = match crate::embedded::corpus() {
            Ok(corpus) => Arc::new(corpus),
            Err(errors) => {
                let message: String = errors.iter().map(|e| format!("{e}\n")).collect();
                return vec![Planned::failing("corpus::loads", message)];
            }
        };
        let versions = match crate::embedded::check_versions() {
            Ok(versions) => Arc::new(versions),
            Err(errors) => return vec![Planned::failing("corpus::loads", errors.join("\n"))],
        };
        match bless {
            Err(message) => return vec![Planned::failing("ledger::bless", message)],
            Ok(true) => match self.bless(&corpus, parser.as_ref()) {
                Ok(blessed) => {
                    eprintln!(
                        "{BLESS_VAR}=1: wrote {} ({} entries, {} marked UNEXPLAINED, one group \
                         per cause: write their reasons)",
                        blessed.path.display(),
                        blessed.entries,
                        blessed.unexplained
                    );
                    if !blessed.crashes.is_empty() {
                        eprintln!(
                            "{BLESS_VAR}=1: the parser panicked on {} checks, not recorded (a \
                             panic is fixed, not accepted); their tests fail. First: {}",
                            blessed.crashes.len(),
                            blessed.crashes[0]
                        );
                    }
                }
                Err(message) => return vec![Planned::failing("ledger::bless", message)],
            },
            Ok(false) => {}
        }
        let ledger = match self.load_ledger() {
            Ok(ledger) => Arc::new(ledger),
            Err(message) => return vec![Planned::failing("ledger::loads", message)],
        };
        self.planned(&corpus, &versions, parser, &ledger, counts)
    }

    /// Loads the ledger; one written against a newer corpus than this crate's is an error.
    fn load_ledger(&self) -> Result<Ledger, String> {
        let Some(path) = &self.ledger else {
            return Ok(Ledger::default());
        };
        let ledger = Ledger::load(path)?;
        if let Some(written) = &ledger.corpus {
            let written: Version = written
                .parse()
                .map_err(|e| format!("{}: corpus: {e}", path.display()))?;
            let current = crate::embedded::corpus_version();
            if written > current {
                return Err(format!(
                    "{}: written against corpus {written}, newer than this robotstxt-spec's \
                     corpus {current}: upgrade robotstxt-spec (or bless the ledger with this one)",
                    path.display()
                ));
            }
        }
        Ok(ledger)
    }

    /// Every askable check's test name under the chosen profiles, with its answer when the
    /// parser diverges (`None` when it agrees).
    pub fn divergences(
        &self,
        corpus: &Corpus,
        parser: &dyn Parser,
    ) -> BTreeMap<String, Option<Answer>> {
        self.divergences_with_causes(corpus, parser)
            .into_iter()
            .map(|(name, found)| (name, found.map(|(answer, _)| answer)))
            .collect()
    }

    /// [`Suite::divergences`] with each divergent verdict's cause as the evidence has it
    /// ([`crate::causes::credited`]: the credited `K6 wildcards`, `D-typo-fields`, or the
    /// behaviour group `unexplained <key>`), weighed against the parser's answers on the check's
    /// neighbours and on every other check; `None` for an answer that is not a verdict, a check
    /// with a fetch outcome, or all checks when the crate is built without its `causes` feature.
    #[allow(clippy::type_complexity)]
    pub fn divergences_with_causes(
        &self,
        corpus: &Corpus,
        parser: &dyn Parser,
    ) -> BTreeMap<String, Option<(Answer, Option<String>)>> {
        // Every askable check's answer first: the other answers a candidate is weighed against.
        let mut asked: Vec<(ProfileId, &Case, &Check, Answer)> = Vec::new();
        for profile in self.profiles() {
            for case in &corpus.cases {
                for check in &case.checks {
                    if not_asked(parser, profile, case, check).is_none() {
                        asked.push((profile, case, check, ask(parser, case, check)));
                    }
                }
            }
        }
        let simple = |case: &Case| case.fetch == Fetch::default() && case.robots_url.is_none();
        // The corpus's checks and a sample of their neighbours, asked once when some divergence
        // is to be examined.
        #[cfg(feature = "causes")]
        let mut others = {
            let mut others = robotstxt_oracle::evidence::OtherAnswers::none();
            let divergent = asked
                .iter()
                .any(|(profile, _, check, answer)| !answer.agrees(check.expect[profile]));
            if divergent {
                for (body, agent, url) in crate::causes::questions(corpus) {
                    let answer = ask_one(parser, &body, &agent, &url);
                    let allowed = answer
                        .verdict()
                        .map(|v| v == robotstxt_oracle::Verdict::Allowed);
                    others.push(&body, &agent, &url, allowed);
                }
            }
            others
        };
        let mut out = BTreeMap::new();
        for (profile, case, check, answer) in asked {
            let diverges = !answer.agrees(check.expect[&profile]);
            let found = diverges.then(|| {
                let allowed = match answer {
                    Answer::Allowed => Some(true),
                    Answer::Disallowed => Some(false),
                    _ => None,
                };
                #[cfg(feature = "causes")]
                let cause = allowed.filter(|_| simple(case)).map(|allowed| {
                    let request = crate::verify::request(case, check);
                    let mut ask_neighbours =
                        |neighbours: &[robotstxt_oracle::evidence::Neighbour]| {
                            neighbours
                                .iter()
                                .map(|n| {
                                    let answer = ask_one(parser, &n.body, &n.agent, &n.url);
                                    answer
                                        .verdict()
                                        .map(|v| v == robotstxt_oracle::Verdict::Allowed)
                                })
                                .collect()
                        };
                    crate::causes::credited(
                        profile,
                        &request,
                        allowed,
                        &mut ask_neighbours,
                        &mut [&mut others],
                    )
                    .label
                });
                #[cfg(not(feature = "causes"))]
                let cause: Option<String> = {
                    let _ = (allowed, simple(case));
                    None
                };
                (answer, cause)
            });
            out.insert(test_name(profile, case, check), found);
        }
        out
    }

    /// Rewrites the ledger from the parser's current answers: every divergence listed, reasons
    /// kept where the answer is unchanged, the others marked [`ledger::UNEXPLAINED`]; the corpus
    /// version recorded is this crate's.
    pub fn bless(&self, corpus: &Corpus, parser: &dyn Parser) -> Result<Blessed, String> {
        let path = self.ledger.clone().ok_or_else(|| {
            format!("{BLESS_VAR}=1 but the suite has no ledger file: add .ledger(\"tests/robotstxt-spec.yaml\")")
        })?;
        let old = Ledger::load(&path)?;
        let mut divergences: BTreeMap<String, String> = BTreeMap::new();
        let mut causes: BTreeMap<String, String> = BTreeMap::new();
        let mut crashes = Vec::new();
        for (name, found) in self.divergences_with_causes(corpus, parser) {
            let Some((answer, cause)) = found else {
                continue;
            };
            // A panic (or another failure) is a fault to fix, never a divergence bless accepts:
            // only an entry a person wrote, whose message pattern still matches, stays.
            if answer.is_failure() && !ledger::still_holds(&old.entries, &name, &answer) {
                let what = answer
                    .panic_message()
                    .map_or_else(|| answer.to_string(), str::to_string);
                crashes.push(format!("{name}: {what}"));
                continue;
            }
            if let Some(cause) = cause {
                causes.insert(name.clone(), cause);
            }
            divergences.insert(name, answer.kind().to_string());
        }
        let text = ledger::rewrite(
            &self.name,
            crate::CORPUS_VERSION,
            &old,
            &divergences,
            &causes,
        );
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let unexplained = divergences
            .iter()
            .filter(|(name, kind)| ledger::needs_reason(&old.entries, name, kind))
            .count();
        Ok(Blessed {
            path,
            entries: divergences.len(),
            unexplained,
            crashes,
        })
    }

    /// The trials as libtest-mimic runs them: one per (profile, check), then the ledger's tidy
    /// test.
    pub fn trials(
        &self,
        corpus: &Arc<Corpus>,
        versions: &Arc<CheckVersions>,
        parser: Arc<dyn Parser>,
        ledger: &Arc<Ledger>,
    ) -> Vec<Trial> {
        self.planned(corpus, versions, parser, ledger, &new_counts())
            .into_iter()
            .map(Planned::into_trial)
            .collect()
    }

    /// One planned trial per (profile, check), then the ledger's tidy test.
    fn planned(
        &self,
        corpus: &Arc<Corpus>,
        versions: &Arc<CheckVersions>,
        parser: Arc<dyn Parser>,
        ledger: &Arc<Ledger>,
        counts: &Counts,
    ) -> Vec<Planned> {
        let mut trials = Vec::new();
        let ledger_path: Option<Arc<Path>> = self.ledger.as_deref().map(Arc::from);
        for profile in self.profiles() {
            for (case_index, case) in corpus.cases.iter().enumerate() {
                for (check_index, check) in case.checks.iter().enumerate() {
                    let name = test_name(profile, case, check);
                    let (corpus, parser, ledger) =
                        (Arc::clone(corpus), Arc::clone(&parser), Arc::clone(ledger));
                    let fresh = new_in(versions, &ledger, &format!("{}#{}", case.id, check.number));
                    let (suite, ledger_path) = (self.name.clone(), ledger_path.clone());
                    let counts = Arc::clone(counts);
                    trials.push(Planned::new(name.clone(), move || {
                        let case = &corpus.cases[case_index];
                        let check = &case.checks[check_index];
                        if let Some(why) = not_asked(parser.as_ref(), profile, case, check) {
                            return (Outcome::Ignored(why.reason(profile)), None);
                        }
                        let answer = ask(parser.as_ref(), case, check);
                        count(
                            &counts,
                            profile,
                            &answer,
                            check.expect[&profile],
                            ledger.entries.get(&name),
                        );
                        let outcome = judge(
                            &answer,
                            check.expect[&profile],
                            ledger.entries.get(&name),
                            fresh,
                            ledger_path.as_deref(),
                            &name,
                        );
                        match outcome {
                            Outcome::Fail(advice) => (
                                Outcome::Fail(parser_failure_report(
                                    case, check, profile, &suite, &answer, &advice,
                                )),
                                None,
                            ),
                            // An ignored divergence: its report, for `--ignored`.
                            Outcome::Ignored(reason) => {
                                let report = parser_failure_report(
                                    case,
                                    check,
                                    profile,
                                    &suite,
                                    &answer,
                                    &format!(
                                        "{reason} (shown by --ignored; a plain run ignores it)"
                                    ),
                                );
                                (Outcome::Ignored(reason), Some(report))
                            }
                            Outcome::Pass => (Outcome::Pass, None),
                        }
                    }));
                }
            }
        }
        let askable: std::collections::BTreeSet<String> = {
            let mut names = std::collections::BTreeSet::new();
            for profile in self.profiles() {
                for case in &corpus.cases {
                    for check in &case.checks {
                        if not_asked(parser.as_ref(), profile, case, check).is_none() {
                            names.insert(test_name(profile, case, check));
                        }
                    }
                }
            }
            names
        };
        let ledger = Arc::clone(ledger);
        trials.push(Planned::new("ledger::no-stale-entries".into(), move || {
            let stale: Vec<&String> = ledger
                .entries
                .keys()
                .filter(|k| !askable.contains(*k))
                .collect();
            if stale.is_empty() {
                return (Outcome::Pass, None);
            }
            let failed = Outcome::Fail(format!(
                "stale: {} entries of {} name no check this suite asks (a check the corpus no \
                 longer has, a profile not chosen, or a check the parser cannot be asked); \
                 remove them (or run {BLESS_VAR}=1 cargo test): {}",
                stale.len(),
                ledger.path.display(),
                stale
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            (failed, None)
        }));
        trials
    }
}

/// A trial before it runs: its name and the judgement running it yields. [`Suite::conclude`]
/// hands these to libtest-mimic, [`Suite::outcomes`] runs them without printing, so the two
/// cannot judge differently.
/// Running it gives the outcome and, for a divergence the outcome ignores, its full report (what
/// `--ignored` shows).
struct Planned {
    name: String,
    run: PlannedRun,
}

/// What running a planned trial gives: its outcome, and the report of an ignored divergence.
type PlannedRun = Box<dyn FnOnce() -> (Outcome, Option<String>) + Send>;

impl Planned {
    fn new(
        name: String,
        run: impl FnOnce() -> (Outcome, Option<String>) + Send + 'static,
    ) -> Planned {
        Planned {
            name,
            run: Box::new(run),
        }
    }

    /// A trial that fails with `message` (a corpus or ledger that cannot be used).
    fn failing(name: &str, message: String) -> Planned {
        Planned::new(name.to_string(), move || (Outcome::Fail(message), None))
    }

    fn into_trial(self) -> Trial {
        let run = self.run;
        Trial::ignorable_test(self.name, move || match run().0 {
            Outcome::Pass => Ok(Completion::Completed),
            Outcome::Ignored(reason) => Ok(Completion::ignored_with(reason)),
            Outcome::Fail(message) => Err(Failed::from(message)),
        })
    }
}

#[cfg(test)]
mod preference_tests {
    use super::*;

    /// A parser that answers a preference where a verdict is asked answered another question: an
    /// error naming it, never a verdict nor a silent pass.
    #[test]
    fn a_preference_answered_to_a_verdict_check_is_an_error() {
        let parser = |_: &[u8], _: &str, _: &str| Answer::Preference {
            preference: robotstxt_oracle::aipref::Preference::N,
        };
        let answer = crate::ask::ask_one(&parser, b"User-agent: *\n", "bot", "http://example.com/");
        assert!(answer.is_failure(), "{answer}");
        assert!(
            answer.to_string().contains("answered a preference (n)"),
            "{answer}"
        );
    }
}
