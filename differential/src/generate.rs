//! Generation of fuzz inputs from the fuzzer's bytes: structure-aware ([`structured`]), raw octets
//! ([`raw`]), or either ([`any`]).
//!
//! [`structured`] writes robots.txt bodies the way people write them, and get them wrong, so that the
//! points where the documents disagree (the knobs K1..K17 of `docs/profiles.md`) come into play, and
//! then asks about an agent and a URL taken from the body, so that groups are selected and rules match.
//!
//! | what the body holds | knobs it exercises |
//! |---|---|
//! | a leading UTF-8 BOM | K12 byte-order mark |
//! | LF, CRLF, CR-only or mixed line ends (including LF CR pairs); sometimes no final line end | K12 line splitting; K1 (a stray CR makes a blank line) |
//! | blank and white-space-only lines between groups, between user-agent lines and among rules; comment lines | K1 grouping (blank lines end records in the blank-line profiles, comments do not) |
//! | groups with one to three user-agent lines; user-agent lines after rules; groups without rules | K1, K3 (open rule-less records) |
//! | agent values: `*`, exact names, odd case, versions (`FooBot/1.2`), prefixes (`Foo`), extensions (`FooBotExtra`), spaces and lists, a trailing `*`, full user-agent strings, empty | K3 group selection (token, substring and list readings) |
//! | `Allow` and `Disallow`; a pattern often extends an earlier one of its group | K4 precedence, K5 allow |
//! | `*` (at most four per line) and `$` at the end or in the middle | K6 wildcards, K4 (octet counts with wildcards) |
//! | percent-escapes in upper and lower hex (`%2F`, `%2A`, `%24`, `%7E`, `%41`, `%3A`, UTF-8), bad escapes, raw UTF-8, Latin-1 and invalid octets, NUL, inner white space | K7 percent-encoding, K13 invalid patterns |
//! | queries in patterns | K8 match target |
//! | empty `Allow:` and `Disallow:` | K9 empty rule |
//! | upper-case path words (`Private`, `FISH`) | K11 case sensitivity |
//! | field names in odd case, misspelled (`Dissallow`, `useragent`, `User agent`: Google accepts some), without colon, with white space before the colon, indented; trailing comments | K13 line syntax |
//! | rules before the first group and after the last blank line | K2 rules outside groups |
//! | `Sitemap`, `Crawl-delay`, `Host`, unknown records, junk lines (HTML, NUL, invalid UTF-8) | K13, K17 other records |
//! | rarely, one long line (1 KB to 16.7 KB, ASCII only) | Google's 16,664-octet line cut; line handling of long input |
//!
//! The agent is mostly a body's user-agent value (its leading product token, the value exactly as
//! written, another case, a version suffix, a prefix or an extension), else a fresh token, rarely an
//! odd one (spaces, `/`, `*`, non-ASCII, empty). The URL (`http://example.com` or `https://`) is mostly
//! one of the body's rule patterns instantiated (each `*` replaced by some text, `$` dropped or kept,
//! octets escaped or unescaped, hex case flipped, a suffix added), else a fresh path, `/robots.txt`
//! (K10) or no path at all, then maybe a query (K7, K8) and a fragment (K8).
//!
//! Limits (some parsers are exponential or super-linear in `*`, see the performance facts): at most
//! [`MAX_STARS_PER_LINE`] stars on any line, a URL of at most [`MAX_URL_LEN`] octets, structured
//! bodies normally under 4 KB and never over [`MAX_STRUCTURED_BODY`], raw bodies at most
//! [`MAX_RAW_BODY`]. Generation is deterministic (the same bytes give the same input): every choice
//! is one byte of the input, and a choice made after the bytes run out takes the plainest option.

use arbitrary::Unstructured;
use robotstxt_oracle::line::{is_ws, trim_ws};

use crate::edit::{escaped_octet, line_spans, percent_escape, HexCase, BOM};
use crate::input::Input;

/// The most `*` on any one line of a structured body.
pub const MAX_STARS_PER_LINE: usize = 4;
/// The longest URL generated, in octets.
pub const MAX_URL_LEN: usize = 200;
/// The largest structured body, in octets (only a body with a long line comes near it).
pub const MAX_STRUCTURED_BODY: usize = 20 * 1024;
/// The largest raw body, in octets (short, so that star-heavy lines stay short).
pub const MAX_RAW_BODY: usize = 1024;

/// Once the body is this long no more lines are added (a long line aside).
const SOFT_BODY_LIMIT: usize = 3 * 1024;
/// Patterns longer than this are not used for URLs (nor is more of a raw value).
const MAX_PATTERN_FOR_URL: usize = 120;
/// How many octets [`Draw`] takes from the fuzzer's input at a time.
const CHUNK: usize = 64;

/// A structured input: a body built from robots.txt parts, an agent and a URL derived partly from it.
pub fn structured(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    let mut writer = Writer::new(Draw::new(u));
    writer.body();
    let Writer {
        mut draw,
        out,
        agents,
        patterns,
        ..
    } = writer;
    let agent = derive_agent(&mut draw, &out, &agents);
    let url = derive_url(&mut draw, &out, &patterns);
    Ok(Input {
        body: out,
        agent,
        url,
    })
}

/// A raw input: arbitrary octets (at most [`MAX_RAW_BODY`]) as the body, with a plausible agent and
/// URL, taken from the body's `user-agent` and `allow`/`disallow` lines when it has any.
pub fn raw(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    let choices = u.bytes(u.len().min(16))?;
    let body = u.bytes(u.len().min(MAX_RAW_BODY))?.to_vec();
    Ok(about(body, &mut Unstructured::new(choices)))
}

/// An input about a given `body` (a raw one, or a real file mutated by [`crate::seeds`]): an agent
/// and a URL derived from its `user-agent` and `allow`/`disallow` lines (the first sixteen of each)
/// as for [`structured`] bodies, the choices drawn from `u`.
pub fn about(body: Vec<u8>, u: &mut Unstructured<'_>) -> Input {
    let (agents, patterns) = scan(&body);
    let mut draw = Draw::new(u);
    let agent = derive_agent(&mut draw, &body, &agents);
    let url = derive_url(&mut draw, &body, &patterns);
    Input { body, agent, url }
}

/// Octets of the stream filled before generating from it ([`from_stream`]): a structured input
/// reads a small part of what a draw gives (`docs/performance.md`, "The fuzzer's own side"), so
/// the rest is filled only when generation reads past these.
const FIRST_FILL: usize = 512;

/// An input from the next draw of `rng`: a length of 64 to `buffer.len()` octets, then that many
/// octets of the stream given to [`any`], `rng` left after them. The input and the stream's
/// position are those of filling `buffer` with all the octets first; only the first
/// [`FIRST_FILL`] are filled unless generation reads past them.
pub fn from_stream(
    rng: &mut rand_chacha::ChaCha8Rng,
    buffer: &mut [u8],
) -> arbitrary::Result<Input> {
    use rand_core::RngCore;
    let len = 64 + (rng.next_u32() as usize % (buffer.len() - 64));
    // The stream is read a 32-bit word at a time: `len` octets take `len.div_ceil(4)` words.
    let start = rng.get_word_pos();
    let first = len.min(FIRST_FILL);
    rng.fill_bytes(&mut buffer[..first]);
    let mut u = Unstructured::new(&buffer[..len]);
    let mut input = any(&mut u);
    // Generation reads from the front only: what it read is what was filled, or it starts again
    // on every octet.
    if len - u.len() > first {
        rng.set_word_pos(start);
        rng.fill_bytes(&mut buffer[..len]);
        input = any(&mut Unstructured::new(&buffer[..len]));
    }
    rng.set_word_pos(start + len.div_ceil(4) as u128);
    input
}

/// Either mode, chosen by the first byte: raw one time in eight, otherwise (and on empty input)
/// structured.
pub fn any(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    let first: u8 = u.arbitrary()?;
    if first % 8 == 7 {
        raw(u)
    } else {
        structured(u)
    }
}

// ---------------------------------------------------------------------------------------------
// Choices

/// Choices drawn from the fuzzer's bytes, one byte each, taken from the input a chunk at a time
/// (cheaper than asking [`Unstructured`] for every byte). Once the bytes run out every choice is 0:
/// the first (plainest) option of a table, and "no" for [`Draw::chance`].
struct Draw<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    buf: &'b [u8],
}

impl<'a, 'b> Draw<'a, 'b> {
    fn new(u: &'a mut Unstructured<'b>) -> Self {
        Draw { u, buf: &[] }
    }

    fn byte(&mut self) -> u8 {
        if self.buf.is_empty() {
            let n = self.u.len().min(CHUNK);
            self.buf = self.u.bytes(n).unwrap_or_default();
        }
        match self.buf.split_first() {
            Some((&b, rest)) => {
                self.buf = rest;
                b
            }
            None => 0,
        }
    }

    /// A number in `0..n` (`n` at most 256), 0 once the bytes run out.
    fn below(&mut self, n: usize) -> usize {
        debug_assert!((1..=256).contains(&n));
        (usize::from(self.byte()) * n) >> 8
    }

    /// True about `num` times in `den`; false once the bytes run out.
    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) >= den - num
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// An item with probability proportional to its weight (weights sum to at most 256).
    fn weighted<T: Copy>(&mut self, table: &[(u8, T)]) -> T {
        let total: usize = table.iter().map(|&(w, _)| usize::from(w)).sum();
        let mut r = self.below(total);
        for &(w, item) in table {
            if r < usize::from(w) {
                return item;
            }
            r -= usize::from(w);
        }
        table[0].1
    }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

const USER_AGENT_NAMES: &[(u8, &[u8])] = &[
    (80, b"User-agent"),
    (10, b"user-agent"),
    (6, b"User-Agent"),
    (2, b"USER-AGENT"),
    (2, b"useragent"),
    (2, b"User agent"),
    (1, b"user_agent"),
    (1, b"User-agents"),
];

const DISALLOW_NAMES: &[(u8, &[u8])] = &[
    (100, b"Disallow"),
    (8, b"disallow"),
    (3, b"DISALLOW"),
    (1, b"DisAllow"),
    (2, b"Dissallow"),
    (1, b"Dissalow"),
    (2, b"Disalow"),
    (1, b"Diasllow"),
    (1, b"Disallaw"),
    (1, b"Dis-allow"),
];

const ALLOW_NAMES: &[(u8, &[u8])] = &[
    (80, b"Allow"),
    (8, b"allow"),
    (2, b"ALLOW"),
    (1, b"Alow"),
    (1, b"Allows"),
];

/// Between a field name and its value; `" "` and `""` leave the colon out.
const SEPARATORS: &[(u8, &[u8])] = &[
    (80, b": "),
    (16, b":"),
    (2, b" : "),
    (1, b":\t"),
    (2, b" :"),
    (1, b"\t:  "),
    (2, b" "),
    (1, b""),
];

const INDENTS: &[(u8, &[u8])] = &[(60, b""), (2, b" "), (1, b"\t"), (1, b"  ")];

/// After a value: white space, trailing comments (never a `*`, so the star limit holds per line).
const TRAILERS: &[(u8, &[u8])] = &[
    (60, b""),
    (2, b" "),
    (1, b"\t"),
    (3, b" # comment"),
    (1, b"# note"),
    (1, b"\t#"),
];

const COMMENTS: &[&[u8]] = &[
    b"# robots.txt for http://example.com/",
    b"#",
    b"# Disallow: /private",
    b"#User-agent: FooBot",
    b"# caf\xC3\xA9 \xE2\x80\x94 no robots here",
    b"### section ###",
    b"# Disallow: /*.gif$",
];

const AGENT_NAMES: &[(u8, &[u8])] = &[
    (8, b"FooBot"),
    (3, b"Googlebot"),
    (2, b"Googlebot-Image"),
    (2, b"OtherBot"),
    (1, b"foo_bot"),
    (1, b"Bot-2"),
];

/// The form of a `user-agent` line's value written in a body (not the crawler's name asked
/// about: [`CrawlerNameForm`]; not the oracle's K3 knob, which reads such values).
#[derive(Clone, Copy)]
enum UserAgentValueForm {
    Name,
    Star,
    Lower,
    Upper,
    Version,
    Prefix,
    Extended,
    Spaced,
    List,
    TrailingStar,
    Full,
    Empty,
}

const USER_AGENT_VALUE_FORMS: &[(u8, UserAgentValueForm)] = &[
    (24, UserAgentValueForm::Name),
    (10, UserAgentValueForm::Star),
    (2, UserAgentValueForm::Lower),
    (1, UserAgentValueForm::Upper),
    (2, UserAgentValueForm::Version),
    (1, UserAgentValueForm::Prefix),
    (1, UserAgentValueForm::Extended),
    (1, UserAgentValueForm::Spaced),
    (1, UserAgentValueForm::List),
    (1, UserAgentValueForm::TrailingStar),
    (1, UserAgentValueForm::Full),
    (1, UserAgentValueForm::Empty),
];

const VERSIONS: &[&[u8]] = &[b"/1.2", b"/2.1", b"/1.0 (+http://example.com/bot)"];
const EXTENSIONS: &[&[u8]] = &[b"Extra", b"-Image", b"-News", b"2"];

/// Path words: few and short, so that patterns of one body overlap.
const WORDS: &[&[u8]] = &[
    b"private",
    b"a",
    b"b",
    b"fish",
    b"search",
    b"img",
    b"tmp",
    b"page.html",
    b"index.php",
    b"cgi-bin",
    b"Private",
    b"FISH",
    b"x.gif",
    b"~user",
    b"robots.txt",
];

const ESCAPES: &[&[u8]] = &[
    b"%2F", b"%2f", b"%2A", b"%2a", b"%24", b"%7E", b"%7e", b"%41", b"%61", b"%62", b"%3A", b"%3a",
    b"%20", b"%25", b"%C3%A9", b"%c3%a9", b"%", b"%zz",
];

const NON_ASCII: &[&[u8]] = &[
    b"caf\xC3\xA9",
    b"\xC3\xA9",
    b"\xE6\x97\xA5\xE6\x9C\xAC",
    b"\xF0\x9F\xA4\x96",
];

/// Octets that are not well-formed UTF-8, controls and inner white space.
const ODD_OCTETS: &[&[u8]] = &[b"\xFF", b"caf\xE9", b"\xC3", b"\x00", b" ", b"\t", b"\x7F"];

const QUERY_PIECES: &[&[u8]] = &[
    b"?",
    b"?q=",
    b"?a=b",
    b"&sort=",
    b".php?id=",
    b"=",
    b";",
    b":",
];

#[derive(Clone, Copy)]
enum Piece {
    Word,
    Star,
    Dollar,
    Escape,
    NonAscii,
    OddOctet,
    Query,
}

const PIECES: &[(u8, Piece)] = &[
    (40, Piece::Word),
    (8, Piece::Star),
    (1, Piece::Dollar),
    (4, Piece::Escape),
    (2, Piece::NonAscii),
    (1, Piece::OddOctet),
    (4, Piece::Query),
];

#[derive(Clone, Copy)]
enum PatternStart {
    Slash,
    Extend,
    Empty,
    Star,
    SlashStar,
    Relative,
}

const PATTERN_STARTS: &[(u8, PatternStart)] = &[
    (20, PatternStart::Slash),
    (8, PatternStart::Extend),
    (2, PatternStart::Empty),
    (1, PatternStart::Star),
    (2, PatternStart::SlashStar),
    (1, PatternStart::Relative),
];

const PATTERN_ENDS: &[(u8, &[u8])] = &[(20, b""), (4, b"$"), (3, b"/"), (2, b"*"), (1, b"*$")];

#[derive(Clone, Copy)]
enum Eol {
    Lf,
    CrLf,
    Cr,
    LfCr,
    Mixed,
}

const EOL_STYLES: &[(u8, Eol)] = &[(12, Eol::Lf), (3, Eol::CrLf), (2, Eol::Cr), (2, Eol::Mixed)];
const MIXED_EOLS: &[Eol] = &[Eol::Lf, Eol::CrLf, Eol::Cr, Eol::LfCr];

/// The kind of line the writer adds to a body.
#[derive(Clone, Copy)]
enum LineToWrite {
    Rule,
    UserAgent,
    Comment,
    Blank,
    WhiteSpace,
    Sitemap,
    CrawlDelay,
    Host,
    Unknown,
    Junk,
}

/// Lines inside a group, after its user-agent lines.
const GROUP_LINES: &[(u8, LineToWrite)] = &[
    (70, LineToWrite::Rule),
    (3, LineToWrite::UserAgent),
    (4, LineToWrite::Comment),
    (3, LineToWrite::Blank),
    (2, LineToWrite::WhiteSpace),
    (2, LineToWrite::Sitemap),
    (2, LineToWrite::CrawlDelay),
    (1, LineToWrite::Host),
    (2, LineToWrite::Unknown),
    (1, LineToWrite::Junk),
];

/// Lines before the first group and after the last one.
const OUTER_LINES: &[(u8, LineToWrite)] = &[
    (4, LineToWrite::Comment),
    (3, LineToWrite::Rule),
    (2, LineToWrite::Blank),
    (2, LineToWrite::Sitemap),
    (1, LineToWrite::Host),
    (1, LineToWrite::Unknown),
    (1, LineToWrite::Junk),
];

/// What ends a group: mostly a blank line.
const GROUP_ENDS: &[(u8, Option<LineToWrite>)] = &[
    (10, Some(LineToWrite::Blank)),
    (4, None),
    (2, Some(LineToWrite::WhiteSpace)),
    (2, Some(LineToWrite::Comment)),
];

const UNKNOWN_RECORDS: &[(&[u8], &[u8])] = &[
    (b"Noindex", b"/private"),
    (b"Clean-param", b"ref /a"),
    (b"Request-rate", b"1/5"),
    (b"Visit-time", b"0600-0845"),
    (b"X-Robots-Tag", b"none"),
];

const JUNK_LINES: &[&[u8]] = &[
    b"<html><body><h1>404 Not Found</h1></body></html>",
    b"\x00",
    b"\xFF\xFE",
    b":",
    b"Disallow",
    b"= /private",
    b"\x00Disallow: /\x00",
];

/// How long a long line is: 16,700 straddles Google's 16,664-octet line cut.
const LONG_LINE_LENGTHS: &[usize] = &[1_000, 3_000, 8_000, 16_700];

// ---------------------------------------------------------------------------------------------
// The body

/// A part of the body, by octet offsets.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
}

/// Writes one structured body, remembering its user-agent values and rule patterns.
struct Writer<'a, 'b> {
    draw: Draw<'a, 'b>,
    out: Vec<u8>,
    eol: Eol,
    /// Every user-agent value written.
    agents: Vec<Span>,
    /// Every rule pattern written (short enough to use in a URL).
    patterns: Vec<Span>,
    /// The patterns of the current group (for [`PatternStart::Extend`]).
    group_patterns: usize,
}

impl<'a, 'b> Writer<'a, 'b> {
    fn new(draw: Draw<'a, 'b>) -> Self {
        Writer {
            draw,
            out: Vec::with_capacity(1024),
            eol: Eol::Lf,
            agents: Vec::with_capacity(16),
            patterns: Vec::with_capacity(32),
            group_patterns: 0,
        }
    }

    fn body(&mut self) {
        if self.draw.chance(1, 16) {
            self.out.extend_from_slice(BOM);
        }
        self.eol = self.draw.weighted(EOL_STYLES);
        let outer = self.draw.weighted(&[(8, 0), (3, 1), (1, 2)]);
        for _ in 0..outer {
            self.outer_line();
        }
        let groups = self
            .draw
            .weighted(&[(3, 1), (4, 2), (3, 3), (2, 4), (1, 6)]);
        let long_line_in = self.draw.chance(1, 48).then(|| self.draw.below(groups));
        for g in 0..groups {
            if self.out.len() >= SOFT_BODY_LIMIT {
                break;
            }
            self.group(long_line_in == Some(g));
        }
        if self.draw.chance(1, 4) {
            self.outer_line();
        }
        if self.draw.chance(1, 8) {
            while matches!(self.out.last(), Some(b'\r' | b'\n')) {
                self.out.pop();
            }
        }
    }

    fn group(&mut self, long_line: bool) {
        self.group_patterns = 0;
        let agents = self.draw.weighted(&[(6, 1), (3, 2), (1, 3)]);
        for k in 0..agents {
            if k > 0 {
                // Between user-agent lines: rfc9309 keeps them in one group, blank-line profiles do not.
                let between = [
                    (10, None),
                    (1, Some(LineToWrite::Blank)),
                    (1, Some(LineToWrite::Comment)),
                ];
                if let Some(line) = self.draw.weighted(&between) {
                    self.line(line);
                }
            }
            self.user_agent_line();
        }
        let lines = self
            .draw
            .weighted(&[(4, 1), (5, 2), (4, 3), (3, 4), (2, 6), (1, 9), (1, 0)]);
        for _ in 0..lines {
            let line = self.draw.weighted(GROUP_LINES);
            self.line(line);
        }
        if long_line {
            self.long_line();
        }
        if let Some(line) = self.draw.weighted(GROUP_ENDS) {
            self.line(line);
        }
    }

    fn outer_line(&mut self) {
        let line = self.draw.weighted(OUTER_LINES);
        self.line(line);
    }

    fn line(&mut self, line: LineToWrite) {
        match line {
            LineToWrite::Rule => self.rule_line(),
            LineToWrite::UserAgent => self.user_agent_line(),
            LineToWrite::Comment => self.comment_line(),
            LineToWrite::Blank => self.end_line(),
            LineToWrite::WhiteSpace => self.white_space_line(),
            LineToWrite::Sitemap => self.sitemap_line(),
            LineToWrite::CrawlDelay => self.crawl_delay_line(),
            LineToWrite::Host => self.host_line(),
            LineToWrite::Unknown => self.unknown_line(),
            LineToWrite::Junk => self.junk_line(),
        }
    }

    // -- one function per kind of line --

    fn user_agent_line(&mut self) {
        let name = self.draw.weighted(USER_AGENT_NAMES);
        self.field(name);
        let start = self.out.len();
        self.user_agent_value();
        self.agents.push(Span {
            start,
            end: self.out.len(),
        });
        self.trailer();
        self.end_line();
    }

    fn rule_line(&mut self) {
        let names = if self.draw.chance(2, 5) {
            ALLOW_NAMES
        } else {
            DISALLOW_NAMES
        };
        let name = self.draw.weighted(names);
        self.field(name);
        let start = self.out.len();
        self.pattern();
        let end = self.out.len();
        if end - start <= MAX_PATTERN_FOR_URL {
            self.patterns.push(Span { start, end });
            self.group_patterns += 1;
        }
        self.trailer();
        self.end_line();
    }

    fn comment_line(&mut self) {
        let indent = self.draw.weighted(INDENTS);
        self.out.extend_from_slice(indent);
        let comment = self.draw.pick(COMMENTS);
        self.out.extend_from_slice(comment);
        self.end_line();
    }

    fn white_space_line(&mut self) {
        let space = self.draw.pick(&[b" " as &[u8], b"\t", b" \t "]);
        self.out.extend_from_slice(space);
        self.end_line();
    }

    fn sitemap_line(&mut self) {
        let name = self
            .draw
            .pick(&[b"Sitemap" as &[u8], b"sitemap", b"Site-map"]);
        self.field(name);
        let url = self.draw.pick(&[
            b"http://example.com/sitemap.xml" as &[u8],
            b"/sitemap.xml",
            b"",
        ]);
        self.out.extend_from_slice(url);
        self.end_line();
    }

    fn crawl_delay_line(&mut self) {
        let name = self
            .draw
            .pick(&[b"Crawl-delay" as &[u8], b"crawl-delay", b"Crawl-Delay"]);
        self.field(name);
        let delay = self.draw.pick(&[b"10" as &[u8], b"0.5", b"1", b"abc", b""]);
        self.out.extend_from_slice(delay);
        self.trailer();
        self.end_line();
    }

    fn host_line(&mut self) {
        let name = self.draw.pick(&[b"Host" as &[u8], b"host"]);
        self.field(name);
        self.out.extend_from_slice(b"example.com");
        self.end_line();
    }

    fn unknown_line(&mut self) {
        let (name, value) = self.draw.pick(UNKNOWN_RECORDS);
        self.field(name);
        self.out.extend_from_slice(value);
        self.trailer();
        self.end_line();
    }

    fn junk_line(&mut self) {
        let junk = self.draw.pick(JUNK_LINES);
        self.out.extend_from_slice(junk);
        self.end_line();
    }

    /// A long rule, comment or user-agent value: ASCII only (one Rust parser panics on long lines
    /// holding multi-byte UTF-8) with at most one `*`, and within [`MAX_STRUCTURED_BODY`].
    fn long_line(&mut self) {
        let wanted = self.draw.pick(LONG_LINE_LENGTHS);
        let room = MAX_STRUCTURED_BODY.saturating_sub(self.out.len() + 64);
        let length = wanted.min(room);
        match self.draw.below(3) {
            0 => {
                let name = self.draw.weighted(DISALLOW_NAMES);
                self.field(name);
                let head: &[u8] = if self.draw.chance(1, 2) { b"/*" } else { b"/" };
                self.out.extend_from_slice(head);
            }
            1 => self.out.extend_from_slice(b"# "),
            _ => self.field(b"User-agent"),
        }
        let filler = self.draw.pick(&[b"a" as &[u8], b"ab/", b"x-y_z."]);
        let end = self.out.len() + length;
        while self.out.len() < end {
            let take = filler.len().min(end - self.out.len());
            self.out.extend_from_slice(&filler[..take]);
        }
        self.end_line();
    }

    // -- parts of lines --

    /// Indentation, a field name and a separator.
    fn field(&mut self, name: &[u8]) {
        let indent = self.draw.weighted(INDENTS);
        self.out.extend_from_slice(indent);
        self.out.extend_from_slice(name);
        let separator = self.draw.weighted(SEPARATORS);
        self.out.extend_from_slice(separator);
    }

    fn trailer(&mut self) {
        let trailer = self.draw.weighted(TRAILERS);
        self.out.extend_from_slice(trailer);
    }

    fn end_line(&mut self) {
        let eol = match self.eol {
            Eol::Mixed => self.draw.pick(MIXED_EOLS),
            fixed => fixed,
        };
        let octets: &[u8] = match eol {
            Eol::Lf | Eol::Mixed => b"\n",
            Eol::CrLf => b"\r\n",
            Eol::Cr => b"\r",
            Eol::LfCr => b"\n\r",
        };
        self.out.extend_from_slice(octets);
    }

    fn user_agent_value(&mut self) {
        let name = self.draw.weighted(AGENT_NAMES);
        match self.draw.weighted(USER_AGENT_VALUE_FORMS) {
            UserAgentValueForm::Name => self.out.extend_from_slice(name),
            UserAgentValueForm::Star => self.out.push(b'*'),
            UserAgentValueForm::Lower => self.out.extend(name.iter().map(u8::to_ascii_lowercase)),
            UserAgentValueForm::Upper => self.out.extend(name.iter().map(u8::to_ascii_uppercase)),
            UserAgentValueForm::Version => {
                self.out.extend_from_slice(name);
                let version = self.draw.pick(VERSIONS);
                self.out.extend_from_slice(version);
            }
            UserAgentValueForm::Prefix => {
                let length = 1 + self.draw.below(name.len() - 1);
                self.out.extend_from_slice(&name[..length]);
            }
            UserAgentValueForm::Extended => {
                self.out.extend_from_slice(name);
                let extension = self.draw.pick(EXTENSIONS);
                self.out.extend_from_slice(extension);
            }
            UserAgentValueForm::Spaced => {
                let at = 1 + self.draw.below(name.len() - 1);
                self.out.extend_from_slice(&name[..at]);
                self.out.push(b' ');
                self.out.extend_from_slice(&name[at..]);
            }
            UserAgentValueForm::List => {
                self.out.extend_from_slice(name);
                let other = self
                    .draw
                    .pick(&[b" OtherBot" as &[u8], b", OtherBot", b"\tBot-2"]);
                self.out.extend_from_slice(other);
            }
            UserAgentValueForm::TrailingStar => {
                self.out.extend_from_slice(name);
                self.out.push(b'*');
            }
            UserAgentValueForm::Full => {
                self.out.extend_from_slice(b"Mozilla/5.0 (compatible; ");
                self.out.extend_from_slice(name);
                self.out
                    .extend_from_slice(b"/2.1; +http://example.com/bot)");
            }
            UserAgentValueForm::Empty => {}
        }
    }

    /// A rule's value: a start, zero to four pieces, an end; at most [`MAX_STARS_PER_LINE`] stars.
    fn pattern(&mut self) {
        let mut stars = 0;
        let pieces = match self.draw.weighted(PATTERN_STARTS) {
            PatternStart::Empty => return,
            PatternStart::Extend if self.group_patterns > 0 => {
                stars += self.copy_group_pattern();
                1
            }
            PatternStart::Slash | PatternStart::Extend => {
                self.out.push(b'/');
                self.draw
                    .weighted(&[(2, 0), (8, 1), (5, 2), (2, 3), (1, 4)])
            }
            PatternStart::Star => {
                self.out.push(b'*');
                stars += 1;
                self.draw.weighted(&[(3, 1), (1, 2)])
            }
            PatternStart::SlashStar => {
                self.out.extend_from_slice(b"/*");
                stars += 1;
                self.draw.weighted(&[(3, 1), (1, 2)])
            }
            PatternStart::Relative => {
                self.piece(&mut stars);
                self.draw.below(2)
            }
        };
        for _ in 0..pieces {
            self.piece(&mut stars);
        }
        let mut end = self.draw.weighted(PATTERN_ENDS);
        if end.starts_with(b"*") && stars >= MAX_STARS_PER_LINE {
            end = &end[1..];
        }
        self.out.extend_from_slice(end);
    }

    /// Copies a pattern of the current group (without a final `$`), so that the next piece extends
    /// it; returns its stars.
    fn copy_group_pattern(&mut self) -> usize {
        let first = self.patterns.len() - self.group_patterns;
        let span = self.patterns[first + self.draw.below(self.group_patterns)];
        let mut end = span.end;
        if end > span.start && self.out[end - 1] == b'$' {
            end -= 1;
        }
        if end == span.start {
            self.out.push(b'/');
            return 0;
        }
        self.out.extend_from_within(span.start..end);
        // The copy is followed by at most one piece and an end, which skip `*` at the limit.
        self.out[span.start..end]
            .iter()
            .filter(|&&b| b == b'*')
            .count()
    }

    /// A word (mostly after a `/`) or a special piece (mostly joined to what precedes it).
    fn piece(&mut self, stars: &mut usize) {
        let piece = match self.draw.weighted(PIECES) {
            Piece::Star if *stars >= MAX_STARS_PER_LINE => Piece::Word,
            piece => piece,
        };
        let slash = match piece {
            Piece::Word => !self.draw.chance(1, 8),
            _ => self.draw.chance(1, 3),
        };
        if slash && !matches!(self.out.last(), Some(b'/') | None) {
            self.out.push(b'/');
        }
        let octets: &[u8] = match piece {
            Piece::Word => self.draw.pick(WORDS),
            Piece::Star => {
                *stars += 1;
                b"*"
            }
            Piece::Dollar => b"$",
            Piece::Escape => self.draw.pick(ESCAPES),
            Piece::NonAscii => self.draw.pick(NON_ASCII),
            Piece::OddOctet => self.draw.pick(ODD_OCTETS),
            Piece::Query => self.draw.pick(QUERY_PIECES),
        };
        self.out.extend_from_slice(octets);
    }
}

// ---------------------------------------------------------------------------------------------
// Raw bodies

/// The user-agent values and allow/disallow patterns of a raw body (the first sixteen of each):
/// the value after the first colon, up to a `#`, trimmed of spaces and tabs.
fn scan(body: &[u8]) -> (Vec<Span>, Vec<Span>) {
    let mut agents = Vec::new();
    let mut patterns = Vec::new();
    for span in line_spans(body, 0) {
        let line_start = span.start;
        let line = &body[span.start..span.end];
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = trim_ws(&line[..colon]);
        let value_start = colon + 1;
        let value_end = line[value_start..]
            .iter()
            .position(|&b| b == b'#')
            .map_or(line.len(), |p| value_start + p);
        let (lead, value) = trim_with_offset(&line[value_start..value_end]);
        let span = Span {
            start: line_start + value_start + lead,
            end: line_start + value_start + lead + value.len(),
        };
        if name.eq_ignore_ascii_case(b"user-agent") && agents.len() < 16 {
            agents.push(span);
        } else if ends_with_ignore_case(name, b"llow") && patterns.len() < 16 {
            patterns.push(span);
        }
    }
    (agents, patterns)
}

/// `s` without leading and trailing spaces and tabs, and how many octets were cut at the front.
fn trim_with_offset(s: &[u8]) -> (usize, &[u8]) {
    let lead = s.iter().take_while(|&&b| is_ws(b)).count();
    let rest = &s[lead..];
    let trail = rest.iter().rev().take_while(|&&b| is_ws(b)).count();
    (lead, &rest[..rest.len() - trail])
}

fn ends_with_ignore_case(s: &[u8], suffix: &[u8]) -> bool {
    s.len() >= suffix.len() && s[s.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

// ---------------------------------------------------------------------------------------------
// The agent

/// How the crawler's name asked about is made, mostly from one of the body's user-agent values.
#[derive(Clone, Copy)]
enum CrawlerNameForm {
    Token,
    Exact,
    OtherCase,
    Version,
    Extended,
    Prefix,
    Fresh,
    Odd,
}

const CRAWLER_NAME_FORMS: &[(u8, CrawlerNameForm)] = &[
    (8, CrawlerNameForm::Token),
    (4, CrawlerNameForm::Exact),
    (2, CrawlerNameForm::OtherCase),
    (1, CrawlerNameForm::Version),
    (1, CrawlerNameForm::Extended),
    (1, CrawlerNameForm::Prefix),
    (3, CrawlerNameForm::Fresh),
    (1, CrawlerNameForm::Odd),
];

const FRESH_AGENTS: &[&str] = &[
    "FooBot",
    "OtherBot",
    "Googlebot",
    "Googlebot-Image",
    "foobot",
    "UnknownBot",
];

const ODD_AGENTS: &[&str] = &[
    "",
    "Foo Bot",
    "FooBot/1.0",
    "*",
    "F\u{f6}\u{f6}Bot",
    "Foo\tBot",
    "foo*",
    "Mozilla/5.0 (compatible; FooBot/2.1)",
];

/// The agent to ask about: mostly taken from one of the body's user-agent values.
fn derive_agent(draw: &mut Draw<'_, '_>, body: &[u8], agents: &[Span]) -> String {
    let kind = draw.weighted(CRAWLER_NAME_FORMS);
    let written = if agents.is_empty() {
        ""
    } else {
        let span = agents[draw.below(agents.len().min(256))];
        std::str::from_utf8(&body[span.start..span.end]).unwrap_or("")
    };
    let token_len = written
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        .count();
    let token = &written[..token_len];
    match kind {
        CrawlerNameForm::Odd => draw.pick(ODD_AGENTS).to_string(),
        CrawlerNameForm::Exact if !written.is_empty() && written != "*" => written.to_string(),
        _ if token.is_empty() => draw.pick(FRESH_AGENTS).to_string(),
        CrawlerNameForm::Token | CrawlerNameForm::Exact => token.to_string(),
        CrawlerNameForm::OtherCase => {
            if draw.chance(1, 2) {
                token.to_ascii_uppercase()
            } else {
                token.to_ascii_lowercase()
            }
        }
        CrawlerNameForm::Version => format!("{token}/1.2"),
        CrawlerNameForm::Extended => format!("{token}Extra"),
        CrawlerNameForm::Prefix => token[..token.len().div_ceil(2)].to_string(),
        CrawlerNameForm::Fresh => draw.pick(FRESH_AGENTS).to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// The URL

#[derive(Clone, Copy)]
enum PathKind {
    FromPattern,
    Fresh,
    RobotsTxt,
    Empty,
}

const PATH_KINDS: &[(u8, PathKind)] = &[
    (14, PathKind::FromPattern),
    (3, PathKind::Fresh),
    (1, PathKind::RobotsTxt),
    (1, PathKind::Empty),
];

const FRESH_PATHS: &[&[u8]] = &[
    b"/",
    b"/index.html",
    b"/private/x",
    b"/a%2Fb",
    b"/fish.php",
    b"/caf\xC3\xA9",
];

/// What replaces a `*` of a pattern in the URL.
const STAR_FILLS: &[&[u8]] = &[
    b"",
    b"x",
    b"abc",
    b"a/b",
    b"?",
    b"%2A",
    b"*",
    b"/deep/er/",
    b"$",
];

const PATH_SUFFIXES: &[(u8, &[u8])] = &[
    (10, b""),
    (2, b"/"),
    (1, b"x"),
    (1, b".html"),
    (1, b"/sub/page"),
    (1, b"%2Fx"),
    (1, b"/caf\xC3\xA9"),
];

const QUERIES: &[(u8, &[u8])] = &[
    (12, b""),
    (3, b"?a=b"),
    (1, b"?"),
    (1, b"?q=shoes&sort=price"),
    (1, b"?url=https%3A%2F%2Fexample.com%2F"),
    (1, b"?id=*"),
];

const FRAGMENTS: &[(u8, &[u8])] = &[(14, b""), (1, b"#frag"), (1, b"#")];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rewrite {
    Keep,
    EscapeSome,
    Unescape,
    FlipHexCase,
}

const REWRITES: &[(u8, Rewrite)] = &[
    (12, Rewrite::Keep),
    (2, Rewrite::EscapeSome),
    (2, Rewrite::Unescape),
    (1, Rewrite::FlipHexCase),
];

/// The URL to ask about: mostly one of the body's patterns instantiated, on `example.com`.
fn derive_url(draw: &mut Draw<'_, '_>, body: &[u8], patterns: &[Span]) -> String {
    let mut path = Vec::with_capacity(64);
    let kind = draw.weighted(PATH_KINDS);
    match kind {
        PathKind::FromPattern if !patterns.is_empty() => {
            let span = patterns[draw.below(patterns.len().min(256))];
            let end = span.end.min(span.start + MAX_PATTERN_FOR_URL);
            instantiate(draw, &body[span.start..end], &mut path);
            let suffix = draw.weighted(PATH_SUFFIXES);
            path.extend_from_slice(suffix);
            if path.first() != Some(&b'/') {
                path.insert(0, b'/');
            }
        }
        PathKind::RobotsTxt => path.extend_from_slice(b"/robots.txt"),
        PathKind::Empty => {}
        PathKind::FromPattern | PathKind::Fresh => path.extend_from_slice(draw.pick(FRESH_PATHS)),
    }
    let mut query = draw.weighted(QUERIES);
    if path.contains(&b'?') && query.first() == Some(&b'?') {
        path.push(b'&');
        query = &query[1..];
    }
    path.extend_from_slice(query);
    let fragment = draw.weighted(FRAGMENTS);
    path.extend_from_slice(fragment);
    let origin = if draw.chance(1, 10) {
        "https://example.com"
    } else {
        "http://example.com"
    };
    finish_url(origin, &path)
}

/// Writes a path matching `pattern` more or less: each `*` becomes some text, a final `$` is mostly
/// dropped, a `$` elsewhere is kept or dropped; sometimes octets are escaped, escapes decoded or their
/// hex case flipped.
fn instantiate(draw: &mut Draw<'_, '_>, pattern: &[u8], path: &mut Vec<u8>) {
    let rewrite = draw.weighted(REWRITES);
    let mut i = 0;
    while i < pattern.len() {
        let b = pattern[i];
        let last = i + 1 == pattern.len();
        let escaped = escaped_octet(&pattern[i..]);
        match b {
            b'*' => path.extend_from_slice(draw.pick(STAR_FILLS)),
            b'$' if last => {
                if draw.chance(1, 8) {
                    path.push(b'$');
                }
            }
            b'$' => {
                if draw.chance(1, 2) {
                    path.push(b'$');
                }
            }
            b'%' if escaped.is_some() => {
                let (hi, lo) = (pattern[i + 1], pattern[i + 2]);
                match rewrite {
                    Rewrite::Unescape => path.extend(escaped),
                    Rewrite::FlipHexCase => path.extend_from_slice(&[b'%', flip(hi), flip(lo)]),
                    Rewrite::Keep | Rewrite::EscapeSome => path.extend_from_slice(&[b'%', hi, lo]),
                }
                i += 3;
                continue;
            }
            _ if rewrite == Rewrite::EscapeSome && draw.chance(1, 4) => {
                let case = if draw.chance(1, 3) {
                    HexCase::Lower
                } else {
                    HexCase::Upper
                };
                path.extend_from_slice(&percent_escape(b, case));
            }
            _ => path.push(b),
        }
        i += 1;
    }
}

fn flip(digit: u8) -> u8 {
    if digit.is_ascii_uppercase() {
        digit.to_ascii_lowercase()
    } else {
        digit.to_ascii_uppercase()
    }
}

/// `origin` + `path` as a string: controls, white space and (when the path is not UTF-8) every
/// non-ASCII octet escaped; cut to [`MAX_URL_LEN`] without splitting a character or an escape.
fn finish_url(origin: &str, path: &[u8]) -> String {
    let mut escaped = Vec::with_capacity(origin.len() + path.len() + 16);
    escaped.extend_from_slice(origin.as_bytes());
    let utf8 = std::str::from_utf8(path).is_ok();
    for &b in path {
        if b <= b' ' || b == 0x7F || (!utf8 && b >= 0x80) {
            escaped.extend_from_slice(&percent_escape(b, HexCase::Upper));
        } else {
            escaped.push(b);
        }
    }
    // Escaping kept well-formed UTF-8 whole and turned everything else into ASCII.
    let mut url = String::from_utf8(escaped).unwrap_or_default();
    if url.len() > MAX_URL_LEN {
        let mut cut = MAX_URL_LEN;
        while !url.is_char_boundary(cut) {
            cut -= 1;
        }
        url.truncate(cut);
        let bytes = url.as_bytes();
        let n = bytes.len();
        if bytes[n - 1] == b'%' {
            url.truncate(n - 1);
        } else if bytes[n - 2] == b'%' {
            url.truncate(n - 2);
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    #[test]
    fn from_stream_is_filling_every_octet_first() {
        let (mut lazy, mut full) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
        let (mut lazy_buffer, mut full_buffer) = (vec![0u8; 4096], vec![0u8; 4096]);
        let mut refilled = 0;
        for _ in 0..20_000 {
            let len = 64 + (full.next_u32() as usize % (full_buffer.len() - 64));
            full.fill_bytes(&mut full_buffer[..len]);
            let expected = any(&mut Unstructured::new(&full_buffer[..len]));
            let got = from_stream(&mut lazy, &mut lazy_buffer);
            refilled += usize::from(
                len > FIRST_FILL && lazy_buffer[FIRST_FILL..len] == full_buffer[FIRST_FILL..len],
            );
            assert_eq!(got.ok(), expected.ok());
            assert_eq!(lazy.get_word_pos(), full.get_word_pos());
        }
        // Both paths are taken: raw inputs read every octet, most structured ones few.
        assert!(refilled > 1_000 && refilled < 10_000, "{refilled}");
    }
}
