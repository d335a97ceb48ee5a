//! Google's C++ parser (built from upstream's source at build time) and the deviations named after
//! it: on each example it answers what the oracle answers under the deviation, not what the Google
//! profile answers, and the deviation alone is the cause the fuzzer and `realworld` name.
//!
//! When the C++ source could not be built here the test says why and passes, as `tests/adapters.rs`
//! does, unless `ROBOTSTXT_REQUIRE_ADAPTERS=1` (CI) asks for every adapter.

use robotstxt_adapters::registry::open_in_process;
use robotstxt_adapters::{Adapter, Answer, Query};
use robotstxt_oracle::cause::{cause_label, cause_of};
use robotstxt_oracle::deviation::{Deviation, Deviations};
use robotstxt_oracle::{verdict, verdict_deviating, ProfileId, Request, Verdict};

#[test]
fn an_allowed_index_page_allows_its_directory() {
    let mut adapter = match open_in_process("google-cpp") {
        Ok(adapter) => adapter,
        Err(why) if std::env::var("ROBOTSTXT_REQUIRE_ADAPTERS").as_deref() != Ok("1") => {
            eprintln!("google-cpp unavailable, not checked: {why}");
            return;
        }
        Err(why) => panic!("{why}"),
    };
    let deviation = Deviation::IndexHtmlAllowsDirectory;
    // (body, path, whether the deviation changes the Google profile's verdict)
    let examples: [(&[u8], &str, bool); 7] = [
        (
            b"User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n",
            "/dir/",
            true,
        ),
        (
            b"User-agent: *\nDisallow: /\nAllow: /index.htm\n",
            "/",
            true,
        ),
        (
            b"User-agent: *\nDisallow: /\nAllow: /a/b/index.htmx\n",
            "/a/b/",
            true,
        ),
        (
            b"User-agent: *\nDisallow: /d/*\nAllow: /d/index.html\n",
            "/d/",
            true,
        ),
        // A longer disallow wins over the directory's allow. No trailing `*`: whether one counts in
        // a rule's length is open under Google (`trailing-wildcard`, docs/profiles.md K4).
        (
            b"User-agent: *\nDisallow: /*di*r/\nAllow: /dir/index.html\n",
            "/dir/",
            false,
        ),
        (
            b"User-agent: *\nDisallow: /\nAllow: /d/index.html\n",
            "/d/?q=1",
            false,
        ),
        (
            b"User-agent: *\nDisallow: /d/\nAllow: /d/INDEX.html\n",
            "/d/",
            false,
        ),
    ];
    for (body, path, changes) in examples {
        let url = format!("http://example.com{path}");
        let answer = adapter
            .answer(body, &[Query::new("FooBot", &url)])
            .remove(0);
        let allowed = match answer {
            Answer::Allowed => true,
            Answer::Disallowed => false,
            other => panic!("{path}: {other:?}"),
        };
        let request = Request::new(body, "FooBot", path);
        let deviating = verdict_deviating(ProfileId::Google, Deviations::of(deviation), &request);
        let got = if allowed {
            Verdict::Allowed
        } else {
            Verdict::Disallowed
        };
        let body_text = String::from_utf8_lossy(body);
        assert_eq!(got, deviating, "{body_text} {path}");
        let profile = verdict(ProfileId::Google, &request);
        assert_eq!(profile != deviating, changes, "{body_text} {path}");
        // With a `*` in the body, `K6 wildcards` read literally is a one-change cause found first
        // (knobs are tried before deviations).
        if changes && !body.contains(&b'*') {
            assert_eq!(
                cause_label(cause_of(ProfileId::Google, &request, allowed).as_deref()),
                deviation.id(),
                "{body_text} {path}"
            );
        }
    }
}
