//! The generator: determinism, coverage of the features it promises, its limits, and (printed, not
//! asserted; run `cargo test --release -p robotstxt-differential --test generate -- --nocapture`)
//! its speed and how often the oracle's profiles disagree on what it makes.

use std::time::Instant;

use arbitrary::Unstructured;
use robotstxt_differential::generate::{self, MAX_STARS_PER_LINE, MAX_STRUCTURED_BODY};
use robotstxt_differential::Input;
use robotstxt_oracle::{evaluate_all, verdicts_all, Verdict};

/// A small deterministic source of test buffers.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A buffer of 16 to 4,111 bytes, like the inputs a fuzzer hands over.
    fn buffer(&mut self) -> Vec<u8> {
        let len = 16 + (self.next() % 4096) as usize;
        let mut buf = Vec::with_capacity(len + 8);
        while buf.len() < len {
            buf.extend_from_slice(&self.next().to_le_bytes());
        }
        buf.truncate(len);
        buf
    }
}

fn buffers(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut rng = XorShift(seed);
    (0..count).map(|_| rng.buffer()).collect()
}

type Generator = fn(&mut Unstructured<'_>) -> arbitrary::Result<Input>;

fn run(generator: Generator, data: &[u8]) -> Input {
    generator(&mut Unstructured::new(data)).expect("generation never fails")
}

fn lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    body.split(|&b| b == b'\n' || b == b'\r')
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// A line's field name and value (up to a `#`), trimmed, when it has a colon.
fn record(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = line.iter().position(|&b| b == b':')?;
    let value = &line[colon + 1..];
    let value = &value[..value.iter().position(|&b| b == b'#').unwrap_or(value.len())];
    Some((line[..colon].trim_ascii(), value.trim_ascii()))
}

fn is_user_agent(line: &[u8]) -> bool {
    matches!(record(line), Some((name, _)) if name.eq_ignore_ascii_case(b"user-agent"))
}

fn url_path(url: &str) -> &str {
    let rest = url
        .strip_prefix("http://example.com")
        .or_else(|| url.strip_prefix("https://example.com"))
        .expect("URL on example.com");
    rest.split(['?', '#']).next().unwrap_or("")
}

/// A feature's name and whether one input shows it.
type Feature = (&'static str, fn(&Input) -> bool);

/// The features the generator promises.
const FEATURES: &[Feature] = &[
    ("BOM", |i| i.body.starts_with(b"\xEF\xBB\xBF")),
    ("CR-only line end", |i| {
        i.body
            .iter()
            .enumerate()
            .any(|(k, &b)| b == b'\r' && i.body.get(k + 1) != Some(&b'\n'))
    }),
    ("CRLF", |i| contains(&i.body, b"\r\n")),
    ("$ in a rule", |i| contains(&i.body, b"$\n")),
    ("$ in the middle of a rule", |i| {
        lines(&i.body).any(|l| matches!(record(l), Some((_, v)) if v.len() > 1 && v[..v.len() - 1].contains(&b'$')))
    }),
    ("* in a rule", |i| {
        contains_ignore_case(&i.body, b"allow: /*")
    }),
    ("%2F", |i| contains_ignore_case(&i.body, b"%2F")),
    ("%2A", |i| contains_ignore_case(&i.body, b"%2A")),
    ("%24", |i| contains(&i.body, b"%24")),
    ("%7E", |i| contains_ignore_case(&i.body, b"%7E")),
    ("lower-case hex", |i| contains(&i.body, b"%2f")),
    ("raw non-ASCII", |i| {
        i.body.iter().skip(3).any(|&b| b >= 0x80)
    }),
    ("invalid UTF-8", |i| std::str::from_utf8(&i.body).is_err()),
    ("NUL", |i| i.body.contains(&0)),
    ("empty Disallow", |i| {
        lines(&i.body).any(|l| l.trim_ascii().eq_ignore_ascii_case(b"disallow:"))
    }),
    ("misspelled directive", |i| {
        [
            b"dissallow" as &[u8],
            b"disalow",
            b"useragent",
            b"user agent",
        ]
        .iter()
        .any(|m| contains_ignore_case(&i.body, m))
    }),
    ("upper-case field name", |i| contains(&i.body, b"DISALLOW")),
    ("missing colon", |i| contains(&i.body, b"\nDisallow /")),
    ("space before colon", |i| contains(&i.body, b"Disallow :")),
    ("leading white space", |i| contains(&i.body, b"\n Disallow")),
    ("trailing comment", |i| contains(&i.body, b" # comment")),
    ("white-space-only line", |i| {
        lines(&i.body).any(|l| !l.is_empty() && l.trim_ascii().is_empty())
    }),
    ("Sitemap", |i| contains(&i.body, b"Sitemap:")),
    ("Crawl-delay", |i| {
        contains_ignore_case(&i.body, b"crawl-delay")
    }),
    ("rule before any group", |i| {
        lines(&i.body)
            .find_map(|l| match record(l) {
                Some((n, _)) if n.eq_ignore_ascii_case(b"user-agent") => Some(false),
                Some((n, _)) if n.eq_ignore_ascii_case(b"disallow") => Some(true),
                _ => None,
            })
            .unwrap_or(false)
    }),
    ("multiple user-agent lines", |i| {
        let mut previous = false;
        lines(&i.body).any(|l| {
            let ua = is_user_agent(l);
            let both = ua && previous;
            previous = ua;
            both
        })
    }),
    ("versioned agent token", |i| {
        contains(&i.body, b"FooBot/1.2")
    }),
    ("long line", |i| lines(&i.body).any(|l| l.len() > 1000)),
    ("query in URL", |i| i.url.contains('?')),
    ("fragment in URL", |i| i.url.contains('#')),
    ("https URL", |i| i.url.starts_with("https://")),
    ("URL without path", |i| i.url == "http://example.com"),
    ("/robots.txt URL", |i| url_path(&i.url) == "/robots.txt"),
    ("agent equal to a body token", |i| {
        lines(&i.body).any(|l| matches!(record(l), Some((n, v)) if n.eq_ignore_ascii_case(b"user-agent") && v == i.agent.as_bytes()))
    }),
    ("agent in another case than the body", |i| {
        lines(&i.body).any(|l| matches!(record(l), Some((n, v)) if n.eq_ignore_ascii_case(b"user-agent") && v != i.agent.as_bytes() && v.eq_ignore_ascii_case(i.agent.as_bytes())))
    }),
    ("URL matching a plain rule prefix", |i| {
        let path = url_path(&i.url).as_bytes();
        lines(&i.body).any(|l| {
            matches!(record(l), Some((n, v)) if n.eq_ignore_ascii_case(b"disallow")
                && v.len() > 1 && !v.contains(&b'*') && !v.contains(&b'$') && path.starts_with(v))
        })
    }),
];

#[test]
fn the_same_bytes_give_the_same_input() {
    for data in buffers(7, 500) {
        for generator in [
            generate::structured as Generator,
            generate::raw,
            generate::any,
        ] {
            assert_eq!(run(generator, &data), run(generator, &data));
        }
    }
}

#[test]
fn empty_and_tiny_input_give_plain_input() {
    for data in [&[][..], &[0], &[255], &[1, 2, 3]] {
        for generator in [
            generate::structured as Generator,
            generate::raw,
            generate::any,
        ] {
            let input = run(generator, data);
            assert!(input.url.starts_with("http"), "{input:?}");
        }
    }
    let plain = run(generate::structured, &[]);
    assert_eq!(plain.body, b"User-agent: FooBot\nDisallow: /\n\n");
}

#[test]
fn structured_inputs_show_every_feature_and_respect_the_limits() {
    let mut seen = vec![0usize; FEATURES.len()];
    let count = 20_000;
    for data in buffers(42, count) {
        let input = run(generate::structured, &data);
        for (k, (_, test)) in FEATURES.iter().enumerate() {
            if test(&input) {
                seen[k] += 1;
            }
        }
        for line in lines(&input.body) {
            let stars = line.iter().filter(|&&b| b == b'*').count();
            assert!(
                stars <= MAX_STARS_PER_LINE,
                "{stars} stars: {:?}",
                String::from_utf8_lossy(line)
            );
        }
        assert!(
            input.body.len() <= MAX_STRUCTURED_BODY,
            "{}",
            input.body.len()
        );
        assert!(input.url.len() <= 256, "{}", input.url);
        assert!(
            input.url.starts_with("http://example.com")
                || input.url.starts_with("https://example.com"),
            "{}",
            input.url
        );
    }
    println!("features over {count} structured inputs:");
    for ((name, _), n) in FEATURES.iter().zip(&seen) {
        println!("  {name:<40} {:>6.2}%", 100.0 * *n as f64 / count as f64);
    }
    let missing: Vec<&str> = FEATURES
        .iter()
        .zip(&seen)
        .filter(|(_, &n)| n == 0)
        .map(|((name, _), _)| *name)
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

#[test]
fn raw_inputs_are_capped_and_derive_from_the_body() {
    for data in buffers(9, 2_000) {
        let input = run(generate::raw, &data);
        assert!(input.body.len() <= generate::MAX_RAW_BODY);
        assert!(input.url.len() <= 256);
        assert!(input.url.starts_with("http"));
    }
    let body = b"User-agent: CrawlBot\nDisallow: /secret/*.pdf$\n";
    let mut data = vec![0u8; 16];
    data.extend_from_slice(body);
    let input = run(generate::raw, &data);
    assert_eq!(input.body, body);
    assert_eq!(input.agent, "CrawlBot");
    assert_eq!(input.url, "http://example.com/secret/.pdf");
}

/// The fuzzer's verdict-only path (shared steps, early stop) answers what the explained path
/// answers, on generated inputs of both kinds.
#[test]
fn verdict_only_path_matches_explanations() {
    for d in buffers(11, 3000) {
        let input = run(generate::any, &d);
        let explained: Vec<Verdict> = evaluate_all(&input.request())
            .iter()
            .map(|e| e.verdict)
            .collect();
        assert_eq!(
            explained,
            verdicts_all(&input.request()),
            "verdicts differ for {input:?}"
        );
    }
}

#[test]
fn throughput_and_profile_disagreement() {
    let count = if cfg!(debug_assertions) {
        2_000
    } else {
        20_000
    };
    let data = buffers(1234, count);

    let start = Instant::now();
    let mut octets = 0usize;
    for round in 0..5 {
        for d in &data {
            let input = run(generate::any, d);
            octets += input.body.len() * usize::from(round == 0);
        }
    }
    let elapsed = start.elapsed();
    let per_input = elapsed / (5 * count as u32);
    println!(
        "generation: {:.0} inputs/s ({per_input:?} per input; mean body {} octets; buffers up to 4 KB)",
        (5 * count) as f64 / elapsed.as_secs_f64(),
        octets / count
    );

    let start = Instant::now();
    let (mut differ, mut definite, mut either) = (0, 0, 0);
    for d in &data {
        let input = run(generate::any, d);
        let verdicts: Vec<Verdict> = evaluate_all(&input.request())
            .iter()
            .map(|e| e.verdict)
            .collect();
        if verdicts.iter().any(|&v| v != verdicts[0]) {
            differ += 1;
        }
        if verdicts.contains(&Verdict::Allowed) && verdicts.contains(&Verdict::Disallowed) {
            definite += 1;
        }
        if verdicts.contains(&Verdict::Either) {
            either += 1;
        }
    }
    let percent = |n: usize| 100.0 * n as f64 / count as f64;
    println!(
        "oracle profiles over {count} inputs ({:.1} µs per evaluate_all): not all the same {:.1}%, \
         allowed vs disallowed {:.1}%, some profile open (either) {:.1}%",
        start.elapsed().as_secs_f64() * 1e6 / count as f64,
        percent(differ),
        percent(definite),
        percent(either)
    );
}

/// Checks that each of `alternatives`, applied to the base reading of `profile` and to the reading
/// of each alternative of its `open` knobs, answers as that reading does (one memo for them all);
/// returns how many readings it compared.
fn assert_alternatives_change_nothing(
    profile: robotstxt_oracle::ProfileId,
    input: &Input,
    open: &[robotstxt_oracle::profile::OpenKnob],
    alternatives: &[robotstxt_oracle::profile::Alternative],
) -> usize {
    use robotstxt_oracle::memo::{Memo, PreparedBodies};
    let request = input.request();
    let base = profile.base_knobs();
    let readings: Vec<_> = std::iter::once(base)
        .chain(
            open.iter()
                .flat_map(|k| k.alternatives)
                .map(|a| a.apply(base)),
        )
        .collect();
    let changed: Vec<_> = readings
        .iter()
        .flat_map(|&r| alternatives.iter().map(move |a| a.apply(r)))
        .collect();
    let prepared = PreparedBodies::prepare(&input.body, readings.iter().chain(&changed));
    let mut memo = Memo::new(&request, &prepared);
    for reading in &readings {
        let verdict = memo.allowed(reading);
        for alternative in alternatives {
            assert_eq!(
                memo.allowed(&alternative.apply(*reading)),
                verdict,
                "{profile:?}: {alternative:?} changes {reading:?} on {input:?}"
            );
        }
    }
    readings.len() * alternatives.len()
}

/// The oracle leaves the charset knobs (K7) closed for a body that is not UTF-8 when no line they
/// read differently could take part in grouping. On generated bodies where it does so, every
/// charset reading answers as the octets do: under each profile that has the knobs, for its base
/// reading and each of its other open alternatives, and with every line kept or dropped.
#[test]
fn charset_knobs_left_closed_cannot_change_a_verdict() {
    use robotstxt_oracle::profile::{Alternative, Charset};
    use robotstxt_oracle::ProfileId;
    let charsets = [
        Alternative::Charset(Charset::Latin1),
        Alternative::Charset(Charset::DropInvalidOctets),
        Alternative::Charset(Charset::DropInvalidLines),
    ];
    let (mut closed, mut open) = (0, 0);
    for (n, d) in buffers(23, 6000).iter().enumerate() {
        let mut input = run(generate::any, d);
        // Every other body gets an invalid octet at a place drawn from its bytes (inside a field
        // name, a value, a comment or a line end), so the cases the rule is about come up often.
        if n % 2 == 1 && !input.body.is_empty() {
            let at = (d[0] as usize * 256 + d[1] as usize) % input.body.len();
            input.body.insert(at, [0xFF, 0xE9, 0x80][n % 3]);
        }
        if std::str::from_utf8(&input.body).is_ok() {
            continue;
        }
        for profile in [ProfileId::Rfc9309, ProfileId::Google] {
            let knobs = profile.open_knobs(&input.request());
            if knobs
                .iter()
                .any(|k| k.name == "bridge-encoding" || k.name == "non-utf8")
            {
                open += 1;
                continue;
            }
            closed += 1;
            assert_alternatives_change_nothing(profile, &input, &knobs, &charsets);
        }
    }
    // Both outcomes were met often.
    assert!(closed > 500 && open > 100, "closed {closed}, open {open}");
}

/// A knob the oracle leaves closed for an input cannot change its verdict: the input's facts only
/// ever leave out knobs that do not matter to it. On generated bodies (a third given a BOM, a third
/// an invalid octet at a drawn place), under every profile, each alternative of every closed knob
/// answers as the base reading does, and as each open alternative's reading does.
#[test]
fn closed_knobs_cannot_change_a_verdict() {
    use robotstxt_oracle::ProfileId;
    let mut tried = 0;
    for (n, d) in buffers(29, 3000).iter().enumerate() {
        let mut input = run(generate::any, d);
        let at = (d[0] as usize * 256 + d[1] as usize) % (input.body.len() + 1);
        match n % 3 {
            1 => {
                input.body.splice(0..0, *b"\xEF\xBB\xBF");
            }
            2 => input.body.insert(at, [0xFF, 0xE9, 0x80][n % 9 / 3]),
            _ => {}
        }
        for profile in ProfileId::ALL {
            let open = profile.open_knobs(&input.request());
            let closed: Vec<_> = profile
                .every_open_knob()
                .into_iter()
                .filter(|k| !open.iter().any(|o| o.name == k.name))
                .flat_map(|k| k.alternatives)
                .copied()
                .collect();
            tried += assert_alternatives_change_nothing(profile, &input, &open, &closed);
        }
    }
    assert!(tried > 100_000, "{tried}");
}
