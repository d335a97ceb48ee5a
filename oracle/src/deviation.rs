//! Named deviations (`docs/deviations.md`): behaviours real parsers show that no document permits.
//!
//! The knobs of [`crate::profile`] are the places where the documents disagree or leave a choice
//! open; a deviation is a reading that every document rules out, yet parsers in use read that way.
//! Each has a stable id (`D-typo-fields`), a one-line description, the sentences it breaks, and an
//! implementation as an alternative reading in the step module it changes, switched by the
//! [`Deviations`] set carried in [`crate::Knobs`]. No profile's base reading, and none of the
//! alternatives a profile leaves open, ever holds a deviation: they exist so that a tool can ask
//! "under deviation D, what would the verdict be?" (the fuzzer's causes, fingerprints, ledger ids),
//! never to answer for a document ([`crate::verdict_deviating`]).
//!
//! Where a step allows a deviation, it is a layer around the step's function in the step's module,
//! named `_deviating` (`body::split_lines_deviating`, `line::classify_deviating`,
//! `group::build_groups_deviating`, `select::select_deviating`,
//! `url::normalised_target_deviating`, `pattern::Pattern::compile_deviating`,
//! `encoding::normalise_deviating`, `decide::decide_deviating` and `decide::allows_deviating`):
//! a check before the step, a synthetic line given to it, or a rewritten line, group, value,
//! target or rule list; under no deviation it is the step itself. The steps' own functions read
//! no deviation (`tests/oracle_modules.rs` checks it for the lines, selection, the target, patterns
//! and the decision). The memo and the literal mode both call the `_deviating` forms, so a reading's
//! deviations are honoured in every step. Each step's projection of the knobs keeps
//! the deviations it reads ([`STEPS`]: [`BODY`], [`LINE`], [`GROUP`], [`SELECT`], [`TARGET`],
//! [`PATTERN`]).

use serde::Serialize;

/// One named deviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Deviation {
    /// Step 1: the size limit cuts at the last line end within it.
    SizeCutAtLineEnd,
    /// Step 1: only LF ends a line.
    LfOnlyLines,
    /// Step 1: only LF ends a line, and every CR stays in its line.
    CrKeptInLines,
    /// Step 1: a NUL octet ends a line.
    NulEndsLine,
    /// Step 2: a field name that begins with a field's name is that field.
    FieldPrefix,
    /// Step 2: frequent misspellings of the field names are the fields.
    TypoFields,
    /// Step 2: white space instead of the colon between a field and a one-word value.
    SpaceForColon,
    /// Step 2: a vertical tab or form feed is trimmed from values like white space.
    VerticalTabTrimmed,
    /// Step 2: a line with neither a colon nor a comment is a blank line.
    NoColonLineIsBlank,
    /// Step 3: a line with no colon makes the whole file unreadable, read as empty.
    InvalidLineRejectsFile,
    /// Step 3: any other `field: value` line ends the run of user-agent lines.
    OtherLineEndsAgents,
    /// Step 3: any other `field: value` line but `Sitemap` and `Host` ends the run of user-agent
    /// lines.
    GroupLineEndsAgents,
    /// Step 3: rules before the first user-agent line apply to every crawler.
    RulesBeforeAgentsForAll,
    /// Step 4: an empty `User-agent:` value matches every crawler, as `*` does.
    EmptyAgentMatchesAll,
    /// Step 4: an empty `User-agent:` value is a name every crawler's name matches.
    EmptyAgentNamesAll,
    /// Step 4: a user-agent value names every crawler whose name contains it.
    AgentSubstring,
    /// Step 5: the URL's fragment is part of the match target.
    FragmentKept,
    /// Step 5: an empty URL path is matched as empty, not as `/`.
    EmptyPathNotSlash,
    /// Steps 5 and 6a: non-ASCII octets of the URL are compared raw (never percent-encoded).
    UrlNonAsciiRaw,
    /// Steps 5 and 6a: a `*` or `$` in the URL is compared raw, so `%2A` / `%24` never meet it.
    UrlSpecialsRaw,
    /// Steps 5 and 6a: `%xx` hex digits are upper-cased in rules only, never in the URL.
    EscapeCaseRulesOnly,
    /// Steps 5 and 6a: every `%xx`, reserved or not (`%2F` included), is decoded on both sides.
    DecodeReserved,
    /// Steps 5 and 6a: paths compare without regard to ASCII case.
    CaseInsensitivePaths,
    /// Step 6: a rule's value that does not begin with `/` is read as if `/` preceded it.
    SlashlessRuleRooted,
    /// Step 6: after a `*`, the next piece is tried only where its first octet first appears.
    NoBacktracking,
    /// Step 6: every `$` anchors the end, and what follows it is dropped.
    DollarAnywhere,
    /// Step 7: `*` and `$` are left out of a rule's length.
    WildcardsOutOfLength,
    /// Step 7: a rule's length is its value as written, before any decoding.
    RawLength,
    /// Step 7: an empty `Disallow:` is read as `Allow: /`.
    EmptyDisallowAllowsAll,
    /// Step 7: an empty `Disallow:` clears every rule collected before it.
    EmptyDisallowClears,
    /// Step 7: an empty rule reached, in file order, before any rule that matches allows the URL.
    EmptyRuleAllowsRest,
    /// Steps 6 and 7: `Allow: /dir/index.html` also allows the directory `/dir/` itself.
    IndexHtmlAllowsDirectory,
    /// Step 3: a file outside a strict record grammar is unreadable, read as empty.
    RecordGrammarRejectsFile,
}

/// What one deviation is, for the catalogue.
pub struct Entry {
    /// The stable id (`D-typo-fields`).
    pub id: &'static str,
    /// One line.
    pub summary: &'static str,
    /// The sentences it breaks, as citation ids with the words at stake.
    pub breaks: &'static [&'static str],
}

impl Deviation {
    /// Every deviation, in catalogue order (the order searches try them).
    pub const ALL: [Deviation; 33] = [
        Deviation::TypoFields,
        Deviation::FieldPrefix,
        Deviation::SpaceForColon,
        Deviation::OtherLineEndsAgents,
        Deviation::GroupLineEndsAgents,
        Deviation::RulesBeforeAgentsForAll,
        Deviation::VerticalTabTrimmed,
        Deviation::NoColonLineIsBlank,
        Deviation::InvalidLineRejectsFile,
        Deviation::RecordGrammarRejectsFile,
        Deviation::EmptyAgentMatchesAll,
        Deviation::EmptyAgentNamesAll,
        Deviation::AgentSubstring,
        Deviation::SizeCutAtLineEnd,
        Deviation::LfOnlyLines,
        Deviation::CrKeptInLines,
        Deviation::NulEndsLine,
        Deviation::SlashlessRuleRooted,
        Deviation::NoBacktracking,
        Deviation::DollarAnywhere,
        Deviation::WildcardsOutOfLength,
        Deviation::RawLength,
        Deviation::CaseInsensitivePaths,
        Deviation::DecodeReserved,
        Deviation::EscapeCaseRulesOnly,
        Deviation::UrlNonAsciiRaw,
        Deviation::UrlSpecialsRaw,
        Deviation::FragmentKept,
        Deviation::EmptyPathNotSlash,
        Deviation::EmptyDisallowAllowsAll,
        Deviation::EmptyDisallowClears,
        Deviation::EmptyRuleAllowsRest,
        Deviation::IndexHtmlAllowsDirectory,
    ];

    /// The catalogue entry.
    pub fn entry(self) -> Entry {
        let (id, summary, breaks): (&str, &str, &[&str]) = match self {
            Deviation::LfOnlyLines => (
                "D-lf-only-lines",
                "only LF ends a line: a lone CR is an octet of the line (and of its value), a CR before LF is dropped",
                &["rfc9309#2.2: `NL = %x0D / %x0A / %x0D.0A`", "draft-1996#3.3: CR, LF or CRLF end a line"],
            ),
            Deviation::InvalidLineRejectsFile => (
                "D-invalid-line-rejects-file",
                "one line that is not `name: value` (no colon, or a field that is not a name of letters, digits, `-` and `_`; blank lines and comments aside) makes the whole file unreadable, so nothing is excluded (a strict grammar's parse error)",
                &[
                    "rfc9309#2.2: lines that fail to parse are ignored, the rest still apply",
                    "google#syntax: invalid lines are ignored",
                    "draft-1996#4.2: robustness in parsing",
                    "norobots-1994#format: \"Нераспознанные строки игнорируются\" (unrecognised lines are ignored)",
                ],
            ),
            Deviation::RecordGrammarRejectsFile => (
                "D-record-grammar-rejects-file",
                "a file whose lines are not records of user-agent lines followed by rule and other `field: value` lines, blank lines between records, is unreadable, so nothing is excluded: a user-agent line right after a rule or other field line (`Crawl-delay`, `Content-Usage`, `Content-Signal`, an unknown field; comments and `Sitemap` lines aside), or such a line before the first user-agent line of the file or of a record, is a parse error (a strict record grammar; rule lines alone after a blank line are dropped)",
                &[
                    "rfc9309#2.2: a group is one or more user-agent lines followed by rules, and lines that fail to parse are ignored, the rest still apply",
                    "rfc9309#2.2.4: other records MUST NOT interfere with the groups (\"parsing of other records\")",
                    "google#grouping: a new group starts at a user-agent line after rules; google#syntax: invalid lines are ignored",
                    "draft-1996#4.2: robustness in parsing",
                ],
            ),
            Deviation::CrKeptInLines => (
                "D-cr-kept-in-lines",
                "only LF ends a line, and every CR (a lone one or one before LF) stays an octet of the line and of its value, so `User-agent: *<CR><LF>` names no `*`",
                &["rfc9309#2.2: `NL = %x0D / %x0A / %x0D.0A`", "draft-1996#3.3: CR, LF or CRLF end a line"],
            ),
            Deviation::NulEndsLine => (
                "D-nul-ends-line",
                "a NUL octet ends the line, as where a line is read as a C string (the rest becomes a line of its own)",
                &["rfc9309#2.2: `NL = %x0D / %x0A / %x0D.0A` (NUL is an octet of the line)"],
            ),
            Deviation::FieldPrefix => (
                "D-field-prefix",
                "a field name that begins with a field's name is that field (`Disallowed: /a`, `User-agents: x`)",
                &[
                    "rfc9309#2.2: the ABNF's \"user-agent\", \"allow\" and \"disallow\" literals, then `*WS \":\"`",
                    "google#syntax: valid fields are user-agent, allow, disallow, sitemap",
                ],
            ),
            Deviation::TypoFields => (
                "D-typo-fields",
                "field names beginning with a frequent misspelling (`useragent`, `user agent`, `disalow`, `dissallow`, `dissalow`, `diasllow`, `disallaw`) are read as the fields",
                &[
                    "rfc9309#2.2: the ABNF's \"user-agent\", \"allow\" and \"disallow\" literals",
                    "rfc9309#2.2.4: other records are not part of the protocol",
                    "google#syntax: valid fields are user-agent, allow, disallow, sitemap",
                ],
            ),
            Deviation::SpaceForColon => (
                "D-space-for-colon",
                "a line of exactly two words, a field and a value (`Disallow /a`, `Content-Usage train-ai=n`), is read as if a colon stood between them, whatever the field",
                &[
                    "rfc9309#2.2: `*WS \":\" *WS` between field and value",
                    "google#syntax: `<field>:<value>`",
                    "draft-1996#3.3, norobots-1994#format: `<field>:<value>`",
                ],
            ),
            Deviation::OtherLineEndsAgents => (
                "D-other-line-ends-agents",
                "a line other than user-agent and the rules (`Crawl-delay`, `Sitemap`, an unknown field) ends the run of user-agent lines, so a user-agent line after it starts a new group",
                &["rfc9309#2.2.4: other records MUST NOT interfere with the groups (\"parsing of other records\")"],
            ),
            Deviation::GroupLineEndsAgents => (
                "D-group-line-ends-agents",
                "a line other than user-agent, the rules, `Sitemap` and `Host` (`Crawl-delay`, `Content-Usage`, `Content-Signal`, an unknown field) ends the run of user-agent lines, so a user-agent line after it starts a new group; a `Sitemap` (also spelt `Sitemaps`, `Site-map`) or `Host` line does not",
                &["rfc9309#2.2.4: other records MUST NOT interfere with the groups (\"parsing of other records\")"],
            ),
            Deviation::RulesBeforeAgentsForAll => (
                "D-rules-before-agents-for-all",
                "rules before the first user-agent line form a group for every crawler, as if `User-agent: *` stood above them",
                &["rfc9309#2.2.2, google#grouping: rules outside a group are ignored (K2 in every profile)"],
            ),
            Deviation::VerticalTabTrimmed => (
                "D-vertical-tab-trimmed",
                "a vertical tab or form feed at either end of a value is trimmed like white space (so `*` and a vertical tab is the star)",
                &[
                    "rfc9309#2.2: `WS = %x20 / %x09`",
                    "draft-1996#3.3: white space is a space or a tab",
                ],
            ),
            Deviation::NoColonLineIsBlank => (
                "D-no-colon-line-is-blank",
                "a line with neither a colon nor a comment (`Disallow /a`, stray text) is read as a blank line, so under blank-line records it ends the record",
                &[
                    "norobots-1994#format: \"Нераспознанные строки игнорируются\" (unrecognised lines are ignored); records are separated by \"пустыми строками\" (empty lines)",
                    "draft-1996#3.2: records \"separated by blank lines\"; 3.3: `blank = *space CRLF`",
                    "rfc9309#2.3.1.5: \"Crawlers MUST try to parse each line\" and \"MUST use the parseable rules\"",
                ],
            ),
            Deviation::EmptyAgentMatchesAll => (
                "D-empty-agent-matches-all",
                "an empty `User-agent:` value matches every crawler, as `*` does",
                &[
                    "rfc9309#2.2: `startgroupline = *WS \"user-agent\" *WS \":\" *WS product-token EOL` (a token is not empty); 2.2.1: crawlers without a matching group obey the group with the \"*\" value",
                    "draft-1996#3.2.1: the line \"specifies a simple name for a robot, or \"*\"\"",
                    "norobots-1994#format: only the value \"*\" applies to \"любых поисковых роботов\" (any robots)",
                ],
            ),
            Deviation::EmptyAgentNamesAll => (
                "D-empty-agent-names-all",
                "an empty `User-agent:` value is a name that every crawler's name contains, so its record applies as one naming the crawler (before any `*` record)",
                &[
                    "rfc9309#2.2: `product-token` is not empty; rfc9309#2.2.1: a group matches the crawler's product token",
                    "draft-1996#3.2.1: the line \"specifies a simple name for a robot, or \"*\"\"",
                    "norobots-1994#format: the value is \"имя поискового робота\" (the robot's name)",
                ],
            ),
            Deviation::AgentSubstring => (
                "D-agent-substring",
                "a user-agent value names every crawler whose name contains it, case aside (`bot` names Spambot and Bottom-Feeder): HTTP: The Definitive Guide's account of the 1996 rules, which the draft's own words exclude",
                &[
                    "rfc9309#2.2.1: crawlers find \"the group that matches the product token\"",
                    "google#user-agent-precedence: \"Even if there is an entry for a related crawler, it is only valid if it's specifically matching\"",
                    "draft-1996#3.2.1: the robot scans \"for records with: User-agent: figtree\", its own name; \"The name comparisons are case-insensitive\"",
                    "norobots-1994#format: the value is \"имя поискового робота\" (the robot's name)",
                ],
            ),
            Deviation::SizeCutAtLineEnd => (
                "D-size-cut-at-line-end",
                "a body over the size limit is cut at the last line end within the limit, dropping the whole line that crosses it",
                &["google#file-format: content after the maximum file size is ignored (the content before it is read)"],
            ),
            Deviation::SlashlessRuleRooted => (
                "D-slashless-rule-rooted",
                "a rule's value that does not begin with `/` is matched, and counted, as if `/` preceded it (`Disallow: p` covers `/p`)",
                &[
                    "rfc9309#2.2: `path-pattern = \"/\" *UTF8-char-noctl`; rfc9309#2.2.2: \"The matching MUST start with the first octet of the path\"",
                    "google#url-matching: \"The path value must start with `/` to designate the root\"",
                ],
            ),
            Deviation::NoBacktracking => (
                "D-no-backtracking",
                "after a `*`, the next piece of the pattern is tried only where its first octet first occurs (`/*/secret/` does not match `/a/b/secret/`)",
                &["rfc9309#2.2.3: `*` designates 0 or more instances of any character"],
            ),
            Deviation::DollarAnywhere => (
                "D-dollar-anywhere",
                "every `$` in a pattern anchors the end and the rest of the pattern is dropped (`/a$b` acts as `/a$`)",
                &["rfc9309#2.2.3: `$` designates the end of the match pattern (K6 reads a `$` elsewhere literally, or as never matching)"],
            ),
            Deviation::WildcardsOutOfLength => (
                "D-wildcards-out-of-length",
                "`*` and `$` are left out of a rule's length, so `Disallow: /*.htm` only ties with `Allow: /page`",
                &["rfc9309#2.2.2: the most specific match is the match that has the most octets", "google#url-matching: length of the path entry"],
            ),
            Deviation::RawLength => (
                "D-raw-length",
                "a rule's length is that of its value as written, before `%xx` is decoded, so `Disallow: /%61b` outranks `Allow: /abc`",
                &["rfc9309#2.2.2: octets are compared, and counted, after percent-encoding is normalised"],
            ),
            Deviation::CaseInsensitivePaths => (
                "D-case-insensitive-paths",
                "paths compare without regard to ASCII case, so `Disallow: /tmp` covers `/TMP/a`",
                &[
                    "rfc9309#2.2.2: the matching SHOULD be case sensitive",
                    "google#url-matching: the value is case-sensitive",
                    "draft-1996#3.2.2: octet by octet comparison",
                ],
            ),
            Deviation::DecodeReserved => (
                "D-decode-reserved",
                "every `%xx` is decoded before comparing, reserved characters included, so `%2F` equals `/` and `%3A` equals `:`",
                &[
                    "rfc9309#2.2.2: an escape is unencoded unless it is a reserved character",
                    "draft-1996#3.2.2: except %2F",
                ],
            ),
            Deviation::EscapeCaseRulesOnly => (
                "D-escape-case-rules-only",
                "`%xx` hex digits are upper-cased in rules but not in the URL, so `/a%3cd` never matches the identically spelled URL",
                &["rfc9309#2.2.2 (RFC 3986 2.1): the case of an escape's hex digits does not matter"],
            ),
            Deviation::UrlNonAsciiRaw => (
                "D-url-non-ascii-raw",
                "non-ASCII octets are percent-encoded in rules only, never in the URL, so a raw UTF-8 URL never matches",
                &[
                    "rfc9309#2.2.2: octets outside ASCII MUST be percent-encoded prior to comparison",
                    "google#url-matching: non-ASCII characters are matched as UTF-8 or percent-encoded",
                ],
            ),
            Deviation::UrlSpecialsRaw => (
                "D-url-specials-raw",
                "a raw `*` or `$` in the URL is not percent-encoded, so a rule's `%2A` / `%24` never matches it",
                &["rfc9309#2.2.3: to match the characters themselves a rule percent-encodes them (Figure 6)"],
            ),
            Deviation::FragmentKept => (
                "D-fragment-kept",
                "the URL's fragment (`#...`) stays in the text matched, so `/page$` does not match `/page#top`",
                &["rfc9309#2.2.2: rules match the URI's path (RFC 3986 3.5: the fragment is not sent)"],
            ),
            Deviation::EmptyPathNotSlash => (
                "D-empty-path-not-slash",
                "an empty URL path is matched as the empty string rather than `/`, so `Disallow: /` does not cover `https://example.com`",
                &["rfc9309#2.2.2: the matching starts with the first octet of the path (RFC 3986 6.2.3: an empty path is `/`)"],
            ),
            Deviation::EmptyDisallowAllowsAll => (
                "D-empty-disallow-allows-all",
                "an empty `Disallow:` is read as `Allow: /`, a rule that matches (nearly) every URL and, first or tied, allows it",
                &[
                    "rfc9309#2.2: `empty-pattern` (a rule with no path matches nothing)",
                    "google#disallow: an empty value is ignored",
                ],
            ),
            Deviation::EmptyDisallowClears => (
                "D-empty-disallow-clears",
                "an empty `Disallow:` clears every rule collected before it for the crawler, from its own record and others",
                &[
                    "norobots-1994#format: an empty value means the whole site may be indexed, lifting no other record's line",
                    "rfc9309#2.2.1: matching groups' rules MUST be combined",
                ],
            ),
            Deviation::EmptyRuleAllowsRest => (
                "D-empty-rule-allows-rest",
                "walking the rules in file order, an empty `Allow:` or `Disallow:` reached before any rule that matches allows the URL, whatever rules follow it",
                &[
                    "rfc9309#2.2: `empty-pattern` (a rule with no path matches nothing); rfc9309#2.2.2: the most specific match decides",
                    "norobots-1994#format: \"любой URL, начинающийся с такого пути не должен индексироваться\" (any URL starting with such a path must not be indexed), whatever line stands before it",
                    "draft-1996#3.2.2: \"The first match found is used\" (an empty `Disallow:` that comes first is a disallow line, not an allow)",
                ],
            ),
            Deviation::IndexHtmlAllowsDirectory => (
                "D-index-html-allows-directory",
                "an `Allow` that does not match, whose value from its last `/` begins with `/index.htm` (`Allow: /dir/index.html`), is tried again as the directory alone, as if `Allow: /dir/$` followed it, so `/dir/` is allowed (Google's C++ `RobotsMatcher::HandleAllow`, upstream `robots.cc` at de56676)",
                &[
                    "rfc9309#2.2.2: \"The matching MUST start with the first octet of the path\" (`/dir/` does not begin with `/dir/index.html`)",
                    "google#url-matching: `/*.php` does not match `/` \"(even if it maps to /index.php)\"",
                ],
            ),
        };
        Entry {
            id,
            summary,
            breaks,
        }
    }

    /// The stable id (`D-typo-fields`).
    pub fn id(self) -> &'static str {
        self.entry().id
    }

    /// The deviation whose id is `id`.
    pub fn from_id(id: &str) -> Option<Deviation> {
        Deviation::ALL.into_iter().find(|d| d.id() == id)
    }

    fn bit(self) -> u64 {
        1 << (self as u64)
    }
}

/// A set of deviations, carried with the knobs of a reading ([`crate::Knobs::deviations`]); empty in
/// every profile's readings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Deviations(u64);

impl Deviations {
    /// No deviation: every profile's readings.
    pub const NONE: Deviations = Deviations(0);

    /// The set holding only `deviation`.
    pub fn of(deviation: Deviation) -> Deviations {
        Deviations(deviation.bit())
    }

    /// This set with `deviation` added.
    pub fn with(self, deviation: Deviation) -> Deviations {
        Deviations(self.0 | deviation.bit())
    }

    /// Whether `deviation` is in the set.
    pub fn has(self, deviation: Deviation) -> bool {
        self.0 & deviation.bit() != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The deviations of the set that are among `step`'s (what one step's projection keeps).
    pub fn only(self, step: &[Deviation]) -> Deviations {
        Deviations(self.0 & step.iter().fold(0, |all, d| all | d.bit()))
    }

    /// The deviations in this set or in `other`.
    pub fn union(self, other: Deviations) -> Deviations {
        Deviations(self.0 | other.0)
    }

    /// The deviations of the set that are also in `other`.
    pub fn only_in(self, other: Deviations) -> Deviations {
        Deviations(self.0 & other.0)
    }

    /// The deviations in the set, in catalogue order.
    pub fn iter(self) -> impl Iterator<Item = Deviation> {
        Deviation::ALL.into_iter().filter(move |&d| self.has(d))
    }
}

/// Whether `field` is a field name as a strict grammar reads one (D-invalid-line-rejects-file): not
/// empty, only letters, digits, `-` and `_`.
pub fn is_field_name(field: &[u8]) -> bool {
    !field.is_empty()
        && field
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Every step's deviations, one list per step.
pub const STEPS: [&[Deviation]; 6] = [BODY, LINE, GROUP, SELECT, TARGET, PATTERN];

/// The deviations step 1 reads (`crate::body`).
pub const BODY: &[Deviation] = &[
    Deviation::SizeCutAtLineEnd,
    Deviation::LfOnlyLines,
    Deviation::CrKeptInLines,
    Deviation::NulEndsLine,
];
/// The deviations step 2 reads (`crate::line`).
pub const LINE: &[Deviation] = &[
    Deviation::TypoFields,
    Deviation::FieldPrefix,
    Deviation::SpaceForColon,
    Deviation::VerticalTabTrimmed,
    Deviation::NoColonLineIsBlank,
];
/// The deviations step 3 reads (`crate::group`), its lines' included.
pub const GROUP: &[Deviation] = &[
    Deviation::TypoFields,
    Deviation::FieldPrefix,
    Deviation::SpaceForColon,
    Deviation::VerticalTabTrimmed,
    Deviation::NoColonLineIsBlank,
    Deviation::OtherLineEndsAgents,
    Deviation::GroupLineEndsAgents,
    Deviation::RulesBeforeAgentsForAll,
    Deviation::InvalidLineRejectsFile,
    Deviation::RecordGrammarRejectsFile,
];
/// The deviations selection reads (`crate::select`).
pub const SELECT: &[Deviation] = &[
    Deviation::EmptyAgentMatchesAll,
    Deviation::EmptyAgentNamesAll,
    Deviation::AgentSubstring,
];
/// The deviations the match target reads (`crate::url`, `crate::encoding`).
pub const TARGET: &[Deviation] = &[
    Deviation::FragmentKept,
    Deviation::EmptyPathNotSlash,
    Deviation::UrlNonAsciiRaw,
    Deviation::UrlSpecialsRaw,
    Deviation::EscapeCaseRulesOnly,
    Deviation::DecodeReserved,
    Deviation::CaseInsensitivePaths,
];
/// The deviations compiling a pattern reads (`crate::pattern`, `crate::encoding`).
pub const PATTERN: &[Deviation] = &[
    Deviation::SlashlessRuleRooted,
    Deviation::EscapeCaseRulesOnly,
    Deviation::DecodeReserved,
    Deviation::CaseInsensitivePaths,
    Deviation::NoBacktracking,
    Deviation::DollarAnywhere,
];

#[cfg(test)]
mod tests {
    use super::*;

    use crate::knobs::ProfileId;
    use crate::{verdict, verdict_deviating, Request, Verdict};

    /// One example per deviation (the ones `docs/deviations.md` shows): under `profile`, the
    /// verdict without the deviation, then with it.
    type Example = (
        Deviation,
        ProfileId,
        &'static [u8],
        &'static str,
        Verdict,
        Verdict,
    );

    const EXAMPLES: &[Example] = {
        use Deviation::*;
        use ProfileId::*;
        use Verdict::{Allowed as A, Disallowed as D, Either as E};
        &[
            (
                TypoFields,
                Rfc9309,
                b"User-agent: *\nDisalow: /a\n",
                "/a",
                A,
                D,
            ),
            (
                SpaceForColon,
                Rfc9309,
                b"User-agent: *\nDisallow /a\n",
                "/a",
                A,
                D,
            ),
            (
                OtherLineEndsAgents,
                Rfc9309,
                b"User-agent: FooBot\nCrawl-delay: 5\nUser-agent: OtherBot\nDisallow: /a\n",
                "/a",
                D,
                A,
            ),
            (
                GroupLineEndsAgents,
                Rfc9309,
                b"User-agent: FooBot\nContent-Usage: train-ai=n\nUser-agent: OtherBot\nDisallow: /a\n",
                "/a",
                D,
                A,
            ),
            (
                RulesBeforeAgentsForAll,
                Rfc9309,
                b"Disallow: /a\n",
                "/a",
                A,
                D,
            ),
            (
                VerticalTabTrimmed,
                Original1994,
                b"User-agent: *\x0B\nDisallow: /a\n",
                "/a",
                A,
                D,
            ),
            (
                NoColonLineIsBlank,
                Original1994,
                b"User-agent: FooBot\nstray text\nDisallow: /a\n",
                "/a",
                D,
                A,
            ),
            (
                InvalidLineRejectsFile,
                Google,
                b"User-agent: *\nDisallow: /a\nstray text\n",
                "/a",
                D,
                A,
            ),
            (
                RecordGrammarRejectsFile,
                Google,
                b"User-agent: *\nContent-Usage: train-ai=n\nUser-agent: FooBot\nDisallow: /a\n",
                "/a",
                D,
                A,
            ),
            (
                CrKeptInLines,
                Google,
                b"User-agent: *\r\nDisallow: /a\r\n",
                "/a",
                D,
                A,
            ),
            (
                EmptyAgentMatchesAll,
                Rfc9309,
                b"User-agent:\nDisallow: /a\n",
                "/a",
                A,
                D,
            ),
            (
                EmptyAgentNamesAll,
                Rfc9309,
                b"User-agent: *\nDisallow: /a\n\nUser-agent:\nAllow: /a\n",
                "/a",
                D,
                A,
            ),
            (
                AgentSubstring,
                Draft1996,
                b"User-agent: bot\nDisallow: /a\n",
                "/a",
                A,
                D,
            ),
            (
                SlashlessRuleRooted,
                Rfc9309,
                b"User-agent: *\nDisallow: p\n",
                "/p",
                A,
                D,
            ),
            (
                EmptyRuleAllowsRest,
                Original1994,
                b"User-agent: *\nDisallow:\nDisallow: /a\n",
                "/a",
                D,
                A,
            ),
            (
                NoBacktracking,
                Rfc9309,
                b"User-agent: *\nDisallow: /*/secret/\n",
                "/a/b/secret/",
                D,
                A,
            ),
            (
                DollarAnywhere,
                Rfc9309,
                b"User-agent: *\nDisallow: /a$b\n",
                "/a",
                A,
                D,
            ),
            (
                WildcardsOutOfLength,
                Google,
                b"User-agent: *\nDisallow: /*.htm\nAllow: /page\n",
                "/page.htm",
                D,
                A,
            ),
            (
                RawLength,
                Rfc9309,
                b"User-agent: *\nDisallow: /%61b\nAllow: /abc\n",
                "/abc",
                A,
                // Under the reading that decodes the rule's `%61` (K7 `escape-spellings`, open);
                // under the other, `/%61b` matches nothing.
                E,
            ),
            (
                CaseInsensitivePaths,
                Rfc9309,
                b"User-agent: *\nDisallow: /tmp\n",
                "/TMP/a",
                A,
                D,
            ),
            (
                DecodeReserved,
                Rfc9309,
                b"User-agent: *\nDisallow: /a%2Fb\n",
                "/a/b",
                A,
                D,
            ),
            (
                EscapeCaseRulesOnly,
                Google,
                b"User-agent: *\nDisallow: /a%3cd\n",
                "/a%3cd",
                D,
                A,
            ),
            (
                UrlNonAsciiRaw,
                Google,
                b"User-agent: *\nDisallow: /\xC3\xBC\n",
                "/\u{fc}",
                D,
                A,
            ),
            (
                UrlSpecialsRaw,
                Rfc9309,
                b"User-agent: *\nDisallow: /a%2A\n",
                "/a*",
                D,
                A,
            ),
            (
                FragmentKept,
                Rfc9309,
                b"User-agent: *\nDisallow: /page$\n",
                "/page#top",
                D,
                A,
            ),
            (
                EmptyPathNotSlash,
                Rfc9309,
                b"User-agent: *\nDisallow: /\n",
                "https://example.com",
                D,
                A,
            ),
            (
                EmptyDisallowAllowsAll,
                Draft1996,
                b"User-agent: *\nDisallow:\nDisallow: /a\n",
                "/a",
                D,
                A,
            ),
            (
                EmptyDisallowClears,
                Original1994,
                b"User-agent: FooBot\nDisallow: /a\nDisallow:\n",
                "/a",
                D,
                A,
            ),
            (
                IndexHtmlAllowsDirectory,
                Google,
                b"User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n",
                "/dir/",
                D,
                A,
            ),
        ]
    };

    #[test]
    fn each_deviation_changes_its_example_and_no_profile_reads_it() {
        for &(deviation, profile, body, url, without, with) in EXAMPLES {
            let request = Request::new(body, "FooBot", url);
            assert_eq!(verdict(profile, &request), without, "{}", deviation.id());
            assert_eq!(
                verdict_deviating(profile, Deviations::NONE, &request),
                without,
                "{}",
                deviation.id()
            );
            assert_eq!(
                verdict_deviating(profile, Deviations::of(deviation), &request),
                with,
                "{} under {}",
                deviation.id(),
                profile.name()
            );
        }
    }

    #[test]
    fn an_index_page_allows_its_directory_alone_and_counts_as_the_directory() {
        // What Google's C++ `RobotsMatcher::HandleAllow` does (robots.cc at upstream de56676): an
        // Allow that does not match, whose value from its last `/` starts with `/index.htm`, is
        // tried again as `<value up to that slash>$`, with that pattern's length as its priority.
        let index = Deviations::of(Deviation::IndexHtmlAllowsDirectory);
        let google = ProfileId::Google;
        let ask = |body: &[u8], url: &str| {
            let request = Request::new(body, "FooBot", url);
            (
                verdict(google, &request),
                verdict_deviating(google, index, &request),
            )
        };
        use Verdict::{Allowed as A, Disallowed as D};
        let body = b"User-agent: *\nDisallow: /dir/\nAllow: /dir/index.htm\n";
        assert_eq!(ask(body, "/dir/"), (D, A));
        // Only the directory itself: `$` anchors it.
        assert_eq!(ask(body, "/dir/other"), (D, D));
        assert_eq!(ask(body, "/dir/?q=1"), (D, D));
        // `index.html5` and `index.htmx` still begin with `/index.htm`.
        let body = b"User-agent: *\nDisallow: /\nAllow: /a/b/index.htmx\n";
        assert_eq!(ask(body, "/a/b/"), (D, A));
        assert_eq!(ask(body, "/a/"), (D, D));
        // Case matters, a Disallow is left alone, and the directory is `/dir/$` in length: a
        // longer Disallow still wins.
        assert_eq!(
            ask(
                b"User-agent: *\nDisallow: /d/\nAllow: /d/INDEX.html\n",
                "/d/"
            ),
            (D, D)
        );
        assert_eq!(
            ask(b"User-agent: *\nDisallow: /d/index.html\n", "/d/"),
            (A, A)
        );
        assert_eq!(
            ask(
                b"User-agent: *\nDisallow: /d/$\nAllow: /d/index.html\n",
                "/d/"
            ),
            (D, A),
            "a tie between `/d/$` and `/d/$`: the allow wins"
        );
        assert_eq!(
            ask(
                b"User-agent: *\nDisallow: /d/\nDisallow: /d/$x\nAllow: /d/index.html\n",
                "/d/"
            ),
            (D, A)
        );
        assert_eq!(
            ask(
                b"User-agent: *\nDisallow: /d/*\nAllow: /d/index.html\n",
                "/d/"
            ),
            (D, A),
            "`/d/*` is as long as `/d/$`: a tie, the allow wins"
        );
        assert_eq!(
            ask(
                b"User-agent: *\nDisallow: /*di*r/\nAllow: /dir/index.html\n",
                "/dir/"
            ),
            (D, D),
            "`/*di*r/` (7 octets) is longer than `/dir/$` (6)"
        );
        // The root through `/index.html`; a value with no `/` gives nothing.
        assert_eq!(
            ask(b"User-agent: *\nDisallow: /\nAllow: /index.html\n", "/"),
            (D, A)
        );
        assert_eq!(
            ask(b"User-agent: *\nDisallow: /\nAllow: index.html\n", "/"),
            (D, D)
        );
    }

    #[test]
    fn a_size_cut_at_the_line_end_drops_the_straddling_line() {
        let limit = crate::knobs::FIVE_HUNDRED_KIB;
        let mut body = b"User-agent: *\n#".to_vec();
        let rule = b"\nDisallow: /a";
        body.resize(limit - rule.len(), b'x');
        body.extend_from_slice(rule);
        body.extend_from_slice(b"bc\n");
        let request = Request::new(&body, "FooBot", "/a");
        let google = ProfileId::Google;
        assert_eq!(verdict(google, &request), Verdict::Disallowed);
        let cut = Deviations::of(Deviation::SizeCutAtLineEnd);
        assert_eq!(verdict_deviating(google, cut, &request), Verdict::Allowed);
    }

    #[test]
    fn no_profile_reading_holds_a_deviation() {
        // The base reading and every alternative each profile leaves open, for an input holding
        // everything the knobs are about: none carries a deviation.
        for profile in ProfileId::ALL {
            let base = profile.base_knobs();
            assert!(base.deviations.is_empty(), "{}", profile.name());
            for knob in profile.every_open_knob() {
                for alternative in knob.alternatives {
                    assert!(
                        alternative.apply(base).deviations.is_empty(),
                        "{} {}",
                        profile.name(),
                        knob.name
                    );
                }
            }
        }
    }

    #[test]
    fn ids_are_unique_and_every_deviation_is_listed_once() {
        let mut ids: Vec<&str> = Deviation::ALL.iter().map(|d| d.id()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), Deviation::ALL.len());
        for d in Deviation::ALL {
            assert_eq!(Deviation::from_id(d.id()), Some(d));
            assert!(d.id().starts_with("D-"));
            assert!(!d.entry().breaks.is_empty(), "{} breaks nothing", d.id());
        }
    }
}
