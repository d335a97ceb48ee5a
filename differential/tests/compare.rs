//! The engines: answering a batch is answering each input in turn, only faster.

use arbitrary::Unstructured;
use robotstxt_adapters::Answer;
use robotstxt_differential::compare::{findings, in_process_ids, needed, Engines, Observation};
use robotstxt_differential::invariants::{known_checked, verdicts_checked_under};
use robotstxt_differential::{generate, Input};
use robotstxt_oracle::{
    verdicts_all, verdicts_as_needed_on_one_body, Fetch, Known, Needed, ProfileId, Request, Verdict,
};

/// Generated inputs from a fixed splitmix64 stream.
fn inputs(count: usize) -> Vec<Input> {
    let mut state = 0x5eed_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut found = Vec::new();
    while found.len() < count {
        let data: Vec<u8> = (0..256).flat_map(|_| next().to_le_bytes()).collect();
        if let Ok(input) = generate::any(&mut Unstructured::new(&data)) {
            found.push(input);
        }
    }
    found
}

#[test]
fn a_batch_gets_each_inputs_own_answers_in_order_and_times_every_adapter() {
    std::panic::set_hook(Box::new(|_| {}));
    let (engines, _) = Engines::new(&in_process_ids());
    assert!(engines.len() >= 5, "the Rust adapters are always built");
    let inputs = inputs(300);
    let mut times = vec![0u64; engines.len()];
    let batched = engines.answer_batch(&inputs, &mut times);
    assert_eq!(batched.len(), inputs.len());
    for (input, answers) in inputs.iter().zip(&batched) {
        assert_eq!(answers, &engines.answer_each(input), "{input:?}");
    }
    assert!(
        times.iter().all(|&t| t > 0),
        "an adapter was not timed: {times:?}"
    );
    // A slot per adapter is optional, as for the minimiser's calls.
    assert_eq!(engines.answer_batch(&inputs[..3], &mut []), batched[..3]);
}

/// Every way to ask of one profile's verdict ([`Needed`]).
const NEEDS: [Needed; 4] = [
    Needed::Verdict,
    Needed::Permits {
        allowed: true,
        disallowed: false,
    },
    Needed::Permits {
        allowed: false,
        disallowed: true,
    },
    Needed::Permits {
        allowed: true,
        disallowed: true,
    },
];

/// Fetch outcomes for one input in four: without the body, with it, and answering on their own.
const FETCHES: [Fetch; 4] = [
    Fetch::Status {
        status: 404,
        redirects: 0,
    },
    Fetch::Status {
        status: 503,
        redirects: 0,
    },
    Fetch::Status {
        status: 200,
        redirects: 2,
    },
    Fetch::Unreachable,
];

/// Whether `verdict` permits the answer `allowed`.
fn permits(verdict: Verdict, allowed: bool) -> bool {
    match verdict {
        Verdict::Either => true,
        Verdict::Allowed => allowed,
        Verdict::Disallowed => !allowed,
        Verdict::NotGoverned => false,
    }
}

#[test]
fn a_profile_read_as_needed_says_what_its_whole_verdict_says() {
    let (mut settled, mut read_in_full) = (0, 0);
    for (n, input) in inputs(6000).iter().enumerate() {
        let mut request = input.request();
        if n % 4 == 3 {
            request.fetch = FETCHES[n / 4 % FETCHES.len()];
        }
        // The same body with another URL, as a relation that changes only the URL asks it.
        let other = Request {
            url: "/",
            ..request
        };
        let needs: Vec<(ProfileId, Needed)> = ProfileId::ALL
            .iter()
            .map(|&p| (p, NEEDS[(n + p.index()) % NEEDS.len()]))
            .collect();
        let others: Vec<(ProfileId, Needed)> = ProfileId::ALL
            .iter()
            .map(|&p| (p, NEEDS[(n / 4 + p.index()) % NEEDS.len()]))
            .collect();
        let known = verdicts_as_needed_on_one_body(&[(&needs, &request), (&others, &other)]);
        for ((asks, request), known) in [(&needs, &request), (&others, &other)].iter().zip(known) {
            let whole = verdicts_all(request);
            for (&(profile, needed), known) in asks.iter().zip(known) {
                let verdict = whole[profile.index()];
                match (known, needed) {
                    (Known::Verdict(v), _) => {
                        assert_eq!(v, verdict, "{profile:?} {needed:?} {request:?}");
                        read_in_full += usize::from(needed != Needed::Verdict);
                    }
                    (
                        Known::PermitsAsked,
                        Needed::Permits {
                            allowed,
                            disallowed,
                        },
                    ) => {
                        assert!(
                            (!allowed || permits(verdict, true))
                                && (!disallowed || permits(verdict, false)),
                            "{profile:?} {needed:?} {request:?}: the verdict is {verdict:?}"
                        );
                        settled += 1;
                    }
                    (Known::PermitsAsked, Needed::Verdict) => {
                        panic!("{profile:?}: a verdict needed whole was not read, {request:?}")
                    }
                }
            }
        }
    }
    // Both ways are taken: the test is not about one of them alone.
    assert!(
        settled > 1000 && read_in_full > 100,
        "{settled} {read_in_full}"
    );
}

#[test]
fn findings_from_verdicts_read_as_needed_are_the_findings_from_whole_verdicts() {
    std::panic::set_hook(Box::new(|_| {}));
    let (engines, _) = Engines::new(&in_process_ids());
    let mut wanted: Vec<ProfileId> = engines.identities().iter().map(|i| i.profile).collect();
    wanted.sort_by_key(|p| p.index());
    wanted.dedup();
    let inputs = inputs(3000);
    let mut times = vec![0u64; engines.len()];
    let mut found = 0;
    for (input, answers) in inputs.iter().zip(engines.answer_batch(&inputs, &mut times)) {
        let seconds = Vec::new();
        let needs: Vec<(ProfileId, Needed)> = wanted
            .iter()
            .map(|&p| (p, needed(&engines, &answers, &seconds, p)))
            .collect();
        let whole = Observation {
            oracle: verdicts_checked_under(input, &wanted).unwrap(),
            answers: answers.clone(),
            seconds: seconds.clone(),
        };
        let as_needed = Observation {
            oracle: known_checked(input, &needs)
                .unwrap()
                .map(|k| k.and_then(Known::verdict)),
            answers,
            seconds,
        };
        let expected = findings(&engines, &whole);
        assert_eq!(findings(&engines, &as_needed), expected, "{input:?}");
        found += expected.len();
    }
    assert!(
        found > 100,
        "only {found} findings: the comparison says little"
    );
}

#[test]
fn the_findings_need_a_whole_verdict_where_an_answer_is_no_verdict_or_was_asked_twice() {
    let (engines, _) = Engines::new(&in_process_ids());
    let identities = engines.identities();
    let profile = identities[0].profile;
    let others = identities.iter().filter(|i| i.profile == profile).count();
    assert!(others >= 2, "two in-process adapters claim {profile:?}");
    let each = |answer: Answer| vec![answer; engines.len()];
    let permits = |allowed, disallowed| Needed::Permits {
        allowed,
        disallowed,
    };
    assert_eq!(
        needed(&engines, &each(Answer::Allowed), &[], profile),
        permits(true, false)
    );
    assert_eq!(
        needed(&engines, &each(Answer::Disallowed), &[], profile),
        permits(false, true)
    );
    let mut mixed = each(Answer::Allowed);
    let second = identities
        .iter()
        .rposition(|i| i.profile == profile)
        .unwrap();
    mixed[second] = Answer::Disallowed;
    assert_eq!(needed(&engines, &mixed, &[], profile), permits(true, true));
    // An error, a crash, an unsupported check: the finding states the verdict.
    for odd in [
        Answer::Error {
            message: "e".into(),
        },
        Answer::Crash {
            message: "c".into(),
        },
        Answer::unsupported("u"),
    ] {
        let mut answers = each(Answer::Allowed);
        answers[second] = odd;
        assert_eq!(needed(&engines, &answers, &[], profile), Needed::Verdict);
    }
    // A second process's answer: the `nondeterministic` finding states the verdict.
    let mut seconds = vec![None; engines.len()];
    seconds[second] = Some(Answer::Allowed);
    assert_eq!(
        needed(&engines, &each(Answer::Allowed), &seconds, profile),
        Needed::Verdict
    );
    // A profile no adapter claims: the run is about the oracle, which reads it whole.
    let unclaimed = ProfileId::ALL
        .into_iter()
        .find(|p| identities.iter().all(|i| i.profile != *p))
        .expect("some profile is claimed by no in-process adapter");
    assert_eq!(
        needed(&engines, &each(Answer::Allowed), &[], unclaimed),
        Needed::Verdict
    );
}
