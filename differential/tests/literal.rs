//! The fast path equals the literal mode (`robotstxt_oracle::literal`) on generated inputs: the
//! fuzzer's generator ([`generate::any`]) on a seeded stream of buffers, under all four profiles.
//!
//! The fast path tries a knob's alternatives only where the input's facts say they can matter; the
//! literal mode tries every combination of every open knob (hundreds of readings per input). A difference
//! is a fact that missed something (or a step the memo composes differently): an oracle bug.
//!
//! Some inputs get a fetch outcome other than a plain 200 or ask about a `/robots.txt` URI, and a
//! second test compares the two paths on generated histories of fetches (`verdict_history`
//! against `literal::verdict_history`, each asked at several times).

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use robotstxt_differential::{generate, Input};
use robotstxt_oracle::profile::FIVE_HUNDRED_KIB;
use robotstxt_oracle::{crosscheck, verdicts_all, Fetch, ProfileId, Request, Verdict};

/// Inputs compared at full size (at least 100,000, issue 14; CI).
const INPUTS: usize = 100_000;
/// Inputs compared by a plain `cargo test`: the same seeds' first ones (about 5 s on a debug
/// build's two cores, where the full size takes about four minutes).
const INPUTS_QUICK: usize = 2_000;

/// Whether to run at full size: `ROBOTSTXT_FULL_TESTS=1` (CI sets it; docs/commands.md, "Quick and
/// full"). Without it the property tests compare a fiftieth as many inputs and a twentieth as many
/// histories, the same seeds' first ones.
fn full() -> bool {
    std::env::var_os("ROBOTSTXT_FULL_TESTS").is_some_and(|v| v == "1")
}
/// Threads sharing the work, each on its own seeded stream: a fixed number (CI has two cores), so
/// the inputs do not depend on the machine.
const THREADS: usize = 2;
/// Disagreements printed in full (all are counted).
const SHOWN: usize = 5;

/// Fetch outcomes given to one input in eight (the others are a plain 200): each flattens
/// differently, with or without the body (`rfc9309#2.3.1`, `google#status-codes`, `draft-1996#3.1`),
/// and each meets the `/robots.txt` URI's exemption differently (`fetch::robots_txt_exemption`).
const FETCHES: [Fetch; 15] = [
    Fetch::Status {
        status: 200,
        redirects: 6,
    },
    Fetch::Status {
        status: 200,
        redirects: 2,
    },
    Fetch::Status {
        status: 404,
        redirects: 0,
    },
    Fetch::Status {
        status: 429,
        redirects: 0,
    },
    Fetch::Status {
        status: 503,
        redirects: 0,
    },
    Fetch::Status {
        status: 302,
        redirects: 0,
    },
    Fetch::Status {
        status: 404,
        redirects: 7,
    },
    Fetch::Unreachable,
    Fetch::Status {
        status: 401,
        redirects: 0,
    },
    Fetch::Status {
        status: 403,
        redirects: 0,
    },
    Fetch::Status {
        status: 500,
        redirects: 0,
    },
    Fetch::Status {
        status: 503,
        redirects: 6,
    },
    Fetch::Status {
        status: 100,
        redirects: 0,
    },
    Fetch::Status {
        status: 600,
        redirects: 0,
    },
    Fetch::Status {
        status: 0,
        redirects: 0,
    },
];

/// URLs that are, or nearly are, the `/robots.txt` URI (`url::is_robots_txt_uri`): one input with a
/// fetch outcome in two asks one of them instead of its own URL, so that the exemption comes up
/// against every outcome (with a robots.txt URL for step 0 on the last two).
const ROBOTS_TXT_URLS: [&str; 7] = [
    "http://example.com/robots.txt",
    "/robots.txt",
    "http://example.com/%72obots.txt",
    "http://example.com/robots.txt?x=1",
    "http://example.com/robots.txt#top",
    "http://example.com/robots.txt",
    "http://other.example/robots.txt",
];

/// The `n`th input of one thread's stream: what the fuzzer's generator makes of a buffer of 64 to
/// 4,095 random octets (as `robotstxt-conformance fuzz` draws them), varied so that the knobs about
/// the body's start and charset come up often: one in four gets a byte-order mark in front, one in
/// four an invalid UTF-8 octet at a drawn place, and one in 10,000 a long comment line in front
/// that puts the 500 KiB limit (K14) in the middle of the generated body.
fn input(rng: &mut ChaCha8Rng, n: usize) -> Input {
    let mut buffer = [0u8; 4096];
    loop {
        let Ok(mut input) = generate::from_stream(rng, &mut buffer) else {
            continue;
        };
        let at = (buffer[0] as usize * 256 + buffer[1] as usize) % (input.body.len() + 1);
        match n % 4 {
            1 => {
                input.body.splice(0..0, *b"\xEF\xBB\xBF");
            }
            2 => input.body.insert(at, [0xFF, 0xE9, 0x80, 0xC3][n % 16 / 4]),
            _ => {}
        }
        if n % 10_000 == 9_999 {
            let pad = FIVE_HUNDRED_KIB - input.body.len() / 2;
            let mut long = b"#".repeat(pad - 1);
            long.push(b'\n');
            input.body.splice(0..0, long);
        }
        return input;
    }
}

/// The fetch outcome of the `n`th input of a stream.
fn fetch(n: usize) -> Fetch {
    if n % 8 == 7 {
        FETCHES[n / 8 % FETCHES.len()]
    } else {
        Fetch::default()
    }
}

/// What one thread saw: inputs compared, how often each profile's literal verdict was `either`,
/// and the failures (the first [`SHOWN`] in full).
#[derive(Default)]
struct Tally {
    compared: usize,
    either: [usize; 4],
    failures: usize,
    shown: Vec<String>,
}

impl Tally {
    /// Counts a failure, and keeps its report if fewer than [`SHOWN`] are kept.
    fn fail(&mut self, report: String) {
        self.failures += 1;
        if self.shown.len() < SHOWN {
            self.shown.push(report);
        }
    }
}

/// Compares the fast path and the literal mode on `count` inputs of the stream seeded `seed`.
fn compare(seed: u64, count: usize) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally::default();
    for n in 0..count {
        let input = input(&mut rng, n);
        let mut request = Request {
            fetch: fetch(n),
            ..input.request()
        };
        if n % 16 == 15 {
            let at = n / 16 % ROBOTS_TXT_URLS.len();
            request.url = ROBOTS_TXT_URLS[at];
            if at + 2 >= ROBOTS_TXT_URLS.len() {
                request.robots_url = Some("http://example.com/robots.txt");
            }
        }
        let fast = verdicts_all(&request);
        tally.compared += 1;
        // Every knob the fast path opens is one the literal mode tries, with some of its
        // alternatives (Google's K7 leaves out those that read the input as another does).
        for profile in ProfileId::ALL {
            let every = profile.every_open_knob();
            for knob in profile.open_knobs(&request) {
                let listed = every.iter().any(|k| {
                    k.name == knob.name
                        && k.citation == knob.citation
                        && knob.alternatives.iter().all(|a| k.alternatives.contains(a))
                });
                if !listed {
                    tally.fail(format!(
                        "input {n} of stream {seed}: {} opens {knob:?}, which \
                         every_open_knob does not list",
                        profile.name()
                    ));
                }
            }
        }
        match crosscheck::check(&request, &fast) {
            Ok(()) => {
                for profile in ProfileId::ALL {
                    tally.either[profile.index()] +=
                        usize::from(fast[profile.index()] == Verdict::Either);
                }
            }
            Err(disagreement) => {
                tally.fail(format!("input {n} of stream {seed}: {disagreement}"));
            }
        }
    }
    tally
}

#[test]
fn the_fast_path_equals_the_literal_mode_on_generated_inputs() {
    let inputs = if full() { INPUTS } else { INPUTS_QUICK };
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| scope.spawn(move || compare(14 + t as u64, inputs / THREADS)))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a comparison thread panicked"))
            .collect()
    });
    let compared: usize = tallies.iter().map(|t| t.compared).sum();
    let failures: usize = tallies.iter().map(|t| t.failures).sum();
    let shown: Vec<&String> = tallies.iter().flat_map(|t| &t.shown).collect();
    assert!(
        failures == 0,
        "{failures} failures on {compared} inputs: the fast path and the literal mode disagree \
         (an oracle bug: a fact that misses what makes a knob matter), or the fast path opens a \
         knob the literal mode does not try; the first ones:\n{}",
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(compared, inputs);
    // The comparison met open readings under every profile, not only settled ones.
    let either: Vec<usize> = (0..4)
        .map(|p| tallies.iter().map(|t| t.either[p]).sum())
        .collect();
    println!(
        "{compared} inputs; `either` per profile (rfc9309, google, draft-1996, 1994): {either:?}"
    );
    assert!(either.iter().all(|&e| e > inputs / 100), "{either:?}");
}

/// Histories compared (each asked under the four profiles at several times) at full size.
const HISTORIES: usize = 4_000;
/// Histories compared by a plain `cargo test`: the same seed's first ones.
const HISTORIES_QUICK: usize = 200;

/// Outcomes a history's fetch is drawn from: a 2xx (the input's body), the fetches that give no
/// file (a 4xx, a 429, a redirect loop), server and network errors, and invalid statuses.
const HISTORY_FETCHES: [Fetch; 9] = [
    Fetch::Status {
        status: 200,
        redirects: 0,
    },
    Fetch::Status {
        status: 200,
        redirects: 0,
    },
    Fetch::Status {
        status: 404,
        redirects: 0,
    },
    Fetch::Status {
        status: 429,
        redirects: 0,
    },
    Fetch::Status {
        status: 301,
        redirects: 20,
    },
    Fetch::Status {
        status: 503,
        redirects: 0,
    },
    Fetch::Unreachable,
    Fetch::Status {
        status: 600,
        redirects: 0,
    },
    Fetch::Status {
        status: 403,
        redirects: 0,
    },
];

/// Times a history's fetches and questions are drawn from, in minutes: around Google's 12 hours,
/// the 24 hours of RFC 9309's copy, the 1996 draft's 7 days and the 30 days of both.
const TIMES: [u64; 10] = [
    0,
    60,
    11 * 60,
    13 * 60,
    23 * 60,
    25 * 60,
    3 * 24 * 60,
    8 * 24 * 60,
    29 * 24 * 60,
    31 * 24 * 60,
];

/// The fast path ([`robotstxt_oracle::verdict_history`]) equals the literal mode
/// ([`robotstxt_oracle::literal::verdict_history`]) on generated histories: one to four fetches
/// with drawn times and outcomes (each 2xx with a generated body), asked about the input's URL or
/// the `/robots.txt` URI at every drawn time, under every profile. Scope, the exemption against the
/// latest fetch, the bases and each fetch's single verdict must compose alike.
#[test]
fn the_fast_path_equals_the_literal_mode_on_generated_histories() {
    use robotstxt_oracle::{literal, verdict_history, HistoryRequest, TimedFetch};
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut failures = Vec::new();
    let (mut asked, mut exempt_asked) = (0usize, 0usize);
    let histories = if full() { HISTORIES } else { HISTORIES_QUICK };
    for n in 0..histories {
        let inputs: Vec<Input> = (0..4).map(|i| input(&mut rng, n * 4 + i)).collect();
        let draw = |i: usize, salt: usize| inputs[i].body.len().wrapping_mul(31) + salt + n;
        let count = 1 + draw(0, 1) % 4;
        let mut times: Vec<u64> = (0..count)
            .map(|i| TIMES[draw(i, 7) % TIMES.len()])
            .collect();
        times.sort_unstable();
        let fetches: Vec<TimedFetch<'_>> = (0..count)
            .map(|i| TimedFetch {
                at: times[i],
                fetch: HISTORY_FETCHES[draw(i, 3 * i + n / 7) % HISTORY_FETCHES.len()],
                body: &inputs[i].body,
            })
            .collect();
        let urls = [
            inputs[0].url.as_str(),
            ROBOTS_TXT_URLS[n % ROBOTS_TXT_URLS.len()],
        ];
        for url in urls {
            let robots_url = (n % 3 == 0).then_some("http://example.com/robots.txt");
            for &at in TIMES.iter().filter(|&&t| t >= times[0]) {
                let request = HistoryRequest {
                    fetches: &fetches,
                    agent: &inputs[0].agent,
                    url,
                    at,
                    robots_url,
                };
                for profile in ProfileId::ALL {
                    let fast = verdict_history(profile, &request);
                    let slow = literal::verdict_history(profile, &request);
                    asked += 1;
                    exempt_asked += usize::from(url != inputs[0].url);
                    if fast != slow && failures.len() < SHOWN {
                        failures.push(format!(
                            "history {n}, {}: fast {} literal {}, url {url:?} at {at} min, \
                             robots.txt url {robots_url:?}, fetches {:?}",
                            profile.name(),
                            fast.name(),
                            slow.name(),
                            fetches.iter().map(|f| (f.at, f.fetch)).collect::<Vec<_>>()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "the fast path and the literal mode disagree on histories:\n{}",
        failures.join("\n")
    );
    println!("{asked} history questions, {exempt_asked} about a robots.txt URL");
    assert!(exempt_asked > histories * 5 / 2, "{exempt_asked}");
}
