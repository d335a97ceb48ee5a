//! The `aipref` reading's fast path ([`evaluate_preference`]) answers what its literal form
//! ([`literal::preference`], every reading RFC 9309 permits under both statement bounds, whatever
//! the input holds) answers, on generated inputs built from the lines where the two could part:
//! Content-Usage paths with wildcards, `$`, escapes, control and non-ASCII octets, HTABs around
//! statements, a byte-order mark, versioned user-agent values, rules of equal length.

use robotstxt_oracle::aipref::Preference;
use robotstxt_oracle::{evaluate_preference, literal, Request};

const AGENT_LINES: &[&[u8]] = &[
    b"User-agent: *",
    b"User-agent: ExampleBot",
    b"User-agent: examplebot/1.2",
    b"user-agent: other",
];

const RULES: &[&[u8]] = &[
    b"Allow: /",
    b"Disallow: /",
    b"Content-Usage: /*b train-ai=y",
    b"Disallow: /never/",
    b"Disallow: /a*$",
    b"Allow: /a%2Fb",
    b"Disallow: /%7Ex",
    b"Disallow: /ab",
    b"Content-Usage: train-ai=n",
    b"Content-Usage: train-ai=y",
    b"Content-Usage: /ai-ok/ train-ai=y",
    b"Content-Usage: /a* search=n",
    b"Content-Usage: /a$ train-ai=y",
    b"Content-Usage: /%7Ex train-ai=n",
    b"Content-Usage: /~x train-ai=y",
    b"Content-Usage: /a\ttrain-ai=y",
    b"content-usage:train-ai=y\t",
    b"Content-Usage: /a\x01b train-ai=n",
    b"Content-Usage: /\xE9 train-ai=n",
    b"Content-Usage: /ab train-ai=y",
    b"Content-Usage: /a* train-ai=n",
    b"Content-Usage: /a?x train-ai=n",
    b"Content-Usage: / train-ai=y, search=n # c",
    b"Content-Usage: /a%2fb train-ai=y",
    b"",
    b"# comment",
    b"Sitemap: /s",
];

const URLS: &[&str] = &[
    "/",
    "/a",
    "/ab",
    "/a/b",
    "/a%2Fb",
    "/~x",
    "/%7Ex",
    "/ai-ok/t",
    "/never/x",
    "/a?x",
    "/%E9",
    "/robots.txt",
    "/aaab",
];
const AGENTS: &[&str] = &["ExampleBot", "other"];
const CATEGORIES: &[&str] = &["train-ai", "train-ai", "search", "train-genai"];

/// A small deterministic generator (xorshift64*), so every run tries the same inputs.
struct Stream(u64);

impl Stream {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

#[test]
fn the_fast_path_answers_what_the_literal_mode_answers() {
    let mut stream = Stream(0x9E37_79B9_7F4A_7C15);
    let inputs = 200;
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..inputs {
        let mut body = Vec::new();
        if stream.below(6) == 0 {
            body.extend_from_slice(b"\xEF\xBB\xBF");
        }
        for _ in 0..1 + stream.below(3) {
            for _ in 0..1 + stream.below(2) {
                body.extend_from_slice(AGENT_LINES[stream.below(AGENT_LINES.len())]);
                body.push(b'\n');
            }
            for _ in 0..1 + stream.below(5) {
                body.extend_from_slice(RULES[stream.below(RULES.len())]);
                body.push(b'\n');
            }
        }
        let agent = AGENTS[stream.below(AGENTS.len())];
        let url = URLS[stream.below(URLS.len())];
        let category = CATEGORIES[stream.below(CATEGORIES.len())];
        let request = Request::new(&body, agent, url);
        let fast = evaluate_preference(&request, category);
        let literal = literal::preference(&request, category);
        assert_eq!(
            fast.preference,
            literal,
            "body {:?}, agent {agent}, url {url}, category {category}:\n{}",
            String::from_utf8_lossy(&body),
            fast.text()
        );
        *seen.entry(literal.name()).or_insert(0) += 1;
    }
    // The inputs reach every answer, so the agreement is not that of one answer.
    for preference in Preference::ALL {
        assert!(
            seen.contains_key(preference.name()),
            "no input answered {}: {seen:?}",
            preference.name()
        );
    }
}

#[test]
fn the_drafts_open_points_give_either_on_both_paths() {
    let cases: &[(&[u8], &str, &str)] = &[
        // The statement's HTAB: the prose keeps it (no Dictionary), the ABNF does not.
        (
            b"User-agent: *\nContent-Usage: /a\ttrain-ai=n\n",
            "/a",
            "train-ai",
        ),
        // Different paths of equal length with different preferences.
        (
            b"User-agent: *\nContent-Usage: /a* train-ai=n\nContent-Usage: /ab train-ai=y\n",
            "/abc",
            "train-ai",
        ),
        // RFC 9309's open escape spellings (K7), reached only through a Content-Usage path.
        (
            b"User-agent: *\nContent-Usage: /%7Ex train-ai=n\n",
            "/~x",
            "train-ai",
        ),
        // RFC 9309's open specificity (K4), between two Content-Usage paths.
        (
            b"User-agent: *\nContent-Usage: /*b train-ai=n\nContent-Usage: /aaa train-ai=y\n",
            "/aaab",
            "train-ai",
        ),
        // RFC 9309's open agent value (K3).
        (
            b"User-agent: bot/1.2\nContent-Usage: train-ai=n\n",
            "/x",
            "train-ai",
        ),
    ];
    for &(body, url, category) in cases {
        let request = Request::new(body, "bot", url);
        assert_eq!(literal::preference(&request, category), Preference::Either);
        assert_eq!(
            evaluate_preference(&request, category).preference,
            Preference::Either
        );
    }
}
