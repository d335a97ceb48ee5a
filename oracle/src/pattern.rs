//! Step 6b, matching one rule's pattern against the target (K6).
//!
//! A pattern is compiled into literal segments separated by `*`, with an optional end anchor.
//! Matching places the first segment at offset 0 (`rfc9309#2.2.2`: matching starts with the first
//! octet of the path) and every later segment at its leftmost occurrence after the previous one.
//! Leftmost placement is optimal: it leaves the most room for what follows, so a match exists iff
//! this greedy placement succeeds. Cost: one substring search per segment, O(segments x length);
//! no backtracking, so `/*a*a*a*...` stays polynomial.

use std::borrow::Cow;

use smallvec::SmallVec;

use crate::deviation::{Deviation, Deviations};
use crate::encoding::{normalise, normalise_deviating, Side};
use crate::knobs::{Encoding, Knobs, MidDollar, Wildcards};

/// The knobs compiling a pattern reads (K6, K7 encoding): readings that agree on them share each
/// rule's compiled pattern (see [`crate::memo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PatternKnobs {
    /// K6: `*` and `$`.
    pub wildcards: Wildcards,
    /// K7: percent-encoding normalisation.
    pub encoding: Encoding,
    /// The deviations compiling and matching read ([`crate::deviation::PATTERN`]).
    pub deviations: Deviations,
}

impl PatternKnobs {
    /// The pattern knobs of a reading.
    pub fn of(knobs: &Knobs) -> PatternKnobs {
        PatternKnobs {
            wildcards: knobs.wildcards,
            encoding: knobs.encoding,
            deviations: knobs.deviations.only(crate::deviation::PATTERN),
        }
    }
}

/// A compiled pattern (its segments borrow the rule's value where normalising leaves them as they
/// are).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern<'a> {
    /// Normalised literal segments; `segments.len() - 1` wildcards sit between them.
    pub segments: SmallVec<[Cow<'a, [u8]>; 2]>,
    /// The pattern ended with `$` (`rfc9309#2.2.3`).
    pub anchored: bool,
    /// The pattern can never match (a `$` before the end under `MidDollar::NeverMatches`, or
    /// before a literal octet under `MidDollar::EndOfUrl`).
    pub impossible: bool,
}

impl<'a> Pattern<'a> {
    /// Compiles `raw` (a rule's value) under `knobs` (K6, K7).
    pub fn compile(raw: &'a [u8], knobs: PatternKnobs) -> Pattern<'a> {
        Pattern::compile_with(raw, knobs.wildcards, |piece, in_query| {
            normalise(piece, Side::Pattern, knobs.encoding, in_query)
        })
    }

    /// [`Pattern::compile`] under the deviations of [`crate::deviation::PATTERN`] that act when
    /// compiling, each a layer around it: a rewritten value (D-slashless-rule-rooted,
    /// D-dollar-anywhere), pieces normalised under the encoding deviations
    /// ([`normalise_deviating`]). D-no-backtracking acts when matching
    /// ([`Pattern::match_end_without_backtracking`]). Under no deviation it is
    /// [`Pattern::compile`].
    pub fn compile_deviating(raw: &'a [u8], knobs: PatternKnobs) -> Pattern<'a> {
        if knobs.deviations.is_empty() {
            return Pattern::compile(raw, knobs);
        }
        if knobs.deviations.has(Deviation::SlashlessRuleRooted)
            && raw.first().is_some_and(|&b| b != b'/')
        {
            // D-slashless-rule-rooted, breaks rfc9309#2.2 (`path-pattern = "/" ...`) and
            // google#url-matching (the value "must start with `/`"): read as if `/` preceded it.
            let rooted = [&b"/"[..], raw].concat();
            let pattern = Pattern::compile_rooted_deviating(&rooted, knobs);
            return Pattern {
                segments: pattern
                    .segments
                    .into_iter()
                    .map(|segment| Cow::Owned(segment.into_owned()))
                    .collect(),
                ..pattern
            };
        }
        Pattern::compile_rooted_deviating(raw, knobs)
    }

    /// [`Pattern::compile_deviating`] of a value that D-slashless-rule-rooted leaves as it is.
    fn compile_rooted_deviating(raw: &'a [u8], knobs: PatternKnobs) -> Pattern<'a> {
        let value = match (knobs.wildcards, memchr::memchr(b'$', raw)) {
            // D-dollar-anywhere, breaks rfc9309#2.2.3 (`$` designates the end of the match
            // pattern): the first `$` anchors and what follows it is dropped, as if the value
            // ended there.
            (Wildcards::Special(_), Some(at))
                if knobs.deviations.has(Deviation::DollarAnywhere) =>
            {
                &raw[..=at]
            }
            _ => raw,
        };
        Pattern::compile_with(value, knobs.wildcards, |piece, in_query| {
            normalise_deviating(
                piece,
                Side::Pattern,
                knobs.encoding,
                in_query,
                knobs.deviations,
            )
        })
    }

    /// Compiles `raw` under `wildcards` (K6), each piece between wildcards normalised by
    /// `normalise` (K7), which is told whether the piece starts inside the query and tells whether
    /// it ends there.
    fn compile_with(
        raw: &'a [u8],
        wildcards: Wildcards,
        mut normalise: impl FnMut(&'a [u8], bool) -> (Cow<'a, [u8]>, bool),
    ) -> Pattern<'a> {
        let (body, anchored, impossible) = match wildcards {
            Wildcards::Literal => (raw, false, false),
            Wildcards::Special(MidDollar::EndOfUrl) => {
                // google#url-matching: "`$` designates the end of the URL", wherever it stands.
                // What follows the first `$` can match only the empty rest of the URL: nothing
                // but `*`s ("The trailing wildcard is ignored") and `$`s, or the rule never
                // matches.
                match memchr::memchr(b'$', raw) {
                    Some(at) => {
                        let tail_is_empty = raw[at + 1..].iter().all(|&b| b == b'*' || b == b'$');
                        (&raw[..at], tail_is_empty, !tail_is_empty)
                    }
                    None => (raw, false, false),
                }
            }
            Wildcards::Special(mid_dollar) => {
                let (body, anchored) = match raw.strip_suffix(b"$") {
                    Some(body) => (body, true),
                    None => (raw, false),
                };
                let impossible = mid_dollar == MidDollar::NeverMatches && body.contains(&b'$');
                (body, anchored, impossible)
            }
        };
        // Under `Literal` no octet separates pieces: the whole body is one segment.
        let separator = match wildcards {
            Wildcards::Literal => None,
            Wildcards::Special(_) => Some(b'*'),
        };
        let mut in_query = false;
        let segments = body
            .split(|&b| Some(b) == separator)
            .map(|piece| {
                let (segment, now_in_query) = normalise(piece, in_query);
                in_query = now_in_query;
                segment
            })
            .collect();
        Pattern {
            segments,
            anchored,
            impossible,
        }
    }

    /// The pattern's length in octets after normalisation, each `*` and the `$` counting one
    /// (K4 `PatternOctets`; `google#situation-3`, `google#situation-5`).
    pub fn octets(&self) -> usize {
        self.literal_octets() + (self.segments.len() - 1) + usize::from(self.anchored)
    }

    /// The octets of the pattern's literal segments after normalisation, without its `*`s and `$`.
    pub fn literal_octets(&self) -> usize {
        self.segments.iter().map(|segment| segment.len()).sum()
    }

    /// The `*`s that end the pattern (none when it ends with `$`): each leaves an empty segment
    /// after the others.
    pub fn trailing_wildcards(&self) -> usize {
        if self.anchored {
            return 0;
        }
        let after_first = &self.segments[1..];
        after_first
            .iter()
            .rev()
            .take_while(|segment| segment.is_empty())
            .count()
    }

    /// Whether the pattern is the example rule of rfc9309#5.2, `/example/page/disallowed.gif`
    /// once normalised.
    pub fn is_section_5_2_rule(&self) -> bool {
        !self.anchored
            && !self.impossible
            && self.segments.len() == 1
            && self.segments[0].as_ref() == crate::knobs::SECTION_5_2_RULE
    }

    /// The normalised pattern as text (for explanations).
    pub fn display(&self) -> String {
        let mut s = self
            .segments
            .iter()
            .map(|seg| String::from_utf8_lossy(seg).into_owned())
            .collect::<Vec<_>>()
            .join("*");
        if self.anchored {
            s.push('$');
        }
        s
    }

    /// Matches the pattern against a normalised target. Returns the end of the longest possible
    /// match (the number of target octets it covers), or `None`.
    pub fn match_end(&self, target: &[u8]) -> Option<usize> {
        if self.impossible {
            return None;
        }
        let (first, rest) = self.segments.split_first()?;
        // rfc9309#2.2.2: matching starts with the first octet of the path.
        if !target.starts_with(first) {
            return None;
        }
        let mut pos = first.len();
        let Some((last, middle)) = rest.split_last() else {
            // No wildcard: a prefix match, or an exact match when anchored.
            return (!self.anchored || pos == target.len()).then_some(pos);
        };
        // rfc9309#2.2.3: each `*` matches any run of octets; place each segment leftmost.
        for segment in middle {
            pos += memchr::memmem::find(&target[pos..], segment)? + segment.len();
        }
        if self.anchored {
            // The last segment must end exactly at the end of the target.
            let start = target.len().checked_sub(last.len())?;
            (start >= pos && target.ends_with(last)).then_some(target.len())
        } else if last.is_empty() {
            // A trailing `*` covers the rest of the target.
            Some(target.len())
        } else {
            // The longest match ends at the last occurrence of the last segment.
            memchr::memmem::rfind(&target[pos..], last).map(|at| pos + at + last.len())
        }
    }

    /// [`Pattern::match_end`] under D-no-backtracking (breaks rfc9309#2.2.3: `*` "designates 0
    /// or more instances of any character"): each piece after a `*` is tried only where its first
    /// octet first occurs, and the match fails if the piece is not there.
    pub fn match_end_without_backtracking(&self, target: &[u8]) -> Option<usize> {
        if self.impossible || self.segments.len() < 2 {
            return self.match_end(target);
        }
        // rfc9309#2.2.2: matching starts with the first octet of the path.
        let first = &self.segments[0];
        if !target.starts_with(first) {
            return None;
        }
        let mut pos = first.len();
        for segment in &self.segments[1..] {
            let Some(&first) = segment.first() else {
                continue;
            };
            let at = pos + memchr::memchr(first, &target[pos..])?;
            if !target[at..].starts_with(segment) {
                return None;
            }
            pos = at + segment.len();
        }
        // A trailing `*` covers the rest of the target.
        if self
            .segments
            .last()
            .is_some_and(|segment| segment.is_empty())
        {
            Some(target.len())
        } else {
            (!self.anchored || pos == target.len()).then_some(pos)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::normalise;
    use crate::knobs::ProfileId;

    fn end(pattern: &str, target: &str, profile: ProfileId) -> Option<usize> {
        let knobs = profile.base_knobs();
        let target = normalise(target.as_bytes(), Side::Target, knobs.encoding, false).0;
        Pattern::compile(pattern.as_bytes(), PatternKnobs::of(&knobs)).match_end(&target)
    }

    #[test]
    fn google_path_table() {
        let g = ProfileId::Google;
        assert!(end("/fish*.php", "/fishheads/catfish.php?parameters", g).is_some());
        assert!(end("/*.php$", "/filename.php", g).is_some());
        assert!(end("/*.php$", "/filename.php?parameters", g).is_none());
        assert!(end("/$", "/", g).is_some());
        assert!(end("/$", "/a", g).is_none());
        assert!(end("/fish/", "/fish", g).is_none());
        assert_eq!(end("/*", "/abc", g), Some(4));
    }

    #[test]
    fn wildcards_are_literal_in_1996() {
        assert!(end("/*.php", "/index.php", ProfileId::Draft1996).is_none());
        assert!(end("/*.php", "/*.php", ProfileId::Draft1996).is_some());
    }

    #[test]
    fn percent_encoded_star_matches_a_literal_star() {
        assert!(end("/a-%2A.html", "/a-*.html", ProfileId::Rfc9309).is_some());
        assert!(end("/foo-%24", "/foo-$", ProfileId::Rfc9309).is_some());
    }

    #[test]
    fn octets_count_specials() {
        let knobs = ProfileId::Google.base_knobs();
        assert_eq!(
            Pattern::compile(b"/*.htm", PatternKnobs::of(&knobs)).octets(),
            6
        );
        assert_eq!(
            Pattern::compile(b"/$", PatternKnobs::of(&knobs)).octets(),
            2
        );
    }

    #[test]
    fn trailing_wildcards_are_counted_apart() {
        let knobs = ProfileId::Google.base_knobs();
        let trailing =
            |p: &str| Pattern::compile(p.as_bytes(), PatternKnobs::of(&knobs)).trailing_wildcards();
        assert_eq!(trailing("/*"), 1);
        assert_eq!(trailing("/fish**"), 2);
        assert_eq!(trailing("/fish*.php"), 0);
        assert_eq!(trailing("/fish*$"), 0);
        assert_eq!(trailing("*"), 1);
        assert_eq!(trailing("/fish"), 0);
    }

    #[test]
    fn many_stars_do_not_backtrack() {
        // A backtracking matcher never finishes this; the greedy one does 5,000 searches.
        let pattern = format!("/{}b", "*a".repeat(5000));
        let target = format!("/{}", "a".repeat(20000));
        assert!(end(&pattern, &target, ProfileId::Rfc9309).is_none());
        assert_eq!(
            end(
                &format!("/{}", "*a".repeat(5000)),
                &target,
                ProfileId::Rfc9309
            ),
            Some(20001)
        );
    }
}
