//! Step 4, selection (K3): which group(s) apply to the agent.

use serde::Serialize;
use smallvec::SmallVec;

use crate::deviation::{Deviation, Deviations};
use crate::group::{Group, RuleLine};
use crate::knobs::{AgentComparison, AgentList, AgentValue, Knobs, RulelessRecord, Selection};
use crate::line::is_ws;

/// A product token's characters: letters, `_` and `-` (`rfc9309#2.2.1`).
pub fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'-'
}

/// Whether `s` is a non-empty product token (`rfc9309#2.2.1`).
pub fn is_product_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&b| is_token_byte(b))
}

/// A name read from a user-agent line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentName<'a> {
    /// `*`: every crawler.
    Star,
    /// A crawler's name.
    Name(&'a [u8]),
    /// Nothing usable (e.g. a value with no leading product token under `LeadingToken`).
    Nothing,
}

/// The knobs selection reads (K3): readings that agree on them, and on the groups, select the same
/// groups (see [`crate::memo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelectKnobs {
    /// How a user-agent line's value is read.
    pub agent_value: AgentValue,
    /// How a name from the file is compared with the agent.
    pub agent_comparison: AgentComparison,
    /// Whether one user-agent line may hold several names.
    pub agent_list: AgentList,
    /// Which group(s) apply.
    pub selection: Selection,
    /// Whether a record without rules can be selected.
    pub ruleless_record: RulelessRecord,
    /// The deviations selection reads ([`crate::deviation::SELECT`]).
    pub deviations: Deviations,
}

impl SelectKnobs {
    /// The selection knobs of a reading.
    pub fn of(knobs: &Knobs) -> SelectKnobs {
        SelectKnobs {
            agent_value: knobs.agent_value,
            agent_comparison: knobs.agent_comparison,
            agent_list: knobs.agent_list,
            selection: knobs.selection,
            ruleless_record: knobs.ruleless_record,
            deviations: knobs.deviations.only(crate::deviation::SELECT),
        }
    }
}

/// Reads the names of one user-agent value (K3: `AgentValue`, `AgentList`).
pub fn agent_names<'a>(
    value: &'a [u8],
    knobs: SelectKnobs,
) -> impl Iterator<Item = AgentName<'a>> + 'a {
    let list = knobs.agent_list == AgentList::WhitespaceSeparated;
    // A single value is one word, even when empty or holding white space.
    value
        .split(move |&b| list && is_ws(b))
        .filter(move |word| !list || !word.is_empty())
        .map(move |word| agent_name(word, knobs.agent_value))
}

fn agent_name(value: &[u8], how: AgentValue) -> AgentName<'_> {
    match how {
        AgentValue::WholeValue if value == b"*" => AgentName::Star,
        AgentValue::WholeValue if value.is_empty() => AgentName::Nothing,
        AgentValue::WholeValue => AgentName::Name(value),
        // google#user-agent-precedence: "All non-matching text is ignored (for example, both
        // googlebot/1.2 and googlebot* are equivalent to googlebot)".
        AgentValue::LeadingToken | AgentValue::LeadingTokenOrStar => {
            let star_alone = value.get(1).is_none_or(|&b| is_ws(b));
            if value.first() == Some(&b'*') && (star_alone || how == AgentValue::LeadingTokenOrStar)
            {
                return AgentName::Star;
            }
            let end = value
                .iter()
                .position(|&b| !is_token_byte(b))
                .unwrap_or(value.len());
            if end == 0 {
                AgentName::Nothing
            } else {
                AgentName::Name(&value[..end])
            }
        }
        // draft-1996#3.3: "agent = token", "token = 1*<any CHAR except CTLs or tspecials>".
        AgentValue::LeadingHttpToken => {
            let end = value
                .iter()
                .position(|&b| !is_http_token_byte(b))
                .unwrap_or(value.len());
            match &value[..end] {
                b"" => AgentName::Nothing,
                b"*" => AgentName::Star,
                name => AgentName::Name(name),
            }
        }
    }
}

/// Whether `b` may stand in a token of the 1996 draft's grammar, which is RFC 1945's (`draft-1996#3.3`:
/// "token = 1*<any CHAR except CTLs or tspecials>", CHAR being US-ASCII).
fn is_http_token_byte(b: u8) -> bool {
    const TSPECIALS: &[u8] = b"()<>@,;:\\\"/[]?={} \t";
    b.is_ascii() && !b.is_ascii_control() && !TSPECIALS.contains(&b)
}

/// Whether a name from the file designates `agent` (case-insensitive everywhere:
/// `rfc9309#2.2.1`, `google#user-agent`, `draft-1996#3.2.1`, `norobots-1994#format`).
pub fn name_matches(name: &[u8], agent: &str, how: AgentComparison) -> bool {
    let agent = agent.as_bytes();
    match how {
        AgentComparison::Equal => name.eq_ignore_ascii_case(agent),
        // guide-ch9#user-agent: the name is a case-insensitive substring of the robot's name.
        AgentComparison::Substring => match (name.first(), agent.len().checked_sub(name.len())) {
            (Some(first), Some(last_start)) => {
                // Only where the name's first octet (in either case) occurs can a match start.
                let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
                memchr::memchr2_iter(lower, upper, agent)
                    .take_while(|&start| start <= last_start)
                    .any(|start| agent[start..start + name.len()].eq_ignore_ascii_case(name))
            }
            _ => false,
        },
    }
}

/// Why the selected groups were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionReason {
    /// Groups naming the agent.
    Specific,
    /// No group names the agent; the `*` group(s).
    Star,
    /// No group names the agent and there is no `*` group: no rules apply.
    NoGroup,
}

/// The result of selection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Selected {
    /// Indices into the group list, in file order.
    pub groups: SmallVec<[usize; 2]>,
    /// Why.
    pub reason: SelectionReason,
}

impl Selected {
    /// The rules that apply: every rule of the selected groups, in file order (`rfc9309#2.2.1`,
    /// `google#grouping`: matching groups are combined; one record for the blank-line profiles).
    pub fn rules<'g, 'a>(
        &self,
        groups: &'g [Group<'a>],
    ) -> impl Iterator<Item = &'g RuleLine<'a>> + use<'_, 'g, 'a> {
        self.groups
            .iter()
            .flat_map(move |&i| groups[i].rules.iter())
    }

    /// The rules of each selected group, group by group (what `decide::empty_record_allows_all`
    /// reads: under 1994 a record speaks for itself).
    pub fn records<'g, 'a>(
        &self,
        groups: &'g [Group<'a>],
    ) -> impl Iterator<Item = &'g [RuleLine<'a>]> + use<'_, 'g, 'a> {
        self.groups.iter().map(move |&i| &groups[i].rules[..])
    }
}

/// Selects the group(s) for `agent` (K3).
pub fn select(groups: &[Group<'_>], agent: &str, knobs: SelectKnobs) -> Selected {
    select_by(
        groups,
        knobs,
        |group| names_crawler(group, agent, knobs),
        |group| names_every_crawler(group, knobs),
    )
}

/// [`select`] under the deviations of [`crate::deviation::SELECT`], each a layer around it: a
/// rewritten comparison (D-agent-substring), or a group that names the crawler, or every crawler,
/// by an empty user-agent value (D-empty-agent-names-all, D-empty-agent-matches-all). Under no
/// deviation it is [`select`].
pub fn select_deviating(groups: &[Group<'_>], agent: &str, knobs: SelectKnobs) -> Selected {
    let deviations = knobs.deviations;
    if deviations.is_empty() {
        return select(groups, agent, knobs);
    }
    // D-agent-substring, breaks rfc9309#2.2.1, google#user-agent-precedence, draft-1996#3.2.1
    // and norobots-1994#format: a name is compared as a substring of the crawler's name
    // (guide-ch9#user-agent's account, which no profile takes).
    let knobs = if deviations.has(Deviation::AgentSubstring) {
        SelectKnobs {
            agent_comparison: AgentComparison::Substring,
            ..knobs
        }
    } else {
        knobs
    };
    // D-empty-agent-matches-all, breaks rfc9309#2.2 (`product-token` is not empty) and
    // rfc9309#2.2.1 (only `*` names every crawler): an empty value is read as the star.
    let empty_is_star = deviations.has(Deviation::EmptyAgentMatchesAll);
    // D-empty-agent-names-all (same sentences): an empty value is a name found in every
    // crawler's name.
    let empty_is_name = deviations.has(Deviation::EmptyAgentNamesAll);
    let empty_value = |group: &Group<'_>| group.agents.iter().any(|line| line.value.is_empty());
    select_by(
        groups,
        knobs,
        |group| names_crawler(group, agent, knobs) || (empty_is_name && empty_value(group)),
        |group| names_every_crawler(group, knobs) || (empty_is_star && empty_value(group)),
    )
}

/// Whether a user-agent line of `group` holds a name that designates `agent`.
fn names_crawler(group: &Group<'_>, agent: &str, knobs: SelectKnobs) -> bool {
    group.agents.iter().any(|line| {
        agent_names(line.value, knobs).any(|name| match name {
            AgentName::Name(name) => name_matches(name, agent, knobs.agent_comparison),
            AgentName::Star | AgentName::Nothing => false,
        })
    })
}

/// Whether a user-agent line of `group` holds `*`.
fn names_every_crawler(group: &Group<'_>, knobs: SelectKnobs) -> bool {
    group
        .agents
        .iter()
        .any(|line| agent_names(line.value, knobs).any(|name| name == AgentName::Star))
}

/// Selection (K3) given which groups name the crawler (`names_crawler`) and which name every
/// crawler (`names_every_crawler`).
fn select_by(
    groups: &[Group<'_>],
    knobs: SelectKnobs,
    names_crawler: impl Fn(&Group<'_>) -> bool,
    names_every_crawler: impl Fn(&Group<'_>) -> bool,
) -> Selected {
    let candidate = |group: &Group<'_>| {
        !(knobs.ruleless_record == RulelessRecord::Skipped && group.rules.is_empty())
    };
    let pick = |names: &dyn Fn(&Group<'_>) -> bool| -> SmallVec<[usize; 2]> {
        let mut matching =
            (0..groups.len()).filter(|&i| candidate(&groups[i]) && names(&groups[i]));
        match knobs.selection {
            // rfc9309#2.2.1: "the matching groups' rules MUST be combined into one group";
            // google#user-agent-precedence: "combined internally into a single group".
            Selection::MergeAllMatching => matching.collect(),
            // norobots-1994#format: a record's rights apply to every robot it names, a `*`
            // record's "to any robot"; the text names no record that would not apply.
            Selection::EveryMatchingRecord => matching.collect(),
            // guide-ch9#user-agent: a robot obeys the record with "the first robot name" that
            // matches it, or with "the first robot name that is "*""; the draft (3.2.1) says only
            // that `*` marks "the default record".
            Selection::FirstMatchingRecord => matching.next().into_iter().collect(),
        }
    };
    let specific = pick(&names_crawler);
    if !specific.is_empty() {
        return Selected {
            groups: specific,
            reason: SelectionReason::Specific,
        };
    }
    // rfc9309#2.2.1: "If no matching group exists, crawlers MUST obey the group with a
    // user-agent line with the "*" value"; google#user-agent-precedence: specific and global
    // groups "are not combined"; draft-1996#3.2.1: `*` is the default record "for robots for which
    // no explicit User-agent line can be found"; norobots-1994#example-2: a robot's own record
    // replaces the `*` record (cybermapper may go everywhere).
    let star = pick(&names_every_crawler);
    if !star.is_empty() {
        return Selected {
            groups: star,
            reason: SelectionReason::Star,
        };
    }
    Selected {
        groups: SmallVec::new(),
        reason: SelectionReason::NoGroup,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::ProfileId;

    fn names(value: &[u8], knobs: Knobs) -> Vec<AgentName<'_>> {
        agent_names(value, SelectKnobs::of(&knobs)).collect()
    }

    #[test]
    fn google_reads_the_leading_token() {
        let knobs = ProfileId::Google.base_knobs();
        assert_eq!(
            names(b"googlebot/1.2", knobs),
            vec![AgentName::Name(b"googlebot")]
        );
        assert_eq!(
            names(b"googlebot*", knobs),
            vec![AgentName::Name(b"googlebot")]
        );
        assert_eq!(names(b"* x", knobs), vec![AgentName::Star]);
        assert_eq!(names(b"/x", knobs), vec![AgentName::Nothing]);
        assert_eq!(names(b"*\x0B", knobs), vec![AgentName::Nothing]);
        let or_star = Knobs {
            agent_value: AgentValue::LeadingTokenOrStar,
            ..knobs
        };
        assert_eq!(names(b"*\x0B", or_star), vec![AgentName::Star]);
        assert_eq!(names(b"*bot", or_star), vec![AgentName::Star]);
        assert_eq!(names(b"bot*", or_star), vec![AgentName::Name(b"bot")]);
    }

    #[test]
    fn rfc9309_compares_the_whole_value() {
        let knobs = ProfileId::Rfc9309.base_knobs();
        assert_eq!(
            names(b"googlebot/1.2", knobs),
            vec![AgentName::Name(b"googlebot/1.2")]
        );
    }

    #[test]
    fn substring_comparison() {
        assert!(name_matches(b"bot", "Spambot", AgentComparison::Substring));
        assert!(name_matches(b"SPAM", "Spambot", AgentComparison::Substring));
        assert!(name_matches(b"mBo", "Spambot", AgentComparison::Substring));
        assert!(name_matches(
            b"spambot",
            "Spambot",
            AgentComparison::Substring
        ));
        assert!(!name_matches(
            b"spambots",
            "Spambot",
            AgentComparison::Substring
        ));
        assert!(!name_matches(
            b"bots",
            "Spambot",
            AgentComparison::Substring
        ));
        assert!(!name_matches(b"", "Spambot", AgentComparison::Substring));
        assert!(!name_matches(b"bot", "Spambot", AgentComparison::Equal));
        assert!(name_matches(b"SPAMBOT", "spambot", AgentComparison::Equal));
    }
}
