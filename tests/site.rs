//! `site` as a user meets it, in headless Chromium (Debian's `chromium`, driven over the DevTools
//! protocol by the `headless_chrome` crate; no browser is downloaded): the playground typed into
//! and reloaded from its permalink, every page opened with no console error and no request
//! leaving the site, and every link followed to a file and an anchor that exist.
//!
//! The site is built once from a `run` of three in-process parsers on the whole corpus and a
//! `realworld` run on a few files, one of them hostile (HTML and script in its lines).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::protocol::cdp::Network;
use headless_chrome::{Browser, LaunchOptions, Tab};
use robotstxt_oracle::{verdicts_all, ProfileId, Request};

const EXE: &str = env!("CARGO_BIN_EXE_robotstxt-conformance");
const ADAPTERS: &[&str] = &["robotstxt", "robots-txt", "robotxt"];

/// A real file that holds markup and script: none of it may run or load anything.
const HOSTILE: &str = "User-agent: *\nDisallow: /<script>window.INJECTED=1</script>\nDisallow: /\"><img src=\"https://evil.example/x.png\" onerror=\"window.INJECTED=2\">\nAllow: /ok$\nDisallow: /*.php$\n";

struct Built {
    _dir: tempfile::TempDir,
    site: PathBuf,
}

/// The site, built once for every test of this file.
fn site() -> &'static Path {
    static SITE: OnceLock<Built> = OnceLock::new();
    &SITE.get_or_init(build).site
}

fn build() -> Built {
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let mut run = Command::new(EXE);
    run.args(["run", "--format", "json", "--out"]).arg(&run_dir);
    for id in ADAPTERS {
        run.args(["--adapter", id]);
    }
    let out = run.output().unwrap();
    assert!(
        run_dir.join("results.json").is_file(),
        "run wrote no results: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = dir.path().join("files");
    std::fs::create_dir(&files).unwrap();
    std::fs::write(files.join("hostile.example"), HOSTILE).unwrap();
    std::fs::write(
        files.join("plain.example"),
        "User-agent: *\nDisallow: /private\nAllow: /private/open\n",
    )
    .unwrap();
    std::fs::write(
        files.join("latin1.example"),
        b"User-agent: *\r\nDisallow: /caf\xE9\r\n",
    )
    .unwrap();
    let rw_dir = dir.path().join("realworld");
    let mut realworld = Command::new(EXE);
    realworld
        .args(["realworld", "--determinism", "off", "--corpus"])
        .arg(&files)
        .arg("--out")
        .arg(&rw_dir);
    for id in ADAPTERS {
        realworld.args(["--adapter", id]);
    }
    let out = realworld.output().unwrap();
    assert!(
        out.status.success(),
        "realworld: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let site = dir.path().join("site");
    let out = Command::new(EXE)
        .arg("site")
        .arg("--run")
        .arg(&run_dir)
        .arg("--realworld")
        .arg(&rw_dir)
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "site: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Built { _dir: dir, site }
}

/// Debian's Chromium, headless, with a new empty profile.
fn browser(profile: &Path) -> Browser {
    let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .expect("Chromium is needed (Debian: apt-get install chromium)");
    let args: Vec<&std::ffi::OsStr> = [
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(std::ffi::OsStr::new)
    .collect();
    Browser::new(
        LaunchOptions::default_builder()
            .path(Some(path))
            .headless(true)
            .sandbox(false)
            .user_data_dir(Some(profile.to_path_buf()))
            .args(args)
            .idle_browser_timeout(Duration::from_secs(300))
            .build()
            .unwrap(),
    )
    .unwrap()
}

fn url_of(file: &Path) -> String {
    format!("file://{}", file.display())
}

/// Evaluates `expression` (which gives a string) in the page.
fn eval_string(tab: &Tab, expression: &str) -> String {
    let value = tab.evaluate(expression, false).unwrap().value;
    value
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Waits until the playground's module has started.
fn wait_ready(tab: &Tab) {
    tab.wait_for_element("body[data-oracle=ready]").unwrap();
}

/// The verdict cells of the playground, per profile.
fn verdicts(tab: &Tab) -> BTreeMap<String, String> {
    ProfileId::ALL
        .iter()
        .map(|p| {
            let text = eval_string(
                tab,
                &format!(
                    "document.getElementById('verdict-{}').textContent",
                    p.name()
                ),
            );
            (p.name().to_string(), text)
        })
        .collect()
}

#[test]
fn the_playground_answers_per_profile_and_its_permalink_gives_the_same_answer() {
    let site = site();
    let profile = tempfile::tempdir().unwrap();
    let browser = browser(profile.path());
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&url_of(&site.join("playground.html")))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_ready(&tab);

    let body = "User-agent: *\nDisallow: /*.pdf$\n";
    let (agent, url) = ("FooBot", "https://example.com/paper.pdf");
    for (id, value) in [("body", body), ("agent", agent), ("url", url)] {
        // Cleared as a user would (select all, delete), then typed key by key.
        tab.evaluate(&format!("document.getElementById('{id}').select()"), false)
            .unwrap();
        tab.find_element(&format!("#{id}"))
            .unwrap()
            .click()
            .unwrap();
        tab.press_key_with_modifiers(
            "a",
            Some(&[headless_chrome::browser::tab::ModifierKey::Ctrl]),
        )
        .unwrap();
        tab.press_key("Backspace").unwrap();
        tab.type_str(value).unwrap();
    }
    assert_eq!(
        eval_string(&tab, "document.getElementById('body').value"),
        body
    );
    let shown = verdicts(&tab);
    let oracle = verdicts_all(&Request::new(body.as_bytes(), agent, url));
    let expected: BTreeMap<String, String> = ProfileId::ALL
        .iter()
        .zip(oracle)
        .map(|(p, v)| (p.name().to_string(), v.name().to_string()))
        .collect();
    assert_eq!(shown, expected, "the page shows the oracle's verdicts");
    let distinct: BTreeSet<&String> = shown.values().collect();
    assert!(
        distinct.len() > 1,
        "the verdicts differ per profile: {shown:?}"
    );
    assert!(
        eval_string(&tab, "document.getElementById('explanations').textContent")
            .contains("profile rfc9309: disallowed"),
        "the explanation is shown"
    );

    // The permalink, opened afresh in another tab, asks and answers the same.
    let permalink = eval_string(&tab, "location.href");
    assert!(permalink.contains("#body="), "{permalink}");
    let again = browser.new_tab().unwrap();
    again
        .navigate_to(&permalink)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_ready(&again);
    assert_eq!(verdicts(&again), shown);
    assert_eq!(
        eval_string(&again, "document.getElementById('body').value"),
        body
    );
    again
        .reload(true, None)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_ready(&again);
    assert_eq!(verdicts(&again), shown, "after a reload");

    // A corpus check: its question, and every parser's recorded answer.
    let check = "rfc9309/longest-match/allow-wins-tie";
    let link = format!(
        "{}#case={}&check=1",
        url_of(&site.join("playground.html")),
        check.replace('/', "%2F")
    );
    // In a new tab: the same page with another fragment is no new navigation.
    let corpus = browser.new_tab().unwrap();
    corpus
        .navigate_to(&link)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_ready(&corpus);
    corpus.wait_for_element("#recorded-answers").unwrap();
    let recorded = eval_string(
        &corpus,
        "document.getElementById('recorded-answers').textContent",
    );
    for id in ADAPTERS {
        assert!(recorded.contains(id), "{id} in {recorded}");
    }
}

/// What one page holds and did.
struct Visited {
    ids: BTreeSet<String>,
    links: Vec<String>,
}

#[test]
fn every_page_opens_with_no_console_error_no_outside_request_and_every_link_resolves() {
    let site = site();
    let mut pages: Vec<PathBuf> = Vec::new();
    walk(site, &mut pages);
    pages.sort();
    assert!(pages.len() > 400, "{} pages", pages.len());

    let profile = tempfile::tempdir().unwrap();
    let browser = browser(profile.path());
    let tab = browser.new_tab().unwrap();
    let problems: Arc<Mutex<Vec<String>>> = Arc::default();
    let requests: Arc<Mutex<Vec<String>>> = Arc::default();
    tab.enable_log().unwrap().enable_runtime().unwrap();
    tab.call_method(Network::Enable {
        max_total_buffer_size: None,
        max_resource_buffer_size: None,
        max_post_data_size: None,
        report_direct_socket_traffic: None,
        enable_durable_messages: None,
    })
    .unwrap();
    {
        let problems = problems.clone();
        let requests = requests.clone();
        tab.add_event_listener(Arc::new(move |event: &Event| match event {
            Event::LogEntryAdded(e) => problems.lock().unwrap().push(format!(
                "log {:?}: {}",
                e.params.entry.level, e.params.entry.text
            )),
            Event::RuntimeExceptionThrown(e) => problems
                .lock()
                .unwrap()
                .push(format!("exception: {:?}", e.params.exception_details.text)),
            Event::RuntimeConsoleAPICalled(e) => {
                let kind = format!("{:?}", e.params.Type);
                if kind.contains("Error") || kind.contains("Warning") {
                    problems.lock().unwrap().push(format!("console {kind}"));
                }
            }
            Event::NetworkRequestWillBeSent(e) => {
                requests.lock().unwrap().push(e.params.request.url.clone())
            }
            _ => {}
        }))
        .unwrap();
    }

    let mut visited: BTreeMap<PathBuf, Visited> = BTreeMap::new();
    for page in &pages {
        tab.navigate_to(&url_of(page))
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        if page.ends_with("playground.html") {
            wait_ready(&tab);
        }
        let found: serde_json::Value = serde_json::from_str(&eval_string(
            &tab,
            "JSON.stringify({ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id), \
             links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href), \
             injected: String(window.INJECTED)})",
        ))
        .unwrap();
        assert_eq!(
            found["injected"], "undefined",
            "a file's script ran on {page:?}"
        );
        let strings = |key: &str| -> Vec<String> {
            found[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        let reported: Vec<String> = problems.lock().unwrap().drain(..).collect();
        assert!(reported.is_empty(), "{page:?}: {reported:?}");
        visited.insert(
            page.clone(),
            Visited {
                ids: strings("ids").into_iter().collect(),
                links: strings("links"),
            },
        );
    }
    let outside: Vec<String> = requests
        .lock()
        .unwrap()
        .iter()
        .filter(|u| !u.starts_with("file://") && !u.starts_with("data:"))
        .cloned()
        .collect();
    assert!(outside.is_empty(), "requests leaving the site: {outside:?}");

    let mut checked = 0;
    for (page, found) in &visited {
        for link in &found.links {
            let Some(rest) = link.strip_prefix("file://") else {
                continue; // a link out (a document's own page), not a resource
            };
            let (file, fragment) = match rest.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (rest, None),
            };
            let file = PathBuf::from(percent_decode(file));
            assert!(file.is_file(), "{page:?} links to {link}, which is missing");
            let is_playground = file.ends_with("playground.html");
            if let (Some(fragment), false) = (fragment, is_playground) {
                let id = percent_decode(fragment);
                if id.is_empty() {
                    continue;
                }
                let target = visited
                    .get(&file)
                    .unwrap_or_else(|| panic!("{page:?} links to {link}, not a page"));
                assert!(
                    target.ids.contains(&id),
                    "{page:?} links to {link}: no element has the id {id}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} links");
}

fn walk(dir: &Path, pages: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, pages);
        } else if path.extension().is_some_and(|e| e == "html") {
            pages.push(path);
        }
    }
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
