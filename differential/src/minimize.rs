//! Delta debugging (Zeller's ddmin, complement removal) of a finding's input, keeping its
//! signature: lines of the body, then its octets, then the URL's path and query, then the agent.

use std::cell::Cell;

use crate::edit::{path_start, split_lines};
use crate::input::Input;

/// The most predicate calls one minimisation may make.
pub const DEFAULT_BUDGET: usize = 4000;

/// Shrinks `input` while `keeps` holds, within `budget` calls of `keeps`.
pub fn minimize(input: &Input, keeps: &mut dyn FnMut(&Input) -> bool, budget: usize) -> Input {
    minimize_batched(
        input,
        &mut |candidates: &[Input]| candidates.iter().position(&mut *keeps),
        budget,
    )
}

/// [`minimize`] with a predicate asked about several candidates at once: `first_kept` returns the
/// index of the first candidate that keeps the finding (as if asked one by one, in order, stopping
/// there), so that an adapter process can be asked a whole round of candidates in one round trip.
/// The result is the same as [`minimize`]'s with that predicate; the budget counts the candidates a
/// one-by-one search would have asked.
pub fn minimize_batched(
    input: &Input,
    first_kept: &mut dyn FnMut(&[Input]) -> Option<usize>,
    budget: usize,
) -> Input {
    let calls = Cell::new(0usize);
    let mut best = input.clone();
    // The first candidate kept, within the budget; counts what a one-by-one search would ask.
    let mut ask = |candidates: Vec<Input>| -> Option<usize> {
        let allowed = budget.saturating_sub(calls.get()).min(candidates.len());
        if allowed == 0 {
            return None;
        }
        let kept = first_kept(&candidates[..allowed]);
        calls.set(calls.get() + kept.map_or(allowed, |i| i + 1));
        kept
    };
    let exhausted = || calls.get() >= budget;
    // 1. Whole lines of the body (each with its line end).
    let lines = split_lines(&best.body);
    let lines = ddmin_batched(
        lines,
        &mut |rounds: &[Vec<Vec<u8>>]| {
            let candidates = rounds
                .iter()
                .map(|parts| Input {
                    body: parts.concat(),
                    ..best.clone()
                })
                .collect();
            ask(candidates)
        },
        &exhausted,
    );
    best.body = lines.concat();
    // 2. Octets of the body.
    let octets: Vec<u8> = best.body.clone();
    let octets = ddmin_batched(
        octets,
        &mut |rounds: &[Vec<u8>]| {
            let candidates = rounds
                .iter()
                .map(|parts| Input {
                    body: parts.clone(),
                    ..best.clone()
                })
                .collect();
            ask(candidates)
        },
        &exhausted,
    );
    best.body = octets;
    // 3. The URL's path and query (the origin stays, and the path keeps its leading `/`).
    if let Some(path_at) = path_start(&best.url) {
        let origin = best.url[..path_at].to_string();
        let rest: Vec<char> = best.url[path_at..].chars().collect();
        if rest.len() > 1 {
            let (slash, tail) = rest.split_at(1);
            let slash: String = slash.iter().collect();
            let tail = ddmin_batched(
                tail.to_vec(),
                &mut |rounds: &[Vec<char>]| {
                    let candidates = rounds
                        .iter()
                        .map(|parts| Input {
                            url: format!("{origin}{slash}{}", parts.iter().collect::<String>()),
                            ..best.clone()
                        })
                        .collect();
                    ask(candidates)
                },
                &exhausted,
            );
            best.url = format!("{origin}{slash}{}", tail.iter().collect::<String>());
        }
    }
    // 4. The agent (never empty: an empty candidate is not kept and not asked).
    let agent: Vec<char> = best.agent.chars().collect();
    let agent = ddmin_batched(
        agent,
        &mut |rounds: &[Vec<char>]| {
            let asked = rounds.iter().take_while(|p| !p.is_empty()).count();
            let candidates = rounds[..asked]
                .iter()
                .map(|parts| Input {
                    agent: parts.iter().collect(),
                    ..best.clone()
                })
                .collect();
            // ddmin offers the empty sequence only alone, after every other candidate failed.
            ask(candidates)
        },
        &exhausted,
    );
    best.agent = agent.iter().collect();
    best
}

/// ddmin by complement removal: the smallest subsequence (1-minimal with respect to chunk removal)
/// of `items` for which `keeps` holds, assuming it holds for `items`.
pub fn ddmin<T: Clone>(items: Vec<T>, keeps: &mut dyn FnMut(&[T]) -> bool) -> Vec<T> {
    ddmin_batched(
        items,
        &mut |candidates: &[Vec<T>]| candidates.iter().position(|c| keeps(c)),
        &|| false,
    )
}

/// The most candidates [`ddmin_batched`] builds and offers at once: a round at a fine granularity
/// of a long input (a 500 KiB body's octets) is offered a window at a time, so that memory and time
/// stay proportional to what is asked.
pub const WINDOW: usize = 256;

/// [`ddmin`] asking a round of candidates (the complements at one granularity, in order, at most
/// [`WINDOW`] at a time) at once: `first_kept` returns the index of the first that keeps, as
/// [`ddmin`] would have found it. Stops, keeping what it has, as soon as `exhausted` says so (the
/// caller's budget is spent).
pub fn ddmin_batched<T: Clone>(
    mut items: Vec<T>,
    first_kept: &mut dyn FnMut(&[Vec<T>]) -> Option<usize>,
    exhausted: &dyn Fn() -> bool,
) -> Vec<T> {
    let mut chunks = 2usize;
    while items.len() >= 2 {
        let size = items.len().div_ceil(chunks);
        let starts: Vec<usize> = (0..items.len()).step_by(size).collect();
        let mut kept = None;
        for window in starts.chunks(WINDOW) {
            if exhausted() {
                return items;
            }
            let mut candidates: Vec<Vec<T>> = window
                .iter()
                .map(|&start| {
                    let end = (start + size).min(items.len());
                    let mut candidate = items[..start].to_vec();
                    candidate.extend_from_slice(&items[end..]);
                    candidate
                })
                .collect();
            if let Some(index) = first_kept(&candidates) {
                kept = Some(candidates.swap_remove(index));
                break;
            }
        }
        match kept {
            Some(smaller) => {
                items = smaller;
                chunks = (chunks - 1).max(2);
            }
            None => {
                if chunks >= items.len() {
                    break;
                }
                chunks = (chunks * 2).min(items.len());
            }
        }
    }
    if items.len() == 1 && !exhausted() && first_kept(&[Vec::new()]) == Some(0) {
        items.clear();
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddmin_finds_the_two_needed_items() {
        let items: Vec<u32> = (0..100).collect();
        let out = ddmin(items, &mut |p: &[u32]| p.contains(&17) && p.contains(&71));
        assert_eq!(out, vec![17, 71]);
    }

    #[test]
    fn a_spent_budget_stops_a_long_input_at_once() {
        // 500,000 octets: every round at a fine granularity would build n candidates of n - 1
        // octets each; with the budget spent after the first window nothing more is built.
        let input = Input {
            body: vec![b'a'; 500_000],
            agent: "A".to_string(),
            url: "http://example.com/".to_string(),
        };
        let mut asked = 0usize;
        let out = minimize(
            &input,
            &mut |_: &Input| {
                asked += 1;
                false
            },
            100,
        );
        assert_eq!(out, input);
        assert_eq!(asked, 100, "the budget bounds the predicate calls");
    }

    #[test]
    fn windows_find_the_same_first_kept_candidate_as_one_by_one() {
        let items: Vec<u32> = (0..2000).collect();
        let needed = |p: &[u32]| p.contains(&1234) && p.contains(&7);
        let one_by_one = ddmin(items.clone(), &mut |p: &[u32]| needed(p));
        let mut rounds = 0;
        let windowed = ddmin_batched(
            items,
            &mut |c: &[Vec<u32>]| {
                rounds += 1;
                assert!(c.len() <= WINDOW);
                c.iter().position(|p| needed(p))
            },
            &|| false,
        );
        assert_eq!(windowed, one_by_one);
        assert_eq!(windowed, vec![7, 1234]);
        assert!(rounds > 0);
    }

    #[test]
    fn minimises_body_url_and_agent() {
        let input = Input {
            body: b"# hi\r\nUser-agent: *\nAllow: /x\nDisallow: /private\nSitemap: s\n".to_vec(),
            agent: "FooBotExtra".to_string(),
            url: "http://example.com/private/deep/page?q=1".to_string(),
        };
        let out = minimize(
            &input,
            &mut |i: &Input| {
                i.body.windows(10).any(|w| w == b"Disallow: ")
                    && i.url.contains("/p")
                    && i.agent.starts_with('F')
            },
            DEFAULT_BUDGET,
        );
        assert_eq!(out.body, b"Disallow: ");
        assert_eq!(out.url, "http://example.com/p");
        assert_eq!(out.agent, "F");
    }
}
