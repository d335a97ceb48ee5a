//! The cause search's path equals the steps composed directly, under deviations: on generated
//! inputs, every reading the cause search can try (each single change to a profile's base reading
//! and each pair of deviations) is answered by the memo (`robotstxt_oracle::memo`, one memo per
//! input shared by every reading, as `robotstxt_oracle::cause` and the fuzzer use it) and by the
//! literal mode's composition of the steps (`robotstxt_oracle::literal::allowed`), which must agree.
//!
//! The memo shares step outputs between readings (line kinds reclassified from another setting,
//! groups and selections kept per projection of the knobs); the literal mode reads the input afresh
//! under each reading. Both call the steps' deviation layers, so a difference is a memo that
//! composes a layer differently, or a projection that leaves out a deviation a step reads.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use robotstxt_differential::generate;
use robotstxt_oracle::cause::{self, Change};
use robotstxt_oracle::memo::{Memo, PreparedBodies};
use robotstxt_oracle::profile::Knobs;
use robotstxt_oracle::{literal, Deviation, Deviations, ProfileId, Request};

/// Inputs compared (each under every profile, about 6,000 readings in all).
const INPUTS: usize = 500;
/// Disagreements printed in full (all are counted).
const SHOWN: usize = 5;

/// The readings tried on `profile`, in the cause search's order (`robotstxt_oracle::cause`): its
/// base reading; each single change of [`cause::changes`] (each knob as another profile sets it,
/// each alternative any profile leaves open, each deviation); then each pair of changes that holds
/// a deviation. Each is given with its name.
fn readings(profile: ProfileId) -> Vec<(String, Knobs)> {
    let base = profile.base_knobs();
    let changes = cause::changes(profile);
    let mut all = vec![("base".to_string(), base)];
    for change in changes {
        all.push((format!("{change:?}"), change.apply(base)));
    }
    for (at, first) in changes.iter().enumerate() {
        for second in &changes[at + 1..] {
            if matches!(first, Change::Deviation(_)) || matches!(second, Change::Deviation(_)) {
                all.push((
                    format!("{first:?} + {second:?}"),
                    second.apply(first.apply(base)),
                ));
            }
        }
    }
    all
}

/// Lines and a URL that one deviation or another reads differently (as `docs/deviations.md`'s
/// examples do), for the deviations whose subject the generator seldom makes: one input in three
/// gets one of them, in front of its body or after it, with its URL and an agent no generated
/// line names.
const SUBJECTS: [(&[u8], &str); 10] = [
    (b"User-agent: *\nDisallow: /a$b\n", "/a"),
    (b"User-agent: *\nDisallow: /a\x00b\n", "/a"),
    (b"User-agent: *\x0b\nDisallow: /a\n", "/a"),
    (b"User-agent: *\nstray text\nDisallow: /a\n", "/a"),
    (b"User-agent: *\nDisallow: /%61b\nAllow: /abc\n", "/abc"),
    (b"User-agent: *\nDisallow: /tmp\n", "/TMP/a"),
    (b"User-agent: *\nDisallow: /a%3cd\n", "/a%3cd"),
    (b"User-agent: *\nDisallow: /a%2A\n", "/a*"),
    (b"User-agent: *\nDisallow: /page$\n", "/page#top"),
    (
        b"User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n",
        "/dir/",
    ),
];

/// The `n`th input of a stream: what the fuzzer's generator makes of a buffer of random octets;
/// one in four gets a byte-order mark in front (a step-1 reading of its own), one in three a
/// [`SUBJECTS`] entry.
fn request_body(rng: &mut ChaCha8Rng, n: usize) -> robotstxt_differential::Input {
    let mut buffer = [0u8; 4096];
    loop {
        let Ok(mut input) = generate::from_stream(rng, &mut buffer) else {
            continue;
        };
        if n % 3 == 2 {
            let (lines, url) = SUBJECTS[n / 3 % SUBJECTS.len()];
            if n.is_multiple_of(2) {
                input.body.splice(0..0, lines.iter().copied());
            } else {
                input.body.push(b'\n');
                input.body.extend_from_slice(lines);
            }
            input.url = url.to_string();
            input.agent = "ExampleBot".to_string();
        }
        if n % 4 == 1 {
            input.body.splice(0..0, *b"\xEF\xBB\xBF");
        }
        return input;
    }
}

/// What the comparison saw: readings compared, the failures (the first [`SHOWN`] in full), and,
/// per deviation, how many readings it changed (one deviation added to a reading without any).
struct Tally {
    compared: usize,
    failures: usize,
    shown: Vec<String>,
    changed: Vec<usize>,
}

/// Threads sharing the comparison: each draws the whole stream and compares every
/// [`THREADS`]th input from its own place in it, so the inputs compared are the same however many
/// threads there are (a fixed number: CI has two cores).
const THREADS: usize = 2;

/// Compares the memo and the literal mode on every [`THREADS`]th of the first `count` inputs of
/// the stream seeded `seed`, from input `thread` on.
fn compare(seed: u64, count: usize, thread: usize) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let per_profile: Vec<(ProfileId, Vec<(String, Knobs)>)> =
        ProfileId::ALL.map(|p| (p, readings(p))).into();
    let mut tally = Tally {
        compared: 0,
        failures: 0,
        shown: Vec::new(),
        changed: vec![0; Deviation::ALL.len()],
    };
    for n in 0..count {
        let input = request_body(&mut rng, n);
        if n % THREADS != thread {
            continue;
        }
        let request: Request<'_> = input.request();
        let every = per_profile
            .iter()
            .flat_map(|(_, r)| r.iter().map(|(_, k)| k));
        let prepared = PreparedBodies::prepare(request.body, every);
        let mut memo = Memo::new(&request, &prepared);
        for (profile, readings) in &per_profile {
            for (name, knobs) in readings {
                let fast = memo.allowed(knobs);
                let slow = literal::allowed(knobs, &request);
                tally.compared += 1;
                if fast != slow {
                    tally.failures += 1;
                    if tally.shown.len() < SHOWN {
                        tally.shown.push(format!(
                            "input {n} of stream {seed}, {} under {name}: the memo answers \
                             allowed = {fast}, the steps composed directly {slow}\n  body \
                             b\"{}\", agent {:?}, url {:?}",
                            profile.name(),
                            input.body.escape_ascii(),
                            input.agent,
                            input.url
                        ));
                    }
                }
                let mut deviations = knobs.deviations.iter();
                if let (Some(d), None) = (deviations.next(), deviations.next()) {
                    let without = Knobs {
                        deviations: Deviations::NONE,
                        ..*knobs
                    };
                    if slow == memo.allowed(&without) {
                        continue;
                    }
                    let at = Deviation::ALL.iter().position(|&x| x == d).expect("listed");
                    tally.changed[at] += 1;
                }
            }
        }
    }
    tally
}

#[test]
fn the_memo_under_deviations_equals_the_steps_composed_directly() {
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| scope.spawn(move || compare(25, INPUTS, t)))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a comparison thread panicked"))
            .collect()
    });
    let mut tally = Tally {
        compared: 0,
        failures: 0,
        shown: Vec::new(),
        changed: vec![0; Deviation::ALL.len()],
    };
    for part in tallies {
        tally.compared += part.compared;
        tally.failures += part.failures;
        tally.shown.extend(part.shown);
        for (all, some) in tally.changed.iter_mut().zip(&part.changed) {
            *all += some;
        }
    }
    tally.shown.truncate(SHOWN);
    assert!(
        tally.failures == 0,
        "{} of {} readings: the memo and the steps composed directly disagree; the first \
         ones:\n{}",
        tally.failures,
        tally.compared,
        tally.shown.join("\n")
    );
    // At least each pair of deviations on each profile, on every input.
    let pairs = Deviation::ALL.len() * (Deviation::ALL.len() - 1) / 2;
    assert!(tally.compared > INPUTS * 4 * pairs, "{}", tally.compared);
    // The deviations changed answers: the comparison met readings that differ from the base.
    let unchanged: Vec<&str> = Deviation::ALL
        .iter()
        .zip(&tally.changed)
        .filter(|(_, &c)| c == 0)
        .map(|(d, _)| d.id())
        .collect();
    println!(
        "{} readings compared; deviations that changed no answer: {unchanged:?}",
        tally.compared
    );
    // Only D-size-cut-at-line-end's subject, a body over 500 KiB, is never generated.
    assert_eq!(unchanged, ["D-size-cut-at-line-end"]);
}
