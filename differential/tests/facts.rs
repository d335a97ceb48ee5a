//! The input facts gathered for some profiles only (`InputFacts::for_profiles`, what the oracle does
//! when a request is asked of fewer than four profiles, as the metamorphic relation's transformed
//! input is) must open, for each of those profiles, exactly the knobs the facts gathered for every
//! profile open: a fact left out may only be one none of them reads.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use robotstxt_differential::generate;
use robotstxt_oracle::memo::ReceivedBody;
use robotstxt_oracle::profile::InputFacts;
use robotstxt_oracle::ProfileId;

/// Inputs compared.
const INPUTS: usize = 20_000;

#[test]
fn facts_for_one_profile_open_what_facts_for_all_open() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut buffer = vec![0u8; 4096];
    let (mut inputs, mut opened) = (0usize, 0usize);
    let mut differences = Vec::new();
    while inputs < INPUTS {
        let Ok(input) = generate::from_stream(&mut rng, &mut buffer) else {
            continue;
        };
        inputs += 1;
        let request = input.request();
        let received = ReceivedBody::of(request.body);
        let all = InputFacts::of(&request, &received);
        for profile in ProfileId::ALL {
            let names = |facts: &InputFacts| -> Vec<&str> {
                profile
                    .open_knobs_given(facts)
                    .iter()
                    .map(|knob| knob.name)
                    .collect()
            };
            let one = InputFacts::for_profiles(&request, &received, &[profile]);
            let (expected, got) = (names(&all), names(&one));
            opened += expected.len();
            if expected != got && differences.len() < 5 {
                differences.push(format!(
                    "{profile:?}: {got:?} instead of {expected:?}, agent {:?}, URL {:?}, body {:?}",
                    input.agent,
                    input.url,
                    String::from_utf8_lossy(&input.body)
                        .chars()
                        .take(300)
                        .collect::<String>()
                ));
            }
        }
    }
    // The inputs open knobs (the comparison is about something).
    assert!(opened > INPUTS, "{opened} knobs opened");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
