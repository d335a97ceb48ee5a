//! The reading table: for every step of the pipeline and every document, the questions the step
//! asks of the document, each answered by the sentence that decides it, or by the document's
//! silence and what follows from it (`docs/profiles.md`, "The reading table", renders it).
//!
//! A document **says** when a sentence of it decides the question. Where it is **silent**, the 1996
//! draft's secondary reading, the Guide, fills it in; any other silence is **open**, with the
//! alternatives [`crate::knobs::OPEN_KNOBS`] lists (or the open answers of the step functions that
//! decide before the body is read: scope, the fetch outcome, the history). A document that says
//! two things that disagree **contradicts itself** there: open too. A sentence can also **leave**
//! a question open (a MAY, an example, a limit with no figure). Where a document gives a rule and
//! no exception to it (every 1994 Disallow line applies, wherever it stands), the rule decides: a
//! silence opens a question only where the words admit several readings of it.
//!
//! A leaf beside [`crate::knobs`]: data and its rendering, read by the tests that keep the table,
//! the knobs, `docs/profiles.md` and the cases' notes in step (`oracle/tests/reading_table.rs`,
//! `tests/reading_notes.rs`, `tests/twins.rs`).

use crate::knobs::ProfileId;

/// A step of the pipeline, as the table groups its questions (`docs/profiles.md`, "The
/// pipeline").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// Step 0: which URLs a file governs (K0).
    Scope,
    /// Step 8, read first: what a fetch that gave no 2xx decides (K15, K10 against K15).
    FetchOutcome,
    /// Steps 1 and 2: the body and its lines (K7 charset, K12, K13).
    Lines,
    /// Step 3: records and groups (K1, K2, K17).
    Groups,
    /// Step 4: which group applies to the crawler (K3).
    AgentMatching,
    /// Step 5: the match target and percent-encoding (K7, K8).
    PathNormalisation,
    /// Step 6: matching one rule (K6, K9, K10, K11).
    Matching,
    /// Step 7: which matching rule decides (K4, K5).
    Precedence,
    /// Step 1: how much of the body is read (K14).
    Limits,
    /// A history of fetches: which fetch decides at a time (K16).
    Caching,
}

impl Step {
    /// Every step, in the table's order.
    pub const ALL: [Step; 10] = [
        Step::Scope,
        Step::FetchOutcome,
        Step::Lines,
        Step::Groups,
        Step::AgentMatching,
        Step::PathNormalisation,
        Step::Matching,
        Step::Precedence,
        Step::Limits,
        Step::Caching,
    ];

    /// The step's name, as the page writes it.
    pub fn name(self) -> &'static str {
        match self {
            Step::Scope => "scope",
            Step::FetchOutcome => "fetch outcome",
            Step::Lines => "lines",
            Step::Groups => "records and groups",
            Step::AgentMatching => "agent matching",
            Step::PathNormalisation => "path normalisation",
            Step::Matching => "matching",
            Step::Precedence => "precedence",
            Step::Limits => "limits",
            Step::Caching => "caching",
        }
    }
}

/// A sentence of a document, with its citation (`rfc9309#2.2.2`), as the document words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sentence {
    /// Where it stands.
    pub cite: &'static str,
    /// Its words (a short quotation; the 1994 text in its Russian translation).
    pub words: &'static str,
}

/// What a document's words do with a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// A sentence decides it.
    Says(&'static [Sentence]),
    /// The sentences leave it open: a MAY, an example, a limit with no figure.
    Leaves(&'static [Sentence]),
    /// Two sentences disagree here: open.
    Contradicts(&'static [Sentence]),
    /// The 1996 draft is silent and the Guide (its secondary reading) says.
    Guide(&'static [Sentence]),
    /// The document is silent: open.
    Silent,
}

/// One document's answer to one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// What the words do.
    pub basis: Basis,
    /// What follows, in words.
    pub reading: &'static str,
    /// What stays open: the rows of [`crate::knobs::OPEN_KNOBS`] for this document that hold the
    /// alternatives (by name), or, for the steps decided before the body is read, the open answers
    /// of their function (`scope::governs`, `fetch::fetch_effect`, `history::permitted`) as
    /// `scope`, `fetch` or `history`. Empty when the question is settled.
    pub open: &'static [&'static str],
}

impl Cell {
    /// Whether the document leaves something of the question open.
    pub fn is_open(&self) -> bool {
        !self.open.is_empty()
    }
}

/// The spellings of one question a twin takes a check through (`tests/twins.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Twin {
    /// Every escape's hex digits in the other case.
    HexCase,
    /// The rule written as the URL and the URL as the rule: an escape in the rule instead of the
    /// URL.
    EscapeSide,
    /// The same comparison made in the query instead of the path.
    PathToQuery,
    /// The same rules in a body grown past 500 KiB by comment lines after them: the same silence
    /// (or sentence) on a limit, asked of a large body.
    LargeBody,
}

impl Twin {
    /// The twin's name, as the page writes it.
    pub fn name(self) -> &'static str {
        match self {
            Twin::HexCase => "hex case",
            Twin::EscapeSide => "escape side",
            Twin::PathToQuery => "path to query",
            Twin::LargeBody => "large body",
        }
    }
}

/// One question of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// Its id, as notes name it (`profiles.md K7, hex-case`).
    pub id: &'static str,
    /// The step that asks it.
    pub step: Step,
    /// The knob section of `docs/profiles.md` it belongs to (`K7`).
    pub knob: &'static str,
    /// The question, in words.
    pub asks: &'static str,
    /// Each document's answer, in [`ProfileId::ALL`] order.
    pub cells: [Cell; 4],
    /// The twins whose two spellings this question tells apart: where its cell for a document is
    /// open, the twins may get verdicts of another shape under that document.
    pub twins: &'static [Twin],
}

impl Question {
    /// The cell of `profile`.
    pub fn cell(&self, profile: ProfileId) -> &Cell {
        &self.cells[profile.index()]
    }
}

/// The question `id`, if the table has it.
pub fn question(id: &str) -> Option<&'static Question> {
    TABLE.iter().find(|q| q.id == id)
}

const fn says(sentences: &'static [Sentence], reading: &'static str) -> Cell {
    Cell {
        basis: Basis::Says(sentences),
        reading,
        open: &[],
    }
}

const fn says_open(
    sentences: &'static [Sentence],
    reading: &'static str,
    open: &'static [&'static str],
) -> Cell {
    Cell {
        basis: Basis::Says(sentences),
        reading,
        open,
    }
}

const fn leaves(
    sentences: &'static [Sentence],
    reading: &'static str,
    open: &'static [&'static str],
) -> Cell {
    Cell {
        basis: Basis::Leaves(sentences),
        reading,
        open,
    }
}

const fn contradicts(
    sentences: &'static [Sentence],
    reading: &'static str,
    open: &'static [&'static str],
) -> Cell {
    Cell {
        basis: Basis::Contradicts(sentences),
        reading,
        open,
    }
}

const fn guide(sentences: &'static [Sentence], reading: &'static str) -> Cell {
    Cell {
        basis: Basis::Guide(sentences),
        reading,
        open: &[],
    }
}

const fn silent(reading: &'static str, open: &'static [&'static str]) -> Cell {
    Cell {
        basis: Basis::Silent,
        reading,
        open,
    }
}

const fn s(cite: &'static str, words: &'static str) -> Sentence {
    Sentence { cite, words }
}

// Sentences quoted more than once.
const RFC_OCTETS: Sentence = s(
    "rfc9309#2.2.2",
    "The match evaluates positively if and only if the end of the path from the rule is reached \
     before a difference in octets is encountered.",
);
const RFC_UNENCODE: Sentence = s(
    "rfc9309#2.2.2",
    "If a percent-encoded ASCII octet is encountered in the URI, it MUST be unencoded prior to \
     comparison, unless it is a reserved character in the URI as defined by [RFC3986] or the \
     character is outside the unreserved character range.",
);
const RFC_ENCODE: Sentence = s(
    "rfc9309#2.2.2",
    "Octets in the URI and robots.txt paths outside the range of the ASCII coded character set, \
     and those in the reserved range defined by [RFC3986], MUST be percent-encoded as defined by \
     [RFC3986] prior to comparison.",
);
const GOOGLE_UTF8: Sentence = s(
    "google#url-matching",
    "Non-7-bit ASCII characters in a path may be included as UTF-8 characters or as \
     percent-escaped UTF-8 encoded characters per RFC 3986.",
);
const DRAFT_DECODE: Sentence = s(
    "draft-1996#3.2.2",
    "If a %xx encoded octet is encountered it is unencoded prior to comparison, unless it is the \
     \"/\" character, which has special meaning in a path.",
);
const DRAFT_FIRST: Sentence = s("draft-1996#3.2.2", "The first match found is used.");
const DRAFT_PATH_PORTION: Sentence = s(
    "draft-1996#3.2.2",
    "The matching process compares every octet in the path portion of the URL and the path from \
     the record.",
);
const DRAFT_ROBUST: Sentence = s(
    "draft-1996#4.2",
    "Implementors should pay particular attention to the robustness in parsing of the \
     /robots.txt file.",
);
const DRAFT_NAME: Sentence = s(
    "draft-1996#3.2.1",
    "The line either specifies a simple name for a robot, or \"*\"",
);
const N1994_PREFIX: Sentence = s(
    "norobots-1994#format",
    "любой URL, начинающийся с такого пути не должен индексироваться",
);
const N1994_NAME: Sentence = s(
    "norobots-1994#format",
    "значением <value> этого поля должно являться имя поискового робота",
);
const N1994_PARTIAL_URL: Sentence = s(
    "norobots-1994#format",
    "значением <value> этого поля должен являться частичный URL, который не должен \
     индексироваться",
);

/// The 1994 text says nothing of `%xx`: every escape question is open for it, one way.
const ESCAPES_1994: Cell = silent(
    "the text says nothing of escapes: an escape may be compared as written or as the octet it \
     encodes, every escape alike (no exception is the 1994 text's)",
    &["percent-encoding"],
);
/// Google is silent on escapes of ASCII characters: RFC 9309's readings and its own.
const ESCAPES_GOOGLE: Cell = silent(
    "the page speaks only of non-ASCII characters: open between comparing as written and RFC \
     9309's readings",
    &["percent-encoding"],
);

/// Every question, step by step.
pub const TABLE: &[Question] = &[
    // Step 0: scope.
    Question {
        id: "scope",
        step: Step::Scope,
        knob: "K0",
        asks: "Which URLs does the file at a robots.txt URL govern?",
        cells: [
            says(
                &[
                    s(
                        "rfc9309#2.3",
                        "The rules MUST be accessible in a file named \"/robots.txt\" (all \
                         lowercase) in the top-level path of the service.",
                    ),
                    s(
                        "rfc9309#2.3",
                        "As per [RFC3986], the URI of the robots.txt file is: \
                         \"scheme:[//authority]/robots.txt\"",
                    ),
                ],
                "the URLs of its scheme and authority, compared as RFC 3986 compares URIs",
            ),
            says(
                &[s(
                    "google#file-location",
                    "The rules listed in the robots.txt file apply only to the host, protocol, \
                     and port number where the robots.txt file is hosted.",
                )],
                "its host, protocol and port; standard ports equal none",
            ),
            says(
                &[s(
                    "draft-1996#3.1",
                    "The instructions must be accessible via HTTP [2] from the site that the \
                     instructions are to be applied to",
                )],
                "its site, on HTTP: host and port (the Guide: \"defined by the hostname and port \
                 number\")",
            ),
            says(
                &[s(
                    "norobots-1994#method",
                    "Этот файл должен быть доступен по протоколу HTTP по локальному URL \
                     /robots.txt.",
                )],
                "its server's URLs, on HTTP (the file must be accessible via HTTP at the local \
                 URL /robots.txt)",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "idn",
        step: Step::Scope,
        knob: "K0",
        asks: "Is an internationalised host the same as its punycode form?",
        cells: [
            silent(
                "RFC 3986's comparison does not make them equal, the DNS does: open",
                &["scope"],
            ),
            contradicts(
                &[
                    s(
                        "google#file-location",
                        "IDNs are equivalent to their punycode versions.",
                    ),
                    s(
                        "google#file-location",
                        "A robots.txt on a subdomain is only valid for that subdomain.",
                    ),
                ],
                "equal; the row listing the punycode without its `www.` label against the rules \
                 that make it another host: open for that URL",
                &["scope"],
            ),
            silent("the draft predates IDNs: open", &["scope"]),
            silent("the text predates IDNs: open", &["scope"]),
        ],
        twins: &[],
    },
    Question {
        id: "scope-edges",
        step: Step::Scope,
        knob: "K0",
        asks: "A trailing dot, user information, an escaped file name, another scheme on the same \
               host and port, another protocol: the same service?",
        cells: [
            silent(
                "a trailing dot and user information are not said to make another service: open; \
                 `/%72obots.txt` is the file (RFC 3986 6.2.2.2), another scheme another service",
                &["scope"],
            ),
            silent(
                "a protocol other than HTTP, HTTPS and FTP, an escaped file name, a trailing dot: \
                 open; user information is none of host, protocol and port",
                &["scope"],
            ),
            silent(
                "the same host and port under another scheme, an escaped file name, a trailing \
                 dot: open",
                &["scope"],
            ),
            silent(
                "the same host and port under another scheme, an escaped file name, a trailing \
                 dot: open",
                &["scope"],
            ),
        ],
        twins: &[],
    },
    // Step 8, read first: the fetch outcome.
    Question {
        id: "fetch-outcome",
        step: Step::FetchOutcome,
        knob: "K15",
        asks: "What does a fetch that gave no 2xx decide?",
        cells: [
            says_open(
                &[
                    s(
                        "rfc9309#2.3.1.3",
                        "If a server status code indicates that the robots.txt file is \
                         unavailable to the crawler, then the crawler MAY access any resources on \
                         the server.",
                    ),
                    s(
                        "rfc9309#2.3.1.4",
                        "If the robots.txt file is unreachable due to server or network errors, \
                         this means the robots.txt file is undefined and the crawler MUST assume \
                         complete disallow.",
                    ),
                ],
                "4xx allowed, 5xx and unreachable disallowed; more than five redirects, a final \
                 3xx, 1xx and statuses outside 100-599 open",
                &["fetch"],
            ),
            says_open(
                &[
                    s(
                        "google#status-codes",
                        "Google's crawlers treat all 4xx errors, except 429, as if a valid \
                         robots.txt file didn't exist.",
                    ),
                    s(
                        "google#status-codes",
                        "For the first 12 hours, Google stops crawling the site but keeps trying \
                         to fetch the robots.txt file.",
                    ),
                    s(
                        "google#status-codes",
                        "Google follows at least five redirect hops as defined by RFC 1945 and \
                         then stops and treats it as a 404 for the robots.txt file.",
                    ),
                ],
                "4xx but 429 allowed, 5xx and network errors disallowed, five redirect hops \
                 followed and a chain it stops on a 404; 429, 1xx and a sixth hop (\"at least \
                 five\") open",
                &["fetch"],
            ),
            says_open(
                &[
                    s(
                        "draft-1996#3.1",
                        "If the server response indicates the resource does not exist (HTTP \
                         Status Code 404), the robot can assume no instructions are available, \
                         and that access to the site is unrestricted.",
                    ),
                    s(
                        "draft-1996#3.1",
                        "Specific behaviors for other server responses are not required by this \
                         specification",
                    ),
                ],
                "404 and 410 allowed, 401 and 403 disallowed, 503 and unreachable defer \
                 (disallowed), redirects followed; the rest open",
                &["fetch"],
            ),
            says_open(
                &[s(
                    "norobots-1994#format",
                    "Если файл /robots.txt пуст, или не отвечает заданному формату и семантике, \
                     или его не существует, любой поисковый робот будет работать по своему \
                     алгоритму.",
                )],
                "a missing file leaves the robot to its own algorithm: allowed; every other \
                 outcome open",
                &["fetch"],
            ),
        ],
        twins: &[],
    },
    Question {
        id: "robots-txt-before-outcome",
        step: Step::FetchOutcome,
        knob: "K10",
        asks: "Is the /robots.txt URI allowed before the fetch outcome decides?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2.2",
                    "The /robots.txt URI is implicitly allowed.",
                )],
                "yes, whatever the outcome: complete disallow is what the undefined file is \
                 assumed to say",
            ),
            says(
                &[s(
                    "google#status-codes",
                    "For the first 12 hours, Google stops crawling the site but keeps trying to \
                     fetch the robots.txt file.",
                )],
                "during server errors; otherwise the outcome decides",
            ),
            guide(
                &[s(
                    "guide-ch9#allow-disallow",
                    "The robots.txt URL always is allowed and must not appear in the \
                     Allow/Disallow rules.",
                )],
                "yes, whatever the outcome",
            ),
            silent(
                "the text says nothing of the file's own URL: the body's readings hold the open \
                 exemption; before the outcome it could change no verdict, every outcome but a \
                 missing file (allowed) being open",
                &["robots-txt-allowed"],
            ),
        ],
        twins: &[],
    },
    // Steps 1 and 2: the body and its lines.
    Question {
        id: "line-ends",
        step: Step::Lines,
        knob: "K12",
        asks: "Which octets end a line?",
        cells: [
            says(
                &[s("rfc9309#2.2", "NL = %x0D / %x0A / %x0D.0A")],
                "CR, LF and CRLF",
            ),
            says(
                &[s(
                    "google#file-format",
                    "the lines must be separated by CR, CR/LF, or LF",
                )],
                "CR, LF and CRLF",
            ),
            says(
                &[s(
                    "draft-1996#4.2",
                    "robots should be liberal in accepting files with different end-of-line \
                     conventions, specifically CR and LF in addition to CRLF",
                )],
                "CR, LF and CRLF",
            ),
            says(
                &[s(
                    "norobots-1994#format",
                    "оканчивающимися CR, CR/NL или NL",
                )],
                "CR, CR NL and NL (lines ending in CR, CR/NL or NL)",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "comments",
        step: Step::Lines,
        knob: "K13",
        asks: "Where does a comment start and end?",
        cells: [
            says(
                &[s("rfc9309#2.2.3", "Designates a line comment.")],
                "`#` to the end of the line",
            ),
            says(
                &[s(
                    "google#syntax",
                    "Keep in mind that everything after the # character will be ignored.",
                )],
                "`#` to the end of the line",
            ),
            says(
                &[s(
                    "draft-1996#3.2",
                    "Comments are allowed anywhere in the file, and consist of a comment \
                     character '#' followed by the comment, terminated by the end-of-line.",
                )],
                "`#` to the end of the line",
            ),
            says(
                &[s(
                    "norobots-1994#format",
                    "символ # означает начало комментария, конец строки - конец комментария",
                )],
                "`#` to the end of the line (# starts a comment, the end of the line ends it)",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "bom",
        step: Step::Lines,
        knob: "K12",
        asks: "Is a UTF-8 byte-order mark at the start of the body skipped?",
        cells: [
            silent(
                "not mentioned: the first line may be read without it or be unparseable",
                &["bom"],
            ),
            says(
                &[s(
                    "google#file-format",
                    "Google ignores invalid lines in robots.txt files, including the Unicode \
                     Byte Order Mark (BOM) at the beginning of the robots.txt file",
                )],
                "skipped",
            ),
            silent("not mentioned (nor by the Guide): open", &["bom"]),
            silent("not mentioned: open", &["bom"]),
        ],
        twins: &[],
    },
    Question {
        id: "field-spacing",
        step: Step::Lines,
        knob: "K13",
        asks: "May white space stand before a field or before its colon?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2",
                    "startgroupline = *WS \"user-agent\" *WS \":\" *WS product-token EOL",
                )],
                "yes",
            ),
            says(
                &[s(
                    "google#syntax",
                    "Space at the beginning and at the end of the line is ignored.",
                )],
                "yes",
            ),
            contradicts(
                &[
                    s(
                        "draft-1996#3.3",
                        "disallowline = \"Disallow:\" *space path *space [comment] CRLF",
                    ),
                    DRAFT_ROBUST,
                ],
                "the grammar has none, robustness is asked for: open",
                &["field-spacing"],
            ),
            says(
                &[
                    s(
                        "norobots-1994#format",
                        "\"<field>:<optional_space><value><optional_space>\"",
                    ),
                    s(
                        "norobots-1994#format",
                        "Нераспознанные строки игнорируются.",
                    ),
                ],
                "no: such a line is an unrecognised line, ignored",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "invalid-pattern",
        step: Step::Lines,
        knob: "K13",
        asks: "Is a rule whose value holds a control octet or inner white space (under the 1996 \
               draft, an octet outside ASCII) still a rule?",
        cells: [
            contradicts(
                &[
                    s(
                        "rfc9309#2.2",
                        "path-pattern = \"/\" *UTF8-char-noctl ; valid URI path pattern",
                    ),
                    s("rfc9309#2.3.1.5", "Crawlers MUST use the parseable rules."),
                ],
                "no valid pattern, yet its octets can be matched: open",
                &["invalid-pattern"],
            ),
            says(
                &[s(
                    "google#syntax",
                    "Valid robots.txt lines consists of a field, a colon, and a value.",
                )],
                "a value with inner white space is a value: used",
            ),
            contradicts(
                &[
                    s(
                        "draft-1996#3.3",
                        "CHAR = <any US-ASCII character (octets 0 - 127)>",
                    ),
                    DRAFT_ROBUST,
                ],
                "no `path` of the grammar, robustness is asked for: open",
                &["invalid-pattern"],
            ),
            says(
                &[N1994_PARTIAL_URL, N1994_PREFIX],
                "the value is the partial URL URLs are compared with: used as written",
            ),
        ],
        // A raw octet outside ASCII is a pattern's question in a rule, not in the URL.
        twins: &[Twin::EscapeSide],
    },
    Question {
        id: "charset",
        step: Step::Lines,
        knob: "K7",
        asks: "How is a body that is not UTF-8 read?",
        cells: [
            leaves(
                &[s(
                    "rfc9309#2.2.2",
                    "Implementors MAY bridge encoding mismatches if they detect that the \
                     robots.txt file is not UTF-8 encoded.",
                )],
                "as octets, or bridged (Latin-1): open",
                &["bridge-encoding"],
            ),
            leaves(
                &[s(
                    "google#file-format",
                    "Google may ignore characters that are not part of the UTF-8 range, \
                     potentially rendering robots.txt rules invalid.",
                )],
                "the octets kept, dropped, or their line dropped: open",
                &["non-utf8"],
            ),
            says(
                &[s(
                    "draft-1996#3.3",
                    "CHAR = <any US-ASCII character (octets 0 - 127)>",
                )],
                "as octets: the draft knows only US-ASCII (a rule holding another octet is \
                 `invalid-pattern`'s question)",
            ),
            says(
                &[N1994_PREFIX],
                "as octets: the text knows no character set to read them in",
            ),
        ],
        twins: &[],
    },
    // Step 3: records and groups.
    Question {
        id: "grouping",
        step: Step::Groups,
        knob: "K1",
        asks: "What makes a group (a record)?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.1",
                    "One or more user-agent lines that are followed by one or more rules. The \
                     group is terminated by a user-agent line or end of file.",
                )],
                "user-agent lines and the rules after them; blank lines mean nothing",
            ),
            says(
                &[s(
                    "google#grouping",
                    "You can group together rules that apply to multiple user agents by \
                     repeating user-agent lines for each crawler.",
                )],
                "as RFC 9309's section 2.1, which the page refers to",
            ),
            says(
                &[s(
                    "draft-1996#3.2",
                    "The format logically consists of a non-empty set or records, separated by \
                     blank lines.",
                )],
                "records separated by blank lines",
            ),
            says(
                &[s(
                    "norobots-1994#format",
                    "Файл должен содержать одну или несколько записей (records), разделенных \
                     одной или несколькими пустыми строками",
                )],
                "records separated by one or more empty lines",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "agent-after-rule",
        step: Step::Groups,
        knob: "K1",
        asks: "Does a user-agent line right after a rule, with no blank line between, start a new \
               record?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.1",
                    "The group is terminated by a user-agent line or end of file.",
                )],
                "yes",
            ),
            says(
                &[s(
                    "google#grouping",
                    "For the technical description of a group, see section 2.1 of the REP.",
                )],
                "yes, as RFC 9309",
            ),
            silent(
                "the grammar does not allow it: a new record or the current one, open",
                &["agent-after-rule"],
            ),
            silent(
                "records end at empty lines only: a new record or the current one, open",
                &["agent-after-rule"],
            ),
        ],
        twins: &[],
    },
    Question {
        id: "comment-line",
        step: Step::Groups,
        knob: "K1",
        asks: "Is a line holding only a comment an empty line that ends a record?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.1",
                    "The group is terminated by a user-agent line or end of file.",
                )],
                "no: groups end at user-agent lines",
            ),
            says(
                &[s(
                    "google#grouping",
                    "For the technical description of a group, see section 2.1 of the REP.",
                )],
                "no, as RFC 9309",
            ),
            says(
                &[s("draft-1996#3.3", "commentline = comment CRLF")],
                "no: the grammar keeps a commentline apart from a blank",
            ),
            silent(
                "records are separated by empty lines (\"пустыми строками\") and comments take \
                 the usual UNIX form (\"в обычной для UNIX форме\"); whether a comment line is \
                 empty the text does not say: open",
                &["comment-line"],
            ),
        ],
        twins: &[],
    },
    Question {
        id: "rules-outside-groups",
        step: Step::Groups,
        knob: "K2",
        asks: "Does a rule that belongs to no group apply?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2.2",
                    "The crawler SHOULD ignore \"disallow\" and \"allow\" rules that are not in \
                     any group",
                )],
                "no",
            ),
            says(
                &[s(
                    "google#disallow",
                    "The disallow rule specifies paths that must not be accessed by the crawlers \
                     identified by the user-agent line the disallow rule is grouped with.",
                )],
                "no: it is grouped with no user-agent line",
            ),
            says(
                &[s(
                    "draft-1996#3.2",
                    "The record starts with one or more User-agent lines",
                )],
                "no: it is in no record",
            ),
            says(
                &[s(
                    "norobots-1994#format",
                    "Запись должна начинаться с одной или нескольких строк User-Agent",
                )],
                "no: a record starts with User-Agent lines",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "other-records",
        step: Step::Groups,
        knob: "K17",
        asks: "Does a line of another field (sitemap, crawl-delay, unknown) end a group or change \
               a verdict?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2.4",
                    "Parsing of other records MUST NOT interfere with the parsing of explicitly \
                     defined records in Section 2.",
                )],
                "no",
            ),
            says(
                &[s(
                    "google#grouping",
                    "Rules other than allow, disallow, and user-agent are ignored by the \
                     robots.txt parser.",
                )],
                "no",
            ),
            guide(
                &[s(
                    "guide-ch9#other-wisdom",
                    "A robot should ignore any field it doesn't understand.",
                )],
                "no: an ignored line inside the record, which no blank line ends",
            ),
            says(
                &[s(
                    "norobots-1994#format",
                    "Нераспознанные строки игнорируются.",
                )],
                "no: unrecognised lines are ignored",
            ),
        ],
        twins: &[],
    },
    // Step 4: agent matching.
    Question {
        id: "agent-value",
        step: Step::AgentMatching,
        knob: "K3",
        asks: "How is a user-agent value that is no plain name read (a version, a `*` with text \
               after it)?",
        cells: [
            leaves(
                &[s(
                    "rfc9309#2.2.1",
                    "The product token MUST contain only uppercase and lowercase letters (\"a-z\" \
                     and \"A-Z\"), underscores (\"_\"), and hyphens (\"-\").",
                )],
                "no product token: compared whole or by its leading token, open",
                &["agent-value"],
            ),
            says_open(
                &[s(
                    "google#user-agent-precedence",
                    "All non-matching text is ignored (for example, both googlebot/1.2 and \
                     googlebot* are equivalent to googlebot).",
                )],
                "its leading token; text after a `*` the page does not address: open",
                &["star-with-suffix"],
            ),
            contradicts(
                &[
                    s("draft-1996#3.3", "agent = token"),
                    s(
                        "draft-1996#3.3",
                        "token = 1*<any CHAR except CTLs or tspecials>",
                    ),
                    DRAFT_ROBUST,
                ],
                "no token of the grammar (a space, a `/`, a `*` with text after it), robustness \
                 is asked for: compared whole or by its leading token, open",
                &["agent-value"],
            ),
            says(&[N1994_NAME], "the whole value is the robot's name"),
        ],
        twins: &[],
    },
    Question {
        id: "agent-comparison",
        step: Step::AgentMatching,
        knob: "K3",
        asks: "How is a name compared with the crawler's name?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2.1",
                    "Crawlers MUST use case-insensitive matching to find the group that matches \
                     the product token and then obey the rules of the group.",
                )],
                "equal, case aside",
            ),
            says(
                &[s(
                    "google#user-agent-precedence",
                    "Even if there is an entry for a related crawler, it is only valid if it's \
                     specifically matching.",
                )],
                "equal, case aside",
            ),
            says(
                &[
                    DRAFT_NAME,
                    s(
                        "draft-1996#3.2.1",
                        "might scan the \"/robots.txt\" file for records with: User-agent: \
                         figtree",
                    ),
                    s(
                        "draft-1996#3.2.1",
                        "The name comparisons are case-insensitive.",
                    ),
                ],
                "equal, case aside: the robot scans for records naming it (the Guide's substring \
                 comparison is not a silence it fills)",
            ),
            says(
                &[
                    N1994_NAME,
                    s(
                        "norobots-1994#format",
                        "заглавные или строчные символы роли не играют",
                    ),
                ],
                "equal, case aside (upper or lower case letters do not matter)",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "agent-list",
        step: Step::AgentMatching,
        knob: "K3",
        asks: "May one user-agent line name several robots?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2",
                    "startgroupline = *WS \"user-agent\" *WS \":\" *WS product-token EOL",
                )],
                "no: one product token",
            ),
            says(
                &[s(
                    "google#user-agent-precedence",
                    "All non-matching text is ignored (for example, both googlebot/1.2 and \
                     googlebot* are equivalent to googlebot).",
                )],
                "no: the leading token",
            ),
            says(
                &[s(
                    "draft-1996#3.3",
                    "agentline = \"User-agent:\" *space agent *space [comment] CRLF",
                )],
                "no: one token",
            ),
            leaves(
                &[s(
                    "norobots-1994#translator-note",
                    "можно записывать в строке User-Agent несколько имен роботов, разделенных \
                     пробелами или табуляторами",
                )],
                "the translator's note lets several names be separated by spaces or tabs: open",
                &["agent-list"],
            ),
        ],
        twins: &[],
    },
    Question {
        id: "group-selection",
        step: Step::AgentMatching,
        knob: "K3",
        asks: "Which groups apply when several name the crawler, and when none does?",
        cells: [
            says(
                &[
                    s(
                        "rfc9309#2.2.1",
                        "If there is more than one group matching the user-agent, the matching \
                         groups' rules MUST be combined into one group",
                    ),
                    s(
                        "rfc9309#2.2.1",
                        "If no matching group exists, crawlers MUST obey the group with a \
                         user-agent line with the \"*\" value, if present.",
                    ),
                ],
                "every matching group, merged; else every `*` group",
            ),
            says(
                &[s(
                    "google#user-agent-precedence",
                    "User agent specific groups and global groups (*) are not combined.",
                )],
                "every matching group, merged; else the `*` groups",
            ),
            guide(
                &[s(
                    "guide-ch9#user-agent",
                    "The first robot name that is a case-insensitive substring of the robot's \
                     name",
                )],
                "the first record naming the robot, else the first `*` record (the draft says \
                 which names match, the Guide which record: the first)",
            ),
            says(
                &[s(
                    "norobots-1994#format",
                    "если в записи указано более одного имени робота, то права доступа \
                     распространяются для всех указанных имен",
                )],
                "every record naming the robot, else every `*` record",
            ),
        ],
        twins: &[],
    },
    Question {
        id: "ruleless-record",
        step: Step::AgentMatching,
        knob: "K3",
        asks: "Does a record with user-agent lines and no rule apply?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.1",
                    "The last group may have no rules, which means it implicitly allows \
                     everything.",
                )],
                "yes, allowing everything",
            ),
            says(
                &[s("google#grouping", "One group for user agent \"h\".")],
                "yes: the page's example counts a group without rules",
            ),
            silent(
                "the grammar asks for a rule (1*ruleline): the record may apply or be skipped, \
                 open",
                &["ruleless-record"],
            ),
            leaves(
                &[s(
                    "norobots-1994#format",
                    "Любая запись (record) должна состоять хотя бы из одной строки (line) \
                     User-Agent и одной - Disallow",
                )],
                "every record needs a Disallow line: such a record may apply or be skipped, open",
                &["ruleless-record"],
            ),
        ],
        twins: &[],
    },
    // Step 5: path normalisation.
    Question {
        id: "escapes",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Is an escape (`%xx`) the octet it encodes?",
        cells: [
            says(
                &[RFC_UNENCODE],
                "in the URI, an unreserved one is; the others stay encoded (the questions below)",
            ),
            says_open(
                &[GOOGLE_UTF8],
                "one of a non-ASCII character is; of an ASCII character the page does not say: \
                 open",
                &["percent-encoding"],
            ),
            says(&[DRAFT_DECODE], "yes, but `%2F`"),
            ESCAPES_1994,
        ],
        twins: &[],
    },
    Question {
        id: "unreserved-in-url",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Is an escaped unreserved character in the URL (`%7E`) the character?",
        cells: [
            says(&[RFC_UNENCODE], "yes"),
            ESCAPES_GOOGLE,
            says(&[DRAFT_DECODE], "yes"),
            ESCAPES_1994,
        ],
        twins: &[Twin::EscapeSide],
    },
    Question {
        id: "unreserved-in-rule",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Is an escaped unreserved character in a rule (`%7E`) the character?",
        cells: [
            silent(
                "2.2.2 unencodes such an escape \"in the URI\" only and compares \"the path from \
                 the rule\" octet by octet, while RFC 3986 2.3 makes both spellings equivalent: \
                 open, one question with `hex-case`: RFC 3986's equivalent spellings hold where \
                 RFC 9309 says nothing, or such escapes compare as written",
                &["escape-spellings"],
            ),
            ESCAPES_GOOGLE,
            says(&[DRAFT_DECODE], "yes"),
            ESCAPES_1994,
        ],
        twins: &[Twin::EscapeSide],
    },
    Question {
        id: "hex-case",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Does an escape equal the same escape with its hex digits in the other case \
               (`%3c`, `%3C`)?",
        cells: [
            silent(
                "2.2.2 compares octets and no sentence upper-cases an escape already written, \
                 while RFC 3986 2.1 makes the two cases equivalent: open, one question with \
                 `unreserved-in-rule` (the escapes the crawler writes for raw octets are \
                 upper-case under both readings)",
                &["escape-spellings"],
            ),
            says_open(
                &[GOOGLE_UTF8],
                "for a non-ASCII character yes, \"per RFC 3986\" (2.1: the case of the digits is \
                 equivalent); for an ASCII character the page does not say: open",
                &["percent-encoding"],
            ),
            says(
                &[
                    DRAFT_DECODE,
                    s("draft-1996#3.2.2", "/a%3Cd.html /a%3cd.html yes"),
                ],
                "yes: both are decoded",
            ),
            ESCAPES_1994,
        ],
        // An escape written in the other case against one the crawler writes upper-case
        // itself (for a raw octet): settled one way, open the other.
        twins: &[Twin::HexCase],
    },
    Question {
        id: "non-ascii",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Does a raw non-ASCII octet equal its escape?",
        cells: [
            says(
                &[RFC_ENCODE],
                "yes: it is percent-encoded, upper-case, before comparison",
            ),
            says(&[GOOGLE_UTF8], "yes"),
            says(
                &[DRAFT_DECODE],
                "yes: the escape is decoded (a rule holding the raw octet is \
                 `invalid-pattern`'s question)",
            ),
            ESCAPES_1994,
        ],
        twins: &[Twin::EscapeSide],
    },
    Question {
        id: "reserved-in-path",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Does a reserved character that is data in the path (`:`, `;`, `=` ...) equal its \
               escape?",
        cells: [
            contradicts(
                &[RFC_ENCODE, RFC_UNENCODE],
                "encode reserved octets, yet leave the URI's escaped ones encoded, RFC 3986 2.2 \
                 making them differ: open, but for `/`, which separates segments",
                &["reserved-in-path"],
            ),
            ESCAPES_GOOGLE,
            says(&[DRAFT_DECODE], "yes: the escape is decoded"),
            ESCAPES_1994,
        ],
        twins: &[Twin::PathToQuery],
    },
    Question {
        id: "reserved-in-query",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Does a reserved character in the query (`=`, `&`, `?` ...) equal its escape?",
        cells: [
            contradicts(
                &[
                    RFC_ENCODE,
                    RFC_UNENCODE,
                    s("rfc9309#figure-4", "/foo/bar?baz=quz | /foo/bar?baz=quz"),
                ],
                "as in the path, and Figure 4 row 1 keeps `?` and `=` raw: open",
                &["reserved-in-query"],
            ),
            ESCAPES_GOOGLE,
            says(&[DRAFT_DECODE], "yes: the escape is decoded"),
            ESCAPES_1994,
        ],
        twins: &[Twin::PathToQuery],
    },
    Question {
        id: "query-colon-slash",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Does a raw `:` or `/` in the query equal its escape?",
        cells: [
            says(
                &[
                    RFC_ENCODE,
                    s(
                        "rfc9309#figure-4",
                        "/foo/bar?baz=https://foo.bar | /foo/bar?baz=https%3A%2F%2Ffoo.bar",
                    ),
                ],
                "yes: the sentence and Figure 4 row 2 agree (erratum 7128 questions the row)",
            ),
            ESCAPES_GOOGLE,
            says(
                &[DRAFT_DECODE],
                "`:` yes, decoded; `/` no: `%2F` stays apart",
            ),
            ESCAPES_1994,
        ],
        twins: &[Twin::PathToQuery],
    },
    Question {
        id: "escaped-slash",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Does `%2F` equal `/` in the path?",
        cells: [
            says(
                &[RFC_UNENCODE],
                "no: `/` is reserved, and the `/` that separates segments cannot be encoded",
            ),
            silent(
                "the page says nothing of escaped ASCII characters: open among RFC 9309's \
                 readings and its own, which all keep them apart",
                &["percent-encoding"],
            ),
            says(
                &[DRAFT_DECODE],
                "no: the one escape the draft does not decode",
            ),
            ESCAPES_1994,
        ],
        twins: &[],
    },
    Question {
        id: "escaped-specials",
        step: Step::PathNormalisation,
        knob: "K7",
        asks: "Does a rule's `%2A` or `%24` meet a raw `*` or `$` in the URL?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2.3",
                    "If crawlers match special characters verbatim in the URI, crawlers SHOULD \
                     use \"%\" encoding.",
                )],
                "yes (Figure 6)",
            ),
            ESCAPES_GOOGLE,
            says(
                &[DRAFT_DECODE],
                "yes: the escape is decoded, and `*` and `$` are octets",
            ),
            ESCAPES_1994,
        ],
        twins: &[],
    },
    Question {
        id: "match-target",
        step: Step::PathNormalisation,
        knob: "K8",
        asks: "Which part of the URL is matched?",
        cells: [
            says(
                &[s("rfc9309#figure-4", "/foo/bar?baz=quz | /foo/bar?baz=quz")],
                "the path and the query",
            ),
            says(
                &[s("google#url-matching", "/fish.php?id=anything")],
                "the path and the query: `/fish` matches it",
            ),
            leaves(
                &[DRAFT_PATH_PORTION],
                "\"the path portion of the URL\": the path alone, or with its query, open",
                &["match-target"],
            ),
            says(
                &[N1994_PARTIAL_URL, N1994_PREFIX],
                "the URL after the host: a partial URL is its leading part",
            ),
        ],
        twins: &[Twin::PathToQuery],
    },
    // Step 6: matching.
    Question {
        id: "wildcards",
        step: Step::Matching,
        knob: "K6",
        asks: "Are `*` and `$` special in a rule?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2.3",
                    "Crawlers MUST support the following special characters:",
                )],
                "yes",
            ),
            says(
                &[s(
                    "google#url-matching",
                    "* designates 0 or more instances of any valid character.",
                )],
                "yes",
            ),
            says(
                &[DRAFT_PATH_PORTION],
                "no: octets are compared (the grammar's `pchar` holds both)",
            ),
            says(&[N1994_PREFIX], "no: a URL that begins with the path"),
        ],
        twins: &[],
    },
    Question {
        id: "mid-dollar",
        step: Step::Matching,
        knob: "K6",
        asks: "What is a `$` that does not end the rule?",
        cells: [
            contradicts(
                &[s(
                    "rfc9309#2.2.3",
                    "Designates the end of the match pattern.",
                )],
                "the end of a pattern that goes on: a literal `$`, or a rule that never \
                 matches, open",
                &["mid-pattern-dollar"],
            ),
            says(
                &[s("google#url-matching", "$ designates the end of the URL.")],
                "the end of the URL wherever it stands: only `*` may follow it, else the rule \
                 matches nothing",
            ),
            says(&[DRAFT_PATH_PORTION], "an octet"),
            says(&[N1994_PREFIX], "an octet"),
        ],
        twins: &[],
    },
    Question {
        id: "empty-rule",
        step: Step::Matching,
        knob: "K9",
        asks: "What does `Disallow:` or `Allow:` with no value match?",
        cells: [
            says(&[s("rfc9309#2.2", "empty-pattern = *WS")], "nothing"),
            says(
                &[s(
                    "google#disallow",
                    "Crawlers ignore the rule without a path.",
                )],
                "nothing: the rule is ignored",
            ),
            contradicts(
                &[
                    s(
                        "draft-1996#3.2.2",
                        "The match evaluates positively if and only if the end of the path from \
                         the record is reached before a difference in octets is encountered.",
                    ),
                    s(
                        "draft-1996#1",
                        "The specification here is intended to replace said standard, while \
                         aiming to be backwards compatible.",
                    ),
                ],
                "every URL by the matching rule (and the Guide's \"Empty rule path matches \
                 everything\"), nothing by the 1994 meaning: open",
                &["empty-rule"],
            ),
            says_open(
                &[s(
                    "norobots-1994#format",
                    "если значение Disallow не указано, то это означает, что индексируется все \
                     дерево каталогов сервера",
                )],
                "nothing (with no Disallow value the whole tree may be indexed); where another \
                 applying record's Disallow matches, the text ranks neither: open",
                &["empty-rule"],
            ),
        ],
        twins: &[],
    },
    Question {
        id: "case-sensitivity",
        step: Step::Matching,
        knob: "K11",
        asks: "Do paths compare with regard to case?",
        cells: [
            says(
                &[s("rfc9309#2.2.2", "The matching SHOULD be case sensitive.")],
                "yes",
            ),
            says(
                &[s(
                    "google#disallow",
                    "The value of the disallow rule is case-sensitive.",
                )],
                "yes",
            ),
            says(&[DRAFT_PATH_PORTION], "yes: octets are compared"),
            says(&[N1994_PREFIX], "yes: a URL that begins with the path"),
        ],
        twins: &[],
    },
    Question {
        id: "robots-txt-uri",
        step: Step::Matching,
        knob: "K10",
        asks: "Is the /robots.txt URI allowed whatever the rules say?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2.2",
                    "The /robots.txt URI is implicitly allowed.",
                )],
                "yes",
            ),
            silent("not stated: open", &["robots-txt-allowed"]),
            guide(
                &[s(
                    "guide-ch9#allow-disallow",
                    "The robots.txt URL always is allowed and must not appear in the \
                     Allow/Disallow rules.",
                )],
                "yes",
            ),
            silent("not stated: open", &["robots-txt-allowed"]),
        ],
        twins: &[],
    },
    // Step 7: precedence.
    Question {
        id: "precedence",
        step: Step::Precedence,
        knob: "K4",
        asks: "Which matching rule decides?",
        cells: [
            says(
                &[
                    s(
                        "rfc9309#2.2.2",
                        "The most specific match found MUST be used. The most specific match is \
                         the match that has the most octets.",
                    ),
                    s(
                        "rfc9309#2.2.2",
                        "If an \"allow\" rule and a \"disallow\" rule are equivalent, then the \
                         \"allow\" rule SHOULD be used.",
                    ),
                ],
                "the longest match; allow wins a tie",
            ),
            says(
                &[s(
                    "google#rule-precedence",
                    "In case of conflicting rules, including those with wildcards, Google uses \
                     the least restrictive rule.",
                )],
                "the longest rule path; allow wins a tie",
            ),
            says(&[DRAFT_FIRST], "the first match in the record"),
            says(&[N1994_PREFIX], "any matching Disallow"),
        ],
        twins: &[],
    },
    Question {
        id: "specificity",
        step: Step::Precedence,
        knob: "K4",
        asks: "With `*` or `$` in a rule, how long is its match?",
        cells: [
            leaves(
                &[s(
                    "rfc9309#2.2.2",
                    "The most specific match is the match that has the most octets.",
                )],
                "the pattern's octets or the URL octets it covers: open",
                &["specificity"],
            ),
            says(
                &[s(
                    "google#rule-precedence",
                    "crawlers use the most specific rule based on the length of the rule path",
                )],
                "the pattern's octets, `*` and `$` included",
            ),
            says(&[DRAFT_FIRST], "no length: the first match decides"),
            says(&[N1994_PREFIX], "no length: any matching Disallow decides"),
        ],
        twins: &[],
    },
    Question {
        id: "trailing-wildcard",
        step: Step::Precedence,
        knob: "K4",
        asks: "Does a `*` that ends a rule count in its length?",
        cells: [
            leaves(
                &[s(
                    "rfc9309#2.2.2",
                    "The most specific match is the match that has the most octets.",
                )],
                "as any octet of the pattern, or by what it covers: the `specificity` question",
                &["specificity"],
            ),
            contradicts(
                &[
                    s(
                        "google#url-matching",
                        "/* | Equivalent to /. The trailing wildcard is ignored.",
                    ),
                    s(
                        "google#rule-precedence",
                        "crawlers use the most specific rule based on the length of the rule path",
                    ),
                ],
                "`/*` is `/` (a tie with `Allow: /`), and longer than it: open",
                &["trailing-wildcard"],
            ),
            says(&[DRAFT_PATH_PORTION], "`*` is an octet; no length decides"),
            says(&[N1994_PREFIX], "`*` is an octet; no length decides"),
        ],
        twins: &[],
    },
    Question {
        id: "section-5-2",
        step: Step::Precedence,
        knob: "K4",
        asks: "Is the rule of RFC 9309's 5.2, /example/page/disallowed.gif, used for the URI \
               example.com/example/page/disallow.gif?",
        cells: [
            contradicts(
                &[
                    s(
                        "rfc9309#5.2",
                        "/example/page/disallowed.gif MUST be used for the URI \
                         example.com/example/page/disallow.gif.",
                    ),
                    RFC_OCTETS,
                ],
                "5.2 says so, 2.2.2's matching rule does not match it: open (erratum 7124 \
                 questions the prose)",
                &["section-5-2"],
            ),
            says(
                &[s(
                    "google#url-matching",
                    "Matches any path that starts with /fish.",
                )],
                "no: a rule matches the paths that start with it",
            ),
            says(
                &[DRAFT_PATH_PORTION],
                "no: the rule is no prefix of the URI",
            ),
            says(&[N1994_PREFIX], "no: the URI does not begin with the rule"),
        ],
        // 5.2 speaks of one URI: moved into a query, the rule and the URI are others.
        twins: &[Twin::PathToQuery],
    },
    Question {
        id: "allow",
        step: Step::Precedence,
        knob: "K5",
        asks: "Is an `Allow` line a rule?",
        cells: [
            says(
                &[s(
                    "rfc9309#2.2",
                    "rule = *WS (\"allow\" / \"disallow\") *WS \":\"",
                )],
                "yes",
            ),
            says(
                &[s("google#syntax", "allow: a URL path that may be crawled.")],
                "yes",
            ),
            says(
                &[s(
                    "draft-1996#3.2",
                    "followed by \"Disallow\" and \"Allow\" instructions to that robot",
                )],
                "yes",
            ),
            says(
                &[
                    s(
                        "norobots-1994#format",
                        "следом должна быть одна или несколько строк Disallow",
                    ),
                    s(
                        "norobots-1994#format",
                        "Нераспознанные строки игнорируются.",
                    ),
                ],
                "no: an unrecognised line, ignored",
            ),
        ],
        twins: &[],
    },
    // Step 1: limits.
    Question {
        id: "size-limit",
        step: Step::Limits,
        knob: "K14",
        asks: "How much of a large body is read?",
        cells: [
            leaves(
                &[s(
                    "rfc9309#2.5",
                    "The parsing limit MUST be at least 500 kibibytes [KiB].",
                )],
                "the first 500 KiB; beyond them any limit: open",
                &["size-limit"],
            ),
            says(
                &[s(
                    "google#file-format",
                    "Content which is after the maximum file size is ignored.",
                )],
                "the first 500 KiB, the fragment of a cut line included",
            ),
            leaves(
                &[
                    s(
                        "draft-1996#5",
                        "robots are therefore encouraged to place limits on the resources spent \
                         on processing of /robots.txt",
                    ),
                    s(
                        "draft-1996#3.1",
                        "the robot must read the content, parse it, and follow any instructions \
                         applicable to that robot",
                    ),
                ],
                "a limit with no figure: in a body over 500 KiB it may fall anywhere, the first \
                 octet included, open (the oracle tries the first octet and 500 KiB); a smaller \
                 body is read whole, a threshold of the oracle's, not the draft's words \
                 (profiles.md, \"Where the oracle reads past the words\")",
                &["size-limit"],
            ),
            says(&[N1994_PREFIX], "all of it: every Disallow line applies"),
        ],
        twins: &[Twin::LargeBody],
    },
    // A history: caching.
    Question {
        id: "caching",
        step: Step::Caching,
        knob: "K16",
        asks: "Which fetch of a history decides at a time, and for how long?",
        cells: [
            says_open(
                &[s(
                    "rfc9309#2.4",
                    "Crawlers SHOULD NOT use the cached version for more than 24 hours, unless \
                     the robots.txt file is unreachable.",
                )],
                "the latest fetch for 24 hours; a 404's answer, a copy kept through errors and \
                 a reasonably long period of errors open",
                &["history"],
            ),
            says_open(
                &[s(
                    "google#caching",
                    "Google generally caches the contents of robots.txt file for up to 24 hours",
                )],
                "the latest fetch for 24 hours, then open; the 5xx timeline with the last good \
                 version",
                &["history"],
            ),
            says(
                &[s(
                    "draft-1996#3.4",
                    "If no cache-control directives are present robots should default to an \
                     expiry of 7 days.",
                )],
                "the latest fetch for 7 days; a failed fetch defers visits",
            ),
            says(
                &[s(
                    "norobots-1994#method",
                    "поисковый робот мог найти правила, описывающие требуемые от него действия, \
                     всего лишь простым запросом одного файла",
                )],
                "the file the robot fetched: the text names no expiry (a robot finds its rules \
                 with one request of one file)",
            ),
        ],
        twins: &[],
    },
];

/// The table as `docs/profiles.md` renders it: an overview with one cell per step and document,
/// then each step's questions with each document's sentence or silence.
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("| step |");
    for profile in ProfileId::ALL {
        out.push_str(&format!(" `{}` |", profile.name()));
    }
    out.push_str("\n|---|---|---|---|---|\n");
    for step in Step::ALL {
        out.push_str(&format!("| {} |", step.name()));
        for profile in ProfileId::ALL {
            let questions: Vec<&Question> = TABLE.iter().filter(|q| q.step == step).collect();
            let part = |open: bool| -> Vec<String> {
                questions
                    .iter()
                    .filter(|q| q.cell(profile).is_open() == open)
                    .map(|q| format!("`{}`", q.id))
                    .collect()
            };
            let (settled, open) = (part(false), part(true));
            let mut cell = Vec::new();
            if !settled.is_empty() {
                cell.push(format!("settled: {}", settled.join(", ")));
            }
            if !open.is_empty() {
                cell.push(format!("**open**: {}", open.join(", ")));
            }
            out.push_str(&format!(" {} |", cell.join("; ")));
        }
        out.push('\n');
    }
    for step in Step::ALL {
        out.push_str(&format!("\n### {}\n", capitalised(step.name())));
        for question in TABLE.iter().filter(|q| q.step == step) {
            out.push_str(&format!(
                "\n`{}` ({}): {}\n",
                question.id, question.knob, question.asks
            ));
            if !question.twins.is_empty() {
                let twins: Vec<&str> = question.twins.iter().map(|t| t.name()).collect();
                out.push_str(&format!(
                    "Where it is open, its twins may differ: {}.\n",
                    twins.join(", ")
                ));
            }
            for profile in ProfileId::ALL {
                let cell = question.cell(profile);
                out.push_str(&format!(
                    "- `{}`: {}{}.",
                    profile.name(),
                    basis_words(&cell.basis),
                    cell.reading
                ));
                if cell.is_open() {
                    let rows: Vec<String> = cell.open.iter().map(|r| format!("`{r}`")).collect();
                    out.push_str(&format!(" Open: {}.", rows.join(", ")));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// The basis of a cell in words, ending where its reading begins.
fn basis_words(basis: &Basis) -> String {
    let quoted = |sentences: &[Sentence]| {
        sentences
            .iter()
            .map(|s| format!("`{}` \"{}\"", s.cite, s.words))
            .collect::<Vec<_>>()
            .join("; ")
    };
    match basis {
        Basis::Says(sentences) => format!("says ({}): ", quoted(sentences)),
        Basis::Leaves(sentences) => format!("leaves it open ({}): ", quoted(sentences)),
        Basis::Contradicts(sentences) => format!("contradicts itself ({}): ", quoted(sentences)),
        Basis::Guide(sentences) => format!("silent; the Guide says ({}): ", quoted(sentences)),
        Basis::Silent => "silent: ".to_string(),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
