//! The novel bugs of the zoo: behaviours real parsers have been seen to show, or could, that no
//! document's reading permits and no named deviation (`docs/deviations.md`) describes. Each is
//! injected into RFC 9309's base reading by [`super::pipeline`].
//!
//! Chosen so that none is a knob alternative or a deviation: a BOM kept as part of the first field
//! is K12's `KeepAsContent`, a lone CR not ending a line is `D-lf-only-lines`, `$` literal with `*`
//! special is half of K6's literal reading, and `Disallow:` with no value disallowing everything is
//! K9's literal reading of the 1996 draft (an empty value matches every URL), so none of those is
//! here.

/// One novel bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    /// Rules match anywhere in the path, as if every value began with `*`.
    Unanchored,
    /// In a run of user-agent lines, each replaces the one before: only the last names the group.
    AgentLineReplaces,
    /// When several groups name the crawler, only the last applies (RFC 9309 combines them).
    RepeatedGroupReplaces,
    /// A line with a second colon (outside a comment) is ignored.
    SecondColonDropsLine,
    /// An empty `Disallow:` hides the rules after it in its group.
    EmptyDisallowHidesLater,
    /// A `User-agent: *` line counts only in the file's first group.
    StarGroupOnlyFirst,
    /// A rule's value that does not end in `/`, `*` or `$` gets a `/` added.
    TrailingSlashAdded,
    /// Nothing after the file's first blank line is read.
    StopsAtBlankLine,
    /// The last matching rule in file order decides.
    LastMatchWins,
    /// `*` matches exactly one octet.
    StarOneOctet,
    /// A tab is an ordinary octet, never white space (kept in values and field names).
    TabIsText,
    /// A rule's value longer than 255 octets is cut to its first 255.
    LongRulesCut,
    /// A comment line is read as the line after its `#`.
    CommentsAreDirectives,
    /// Field names count only written `User-agent`, `Allow` and `Disallow`, in that case.
    CaseSensitiveFields,
    /// The crawler's name is compared with the user-agent value case-sensitively.
    CaseSensitiveAgent,
    /// Nothing after the first `Sitemap:` line is read.
    SitemapEndsFile,
    /// `Allow` lines are read as `Disallow`.
    AllowIsDisallow,
    /// Only the first rule of each group is read.
    FirstRuleOnly,
    /// Every rule's value loses its last octet (`/abc` acts as `/ab`).
    LastOctetDropped,
    /// A user-agent value names the crawler when the crawler's name begins it (`FooBotX` names
    /// `FooBot`).
    AgentPrefixOfValue,
    /// Names are compared on their first eight octets only.
    AgentCutAtEight,
    /// Rules whose value holds `?` are ignored.
    RulesWithQueryIgnored,
    /// The URL is matched only up to its first `;`.
    SemicolonEndsPath,
    /// `Disallow: /` is ignored.
    RootDisallowIgnored,
    /// A `Crawl-delay` line drops the rules before it in its group.
    CrawlDelayResetsRules,
    /// When no group applies to the crawler, everything is disallowed.
    NoGroupDisallowsAll,
    /// The shortest matching rule decides.
    ShortestMatchWins,
    /// On a tie between the longest matching rules, `Disallow` wins.
    DisallowWinsTies,
}

impl Bug {
    /// Every novel bug, in the zoo's order.
    pub const ALL: [Bug; 28] = [
        Bug::Unanchored,
        Bug::AgentLineReplaces,
        Bug::RepeatedGroupReplaces,
        Bug::SecondColonDropsLine,
        Bug::EmptyDisallowHidesLater,
        Bug::StarGroupOnlyFirst,
        Bug::TrailingSlashAdded,
        Bug::StopsAtBlankLine,
        Bug::LastMatchWins,
        Bug::StarOneOctet,
        Bug::TabIsText,
        Bug::LongRulesCut,
        Bug::CommentsAreDirectives,
        Bug::CaseSensitiveFields,
        Bug::CaseSensitiveAgent,
        Bug::SitemapEndsFile,
        Bug::AllowIsDisallow,
        Bug::FirstRuleOnly,
        Bug::LastOctetDropped,
        Bug::AgentPrefixOfValue,
        Bug::AgentCutAtEight,
        Bug::RulesWithQueryIgnored,
        Bug::SemicolonEndsPath,
        Bug::RootDisallowIgnored,
        Bug::CrawlDelayResetsRules,
        Bug::NoGroupDisallowsAll,
        Bug::ShortestMatchWins,
        Bug::DisallowWinsTies,
    ];

    /// Its id in the mutant's adapter id (`zoo-bug-<id>`).
    pub fn id(self) -> &'static str {
        match self {
            Bug::Unanchored => "unanchored",
            Bug::AgentLineReplaces => "agent-line-replaces",
            Bug::RepeatedGroupReplaces => "repeated-group-replaces",
            Bug::SecondColonDropsLine => "second-colon-drops-line",
            Bug::EmptyDisallowHidesLater => "empty-disallow-hides-later",
            Bug::StarGroupOnlyFirst => "star-group-only-first",
            Bug::TrailingSlashAdded => "trailing-slash-added",
            Bug::StopsAtBlankLine => "stops-at-blank-line",
            Bug::LastMatchWins => "last-match-wins",
            Bug::StarOneOctet => "star-one-octet",
            Bug::TabIsText => "tab-is-text",
            Bug::LongRulesCut => "long-rules-cut",
            Bug::CommentsAreDirectives => "comments-are-directives",
            Bug::CaseSensitiveFields => "case-sensitive-fields",
            Bug::CaseSensitiveAgent => "case-sensitive-agent",
            Bug::SitemapEndsFile => "sitemap-ends-file",
            Bug::AllowIsDisallow => "allow-is-disallow",
            Bug::FirstRuleOnly => "first-rule-only",
            Bug::LastOctetDropped => "last-octet-dropped",
            Bug::AgentPrefixOfValue => "agent-prefix-of-value",
            Bug::AgentCutAtEight => "agent-cut-at-eight",
            Bug::RulesWithQueryIgnored => "rules-with-query-ignored",
            Bug::SemicolonEndsPath => "semicolon-ends-path",
            Bug::RootDisallowIgnored => "root-disallow-ignored",
            Bug::CrawlDelayResetsRules => "crawl-delay-resets-rules",
            Bug::NoGroupDisallowsAll => "no-group-disallows-all",
            Bug::ShortestMatchWins => "shortest-match-wins",
            Bug::DisallowWinsTies => "disallow-wins-ties",
        }
    }

    /// What the parser does, in words.
    pub fn words(self) -> &'static str {
        match self {
            Bug::Unanchored => "rules match anywhere in the path, as if every value began with `*`",
            Bug::AgentLineReplaces => {
                "in a run of user-agent lines each replaces the one before, so only the last names the group"
            }
            Bug::RepeatedGroupReplaces => {
                "when several groups name the crawler only the last applies"
            }
            Bug::SecondColonDropsLine => "a line with a second colon is ignored",
            Bug::EmptyDisallowHidesLater => "an empty `Disallow:` hides the rules after it in its group",
            Bug::StarGroupOnlyFirst => "a `User-agent: *` line counts only in the first group",
            Bug::TrailingSlashAdded => "a rule not ending in `/`, `*` or `$` gets a `/` added",
            Bug::StopsAtBlankLine => "nothing after the first blank line is read",
            Bug::LastMatchWins => "the last matching rule in file order decides",
            Bug::StarOneOctet => "`*` matches exactly one octet",
            Bug::TabIsText => "a tab is an ordinary octet, never white space",
            Bug::LongRulesCut => "a rule longer than 255 octets is cut to its first 255",
            Bug::CommentsAreDirectives => "a comment line is read as the line after its `#`",
            Bug::CaseSensitiveFields => {
                "field names count only as `User-agent`, `Allow` and `Disallow`, in that case"
            }
            Bug::CaseSensitiveAgent => "the crawler's name is compared case-sensitively",
            Bug::SitemapEndsFile => "nothing after the first `Sitemap:` line is read",
            Bug::AllowIsDisallow => "`Allow` lines are read as `Disallow`",
            Bug::FirstRuleOnly => "only the first rule of each group is read",
            Bug::LastOctetDropped => "every rule loses its last octet",
            Bug::AgentPrefixOfValue => {
                "a user-agent value names the crawler when the crawler's name begins it"
            }
            Bug::AgentCutAtEight => "names are compared on their first eight octets only",
            Bug::RulesWithQueryIgnored => "rules holding `?` are ignored",
            Bug::SemicolonEndsPath => "the URL is matched only up to its first `;`",
            Bug::RootDisallowIgnored => "`Disallow: /` is ignored",
            Bug::CrawlDelayResetsRules => "a `Crawl-delay` line drops the rules before it in its group",
            Bug::NoGroupDisallowsAll => "when no group applies, everything is disallowed",
            Bug::ShortestMatchWins => "the shortest matching rule decides",
            Bug::DisallowWinsTies => "on a tie between the longest matching rules, `Disallow` wins",
        }
    }
}
