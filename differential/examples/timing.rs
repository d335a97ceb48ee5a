//! Where a fuzz execution's time goes: generation, the oracle, the invariants (release build).
use std::time::Instant;

use arbitrary::Unstructured;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use robotstxt_differential::{compare, generate, invariants};

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut buffer = vec![0u8; 4096];
    let mut inputs = Vec::new();
    let t = Instant::now();
    while inputs.len() < 20_000 {
        let len = 64 + (rng.next_u32() as usize % (buffer.len() - 64));
        rng.fill_bytes(&mut buffer[..len]);
        if let Ok(input) = generate::any(&mut Unstructured::new(&buffer[..len])) {
            inputs.push(input);
        }
    }
    let generate = t.elapsed();
    let sizes: usize = inputs.iter().map(|i| i.body.len()).sum();
    let t = Instant::now();
    for input in &inputs {
        std::hint::black_box(compare::oracle_verdicts(input).ok());
    }
    let oracle = t.elapsed();
    let t = Instant::now();
    for input in &inputs {
        std::hint::black_box(invariants::check(input).is_ok());
    }
    let inv = t.elapsed();
    let n = inputs.len() as f64;
    for profile in robotstxt_oracle::ProfileId::ALL {
        let readings: usize = inputs
            .iter()
            .map(|i| {
                robotstxt_oracle::evaluate(profile, &i.request())
                    .variants
                    .len()
                    + 1
            })
            .sum();
        println!(
            "{}: {:.2} readings per input",
            profile.name(),
            readings as f64 / n
        );
        let mut names = std::collections::BTreeMap::new();
        for i in &inputs {
            for k in profile.open_knobs(&i.request()) {
                *names.entry(k.name).or_insert(0usize) += 1;
            }
        }
        println!("  open knobs: {names:?}");
    }
    println!(
        "mean body {} bytes; per input: generate {:.1} µs, oracle x4 {:.1} µs, invariants {:.1} µs",
        sizes / inputs.len(),
        generate.as_secs_f64() * 1e6 / n,
        oracle.as_secs_f64() * 1e6 / n,
        inv.as_secs_f64() * 1e6 / n
    );
}

#[allow(dead_code)]
fn readings() {}
