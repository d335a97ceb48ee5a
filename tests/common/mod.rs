//! Helpers shared by the integration tests.

use std::path::Path;

/// A small adapter in Python answering from `hash()` of the URL (which depends on
/// `PYTHONHASHSEED`) when `hashed`, from its length otherwise.
pub fn python_adapter(dir: &Path, name: &str, hashed: bool) -> String {
    let decide = if hashed { "hash(url)" } else { "len(url)" };
    let program = format!(
        r#"import json, sys
print(json.dumps({{"protocol": "robotstxt-adapter/1", "id": "{name}", "library": "{name}",
    "version": "1", "language": "Python", "licence": "MIT", "source": "a test",
    "profile": "rfc9309", "url": "full"}}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    for index, check in enumerate(request["checks"]):
        url = check["url"]
        answer = "allowed" if {decide} % 2 == 0 else "disallowed"
        print(json.dumps({{"check": index, "answer": answer}}), flush=True)
"#
    );
    let path = dir.join(format!("{name}.py"));
    std::fs::write(&path, program).unwrap();
    format!("{name} = python3 '{}'", path.display())
}
