//! The CPU time this process and its waited-for children have used, for the runs' timings.

use std::time::Duration;

/// User and system CPU time of this process and of its children that have been waited for
/// (`/proc/self/stat` fields 14 to 17, in clock ticks of 1/100 s, Linux's USER_HZ).
pub fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after it follow the last `)`.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // `after` starts at field 3 (state): fields 14..=17 are at 11..=14.
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    Some(Duration::from_millis(ticks * 10))
}
