//! The crate's stable hashes, the same on every platform and toolchain: [`seed_of`], the seed an
//! input's invariant choices are drawn from ([`Choices`]), and [`name_hash`], the hash that names
//! the files a campaign writes. Both end in splitmix64's finaliser or are FNV-1a; neither is
//! `std`'s `Hash`, whose values may change between releases.

use crate::input::Input;

/// The seed every invariant choice for `input` is drawn from: a 64-bit hash of body, agent and URL.
/// Each field is read eight octets at a time (little-endian words, the last one zero-padded, then
/// the field's length, so that moving octets between fields changes the hash); each word is mixed
/// in by xor, multiply and rotate, and [`splitmix64`] spreads the result over the low bits that
/// `seed % 14` reads. It runs on every fuzz input, so it reads words rather than octets.
pub fn seed_of(input: &Input) -> u64 {
    const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |word: u64| {
        hash = (hash ^ word).wrapping_mul(MULTIPLIER).rotate_left(29);
    };
    for field in [
        &input.body[..],
        input.agent.as_bytes(),
        input.url.as_bytes(),
    ] {
        let mut words = field.chunks_exact(8);
        for word in &mut words {
            mix(u64::from_le_bytes(word.try_into().expect("eight octets")));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        mix(u64::from_le_bytes(last));
        mix(field.len() as u64);
    }
    splitmix64(hash)
}

/// splitmix64's finaliser: spreads every bit of `z` over all 64.
fn splitmix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A stable hash that names files: FNV-1a over the octets of each part, each part closed by an
/// xor with `0xff` (so that moving octets between parts changes it). A campaign names a bucket's
/// directory with it (of the signature) and an oracle bug's input file (of body, agent and URL).
pub fn name_hash(parts: &[&[u8]]) -> u64 {
    let mut hash = 0xcbf29ce484222325u64;
    for part in parts {
        for &b in *part {
            hash ^= b as u64;
            hash = hash.wrapping_mul(0x100000001b3);
        }
        hash ^= 0xff;
    }
    hash
}

/// A deterministic stream of choices from a seed (splitmix64's generator): a relation's choices
/// for one input, so that a violation reproduces from the input alone.
pub struct Choices(u64);

impl Choices {
    /// The stream that starts at `seed`.
    pub fn new(seed: u64) -> Choices {
        Choices(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        splitmix64(self.0)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(body: &str, agent: &str, url: &str) -> Input {
        Input {
            body: body.as_bytes().to_vec(),
            agent: agent.to_string(),
            url: url.to_string(),
        }
    }

    /// `seed_of` of the input in `seed_is_stable`, computed once when the hash was chosen.
    const SEED_OF_A_KNOWN_INPUT: u64 = 0x35E6_C78D_3EF3_8975;

    #[test]
    fn seed_is_stable() {
        // The value is pinned: a change here changes every reproduction of a violation.
        assert_eq!(
            seed_of(&input("User-agent: *\nDisallow: /x\n", "FooBot", "/x?y")),
            SEED_OF_A_KNOWN_INPUT
        );
        let a = input("User-agent: *", "a", "/");
        assert_eq!(seed_of(&a), seed_of(&a.clone()));
        // Moving an octet between fields, or a trailing zero octet, changes the seed.
        assert_ne!(seed_of(&a), seed_of(&input("User-agent: *a", "", "/")));
        assert_ne!(seed_of(&input("", "", "")), seed_of(&input("\0", "", "")));
        // Every relation is chosen about equally often (`seed % 14`): over 14,000 bodies that
        // differ in one word, each index comes up within 20% of 1000 times.
        let mut counts = [0usize; 14];
        for n in 0..14_000u32 {
            let body = format!("User-agent: *\nDisallow: /{n}\n");
            counts[(seed_of(&input(&body, "FooBot", "/")) % 14) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }

    /// The names of files already written stay the names: the values are pinned.
    #[test]
    fn name_hash_is_stable() {
        assert_eq!(name_hash(&[]), 0xcbf29ce484222325);
        assert_eq!(name_hash(&[b""]), 0xcbf29ce484222325 ^ 0xff);
        // One octet: xor, multiply by the FNV prime, close the part.
        assert_eq!(
            name_hash(&[b"a"]),
            ((0xcbf29ce484222325u64 ^ 0x61).wrapping_mul(0x100000001b3)) ^ 0xff
        );
        assert_eq!(
            name_hash(&[b"body", b"FooBot", b"http://example.com/"]),
            0xbac1_80b5_2d05_70b1
        );
        assert_ne!(name_hash(&[b"ab", b""]), name_hash(&[b"a", b"b"]));
    }

    #[test]
    fn choices_are_a_fixed_stream() {
        let mut a = Choices::new(7);
        let mut b = Choices::new(7);
        for n in 1..100 {
            let x = a.below(n);
            assert!(x < n);
            assert_eq!(x, b.below(n));
        }
    }
}
