//! A toy robots.txt parser, deliberately non-conforming in a few places (listed with reasons in
//! `tests/robotstxt-spec.yaml`): `$` is taken literally, percent-encodings are compared as written,
//! and a byte order mark is not skipped.

/// Whether `agent` may crawl `url` under the robots.txt `body`.
pub fn is_allowed(body: &[u8], agent: &str, url: &str) -> bool {
    let text = String::from_utf8_lossy(body);
    let path = path_of(url);
    let groups = groups(&text);
    let agent = agent.to_ascii_lowercase();
    let named: Vec<&Group> = groups
        .iter()
        .filter(|g| g.agents.iter().any(|a| a.to_ascii_lowercase() == agent))
        .collect();
    let chosen: Vec<&Group> = if named.is_empty() {
        groups
            .iter()
            .filter(|g| g.agents.iter().any(|a| a == "*"))
            .collect()
    } else {
        named
    };
    let mut best: Option<(usize, bool)> = None;
    for group in chosen {
        for (allow, pattern) in &group.rules {
            if pattern.is_empty() || !matches(pattern, &path) {
                continue;
            }
            let better = match best {
                None => true,
                Some((len, allowed)) => {
                    pattern.len() > len || (pattern.len() == len && *allow && !allowed)
                }
            };
            if better {
                best = Some((pattern.len(), *allow));
            }
        }
    }
    best.is_none_or(|(_, allow)| allow)
}

struct Group {
    agents: Vec<String>,
    rules: Vec<(bool, String)>,
}

fn groups(text: &str) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut in_agents = false;
    for line in text.split('\n') {
        let line = line.split('#').next().unwrap_or("").trim();
        let Some((field, value)) = line.split_once(':') else {
            continue;
        };
        let (field, value) = (field.trim().to_ascii_lowercase(), value.trim().to_string());
        match field.as_str() {
            "user-agent" => {
                if !in_agents {
                    groups.push(Group {
                        agents: Vec::new(),
                        rules: Vec::new(),
                    });
                }
                in_agents = true;
                groups.last_mut().expect("pushed").agents.push(value);
            }
            "allow" | "disallow" => {
                in_agents = false;
                if let Some(group) = groups.last_mut() {
                    group.rules.push((field == "allow", value));
                }
            }
            _ => {}
        }
    }
    groups
}

fn path_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    path.split('#').next().unwrap_or("/").to_string()
}

/// `*` matches any run of octets; everything else, `$` included, is literal.
fn matches(pattern: &str, path: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let Some(rest) = path.strip_prefix(parts[0]) else {
        return false;
    };
    let mut rest = rest;
    for part in &parts[1..] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}
