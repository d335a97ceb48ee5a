//! Which knobs and deviations can matter for an input: what the input holds that they are about.
//!
//! The documents' open knobs and what each is about ([`Subject`]) are the table of `crate::knobs`;
//! this module answers the input's side only, in two ways, each as cheap as it can be:
//! - for the fast path ([`ProfileId::open_knobs`]): the input's facts ([`InputFacts`]), gathered in
//!   one pass over its lines, say which subjects it holds; the open knobs are the table's rows
//!   whose subject it holds;
//! - for the cause search (`crate::cause`): which knob fields and deviations cannot read the input
//!   otherwise at all ([`Inert`]), found from its octets and, on first need, its lines.
//!
//! Both are generous: calling a knob live when it cannot matter costs time, never correctness.
//! Where both ask the same of the input's octets (is the body over the size limit, does it begin
//! with a byte-order mark, is there a query, an escape, a `*`), they read one answer ([`Octets`]).
//!
//! The facts are per request: those about user-agent values and records count only what some
//! reading can make name the crawler (`can_name`), and a request asked of fewer profiles gathers
//! only the costly line facts those profiles read ([`InputFacts::for_profiles`]). That they never
//! leave out a knob that can matter is checked on generated inputs by `differential/tests/facts.rs`
//! (facts for some profiles against facts for all four) and `closed_knobs_cannot_change_a_verdict`
//! (`differential/tests/generate.rs`: every alternative of every closed knob, one at a time).

use crate::deviation::{Deviation, Deviations};
use crate::knobs::{
    AgentComparison, Alternative, Charset, FieldSpacing, KnobId, OpenKnob, OpenRow, ProfileId,
    Subject, FIVE_HUNDRED_KIB, GOOGLE_ENCODINGS,
};
use crate::line::LineKind;
use crate::request::Request;
use crate::url::SplitUrl;

/// K14: whether a size limit can cut `body`: it is longer than the smallest limit.
fn over_size_limit(body: &[u8]) -> bool {
    body.len() > FIVE_HUNDRED_KIB
}

/// What a request's octets hold that both analyses ask about, each found once.
#[derive(Clone, Copy, Debug)]
struct Octets<'r> {
    /// The URL, split by RFC 3986's generic syntax.
    split: SplitUrl<'r>,
    /// K14: a size limit can cut the body ([`over_size_limit`]).
    over_size_limit: bool,
    /// K12: the body begins with a UTF-8 byte-order mark.
    starts_with_bom: bool,
    /// K7 charset: every octet of the body is ASCII, which every charset reads as itself.
    body_is_ascii: bool,
    /// A `*` in the body.
    star_in_body: bool,
    /// A `$` in the body.
    dollar_in_body: bool,
    /// An escape's `%` in the body.
    escape_in_body: bool,
    /// An escape's `%` in the URL.
    escape_in_url: bool,
    /// K10: the URL is the robots.txt URI ([`crate::url::is_robots_txt_uri`]).
    robots_txt_uri: bool,
}

impl<'r> Octets<'r> {
    /// What `request`'s octets hold.
    fn of(request: &Request<'r>) -> Octets<'r> {
        let body = request.body;
        let split = crate::url::split(request.url);
        Octets {
            split,
            over_size_limit: over_size_limit(body),
            starts_with_bom: body.starts_with(crate::body::UTF8_BOM),
            body_is_ascii: body.is_ascii(),
            star_in_body: memchr::memchr(b'*', body).is_some(),
            dollar_in_body: memchr::memchr(b'$', body).is_some(),
            escape_in_body: memchr::memchr(b'%', body).is_some(),
            escape_in_url: memchr::memchr(b'%', request.url.as_bytes()).is_some(),
            robots_txt_uri: crate::url::is_robots_txt_uri(&split),
        }
    }

    /// K8: the URL has a query.
    fn url_has_query(&self) -> bool {
        self.split.query.is_some()
    }
}

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
fn charset_can_matter(
    body: &[u8],
    octets: &Octets<'_>,
    received: &crate::memo::ReceivedBody<'_>,
) -> bool {
    let utf8 = |octets: &[u8]| std::str::from_utf8(octets).is_ok();
    // The size limit can cut a UTF-8 body inside a character.
    if utf8(body) && (!over_size_limit(body) || utf8(&body[..FIVE_HUNDRED_KIB])) {
        return false;
    }
    if octets.over_size_limit || octets.starts_with_bom {
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

/// `octets` with every escape decoded (`%2E` is `.`), so that a fact about spelled-out octets
/// holds whatever a reading decodes.
fn unescaped(octets: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if memchr::memchr(b'%', octets).is_none() {
        return std::borrow::Cow::Borrowed(octets);
    }
    let mut out = Vec::with_capacity(octets.len());
    let mut i = 0;
    while i < octets.len() {
        match crate::encoding::escaped_octet(&octets[i..]) {
            Some(value) => {
                out.push(value);
                i += 3;
            }
            None => {
                out.push(octets[i]);
                i += 1;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Cheap facts about an input that decide which open knobs are worth trying: what it contains that
/// could make an open knob matter (gathered once per input).
#[derive(Clone, Debug)]
pub struct InputFacts {
    over_size_limit: bool,
    starts_with_bom: bool,
    charset_can_matter: bool,
    odd_agent_value: bool,
    agent_value_with_space: bool,
    wildcard_or_dollar_in_rules: bool,
    allow_and_disallow_rules: bool,
    mid_dollar_in_rules: bool,
    percent_in_rules: bool,
    percent_in_url: bool,
    percent_or_special_in_url: bool,
    percent_or_reserved_query: bool,
    percent_or_reserved_in_path: bool,
    url_has_query: bool,
    question_in_rules: bool,
    robots_txt_path: bool,
    agent_after_rule: bool,
    ruleless_record: bool,
    empty_rule_in_body: bool,
    empty_record_beside_disallow: bool,
    body_has_odd_pattern_octets: bool,
    non_ascii_in_rules: bool,
    comment_inside_record: bool,
    spacing_can_matter: bool,
    star_then_other: bool,
    section_5_2_example: bool,
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
        let octets = Octets::of(request);
        let charset_can_matter = charset_can_matter(body, &octets, received);
        // The facts about lines hold if they hold in any reading of the lines: as received, with
        // a leading BOM skipped, re-read under a charset alternative, or cut at the size limit.
        let mut lines = LineFacts::default();
        let mut read = |kinds: &[LineKind<'_>], spaced: &[bool]| {
            lines.read(kinds, spaced, request.agent, asked)
        };
        let spaced = received.spaced();
        each_reading_of_lines(received, spaced, charset_can_matter, &mut read);
        if octets.over_size_limit {
            let cut = crate::memo::ReceivedBody::of(&body[..FIVE_HUNDRED_KIB]);
            each_reading_of_lines(&cut, cut.spaced(), charset_can_matter, &mut read);
        }
        lines.agent_after_rule |= !asked.records;
        lines.ruleless_record |= !asked.records;
        lines.empty_disallow_in_naming_record |= !asked.records;
        let split = octets.split;
        let query = split.query.unwrap_or(b"");
        // K4's section-5-2: the example's rule in the body and the URI its prose names as the
        // URL, each as written or with escapes (which RFC 9309's encoding may decode).
        let section_5_2_example = !octets.url_has_query()
            && unescaped(split.path) == crate::knobs::SECTION_5_2_URI
            && memchr::memmem::find(&unescaped(body), crate::knobs::SECTION_5_2_RULE).is_some();
        InputFacts {
            over_size_limit: octets.over_size_limit,
            starts_with_bom: octets.starts_with_bom,
            charset_can_matter,
            odd_agent_value: lines.odd_agent_value,
            agent_value_with_space: lines.agent_value_with_space,
            wildcard_or_dollar_in_rules: lines.wildcard_or_dollar_in_rules,
            allow_and_disallow_rules: lines.allow_rule && lines.disallow_rule,
            mid_dollar_in_rules: lines.mid_dollar_in_rules,
            percent_in_rules: lines.percent_in_rules,
            percent_in_url: octets.escape_in_url,
            // Raw non-ASCII in the URL is percent-encoded by some readings and not others.
            percent_or_special_in_url: memchr::memchr3(b'%', b'*', b'$', url).is_some()
                || url.iter().any(|&b| b >= 0x80),
            // The reserved-in-query reading only changes how query octets compare: without a query
            // in the URL there is no `?` in the target for a pattern's query part to meet.
            percent_or_reserved_query: octets.url_has_query()
                && (octets.escape_in_url
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
            percent_or_reserved_in_path: octets.escape_in_url
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
            url_has_query: octets.url_has_query(),
            question_in_rules: lines.question_in_rules,
            robots_txt_path: octets.robots_txt_uri,
            agent_after_rule: lines.agent_after_rule,
            // A comment line read as an empty line (1994's comment-line) can leave a record
            // without rules.
            ruleless_record: lines.ruleless_record || lines.ruleless_at_comment,
            empty_rule_in_body: lines.empty_rule_in_body,
            // K9's 1994 reading (a record of empty Disallows allows all) reads an input apart from
            // the base only where such a record can be selected and a Disallow with a value could
            // otherwise decide; with no Disallow value anywhere, both readings allow every URL.
            empty_record_beside_disallow: lines.empty_disallow_in_naming_record
                && lines.disallow_with_value,
            body_has_odd_pattern_octets: lines.body_has_odd_pattern_octets,
            non_ascii_in_rules: lines.non_ascii_in_rules,
            comment_inside_record: lines.comment_inside_record || !asked.records,
            star_then_other: lines.star_then_other,
            section_5_2_example,
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
            Subject::BodyOverLimit => self.over_size_limit,
            Subject::NonUtf8Text => self.charset_can_matter,
            Subject::UnusualAgentValue => self.odd_agent_value,
            Subject::StarWithSuffix => self.star_then_other,
            Subject::AgentValueWithSpace => self.agent_value_with_space,
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
            Subject::EmptyRecordBesideDisallow => self.empty_record_beside_disallow,
            Subject::OddPatternOctet => self.body_has_odd_pattern_octets,
            Subject::OddOrNonAsciiPatternOctet => {
                self.body_has_odd_pattern_octets || self.non_ascii_in_rules
            }
            Subject::SpacedField => self.spacing_can_matter,
            Subject::RobotsTxtUrl => self.robots_txt_path,
            Subject::SectionFiveTwoExample => self.section_5_2_example,
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
    /// A line holding only a comment between two user-agent or rule lines of a record that can
    /// name the crawler: one that would split the record if it were a blank line.
    comment_inside_record: bool,
    /// An empty `Disallow` in a record that can name the crawler.
    empty_disallow_in_naming_record: bool,
    /// A record that 1994's comment-line reading would leave without rules, one of its user-agent
    /// lines naming the crawler.
    ruleless_at_comment: bool,
    /// A `Disallow` with a value.
    disallow_with_value: bool,
    agent_after_rule: bool,
    ruleless_record: bool,
    wildcard_or_dollar_in_rules: bool,
    /// An `Allow` line, or an empty `Disallow:` (which D-empty-disallow-allows-all reads as one).
    allow_rule: bool,
    /// A `Disallow` line.
    disallow_rule: bool,
    mid_dollar_in_rules: bool,
    percent_in_rules: bool,
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
    ///
    /// Two more facts hold only for a record that can name the crawler: a line holding only a
    /// comment between two of its user-agent or rule lines (comment_inside_record: 1994's
    /// comment-line reading splits the record there, and the parts of a record none of whose
    /// user-agent lines can name the crawler cannot name it either), and an empty `Disallow` in it
    /// (empty_disallow_in_naming_record: 1994's empty-rule reading lets a record whose every rule is
    /// an empty `Disallow` allow all, and every record that reading forms lies within one between
    /// blank lines). Where that comment line would end a part whose user-agent lines, one of them
    /// naming the crawler, meet it before any disallow line, the comment-line reading makes a
    /// ruleless record (ruleless_at_comment).
    fn read_records<'a>(&mut self, kinds: impl Iterator<Item = (LineKind<'a>, bool)>) {
        let mut rule_since_blank = false;
        // Since the last blank line: a user-agent or rule line, a comment line after one, a further
        // user-agent or rule line after that comment, and an empty `Disallow`. (Split off alone, an
        // unrecognised line forms no record and leaves the record's own lines as they were.)
        let mut content = false;
        let mut comment_after_content = false;
        let mut comment_inside = false;
        let mut empty_disallow = false;
        // A comment line after content came while naming user-agent lines were pending.
        let mut naming_at_comment = false;
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
                    self.comment_inside_record |= comment_inside && record_names;
                    self.empty_disallow_in_naming_record |= empty_disallow && record_names;
                    (content, comment_after_content) = (false, false);
                    (comment_inside, empty_disallow, naming_at_comment) = (false, false, false);
                    agent_pending = false;
                    naming_pending = false;
                    agent_after_rule = false;
                    record_names = false;
                    rule_since_blank = false;
                    continue;
                }
                LineKind::Comment => {
                    comment_after_content |= content;
                    naming_at_comment |= content && naming_pending;
                    continue;
                }
                LineKind::UserAgent(_) | LineKind::Allow(_) | LineKind::Disallow(_) => {
                    comment_inside |= comment_after_content;
                    self.ruleless_at_comment |= naming_at_comment;
                    content = true;
                }
                LineKind::Other(_) | LineKind::Invalid => {}
            }
            match kind {
                LineKind::UserAgent(_) => {
                    agent_after_rule |= rule_since_blank;
                    record_names |= names;
                    agent_pending = true;
                    naming_pending |= names;
                }
                LineKind::Allow(_) | LineKind::Disallow(_) => {
                    rule_since_blank = true;
                    empty_disallow |= matches!(kind, LineKind::Disallow(b""));
                    if matches!(kind, LineKind::Disallow(_)) {
                        agent_pending = false;
                        naming_pending = false;
                    }
                }
                _ => {}
            }
        }
        self.ruleless_record |= agent_pending && naming_pending;
        self.agent_after_rule |= agent_after_rule && record_names;
        self.comment_inside_record |= comment_inside && record_names;
        self.empty_disallow_in_naming_record |= empty_disallow && record_names;
    }

    /// Adds what one reading's line kinds (`Allow` a rule) show, for the crawler `agent`: each
    /// line's own facts, then its records' ([`LineFacts::read_records`]) as the RFC's spacing
    /// reads them and, where some line has white space before its field or colon (`spaced`, per
    /// line), as the 1994 and 1996 forms read them (K13, [`strict_kinds`]).
    fn read(&mut self, kinds: &[LineKind<'_>], spaced: &[bool], agent: &str, asked: FactsAsked) {
        // Whether each line is a user-agent line that can name the crawler ([`can_name`]): a
        // value no reading can make name the crawler is read alike by every K3 reading. (Every
        // user-agent line, when no asked profile reads it.)
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
                }
                LineKind::Allow(value) | LineKind::Disallow(value) => {
                    self.allow_rule |= matches!(kind, LineKind::Allow(_)) || value.is_empty();
                    self.disallow_rule |= matches!(kind, LineKind::Disallow(_));
                    self.disallow_with_value |=
                        matches!(kind, LineKind::Disallow(_)) && !value.is_empty();
                    self.empty_rule_in_body |= value.is_empty();
                    // The octets the facts look for, in one pass over the value.
                    let classes = RuleOctets::of(value);
                    self.wildcard_or_dollar_in_rules |= classes.has(RuleOctets::STAR);
                    // K7: the encodings differ only where a pattern or the target holds a `%`.
                    self.percent_in_rules |= classes.has(RuleOctets::PERCENT);
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
}

impl FactsAsked {
    fn of(profiles: &[ProfileId]) -> FactsAsked {
        let has = |p: ProfileId| profiles.contains(&p);
        let records = has(ProfileId::Draft1996) || has(ProfileId::Original1994);
        FactsAsked {
            naming: records || has(ProfileId::Rfc9309),
            records,
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

// The cause search's side: the knob fields and deviations that cannot matter at all.

/// The changes that cannot change any reading of an input, alone or with others.
pub struct Inert<'b> {
    /// The deviations whose subject is a kind of octet ([`inert_by_octets`]).
    pub by_octets: Deviations,
    /// Those whose subject is a kind of line ([`inert_by_lines`]), looked for on first need: a
    /// search that ends among the knob changes never asks.
    by_lines: std::cell::OnceCell<Deviations>,
    body: &'b [u8],
    /// The knob fields, a bit per place in [`KnobId::ALL`] ([`inert_knobs`]).
    knobs: u32,
}

impl<'b> Inert<'b> {
    /// What cannot matter in `request`.
    pub fn of(request: &Request<'b>) -> Inert<'b> {
        let octets = Octets::of(request);
        Inert {
            by_octets: inert_by_octets(request, &octets),
            by_lines: std::cell::OnceCell::new(),
            body: request.body,
            knobs: inert_knobs(&octets),
        }
    }

    /// Whether no setting of the knob field `knob` can read the input otherwise.
    pub fn knob(&self, knob: KnobId) -> bool {
        self.knobs & (1 << knob.index()) != 0
    }

    /// Whether the deviation `d` cannot read the input otherwise.
    pub fn deviation(&self, d: Deviation) -> bool {
        if BY_LINES.contains(&d) {
            self.by_lines
                .get_or_init(|| inert_by_lines(self.body))
                .has(d)
        } else {
            self.by_octets.has(d)
        }
    }

    /// Calls every knob field live (what the cause search's reference run asks).
    pub fn every_knob_live(&mut self) {
        self.knobs = 0;
    }
}

/// The knob fields (a bit per place in [`KnobId::ALL`]) every setting of which reads `request`
/// alike, alone or with any other change (deviations included): what the field is about is absent
/// from the input. Like [`inert`], cheap and generous: a field called live costs time only.
fn inert_knobs(octets: &Octets<'_>) -> u32 {
    let split = octets.split;
    let mut inert = 0u32;
    let mut when = |knob: KnobId, absent: bool| {
        if absent {
            inert |= 1 << knob.index();
        }
    };
    // K14: no size limit cuts a body under the smallest limit (D-size-cut-at-line-end moves the
    // cut, which does not happen).
    when(KnobId::SizeLimit, !octets.over_size_limit);
    // K12: no byte-order mark to skip or keep.
    when(KnobId::Bom, !octets.starts_with_bom);
    // K7 charset: every charset reads ASCII octets as themselves.
    when(KnobId::Charset, octets.body_is_ascii);
    // K8: the path alone and the path with its query are one target without a query (a kept
    // fragment, D-fragment-kept, is appended after the match target is taken).
    when(KnobId::MatchTarget, !octets.url_has_query());
    // K10: only the robots.txt URI is exempt.
    when(KnobId::RobotsTxtAllowed, !octets.robots_txt_uri);
    // K6: without `*` or `$` in the body, every pattern is its literal octets.
    when(
        KnobId::Wildcards,
        !octets.star_in_body && !octets.dollar_in_body,
    );
    // K7 encoding: no escape in the body or the URL, and no URL octet any encoding rewrites (not
    // ASCII, `*`, `$`, a reserved character that is data, and `/` or `?` in the query or a kept
    // fragment). Every encoding then gives the target as it is, and writes a rule's literal piece
    // either as it is or with an octet the target lacks (raw, or as an escape while the target
    // has no `%`), so no reading matches a piece another reading does not.
    let plain = |part: &[u8], in_query: bool| {
        part.iter().all(|&b| {
            b.is_ascii()
                && !matches!(b, b'%' | b'*' | b'$')
                && !crate::encoding::is_reserved_data(b, in_query)
        })
    };
    when(
        KnobId::Encoding,
        !octets.escape_in_body
            && plain(split.path, false)
            && split.query.is_none_or(|q| plain(q, true))
            && split.fragment.is_none_or(|f| plain(f, true)),
    );
    inert
}

/// The deviations that cannot change any reading of `request`, alone or with others: what each
/// one is about is absent from the body or the URL (a cheap, deliberately generous test, like the
/// input facts above: calling a deviation live costs time, never correctness).
pub fn inert(request: &Request<'_>) -> Deviations {
    inert_by_octets(request, &Octets::of(request)).union(inert_by_lines(request.body))
}

/// The deviations [`inert_by_lines`] decides: their subject is a kind of line.
const BY_LINES: [Deviation; 9] = [
    Deviation::NoColonLineIsBlank,
    Deviation::InvalidLineRejectsFile,
    Deviation::RecordGrammarRejectsFile,
    Deviation::TypoFields,
    Deviation::FieldPrefix,
    Deviation::EmptyAgentMatchesAll,
    Deviation::EmptyAgentNamesAll,
    Deviation::SlashlessRuleRooted,
    Deviation::EmptyRuleAllowsRest,
];

/// The part of [`inert`] whose subjects are octets in the body or the URL (each looked for once).
fn inert_by_octets(request: &Request<'_>, octets: &Octets<'_>) -> Deviations {
    let body = request.body;
    let url = request.url.as_bytes();
    let has = |bytes: &[u8], b: u8| memchr::memchr(b, bytes).is_some();
    let split = octets.split;
    let mut inert = Deviations::NONE;
    let mut when = |deviation: Deviation, absent: bool| {
        if absent {
            inert = inert.with(deviation);
        }
    };
    when(Deviation::SizeCutAtLineEnd, !octets.over_size_limit);
    when(Deviation::LfOnlyLines, !has(body, b'\r'));
    when(Deviation::CrKeptInLines, !has(body, b'\r'));
    when(Deviation::NulEndsLine, !has(body, 0));
    when(
        Deviation::VerticalTabTrimmed,
        !has(body, 0x0B) && !has(body, 0x0C),
    );
    when(Deviation::NoBacktracking, !octets.star_in_body);
    when(Deviation::DollarAnywhere, !octets.dollar_in_body);
    when(
        Deviation::WildcardsOutOfLength,
        !octets.star_in_body && !octets.dollar_in_body,
    );
    // A rule's length as written differs from its pattern's only through an escape, `$`, `*`
    // (a run of them is one) or an octet outside ASCII.
    when(
        Deviation::RawLength,
        !octets.escape_in_body
            && !octets.dollar_in_body
            && !octets.star_in_body
            && octets.body_is_ascii,
    );
    let no_escape = !octets.escape_in_body && !octets.escape_in_url;
    when(Deviation::DecodeReserved, no_escape);
    when(Deviation::EscapeCaseRulesOnly, no_escape);
    // An escape in the URL can be decoded to an octet outside ASCII.
    when(
        Deviation::UrlNonAsciiRaw,
        url.is_ascii() && !octets.escape_in_url,
    );
    when(
        Deviation::UrlSpecialsRaw,
        !has(url, b'*') && !has(url, b'$'),
    );
    when(Deviation::FragmentKept, split.fragment.is_none());
    when(Deviation::EmptyPathNotSlash, !split.empty_path);
    // An index page's name, also where a charset reading drops the octets outside ASCII.
    let index_page = |body: &[u8]| memchr::memmem::find(body, b"/index.htm").is_some();
    when(
        Deviation::IndexHtmlAllowsDirectory,
        !index_page(body)
            && (octets.body_is_ascii
                || !index_page(
                    &body
                        .iter()
                        .copied()
                        .filter(u8::is_ascii)
                        .collect::<Vec<_>>(),
                )),
    );
    inert
}

/// The part of [`inert`] whose subjects are lines of the body ([`BY_LINES`]).
fn inert_by_lines(body: &[u8]) -> Deviations {
    let mut inert = Deviations::NONE;
    let mut when = |deviation: Deviation, absent: bool| {
        if absent {
            inert = inert.with(deviation);
        }
    };
    // The line and field deviations are looked for in the body as it is and, when it has octets
    // outside ASCII, without them too (a charset reading can drop them, from inside a field's name
    // too; none of them ends a line, so the lines are the same).
    let ascii_only: Option<Vec<u8>> =
        (!body.is_ascii()).then(|| body.iter().copied().filter(u8::is_ascii).collect());
    let bodies = || std::iter::once(body).chain(ascii_only.as_deref());
    // The line deviations' subjects, in the lines of every split.
    let [no_colon, empty_agent, slashless, empty, unparsable] =
        bodies().map(line_subjects).fold([false; 5], |all, found| {
            std::array::from_fn(|i| all[i] || found[i])
        });
    when(Deviation::NoColonLineIsBlank, !no_colon);
    when(Deviation::InvalidLineRejectsFile, !unparsable);
    when(
        Deviation::RecordGrammarRejectsFile,
        !bodies().any(record_grammar_at_stake),
    );
    // D-typo-fields reads a field that begins with a misspelling: none is in the body.
    when(
        Deviation::TypoFields,
        !bodies().any(|body| holds_any(body, crate::line::TYPOS.iter().map(|&(_, typo)| typo))),
    );
    // D-field-prefix reads a field that begins with a field's name and goes on: nowhere does a
    // field's name (`allow` in `disallow` too) have more than spaces and tabs before a colon, the
    // line's end or the body's end.
    let prefixed = |body: &[u8]| {
        [&b"allow"[..], b"user-agent"].iter().any(|name| {
            places_of(body, name).any(|at| {
                let rest = &body[at + name.len()..];
                let next = rest.iter().find(|&&b| !crate::line::is_ws(b));
                !matches!(next, None | Some(b':') | Some(b'\n'))
            })
        })
    };
    when(Deviation::FieldPrefix, !bodies().any(prefixed));
    when(Deviation::EmptyAgentMatchesAll, !empty_agent);
    when(Deviation::EmptyAgentNamesAll, !empty_agent);
    when(Deviation::SlashlessRuleRooted, !slashless);
    when(Deviation::EmptyRuleAllowsRest, !empty);
    inert
}

/// Whether one of `words` (none empty) is in `body`, ASCII case ignored: one pass over the body
/// for each distinct first letter.
fn holds_any<'w>(body: &[u8], words: impl Iterator<Item = &'w [u8]> + Clone) -> bool {
    let mut firsts: Vec<u8> = words.clone().map(|w| w[0].to_ascii_lowercase()).collect();
    firsts.sort_unstable();
    firsts.dedup();
    firsts.into_iter().any(|first| {
        memchr::memchr2_iter(first, first.to_ascii_uppercase(), body).any(|at| {
            words
                .clone()
                .any(|word| word[0].eq_ignore_ascii_case(&first) && starts_at(body, at, word))
        })
    })
}

/// Where `word` (not empty) starts in `body`, ASCII case ignored.
fn places_of<'a>(body: &'a [u8], word: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let (lower, upper) = (word[0].to_ascii_lowercase(), word[0].to_ascii_uppercase());
    memchr::memchr2_iter(lower, upper, body).filter(move |&at| starts_at(body, at, word))
}

/// Whether `word` starts at `at` in `body`, ASCII case ignored.
fn starts_at(body: &[u8], at: usize, word: &[u8]) -> bool {
    body.len() - at >= word.len() && body[at..at + word.len()].eq_ignore_ascii_case(word)
}

/// Whether some line of `body` is one D-no-colon-line-is-blank, the two empty-agent deviations,
/// D-slashless-rule-rooted, D-empty-rule-allows-rest and D-invalid-line-rejects-file can read
/// differently, in that order. The lines are those of every reading's split: at LF only, at LF and
/// CR, at LF and NUL, at every CR, LF and NUL, each with and without a CR before its LF. A body
/// over the smallest size limit has every subject (a cut can end a line anywhere).
///
/// Splitting the body at LF and another octet gives the pieces of each LF line split at that
/// octet, so the body is split at LF once and only a line holding a CR or a NUL is split again.
fn line_subjects(body: &[u8]) -> [bool; 5] {
    if over_size_limit(body) {
        return [true; 5];
    }
    let mut found = [false; 5];
    let mut look_at = |line: &[u8]| {
        look(line, &mut found);
        if let Some(kept) = line.strip_suffix(b"\r") {
            look(kept, &mut found);
        }
        found.iter().all(|&f| f)
    };
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', body).chain(std::iter::once(body.len())) {
        let line = &body[start..end];
        start = end + 1;
        let (cr, nul) = (
            memchr::memchr(b'\r', line).is_some(),
            memchr::memchr(0, line).is_some(),
        );
        // At LF only; then at LF and CR, at LF and NUL, at all three, where the line has them.
        let done = look_at(line)
            || (cr && line.split(|&b| b == b'\r').any(&mut look_at))
            || (nul && line.split(|&b| b == 0).any(&mut look_at))
            || (cr && nul && line.split(|&b| b == b'\r' || b == 0).any(&mut look_at));
        if done {
            break;
        }
    }
    found
}

/// Adds to `found` (in [`line_subjects`]' order) the subjects `line` holds. The comment is removed
/// and the colon looked for once for all of them.
fn look(line: &[u8], found: &mut [bool; 5]) {
    let content = crate::line::strip_comment(line);
    let colon = memchr::memchr(b':', content);
    let blank = crate::line::trim_ws(line).is_empty();
    let field_has_agent = |field: &[u8]| field.windows(5).any(|w| w.eq_ignore_ascii_case(b"agent"));
    // A line D-no-colon-line-is-blank reads as blank: not blank, no colon, no comment.
    found[0] |= !blank && colon.is_none() && content.len() == line.len();
    if let Some(colon) = colon {
        // A field and its value (as `line::field_and_value` splits them).
        let (field, value) = (&content[..colon], trim_blank(&content[colon + 1..]));
        // D-empty-agent-matches-all: a field holding `agent` (the typos and prefixes included)
        // whose value, white space, vertical tabs and form feeds removed, is empty.
        found[1] |= value.is_empty() && field_has_agent(field);
        // D-slashless-rule-rooted: a value not empty and not beginning with `/`, on a line whose
        // field is not a user-agent.
        found[2] |= !value.is_empty() && value[0] != b'/' && !field_has_agent(field);
        // A field with an empty value.
        found[3] |= value.is_empty();
    } else {
        // With no colon, D-space-for-colon reads the first word as the field.
        let words = crate::line::trim_ws(content);
        let space = words.iter().position(|&b| crate::line::is_ws(b));
        let (field, value) = words.split_at(space.unwrap_or(words.len()));
        let value = trim_blank(value);
        found[2] |= !value.is_empty() && value[0] != b'/' && !field_has_agent(field);
    }
    // D-invalid-line-rejects-file: not blank, and no colon or no field name before the first
    // colon (one in the comment counts, which is generous).
    let first_colon =
        colon.or_else(|| memchr::memchr(b':', &line[content.len()..]).map(|at| content.len() + at));
    found[4] |= !blank
        && first_colon.is_none_or(|colon| {
            !crate::deviation::is_field_name(crate::line::trim_ws(&line[..colon]))
        });
}

/// Whether D-record-grammar-rejects-file can read `body` otherwise than as it is: in some split
/// into lines (at LF only, at LF and CR, at LF and NUL, at all three; a line with and without a CR
/// before its LF), the first line that is neither blank nor a comment may be a rule or other field
/// line, or such a line comes before one that may be a user-agent line. Generous: a line may be a
/// user-agent line when it holds `agent` anywhere, and a rule or other line unless it begins with
/// `user-agent:` (no white space before the field or the colon, which some readings refuse). A
/// body over the smallest size limit is always at stake.
fn record_grammar_at_stake(body: &[u8]) -> bool {
    if over_size_limit(body) {
        return true;
    }
    let user_agent_line = |line: &[u8]| starts_at(line, 0, b"user-agent:");
    let at_stake_in = |ends: fn(&u8) -> bool| {
        let mut content_seen = false;
        let mut other_seen = false;
        for line in body.split(ends) {
            let variants = [line, line.strip_suffix(b"\r").unwrap_or(line)];
            let content = variants
                .iter()
                .any(|v| !crate::line::trim_ws(crate::line::strip_comment(v)).is_empty());
            if !content {
                continue;
            }
            let maybe_agent = places_of(line, b"agent").next().is_some();
            let maybe_other = variants.iter().any(|v| !user_agent_line(v));
            if (other_seen && maybe_agent) || (!content_seen && maybe_other) {
                return true;
            }
            content_seen = true;
            other_seen |= maybe_other;
        }
        false
    };
    // A split at an octet the body lacks is the split at LF again.
    let (cr, nul) = (
        memchr::memchr(b'\r', body).is_some(),
        memchr::memchr(0, body).is_some(),
    );
    at_stake_in(|&b| b == b'\n')
        || (cr && at_stake_in(|&b| b == b'\n' || b == b'\r'))
        || (nul && at_stake_in(|&b| b == b'\n' || b == 0))
        || (cr && nul && at_stake_in(|&b| matches!(b, b'\n' | b'\r' | 0)))
}

/// `value` without spaces, tabs, vertical tabs and form feeds at either end.
fn trim_blank(value: &[u8]) -> &[u8] {
    let blank = |b: &u8| crate::line::is_ws(*b) || *b == 0x0B || *b == 0x0C;
    let start = value.iter().position(|b| !blank(b)).unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |at| at + 1);
    &value[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`BY_LINES`] names what [`inert_by_lines`] decides: in a body with no line at all, every
    /// one of them and nothing else, and none of them is decided by octets (nor is a body's
    /// deviation, which the cause search filters by octets alone).
    #[test]
    fn the_line_deviations_are_those_inert_by_lines_decides() {
        let by_lines = BY_LINES
            .iter()
            .fold(Deviations::NONE, |all, &d| all.with(d));
        assert_eq!(inert_by_lines(b""), by_lines);
        for (body, url) in [(&b""[..], "/"), (b"User-agent: *\nDisallow: /\n", "/x?y#z")] {
            let request = Request::new(body, "FooBot", url);
            let octets = inert_by_octets(&request, &Octets::of(&request));
            assert!(octets.only_in(by_lines).is_empty());
        }
        assert!(crate::deviation::BODY.iter().all(|d| !BY_LINES.contains(d)));
    }

    /// [`line_subjects`] as the documents' splits are described: the whole body split four ways.
    fn line_subjects_split_four_ways(body: &[u8]) -> [bool; 5] {
        let mut found = [false; 5];
        for (at_cr, at_nul) in [(false, false), (true, false), (false, true), (true, true)] {
            for line in body.split(|&b| b == b'\n' || (at_cr && b == b'\r') || (at_nul && b == 0)) {
                look(line, &mut found);
                if let Some(kept) = line.strip_suffix(b"\r") {
                    look(kept, &mut found);
                }
            }
        }
        found
    }

    #[test]
    fn line_subjects_are_those_of_the_four_splits() {
        // Bodies of short pieces that make and break each subject, CRs and NULs anywhere.
        let pieces: [&[u8]; 16] = [
            b"\n",
            b"\r",
            b"\0",
            b"\r\n",
            b"User-agent:",
            b"user-agent",
            b"Disallow:",
            b" /x",
            b"x",
            b"#c",
            b":",
            b" ",
            b"agent:",
            b"Allow: ",
            b"\0/",
            b"\x0B",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            let mut body = Vec::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bits = state;
            for _ in 0..(bits % 12) {
                bits = bits.rotate_right(5) ^ state;
                body.extend_from_slice(pieces[(bits % 16) as usize]);
            }
            assert_eq!(
                line_subjects(&body),
                line_subjects_split_four_ways(&body),
                "{body:?}"
            );
        }
    }

    #[test]
    fn field_deviations_are_live_where_a_charset_reading_can_make_their_subject() {
        let live = |body: &[u8], deviation: Deviation| {
            !inert(&Request::new(body, "FooBot", "/x")).has(deviation)
        };
        // Dropping the invalid octet makes a misspelling, or a field name that runs on.
        assert!(live(
            b"User-agent: *\nDisal\xFFow: /x\n",
            Deviation::TypoFields
        ));
        assert!(live(
            b"User-agent: *\nAl\xFFlowed: /x\n",
            Deviation::FieldPrefix
        ));
        assert!(!live(
            b"User-agent: *\nDisallow: /x\n",
            Deviation::TypoFields
        ));
        assert!(!live(
            b"User-agent: *\nDisallow: /x\n",
            Deviation::FieldPrefix
        ));
        assert!(live(
            b"User-agent: *\nDisallowed: /x\n",
            Deviation::FieldPrefix
        ));
    }
}
