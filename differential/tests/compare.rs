//! The engines: answering a batch is answering each input in turn, only faster.

use arbitrary::Unstructured;
use robotstxt_differential::compare::{in_process_ids, Engines};
use robotstxt_differential::{generate, Input};

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
