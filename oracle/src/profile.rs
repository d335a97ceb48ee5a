//! The knob types, by the path other crates name them (`robotstxt_oracle::profile::Knobs`): they
//! live in `crate::knobs`, and which open knobs matter for an input in `crate::relevance`.

pub use crate::knobs::{
    AgentAfterRule, AgentComparison, AgentList, AgentValue, Alternative, Bom, Charset, CommentLine,
    EmptyRule, Encoding, FieldSpacing, Grouping, InvalidPattern, KnobId, Knobs, MatchTarget,
    MidDollar, OpenKnob, Precedence, ProfileId, RulelessRecord, SectionFiveTwo, Selection,
    Specificity, Wildcards, FIVE_HUNDRED_KIB,
};
pub use crate::relevance::InputFacts;
