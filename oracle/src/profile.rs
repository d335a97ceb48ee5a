//! Which open knobs can matter for an input (`docs/profiles.md`): the documents' open knobs are the
//! table of `crate::knobs` ([`crate::knobs::OPEN_KNOBS`]); an input's facts ([`InputFacts`]) say
//! which of their subjects it holds, and [`ProfileId::open_knobs`] is the table filtered by them.
//!
//! The knob types live in `crate::knobs` and are re-exported here for the crates that name them
//! by this path.

use crate::knobs::{OpenRow, Subject, GOOGLE_ENCODINGS};
use crate::line::LineKind;
use crate::request::Request;

pub use crate::knobs::{
    AgentAfterRule, AgentComparison, AgentList, AgentValue, Alternative, Bom, Charset, CommentLine,
    EmptyRule, Encoding, FieldSpacing, Grouping, InvalidPattern, KnobId, Knobs, MatchTarget,
    MidDollar, OpenKnob, Precedence, ProfileId, RulelessRecord, Selection, Specificity, Wildcards,
    FIVE_HUNDRED_KIB,
};

impl ProfileId {
    /// The open knobs of this profile that could change the verdict for `request`, each with its
    /// alternatives. A knob is listed only when the input contains what it is about (a cheap,
    /// deliberately generous test: listing an irrelevant knob costs time, never correctness).
    pub fn open_knobs(self, request: &Request<'_>) -> Vec<OpenKnob> {
        let received = crate::memo::ReceivedBody::of(request.body);
        self.open_knobs_given(&InputFacts::of(request, &received))
    }

    /// [`ProfileId::open_knobs`] from facts already gathered (one pass over the input serves all
    /// four profiles): the profile's rows of [`crate::knobs::OPEN_KNOBS`] whose subject the input
    /// holds, each with the alternatives that can read it otherwise.
    pub fn open_knobs_given(self, facts: &InputFacts) -> Vec<OpenKnob> {
        let mut open = Vec::new();
        for row in self.open_rows() {
            let alternatives = facts.alternatives(row);
            if !alternatives.is_empty() {
                open.push(OpenKnob {
                    name: row.name,
                    citation: row.citation,
                    alternatives,
                });
            }
        }
        open
    }
}

/// Google's K7 alternatives ([`GOOGLE_ENCODINGS`]) for an input: RFC 9309's encoding under each
/// reading of reserved characters in the path (`path`) and in the query (`query`) that can matter,
/// the one where neither is encoded only when RFC 9309's encoding can differ from Google's own
/// (`rfc_differs`: an escape in the URL or a rule, a `*`, `$` or non-ASCII octet in the URL, a `$`
/// inside a pattern; elsewhere both encode non-ASCII octets and nothing else). A reserved-character
/// reading that cannot matter reads the input as the one without it (see
/// `InputFacts::percent_or_reserved_in_path` and `percent_or_reserved_query`).
fn google_encodings(rfc_differs: bool, path: bool, query: bool) -> &'static [Alternative] {
    const FF: Alternative = GOOGLE_ENCODINGS[0];
    const FT: Alternative = GOOGLE_ENCODINGS[1];
    const TF: Alternative = GOOGLE_ENCODINGS[2];
    const TT: Alternative = GOOGLE_ENCODINGS[3];
    match (rfc_differs, path, query) {
        (true, true, true) => &[FF, FT, TF, TT],
        (true, true, false) => &[FF, TF],
        (true, false, true) => &[FF, FT],
        (true, false, false) => &[FF],
        (false, true, true) => &[FT, TF, TT],
        (false, true, false) => &[TF],
        (false, false, true) => &[FT],
        (false, false, false) => &[],
    }
}

/// K7: whether reading the body under a charset alternative (Latin-1, dropping invalid octets,
/// dropping invalid lines) could change a verdict. Only the RFC and Google leave K7 open, and their
/// grouping (K1, `Allow` a rule) gives blank, comment, other and invalid lines no part; what a line
/// is and its value come from the part before any `#`. So the alternatives matter only if:
/// - a user-agent line or rule has a non-ASCII octet before its comment (Latin-1 or dropping
///   octets changes its value) or an invalid octet anywhere (dropping invalid lines removes it); or
/// - another line becomes one once its invalid octets are dropped. Dropping removes non-ASCII
///   octets only, so the `#` and the colon stay, and it can happen only through a field name with a
///   non-ASCII octet (`Dis\xFFallow`). Latin-1 keeps every ASCII octet and turns the others into
///   non-ASCII ones, so it never turns a line into one that names a record (an all-ASCII name);
///   a dropped invalid line is empty.
///
/// Dropping octets joins a CR and an LF around a line only when it leaves that line empty, so every
/// other line is the same octets, in the same order, in every reading. A body over the size limit
/// or starting with a BOM is cut before K7 applies, so it always counts.
fn charset_can_matter(body: &[u8], received: &crate::memo::ReceivedBody<'_>) -> bool {
    let utf8 = |octets: &[u8]| std::str::from_utf8(octets).is_ok();
    // The size limit can cut a UTF-8 body inside a character.
    if utf8(body) && (body.len() <= FIVE_HUNDRED_KIB || utf8(&body[..FIVE_HUNDRED_KIB])) {
        return false;
    }
    if body.len() > FIVE_HUNDRED_KIB || body.starts_with(crate::body::UTF8_BOM) {
        return true;
    }
    received
        .lines()
        .iter()
        .zip(received.kinds())
        .filter(|(line, _)| !line.bytes.is_ascii())
        .any(|(line, &kind)| match kind {
            LineKind::UserAgent(_) | LineKind::Allow(_) | LineKind::Disallow(_) => {
                !crate::line::strip_comment(line.bytes).is_ascii() || !utf8(line.bytes)
            }
            _ => match crate::line::field_and_value(line.bytes) {
                Some((field, _)) if !field.is_ascii() => {
                    let dropped = crate::body::read_as(field, Charset::DropInvalidOctets);
                    crate::line::names_a_group_line(crate::line::trim_ws(&dropped))
                }
                _ => false,
            },
        })
}

/// Cheap facts about an input that decide which open knobs are worth trying: what it contains that
/// could make an open knob matter (gathered once per input).
#[derive(Clone, Debug)]
pub struct InputFacts {
    body_len: usize,
    starts_with_bom: bool,
    charset_can_matter: bool,
    odd_agent_value: bool,
    agent_value_with_space: bool,
    wildcard_or_dollar_in_rules: bool,
    allow_and_disallow_rules: bool,
    mid_dollar_in_rules: bool,
    percent_in_rules: bool,
    unreserved_escape_in_rules: bool,
    percent_in_url: bool,
    percent_or_special_in_url: bool,
    percent_or_reserved_query: bool,
    percent_or_reserved_in_path: bool,
    url_has_query: bool,
    question_in_rules: bool,
    robots_txt_path: bool,
    agent_after_rule: bool,
    ruleless_record: bool,
    agent_substring: bool,
    empty_rule_in_body: bool,
    body_has_odd_pattern_octets: bool,
    non_ascii_in_rules: bool,
    comment_inside_record: bool,
    spacing_can_matter: bool,
    star_then_other: bool,
}

impl InputFacts {
    /// Gathers the facts of `request`, whose body is `received` (split and classified).
    pub fn of(request: &Request<'_>, received: &crate::memo::ReceivedBody<'_>) -> InputFacts {
        InputFacts::for_profiles(request, received, &ProfileId::ALL)
    }

    /// [`InputFacts::of`] for the knobs of `profiles` only: a costly line fact none of them reads
    /// is not gathered and holds (generous, as every fact is), so each of them opens the knobs it
    /// would open with every fact gathered.
    pub fn for_profiles(
        request: &Request<'_>,
        received: &crate::memo::ReceivedBody<'_>,
        profiles: &[ProfileId],
    ) -> InputFacts {
        let asked = FactsAsked::of(profiles);
        let body = request.body;
        let url = request.url.as_bytes();
        let charset_can_matter = charset_can_matter(body, received);
        // The facts about lines hold if they hold in any reading of the lines: as received, with
        // a leading BOM skipped, re-read under a charset alternative, or cut at the size limit.
        let mut lines = LineFacts::default();
        let mut read = |kinds: &[LineKind<'_>], spaced: &[bool]| {
            lines.read(kinds, spaced, request.agent, asked)
        };
        let spaced = received.spaced();
        each_reading_of_lines(received, spaced, charset_can_matter, &mut read);
        if body.len() > FIVE_HUNDRED_KIB {
            let cut = crate::memo::ReceivedBody::of(&body[..FIVE_HUNDRED_KIB]);
            each_reading_of_lines(&cut, cut.spaced(), charset_can_matter, &mut read);
        }
        lines.agent_after_rule |= !asked.records;
        lines.ruleless_record |= !asked.records;
        lines.agent_substring |= !asked.substring;
        let split = crate::url::split(request.url);
        let query = split.query.unwrap_or(b"");
        InputFacts {
            body_len: body.len(),
            starts_with_bom: body.starts_with(crate::body::UTF8_BOM),
            charset_can_matter,
            odd_agent_value: lines.odd_agent_value,
            agent_value_with_space: lines.agent_value_with_space,
            wildcard_or_dollar_in_rules: lines.wildcard_or_dollar_in_rules,
            allow_and_disallow_rules: lines.allow_rule && lines.disallow_rule,
            mid_dollar_in_rules: lines.mid_dollar_in_rules,
            percent_in_rules: lines.percent_in_rules,
            unreserved_escape_in_rules: lines.unreserved_escape_in_rules,
            percent_in_url: memchr::memchr(b'%', url).is_some(),
            // Raw non-ASCII in the URL is percent-encoded by some readings and not others.
            percent_or_special_in_url: memchr::memchr3(b'%', b'*', b'$', url).is_some()
                || url.iter().any(|&b| b >= 0x80),
            // The reserved-in-query reading only changes how query octets compare: without a query
            // in the URL there is no `?` in the target for a pattern's query part to meet.
            percent_or_reserved_query: split.query.is_some()
                && (memchr::memchr(b'%', url).is_some()
                    || lines.percent_in_rules
                    || query
                        .iter()
                        .any(|&b| crate::encoding::is_reserved_data(b, true))),
            // The reserved-in-path reading changes a comparison only where an escape meets a raw
            // character, or where a raw reserved character of the match target is encoded.
            // Without one, a rule's raw reserved character meets nothing it could equal in either
            // reading. `/` and `?` are never data in the path, and the scheme and authority are
            // not matched. The query and the fragment (which D-fragment-kept appends) count only
            // when a rule has a `*`: a rule reaches the query literally only through its own `?`,
            // after which it is read as a query too, and never reaches the fragment (a `#` starts
            // a comment), so only a piece after a `*`, read as path, can meet their octets. (The
            // fact read here also counts a `$`, which only opens the reading more often.)
            percent_or_reserved_in_path: memchr::memchr(b'%', url).is_some()
                || lines.percent_in_rules
                || split
                    .path
                    .iter()
                    .any(|&b| crate::encoding::is_reserved_data(b, false))
                || (lines.wildcard_or_dollar_in_rules
                    && [split.query, split.fragment]
                        .into_iter()
                        .flatten()
                        .flatten()
                        .any(|&b| crate::encoding::is_reserved_data(b, false))),
            url_has_query: split.query.is_some(),
            question_in_rules: lines.question_in_rules,
            robots_txt_path: crate::url::is_robots_txt_uri(&split),
            agent_after_rule: lines.agent_after_rule,
            // A comment line read as an empty line (1994's comment-line) can leave a record
            // without rules: the fact holds wherever such a line stands inside a record.
            ruleless_record: lines.ruleless_record || lines.comment_inside_record,
            agent_substring: lines.agent_substring,
            empty_rule_in_body: lines.empty_rule_in_body,
            body_has_odd_pattern_octets: lines.body_has_odd_pattern_octets,
            non_ascii_in_rules: lines.non_ascii_in_rules,
            comment_inside_record: lines.comment_inside_record || !asked.records,
            star_then_other: lines.star_then_other,
            // K13: a line with white space before its field or colon (a skipped BOM can leave one;
            // the charset alternatives apply only under the RFC's spacing).
            spacing_can_matter: spaced.iter().skip(1).any(|&s| s)
                || received.lines().first().is_some_and(|line| {
                    crate::line::spacing_can_matter(
                        line.bytes
                            .strip_prefix(crate::body::UTF8_BOM)
                            .unwrap_or(line.bytes),
                    )
                }),
        }
    }

    /// Whether the input holds `subject` (generously: a subject called held costs time only).
    pub fn holds(&self, subject: Subject) -> bool {
        match subject {
            Subject::Bom => self.starts_with_bom,
            Subject::BodyOverLimit => self.body_len > FIVE_HUNDRED_KIB,
            Subject::NonUtf8Text => self.charset_can_matter,
            Subject::UnusualAgentValue => self.odd_agent_value,
            Subject::StarWithSuffix => self.star_then_other,
            Subject::AgentValueWithSpace => self.agent_value_with_space,
            Subject::AgentInsideCrawlerName => self.agent_substring,
            Subject::AgentAfterRule => self.agent_after_rule,
            Subject::RulelessRecord => self.ruleless_record,
            Subject::CommentInsideRecord => self.comment_inside_record,
            // K4's two lengths differ only for a pattern with `*` or `$`, and decide nothing
            // unless an allow and a disallow can both match.
            Subject::WildcardBesideAllowAndDisallow => {
                self.wildcard_or_dollar_in_rules && self.allow_and_disallow_rules
            }
            Subject::MidPatternDollar => self.mid_dollar_in_rules,
            Subject::EscapeOrReservedInPath => self.percent_or_reserved_in_path,
            Subject::EscapeOrReservedInQuery => self.percent_or_reserved_query,
            Subject::UnreservedEscapeInRule => self.unreserved_escape_in_rules,
            Subject::EscapeSpecialOrReserved => {
                self.rfc9309_encoding_differs()
                    || self.percent_or_reserved_in_path
                    || self.percent_or_reserved_query
            }
            Subject::EscapeInUrlOrRule => self.percent_in_url || self.percent_in_rules,
            // Rules are prefixes where this knob is open (no wildcard): one matches the path with
            // its query and not the path alone only by holding a `?` (or an escape decoded to one).
            Subject::QueryAndQuestionInRule => {
                self.url_has_query && (self.question_in_rules || self.percent_in_rules)
            }
            Subject::EmptyRule => self.empty_rule_in_body,
            Subject::OddPatternOctet => self.body_has_odd_pattern_octets,
            Subject::OddOrNonAsciiPatternOctet => {
                self.body_has_odd_pattern_octets || self.non_ascii_in_rules
            }
            Subject::SpacedField => self.spacing_can_matter,
            Subject::RobotsTxtUrl => self.robots_txt_path,
        }
    }

    /// The alternatives of `row` that can read this input otherwise than the base reading: none
    /// when the input does not hold the row's subject; for Google's encodings, those
    /// [`google_encodings`] keeps; else all of them.
    pub fn alternatives(&self, row: &OpenRow) -> &'static [Alternative] {
        match row.subject {
            Subject::EscapeSpecialOrReserved => google_encodings(
                self.rfc9309_encoding_differs(),
                self.percent_or_reserved_in_path,
                self.percent_or_reserved_query,
            ),
            subject if self.holds(subject) => row.alternatives,
            _ => &[],
        }
    }

    /// Whether RFC 9309's encoding can read this input otherwise than Google's own: an escape in
    /// the URL or a rule, a `*`, `$` or non-ASCII octet in the URL, a `$` inside a pattern.
    fn rfc9309_encoding_differs(&self) -> bool {
        self.percent_or_special_in_url || self.percent_in_rules || self.mid_dollar_in_rules
    }
}

/// The facts [`InputFacts`] reads from line kinds, each true once any reading read shows it.
#[derive(Default)]
struct LineFacts {
    odd_agent_value: bool,
    star_then_other: bool,
    agent_value_with_space: bool,
    empty_rule_in_body: bool,
    body_has_odd_pattern_octets: bool,
    /// A rule holding an octet outside ASCII.
    non_ascii_in_rules: bool,
    /// A line holding only a comment between two lines that are neither blank nor comments: one
    /// that would split a record if it were a blank line.
    comment_inside_record: bool,
    agent_after_rule: bool,
    ruleless_record: bool,
    agent_substring: bool,
    wildcard_or_dollar_in_rules: bool,
    /// An `Allow` line, or an empty `Disallow:` (which D-empty-disallow-allows-all reads as one).
    allow_rule: bool,
    /// A `Disallow` line.
    disallow_rule: bool,
    mid_dollar_in_rules: bool,
    percent_in_rules: bool,
    /// A rule holding an escaped unreserved octet (`%7E`).
    unreserved_escape_in_rules: bool,
    /// A rule holding `?`.
    question_in_rules: bool,
}

impl LineFacts {
    /// Adds what the records of one reading's line kinds show, each kind with whether it is a
    /// user-agent line that can name the crawler ([`can_name`]): the facts that depend on the order
    /// of lines, not on any one line, for the blank-line profiles. A record (the lines between two
    /// blank lines) no reading can select for the crawler (none of its user-agent lines can name
    /// it) is passed over alike under every reading of its lines, so only
    /// records that can name it count: one with a user-agent line after a rule and no blank line
    /// between (agent_after_rule: where it starts a record, the record's lines are split), one whose
    /// user-agent lines meet a blank line or the end before any disallow line (ruleless_record:
    /// `Allow` does not count, since 1994 ignores it; for 1996 that only over-approximates, which
    /// costs time, never correctness).
    fn read_records<'a>(&mut self, kinds: impl Iterator<Item = (LineKind<'a>, bool)>) {
        let mut rule_since_blank = false;
        // Since the last blank line: a user-agent line came after a rule, and one can name the
        // crawler.
        let mut agent_after_rule = false;
        let mut record_names = false;
        // User-agent lines since the last blank line or disallow line, and whether one of them
        // can name the crawler.
        let mut agent_pending = false;
        let mut naming_pending = false;
        for (kind, names) in kinds {
            match kind {
                LineKind::Blank => {
                    self.ruleless_record |= naming_pending;
                    self.agent_after_rule |= agent_after_rule && record_names;
                    agent_pending = false;
                    naming_pending = false;
                    agent_after_rule = false;
                    record_names = false;
                    rule_since_blank = false;
                }
                LineKind::UserAgent(_) => {
                    agent_after_rule |= rule_since_blank;
                    record_names |= names;
                    agent_pending = true;
                    naming_pending |= names;
                }
                LineKind::Allow(_) | LineKind::Disallow(_) => {
                    rule_since_blank = true;
                    if matches!(kind, LineKind::Disallow(_)) {
                        agent_pending = false;
                        naming_pending = false;
                    }
                }
                LineKind::Comment | LineKind::Other(_) | LineKind::Invalid => {}
            }
        }
        self.ruleless_record |= agent_pending && naming_pending;
        self.agent_after_rule |= agent_after_rule && record_names;
    }

    /// Adds what one reading's line kinds (`Allow` a rule) show, for the crawler `agent`: each
    /// line's own facts, then its records' ([`LineFacts::read_records`]) as the RFC's spacing
    /// reads them and, where some line has white space before its field or colon (`spaced`, per
    /// line), as the 1994 and 1996 forms read them (K13, [`strict_kinds`]).
    fn read(&mut self, kinds: &[LineKind<'_>], spaced: &[bool], agent: &str, asked: FactsAsked) {
        // Whether each line is a user-agent line that can name the crawler ([`can_name`]): a
        // value no reading can make name the crawler is read alike by every K3 reading. (Every
        // user-agent line, when no asked profile reads it.)
        if asked.records && !self.comment_inside_record {
            let mut before = false;
            let mut comment_since = false;
            for kind in kinds {
                match kind {
                    LineKind::Comment => comment_since |= before,
                    LineKind::Blank => (before, comment_since) = (false, false),
                    _ if comment_since => {
                        self.comment_inside_record = true;
                        break;
                    }
                    _ => before = true,
                }
            }
        }
        let names: Vec<bool> = kinds
            .iter()
            .map(|kind| {
                matches!(kind, LineKind::UserAgent(value)
                    if !asked.naming || can_name(value, agent))
            })
            .collect();
        for (&kind, &names) in kinds.iter().zip(&names) {
            match kind {
                LineKind::UserAgent(value) => {
                    let plain = value == b"*" || crate::select::is_product_token(value);
                    self.odd_agent_value |= !plain && names;
                    self.star_then_other |=
                        value.len() > 1 && value[0] == b'*' && !crate::line::is_ws(value[1]);
                    self.agent_value_with_space |=
                        names && value.iter().any(|&b| b == b' ' || b == b'\t');
                    // Each fact is settled by its first witness: later lines are not searched.
                    self.agent_substring = self.agent_substring
                        || !asked.substring
                        || value.split(|&b| b == b' ' || b == b'\t').any(|name| {
                            !name.is_empty()
                                && !name.eq_ignore_ascii_case(agent.as_bytes())
                                && crate::select::name_matches(
                                    name,
                                    agent,
                                    AgentComparison::Substring,
                                )
                        });
                }
                LineKind::Allow(value) | LineKind::Disallow(value) => {
                    self.allow_rule |= matches!(kind, LineKind::Allow(_)) || value.is_empty();
                    self.disallow_rule |= matches!(kind, LineKind::Disallow(_));
                    self.empty_rule_in_body |= value.is_empty();
                    // The octets the facts look for, in one pass over the value.
                    let classes = RuleOctets::of(value);
                    self.wildcard_or_dollar_in_rules |= classes.has(RuleOctets::STAR);
                    // K7: the encodings differ only where a pattern or the target holds a `%`.
                    self.percent_in_rules |= classes.has(RuleOctets::PERCENT);
                    self.unreserved_escape_in_rules |= classes.has(RuleOctets::PERCENT)
                        && value.windows(3).any(|w| match w {
                            [b'%', h, l] if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
                                let digit = |d: u8| (d as char).to_digit(16).unwrap_or(0) as u8;
                                crate::encoding::is_unreserved(digit(*h) * 16 + digit(*l))
                            }
                            _ => false,
                        });
                    self.question_in_rules |= classes.has(RuleOctets::QUESTION);
                    self.body_has_odd_pattern_octets |= classes.has(RuleOctets::ODD);
                    self.non_ascii_in_rules |= classes.has(RuleOctets::NON_ASCII);
                    if classes.has(RuleOctets::DOLLAR) {
                        self.wildcard_or_dollar_in_rules = true;
                        // K6 MidDollar only concerns a `$` before the pattern's last octet.
                        let trimmed = crate::line::trim_ws(value);
                        let before_end = trimmed.strip_suffix(b"$").unwrap_or(trimmed);
                        self.mid_dollar_in_rules |= before_end.contains(&b'$');
                    }
                }
                LineKind::Blank | LineKind::Comment | LineKind::Other(_) | LineKind::Invalid => {}
            }
        }
        if !asked.records {
            return;
        }
        self.read_records(kinds.iter().copied().zip(names.iter().copied()));
        if spaced.contains(&true) {
            // The strict reading keeps a line as it is or makes it unrecognised: a kept
            // user-agent line names the crawler as before.
            self.read_records(strict_kinds(kinds, spaced).zip(names.iter().copied()));
        }
    }
}

/// The classes of octets a rule's value holds that [`LineFacts::read`] looks for, a bit each.
#[derive(Clone, Copy)]
struct RuleOctets(u8);

impl RuleOctets {
    const DOLLAR: u8 = 1;
    const STAR: u8 = 2;
    const PERCENT: u8 = 4;
    const QUESTION: u8 = 8;
    /// White space, a control octet or DEL: what no pattern octet may be.
    const ODD: u8 = 16;
    /// An octet outside ASCII.
    const NON_ASCII: u8 = 32;

    /// Each octet's class bits.
    const TABLE: [u8; 256] = {
        let mut table = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = match b as u8 {
                b'$' => Self::DOLLAR,
                b'*' => Self::STAR,
                b'%' => Self::PERCENT,
                b'?' => Self::QUESTION,
                b' ' | 0x7F | ..0x20 => Self::ODD,
                0x80.. => Self::NON_ASCII,
                _ => 0,
            };
            b += 1;
        }
        table
    };

    /// The classes `value` holds (a table lookup per octet, no branch).
    fn of(value: &[u8]) -> RuleOctets {
        RuleOctets(
            value
                .iter()
                .fold(0, |all, &b| all | Self::TABLE[usize::from(b)]),
        )
    }

    fn has(self, class: u8) -> bool {
        self.0 & class != 0
    }
}

/// Which of the costlier line facts a set of profiles reads ([`ProfileId::open_knobs_given`]); the
/// others are cheap and always gathered.
#[derive(Clone, Copy)]
struct FactsAsked {
    /// Whether a user-agent value can name the crawler ([`can_name`]): RFC 9309's agent value, the
    /// 1994 agent value with white space, and the records.
    naming: bool,
    /// The records' facts (a user-agent line after a rule, a record without rules): the
    /// blank-line-record documents.
    records: bool,
    /// A name inside the crawler's name: the 1996 draft's substring comparison.
    substring: bool,
}

impl FactsAsked {
    fn of(profiles: &[ProfileId]) -> FactsAsked {
        let has = |p: ProfileId| profiles.contains(&p);
        let records = has(ProfileId::Draft1996) || has(ProfileId::Original1994);
        FactsAsked {
            naming: records || has(ProfileId::Rfc9309),
            records,
            substring: has(ProfileId::Draft1996),
        }
    }
}

/// Whether some reading of K3 can make the user-agent value `value` name the crawler `agent`
/// (`select::agent_names`, `select::name_matches`): the value or one of its words starts with `*`,
/// or is empty (a deviation reads that as every crawler), or it or its leading product token is
/// inside the crawler's name (equal names are inside too). Generous, like every input fact.
fn can_name(value: &[u8], agent: &str) -> bool {
    let inside = |name: &[u8]| crate::select::name_matches(name, agent, AgentComparison::Substring);
    let piece_can_name = |piece: &[u8]| {
        let token_end = piece
            .iter()
            .position(|&b| !crate::select::is_token_byte(b))
            .unwrap_or(piece.len());
        piece.is_empty() || piece[0] == b'*' || inside(piece) || inside(&piece[..token_end])
    };
    piece_can_name(value)
        || value
            .split(|&b| crate::line::is_ws(b))
            .filter(|word| !word.is_empty())
            .any(piece_can_name)
}

/// The kinds of `kinds` as the 1994 and 1996 forms read them (K13): a user-agent or rule line with
/// white space before its field or colon (`spaced`) is unrecognised. Only the records can differ
/// from the RFC's reading: it has some of those lines, as they are, and no others.
fn strict_kinds<'k, 'b>(
    kinds: &'k [LineKind<'b>],
    spaced: &'k [bool],
) -> impl Iterator<Item = LineKind<'b>> + 'k {
    kinds.iter().zip(spaced).map(|(&kind, &spaced)| match kind {
        LineKind::UserAgent(_) | LineKind::Allow(_) | LineKind::Disallow(_) if spaced => {
            LineKind::Other(b"")
        }
        kind => kind,
    })
}

/// Calls `read` with the line kinds (`Allow` a rule) of every reading steps 1 and 2 can make of
/// `received`: as received; with a leading BOM skipped (K12); and, when `rereads`, with every line
/// holding a non-ASCII octet re-read under each charset alternative (K7), with or without the BOM.
/// Only the lines a reading changes are classified again. Each reading's kinds come with which of
/// its lines have white space before their field or colon (K13, the lines the 1994 and 1996 forms
/// read otherwise).
fn each_reading_of_lines(
    received: &crate::memo::ReceivedBody<'_>,
    spaced: &[bool],
    rereads: bool,
    read: &mut impl FnMut(&[LineKind<'_>], &[bool]),
) {
    let lines = received.lines();
    read(received.kinds(), spaced);
    let bom = lines
        .first()
        .is_some_and(|line| line.bytes.starts_with(crate::body::UTF8_BOM));
    let charsets: &[Charset] = if rereads {
        &[
            Charset::Octets,
            Charset::Latin1,
            Charset::DropInvalidOctets,
            Charset::DropInvalidLines,
        ]
    } else {
        &[Charset::Octets]
    };
    for &charset in charsets {
        for skip_bom in [false, true] {
            // Octets with the BOM kept is the reading as received.
            if (skip_bom && !bom) || (charset == Charset::Octets && !skip_bom) {
                continue;
            }
            let changed: Vec<Option<Vec<u8>>> = lines
                .iter()
                .enumerate()
                .map(|(i, line)| {
                    let skipped = i == 0 && skip_bom;
                    let bytes = if skipped {
                        &line.bytes[crate::body::UTF8_BOM.len()..]
                    } else {
                        line.bytes
                    };
                    if charset != Charset::Octets && !bytes.is_ascii() {
                        Some(crate::body::read_as(bytes, charset))
                    } else {
                        skipped.then(|| bytes.to_vec())
                    }
                })
                .collect();
            let kinds: Vec<LineKind<'_>> = lines
                .iter()
                .zip(&changed)
                .zip(received.kinds())
                .map(|((line, changed), &kind)| match changed {
                    Some(bytes) => crate::line::classify(
                        &crate::body::Line {
                            number: line.number,
                            bytes,
                        },
                        true,
                        FieldSpacing::Around,
                    ),
                    None => kind,
                })
                .collect();
            let spaced: Vec<bool> = lines
                .iter()
                .zip(&changed)
                .map(|(line, changed)| {
                    crate::line::spacing_can_matter(changed.as_deref().unwrap_or(line.bytes))
                })
                .collect();
            read(&kinds, &spaced);
        }
    }
}
