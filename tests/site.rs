//! `site` as a user meets it, in headless Chromium (Debian's `chromium`, driven over the DevTools
//! protocol by the `headless_chrome` crate; no browser is downloaded): the playground typed into
//! and reloaded from its permalink, every page opened with no console error and no request
//! leaving the site, and every link followed to a file and an anchor that exist. Besides: every
//! citation is a link; no page, report or `check --explain` output holds a Rust value's spelling
//! or a path of this machine, and no page is over 1.5 MB; every upstream report has a one-line
//! title, a command that reproduces it and a name from its cause; each question is answered within
//! two clicks of the index; the playground refuses a URL without a scheme, and its Rust parsers
//! answer as `run` recorded on the corpus's checks; the matrix's labels fit their cells at
//! 1,400 px and the real-world page a 400 px phone. An ignored `screenshots` test writes PNGs for a
//! person to look at.
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
/// The six Rust parsers: the playground runs them in the page too.
const ADAPTERS: &[&str] = &[
    "robotstxt",
    "texting-robots",
    "robotxt",
    "sim-codec-robots",
    "robots-txt",
    "fast-robots",
];

/// Whether to run at full size: `ROBOTSTXT_FULL_TESTS=1` (CI sets it; docs/commands.md, "Quick and
/// full"). Without it the browser opens every page of a kind there is one of (an index, a source
/// document, the playground, ...) and, of each kind there are many of ([`kind`]), the first page
/// and one in [`SAMPLE`] after it (links into the others are checked against their files' ids),
/// and the playground is asked one corpus check in [`SAMPLE`].
fn full() -> bool {
    std::env::var_os("ROBOTSTXT_FULL_TESTS").is_some_and(|v| v == "1")
}

/// One in how many of the many alike pages and checks a quick run takes.
const SAMPLE: usize = 30;

/// Which of the kinds of page there are many of `page` is, for a quick run's sample; `None` for a
/// page every run opens (the top pages, every index, each source document). The many: case pages
/// (apart: those that ask the `aipref` question only, and those with a history of fetches, a fetch
/// outcome or a URL the body was fetched from, read from the page), knob pages, deviation pages,
/// the matrix's pages of checks, the parsers' pages, their difference lists and the upstream
/// reports.
fn kind(site: &Path, page: &Path) -> Option<String> {
    let rest = page.strip_prefix(site).unwrap();
    let parts: Vec<&str> = rest.iter().map(|p| p.to_str().unwrap()).collect();
    let file = *parts.last().unwrap();
    if parts.len() == 1 || file == "index.html" || parts[0] == "documents" {
        return None;
    }
    Some(match parts[0] {
        "cases" if parts[1] == "aipref" => "cases/aipref".to_string(),
        "cases" => {
            let html = std::fs::read_to_string(page).unwrap();
            let marks = [", asked at ", "<p>Fetch: ", "<p>Fetched from "].map(|mark| {
                if html.contains(mark) {
                    "+"
                } else {
                    "-"
                }
            });
            format!("cases{}", marks.concat())
        }
        "causes" => format!("causes/{}", &file[..1]),
        "matrix" => {
            let stem = file.trim_end_matches(".html");
            format!(
                "matrix/{}",
                stem.trim_end_matches(|c: char| !c.is_alphabetic())
            )
        }
        "parsers" | "reports" if parts.len() > 2 => format!("{}/*/*", parts[0]),
        other => other.to_string(),
    })
}

/// The ids a page's HTML gives its elements (`id="..."`), unescaped: for a page the browser did not
/// open in a quick run (its ids are all in its HTML; only `matrix.html` makes some by script, and it
/// is always opened).
fn ids_in_html(page: &Path) -> BTreeSet<String> {
    let html = std::fs::read_to_string(page).unwrap();
    html.split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|id| {
            id.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&")
        })
        .collect()
}

/// A real file that holds markup and script: none of it may run or load anything.
const HOSTILE: &str = "User-agent: *\nDisallow: /<script>window.INJECTED=1</script>\nDisallow: /\"><img src=\"https://evil.example/x.png\" onerror=\"window.INJECTED=2\">\nAllow: /ok$\nDisallow: /*.php$\n";

/// The site and the outputs it was made from.
struct Built {
    /// Holds `run/`, `realworld/` and `site/` (for as long as the process runs).
    dir: tempfile::TempDir,
    /// The site.
    site: PathBuf,
}

/// The site, built once for every test of this file.
fn site() -> &'static Path {
    &built().site
}

/// The site and what it was made from, built once ([`build`]); a build that failed fails every test
/// that reads it with its reason, without building again.
fn built() -> &'static Built {
    static SITE: OnceLock<Result<Built, String>> = OnceLock::new();
    match SITE.get_or_init(build) {
        Ok(built) => built,
        Err(why) => panic!("the site was not built: {why}"),
    }
}

/// The behaviour group [`build`] puts one of robotxt's ledger groups down to.
const BEHAVIOUR_KEY: &str = "0123456789abcdef";

/// The shipped ledgers, but for robotxt's `D-space-for-colon` group, whose id becomes a behaviour
/// group's (`unexplained <key>`, as `ledger rewrite` writes for a divergence no knob or deviation
/// explains), so the site shows one.
fn ledgers(dir: &Path) -> PathBuf {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/expectations");
    let out = dir.join("ledgers");
    std::fs::create_dir(&out).unwrap();
    for entry in std::fs::read_dir(shipped).unwrap() {
        let path = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.file_name().is_some_and(|n| n == "robotxt.yaml") {
            let id = "\n  id: D-space-for-colon\n";
            assert!(text.contains(id), "robotxt's ledger has no {id:?}");
            text = text.replace(id, &format!("\n  id: unexplained {BEHAVIOUR_KEY}\n"));
        }
        std::fs::write(out.join(path.file_name().unwrap()), text).unwrap();
    }
    out
}

/// Runs `run` on the whole corpus and `realworld` on a few files side by side (each uses about one
/// core), then `site` on their outputs.
fn build() -> Result<Built, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let ledgers = ledgers(dir.path());
    let run_dir = dir.path().join("run");
    let mut run = Command::new(EXE);
    run.env("ROBOTSTXT_LEDGERS", &ledgers);
    run.args(["run", "--format", "json", "--out"]).arg(&run_dir);
    for id in ADAPTERS {
        run.args(["--adapter", id]);
    }
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
        .env("ROBOTSTXT_LEDGERS", &ledgers)
        .args(["realworld", "--determinism", "off", "--corpus"])
        .arg(&files)
        .arg("--out")
        .arg(&rw_dir);
    for id in ADAPTERS {
        realworld.args(["--adapter", id]);
    }
    let (ran, realworld) = std::thread::scope(|scope| {
        let ran = scope.spawn(|| run.output());
        let realworld = realworld.output();
        (ran.join().expect("the thread running `run`"), realworld)
    });
    let ran = ran.map_err(|e| format!("run: {e}"))?;
    if !run_dir.join("results.json").is_file() {
        return Err(format!(
            "run wrote no results: {}",
            String::from_utf8_lossy(&ran.stderr)
        ));
    }
    let out = realworld.map_err(|e| format!("realworld: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "realworld: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let site = dir.path().join("site");
    let out = Command::new(EXE)
        .env("ROBOTSTXT_LEDGERS", &ledgers)
        .arg("site")
        .arg("--run")
        .arg(&run_dir)
        .arg("--realworld")
        .arg(&rw_dir)
        .arg("--out")
        .arg(&site)
        .output()
        .map_err(|e| format!("site: {e}"))?;
    if !out.status.success() {
        return Err(format!("site: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(Built { dir, site })
}

/// Debian's Chromium, headless, with a new empty profile, 1,400 px wide.
fn browser(profile: &Path) -> Browser {
    browser_of_width(profile, 1400)
}

/// Makes `tab` a phone's screen `width` px wide (a headless window is never narrower than 500 px).
fn narrow(tab: &Tab, width: u32) {
    use headless_chrome::protocol::cdp::Emulation;
    tab.call_method(Emulation::SetDeviceMetricsOverride {
        width,
        height: 900,
        device_scale_factor: 1.0,
        mobile: true,
        scale: None,
        screen_width: None,
        screen_height: None,
        position_x: None,
        position_y: None,
        dont_set_visible_size: None,
        screen_orientation: None,
        viewport: None,
        display_feature: None,
        device_posture: None,
    })
    .unwrap();
}

/// Debian's Chromium, headless, with a new empty profile, a window `width` px wide.
fn browser_of_width(profile: &Path, width: u32) -> Browser {
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
            .window_size(Some((width, 900)))
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

/// What the walk reads of a page, as a promise of JSON kept once the page the tab navigated to has
/// loaded: its ids, links, `window.INJECTED`, the text outside links that reads as a citation id and
/// its citation links; it then marks the page as read (`robotstxtLeft`), so that on the next
/// navigation the page being left is never taken for the new one. On the page navigated from (not
/// yet left) it gives the empty string at once.
const READ_PAGE: &str = r#"new Promise(function (resolve) {
  if (window.robotstxtLeft || location.protocol !== 'file:') {
    resolve('');
    return;
  }
  function read() {
    if (window.robotstxtLeft) {
      resolve('');
      return;
    }
    window.robotstxtLeft = true;
    var id = /(^|[^A-Za-z0-9_\-])(rfc9309|draft-2019|google|draft-1996|guide-ch9|norobots-1994|aipref-attach|aipref-vocab)#[A-Za-z0-9.\-]*[A-Za-z0-9]/;
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    var bare = [];
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      var inside = n.parentElement.closest('a, script, style, textarea, title');
      if (!inside && id.test(n.textContent)) { bare.push(n.textContent.slice(0, 120)); }
    }
    resolve(JSON.stringify({
      ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id),
      links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
      injected: String(window.INJECTED),
      bare: bare,
      citations: document.querySelectorAll('a.citation').length
    }));
  }
  if (document.readyState === 'complete') {
    read();
  } else {
    window.addEventListener('load', read);
  }
})"#;

/// [`READ_PAGE`]'s answer on the page the tab is loading: asked again (after 10 ms) only while the
/// page navigated from is still shown or went away under the question, so a page costs one call
/// to the browser besides opening it (each call waits tens of milliseconds on the DevTools
/// connection).
fn read_when_loaded(tab: &Tab) -> String {
    let start = std::time::Instant::now();
    loop {
        let read = tab
            .evaluate(READ_PAGE, true)
            .ok()
            .and_then(|r| r.value)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        if !read.is_empty() {
            return read;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "a page did not load within 60 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until the playground's module has started.
fn wait_ready(tab: &Tab) {
    tab.wait_for_element("body[data-oracle=ready]").unwrap();
}

/// The verdict cells of the playground, per profile (read in one call to the browser).
fn verdicts(tab: &Tab) -> BTreeMap<String, String> {
    let names: Vec<&str> = ProfileId::ALL.iter().map(|p| p.name()).collect();
    let texts: Vec<String> = serde_json::from_str(&eval_string(
        tab,
        &format!(
            "JSON.stringify({}.map(function (p) {{ return document.getElementById('verdict-' + p).textContent; }}))",
            serde_json::json!(names)
        ),
    ))
    .unwrap();
    names.into_iter().map(str::to_string).zip(texts).collect()
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
        // Cleared as a user would (select all, delete), then the agent typed key by key and the
        // body and the URL pasted (the text arrives as one input, as a paste's does: one call to
        // the browser, where a key costs two, each of tens of milliseconds).
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
        if id == "agent" {
            tab.type_str(value).unwrap();
        } else {
            tab.send_character(value).unwrap();
        }
    }
    assert_eq!(
        eval_string(
            &tab,
            "JSON.stringify(['body', 'agent', 'url'].map(function (id) { return document.getElementById(id).value; }))"
        ),
        serde_json::json!([body, agent, url]).to_string()
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

/// What the browser found on one page it opened.
struct Visited {
    /// The ids of the page's elements.
    ids: BTreeSet<String>,
    /// Every link's resolved address.
    links: Vec<String>,
    /// `window.INJECTED` as a string: `undefined` unless a file's script ran.
    injected: String,
    /// Console errors and warnings, exceptions and log entries while it loaded.
    problems: Vec<String>,
    /// Text outside a link that reads as a citation id.
    bare_citations: Vec<String>,
    /// How many citation links it holds.
    citation_links: u64,
}

/// Every page of the site, and what the browser found on each it opened ([`full`]); the pages
/// are opened once, in one browser, for all the tests that read them.
struct Walk {
    pages: Vec<PathBuf>,
    visited: BTreeMap<PathBuf, Visited>,
    /// Every request the pages made, by address.
    requests: Vec<String>,
}

fn walked() -> &'static Walk {
    static WALK: OnceLock<Walk> = OnceLock::new();
    WALK.get_or_init(walk_site)
}

/// Opens the pages [`full`] says, in one tab with the console, the runtime and the network
/// watched, and reads each page's ids, links and citations.
fn walk_site() -> Walk {
    let site = site();
    let mut pages: Vec<PathBuf> = Vec::new();
    walk(site, &mut pages);
    pages.sort();

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
    let mut of_kind: BTreeMap<String, usize> = BTreeMap::new();
    for page in &pages {
        // At full size every page is opened: no page is read for its kind.
        if let Some(kind) = (!full()).then(|| kind(site, page)).flatten() {
            let seen = of_kind.entry(kind).or_default();
            *seen += 1;
            if !(*seen - 1).is_multiple_of(SAMPLE) {
                continue;
            }
        }
        tab.navigate_to(&url_of(page)).unwrap();
        if page.ends_with("playground.html") {
            // Only the new page can have its module ready: no other page has one.
            wait_ready(&tab);
        }
        let found: serde_json::Value = serde_json::from_str(&read_when_loaded(&tab)).unwrap();
        let strings = |key: &str| -> Vec<String> {
            found[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        visited.insert(
            page.clone(),
            Visited {
                ids: strings("ids").into_iter().collect(),
                links: strings("links"),
                injected: found["injected"].as_str().unwrap().to_string(),
                problems: problems.lock().unwrap().drain(..).collect(),
                bare_citations: strings("bare"),
                citation_links: found["citations"].as_u64().unwrap(),
            },
        );
    }
    // Whatever the console reported after the last page was read is that page's.
    std::thread::sleep(Duration::from_millis(200));
    let late: Vec<String> = problems.lock().unwrap().drain(..).collect();
    if let Some((_, last)) = visited.iter_mut().next_back() {
        last.problems.extend(late);
    }
    let requests = requests.lock().unwrap().clone();
    Walk {
        pages,
        visited,
        requests,
    }
}

#[test]
fn every_page_opens_with_no_console_error_no_outside_request_and_every_link_resolves() {
    let Walk {
        pages,
        visited,
        requests,
    } = walked();
    assert!(pages.len() > 400, "{} pages", pages.len());
    for (page, found) in visited {
        assert_eq!(
            found.injected, "undefined",
            "a file's script ran on {page:?}"
        );
        assert!(found.problems.is_empty(), "{page:?}: {:?}", found.problems);
    }
    let outside: Vec<&String> = requests
        .iter()
        .filter(|u| !u.starts_with("file://") && !u.starts_with("data:"))
        .collect();
    assert!(outside.is_empty(), "requests leaving the site: {outside:?}");

    let mut checked = 0;
    // The ids of the pages not opened that links lead to, each read once.
    let mut unopened: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for (page, found) in visited {
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
                let ids = match visited.get(&file) {
                    Some(target) => &target.ids,
                    None if !full() && pages.contains(&file) => unopened
                        .entry(file.clone())
                        .or_insert_with(|| ids_in_html(&file)),
                    None => panic!("{page:?} links to {link}, not a page"),
                };
                assert!(
                    ids.contains(&id),
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

/// Every file under `dir`, recursively.
fn every_file(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            every_file(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// What a person reads holds words, not Rust values; no output names a path of this machine; no
/// page is over 1.5 MB. Over the site and the `run` and `realworld` outputs it was made from (their
/// JSON keeps the values, for machines).
#[test]
fn no_output_holds_a_code_value_or_a_path_of_this_machine_and_no_page_is_over_1_5_mb() {
    let built = built();
    let mut files = Vec::new();
    for dir in ["site", "run", "realworld"] {
        every_file(&built.dir.path().join(dir), &mut files);
    }
    let temporary = built.dir.path().display().to_string();
    // The home directory, when it is one a text could not hold by chance (not `/`).
    let home = std::env::var("HOME")
        .ok()
        .filter(|h| h.len() > 3)
        .map_or_else(|| "/nonexistent-home/".to_string(), |h| format!("{h}/"));
    let machine = [
        temporary.as_str(),
        env!("CARGO_MANIFEST_DIR"),
        home.as_str(),
    ];
    let mut pages = 0;
    for file in &files {
        let name = file.display().to_string();
        let is_page = name.ends_with(".html");
        let octets = std::fs::read(file).unwrap();
        if is_page {
            pages += 1;
            assert!(
                octets.len() <= 1_500_000,
                "{name}: {} octets, over 1.5 MB",
                octets.len()
            );
        }
        if name.ends_with(".wasm.js") || name.ends_with("-wasm.js") || name.ends_with(".svg") {
            continue;
        }
        let text = String::from_utf8_lossy(&octets);
        for path in machine {
            assert!(!text.contains(path), "{name} names {path}");
        }
        let readable = [".html", ".md", ".txt", ".xml", ".js"]
            .iter()
            .any(|e| name.ends_with(e));
        if readable {
            let code = robotstxt_prose::glossary::code_spellings(&text);
            assert!(code.is_empty(), "{name} spells values as code: {code:?}");
        }
    }
    assert!(pages > 400, "{pages} pages");
    // `check --explain` speaks in words too (its JSON keeps the values).
    let body = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(body.path(), b"\xEF\xBB\xBFUser-agent: *\nDisallow: /*a$b\n").unwrap();
    let out = Command::new(EXE)
        .args(["check", "--explain", "--agent", "FooBot", "--url", "/xa$b"])
        .arg("--robots")
        .arg(body.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("open knobs"), "{text}");
    let code = robotstxt_prose::glossary::code_spellings(&text);
    assert!(code.is_empty(), "check --explain: {code:?} in\n{text}");
}

/// Every report a maintainer could file: a one-line title, a command that reproduces it with this
/// tool, a name from its cause alone, served beside it as UTF-8 HTML and its body's exact octets.
#[test]
fn every_shipped_report_has_a_title_a_reproduce_command_and_a_stable_name() {
    let mut files = Vec::new();
    every_file(&site().join("reports"), &mut files);
    let reports: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
        .collect();
    assert!(reports.len() >= ADAPTERS.len(), "{} reports", reports.len());
    for report in reports {
        let name = report.file_stem().unwrap().to_str().unwrap();
        let key = |h: &str| h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit());
        // A knob's number, a deviation's id, several joined by `_`, a behaviour group's key, or
        // a hash of an unnamed cause's reason.
        let stable = name.split('_').all(|part| {
            part.strip_prefix('K')
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                || part.starts_with("D-")
        }) || name.strip_prefix("unexplained-").is_some_and(key)
            || name.strip_prefix("unnamed-").is_some_and(key);
        assert!(stable, "{report:?}: not a name from the cause");
        let text = std::fs::read_to_string(report).unwrap();
        let title = text.lines().next().unwrap();
        assert!(
            title.starts_with("# ") && title.chars().count() <= 252,
            "{report:?}: {title}"
        );
        assert!(text.contains("\n## Reproduce\n"), "{report:?}");
        assert!(
            text.contains("robotstxt-conformance check --robots robots.txt --agent ")
                && text.contains(" --adapter "),
            "{report:?}: no command to reproduce it"
        );
        for sibling in ["html", "robots.txt"] {
            let file = report.with_extension(sibling);
            assert!(file.is_file(), "{file:?} is missing");
        }
        let html = std::fs::read_to_string(report.with_extension("html")).unwrap();
        assert!(html.contains("<meta charset=\"utf-8\">"), "{report:?}");
    }
}

/// A ledger group whose id is a behaviour group (`unexplained <key>`) reads as one, in words, on the
/// parser's page and in its upstream report, named by the group's key: never as an unnamed cause,
/// and the id itself on no page.
#[test]
fn a_behaviour_group_reads_in_words_under_its_key() {
    let site = site();
    let words = format!("a behaviour no knob or deviation explains, group {BEHAVIOUR_KEY}");
    let page = std::fs::read_to_string(site.join("parsers/robotxt.html")).unwrap();
    assert!(
        page.contains(&words),
        "robotxt's page does not say {words:?}"
    );
    assert!(
        page.contains(&format!("id=\"cause-unexplained-{BEHAVIOUR_KEY}\"")),
        "the group has no anchor from its key"
    );
    assert!(!page.contains("no knob or deviation named: accepts a space"));
    let report = site.join(format!("reports/robotxt/unexplained-{BEHAVIOUR_KEY}.md"));
    let text = std::fs::read_to_string(&report).unwrap_or_else(|e| panic!("{report:?}: {e}"));
    assert!(text.contains(&words), "{text}");
    let mut files = Vec::new();
    every_file(site, &mut files);
    let id = format!("unexplained {BEHAVIOUR_KEY}");
    for file in files {
        let name = file.display().to_string();
        if name.ends_with(".html") || name.ends_with(".md") {
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(!text.contains(&id), "{name} shows the id {id:?}");
        }
    }
}

/// The links from the index reach each question's answer in at most two clicks.
#[test]
fn each_question_is_answered_within_two_clicks_of_the_index() {
    let site = site();
    let mut pages = Vec::new();
    walk(site, &mut pages);
    let links_of = |page: &Path| -> Vec<PathBuf> {
        let html = std::fs::read_to_string(page).unwrap();
        html.split("href=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .filter(|href| !href.contains("://") && !href.starts_with('#'))
            .map(|href| {
                let file = href.split('#').next().unwrap();
                let joined = page.parent().unwrap().join(percent_decode(file));
                normalise(&joined)
            })
            .collect()
    };
    let index = site.join("index.html");
    let mut depth: BTreeMap<PathBuf, usize> = BTreeMap::new();
    depth.insert(index.clone(), 0);
    let mut frontier = vec![index];
    for d in 1..=2 {
        let mut next = Vec::new();
        for page in &frontier {
            for link in links_of(page) {
                if !depth.contains_key(&link) && link.extension().is_some_and(|e| e == "html") {
                    depth.insert(link.clone(), d);
                    next.push(link);
                }
            }
        }
        frontier = next;
    }
    let reached = |part: &str| depth.keys().any(|p| p.display().to_string().contains(part));
    for question in [
        "/differs-from-rfc9309.html", // why does a parser differ from RFC 9309?
        "/documents/rfc9309.html",    // what does a citation say, and what is the document?
        "/reports/",                  // what do I file upstream?
        "/playground.html",           // what does my robots.txt mean?
        "/realworld.html",            // how often does it matter on real files?
        "/matrix.html",               // every check, every parser
        "/causes/K",                  // what the documents say on a knob
    ] {
        assert!(reached(question), "{question} is not within two clicks");
    }
}

fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Every citation on every page the browser opens ([`full`]) is a link (its anchor resolving is
/// checked with every link), the
/// playground's explanations too.
#[test]
fn every_citation_on_every_page_is_a_link() {
    let mut linked = 0;
    for (page, found) in &walked().visited {
        assert_eq!(found.bare_citations, Vec::<String>::new(), "{page:?}");
        linked += found.citation_links;
    }
    assert!(linked > 1000, "{linked} citation links");
}

/// The playground refuses a URL without a scheme, with the URL meant as a fix; an invalid status
/// clears the answers.
#[test]
fn the_playground_refuses_a_url_without_a_scheme() {
    let site = site();
    let profile = tempfile::tempdir().unwrap();
    let browser = browser(profile.path());
    let tab = browser.new_tab().unwrap();
    let body = fragment("User-agent: *\nDisallow: /private\n");
    tab.navigate_to(&format!(
        "{}#body={body}&agent=FooBot&url=example.com%2Fprivate%2Fx",
        url_of(&site.join("playground.html"))
    ))
    .unwrap()
    .wait_until_navigated()
    .unwrap();
    wait_ready(&tab);
    assert_eq!(
        eval_string(&tab, "String(document.getElementById('url-hint').hidden)"),
        "false"
    );
    assert!(
        eval_string(&tab, "document.getElementById('url-hint').textContent")
            .contains("https://example.com/private/x")
    );
    assert!(
        verdicts(&tab).values().all(|v| v == "…"),
        "no verdict for a URL without a scheme: {:?}",
        verdicts(&tab)
    );
    tab.find_element("#url-fix").unwrap().click().unwrap();
    assert_eq!(
        eval_string(&tab, "document.getElementById('url').value"),
        "https://example.com/private/x"
    );
    assert!(verdicts(&tab).values().all(|v| v == "disallowed"));
    // An invalid status clears the previous answers.
    tab.evaluate(
        "var s = document.getElementById('status'); s.value = '5x'; s.dispatchEvent(new Event('input'))",
        false,
    )
    .unwrap();
    assert!(verdicts(&tab).values().all(|v| v == "…"));
    assert_eq!(
        eval_string(&tab, "document.getElementById('explanations').textContent"),
        ""
    );
    assert_eq!(
        eval_string(&tab, "String(document.getElementById('error').hidden)"),
        "false"
    );
}

/// The playground answers the `aipref` question per category of use as the oracle does, with
/// the explanation, for a file whose `Content-Usage` lines differ by path (`aipref-attach#3.1`).
#[test]
fn the_playground_answers_which_ai_usage_preference_applies() {
    let site = site();
    let profile = tempfile::tempdir().unwrap();
    let browser = browser(profile.path());
    let mut shown_train_ai = Vec::new();
    let body =
        "User-Agent: *\nContent-Usage: train-ai=n\nContent-Usage: /public/ train-ai=y\nAllow: /\n";
    for url in [
        "https://example.com/private",
        "https://example.com/public/x",
    ] {
        let link = format!(
            "{}#body={}&agent=ExampleBot&url={}",
            url_of(&site.join("playground.html")),
            fragment(body),
            fragment(url)
        );
        // A new tab each time: the same page with another fragment is no new navigation.
        let tab = browser.new_tab().unwrap();
        tab.navigate_to(&link)
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        wait_ready(&tab);
        let request = Request::new(body.as_bytes(), "ExampleBot", url);
        // Every category's cell, in one call to the browser.
        let cells: Vec<String> = serde_json::from_str(&eval_string(
            &tab,
            &format!(
                "JSON.stringify({}.map(function (c) {{ return document.getElementById('preference-' + c).textContent; }}))",
                serde_json::json!(robotstxt_oracle::aipref::CATEGORIES)
            ),
        ))
        .unwrap();
        for (category, shown) in robotstxt_oracle::aipref::CATEGORIES.iter().zip(cells) {
            let expected = robotstxt_oracle::preference(&request, category);
            assert_eq!(shown, expected.name(), "{url} {category}");
            if *category == "train-ai" {
                shown_train_ai.push(shown);
            }
        }
        assert!(
            eval_string(&tab, "document.getElementById('explanations').textContent")
                .contains("preference for train-ai"),
            "the explanation is shown"
        );
    }
    // The path decides: the table follows the inputs, not a fixed answer.
    assert_eq!(shown_train_ai, ["n", "y"]);
}

fn fragment(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// How many corpus checks one call to the browser asks the playground's parsers (one after
/// another, in the page): each call waits tens of milliseconds on the DevTools connection.
const CHECKS_PER_CALL: usize = 40;

/// At most this many octets of percent-encoded bodies go into one call (the size-limit cases'
/// bodies are over 500 KiB each).
const OCTETS_PER_CALL: usize = 4 << 20;

/// A corpus check the playground's parsers are asked.
struct Asked<'a> {
    /// Its row of `run`'s results.
    row: &'a serde_json::Value,
    /// The parsers asked, each with the answer `run` recorded.
    recorded: Vec<(&'static str, &'a str)>,
    /// Its question as a JavaScript array: the percent-encoded body, the agent and the URL.
    question: String,
}

/// The Rust parsers compiled for the page answer as `run` recorded on every corpus check it asked
/// them (in the page, a panic is a crash as in `run`).
#[test]
fn the_rust_parsers_in_the_playground_answer_as_run_did_on_every_corpus_check() {
    let built = built();
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(built.dir.path().join("run/results.json")).unwrap(),
    )
    .unwrap();
    let corpus =
        robotstxt_matrix::cases::Corpus::load(&robotstxt_matrix::default_cases_dir()).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let browser = browser(profile.path());
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&url_of(&built.site.join("playground.html")))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("body[data-peers=ready]").unwrap();
    let sample = if full() { 1 } else { SAMPLE };
    let mut checks: Vec<Asked<'_>> = Vec::new();
    for row in results["rows"].as_array().unwrap().iter().step_by(sample) {
        let case = corpus
            .cases
            .iter()
            .find(|c| c.id == row["case"].as_str().unwrap())
            .unwrap();
        if !case.fetches.is_empty() {
            continue;
        }
        let mut asked = Vec::new();
        for id in ADAPTERS {
            let recorded = row["adapters"][id]["answer"]["answer"].as_str().unwrap();
            if recorded != "unsupported" {
                asked.push((*id, recorded));
            }
        }
        if asked.is_empty() {
            continue;
        }
        let url = robotstxt_matrix::ask::absolute_url(row["url"].as_str().unwrap());
        let question = serde_json::json!([
            fragment_octets(&case.body),
            row["agent"].as_str().unwrap(),
            url.as_str(),
        ]);
        checks.push(Asked {
            row,
            recorded: asked,
            question: question.to_string(),
        });
    }
    let mut compared = 0;
    let mut calls = 0;
    let mut rest = &checks[..];
    while !rest.is_empty() {
        // As many checks as fit one call, and at least one.
        let mut octets = 0;
        let take = rest
            .iter()
            .take(CHECKS_PER_CALL)
            .take_while(|check| {
                octets += check.question.len();
                octets <= OCTETS_PER_CALL
            })
            .count()
            .max(1);
        let (call, later) = rest.split_at(take);
        rest = later;
        calls += 1;
        let questions: Vec<&str> = call.iter().map(|c| c.question.as_str()).collect();
        let expression = format!(
            "(async function () {{ var out = []; for (const q of [{}]) {{ \
             out.push(await robotsPlayground.askPeers(robotsPlayground.pctDecode(q[0]), q[1], q[2])); \
             }} return JSON.stringify(out); }})()",
            questions.join(",")
        );
        let value = tab.evaluate(&expression, true).unwrap().value.unwrap();
        let answers: Vec<serde_json::Value> =
            serde_json::from_str(value.as_str().unwrap()).unwrap();
        assert_eq!(answers.len(), call.len());
        for (Asked { row, recorded, .. }, answers) in call.iter().zip(&answers) {
            for (id, recorded) in recorded {
                assert_eq!(
                    answers[id]["answer"].as_str().unwrap(),
                    *recorded,
                    "{id} on {}#{}: the page answers {}",
                    row["case"],
                    row["check"],
                    answers[id]
                );
                compared += 1;
            }
        }
    }
    assert!(
        compared > 5000 / sample,
        "{compared} answers compared in {calls} calls"
    );
}

fn fragment_octets(octets: &[u8]) -> String {
    let mut out = String::new();
    for &b in octets {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The matrix's labels fit their cells at 1,400 px; the real-world page has the site's navigation,
/// a content security policy, and fits a 400 px phone.
#[test]
fn the_matrix_fits_1400_px_and_the_real_world_page_fits_a_phone() {
    let site = site();
    let profile = tempfile::tempdir().unwrap();
    let wide = browser_of_width(profile.path(), 1400);
    let tab = wide.new_tab().unwrap();
    tab.navigate_to(&url_of(&site.join("matrix.html")))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    let overflowing = eval_string(
        &tab,
        "JSON.stringify(Array.from(document.querySelectorAll('#m td')).filter(function (td) { return td.scrollWidth > td.clientWidth + 1; }).map(function (td) { return td.textContent; }).slice(0, 5))",
    );
    assert_eq!(overflowing, "[]", "labels wider than their cells");
    drop(tab);
    drop(wide);

    let profile = tempfile::tempdir().unwrap();
    let phone = browser_of_width(profile.path(), 400);
    let tab = phone.new_tab().unwrap();
    narrow(&tab, 400);
    tab.navigate_to(&url_of(&site.join("realworld.html")))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    let found: serde_json::Value = serde_json::from_str(&eval_string(
        &tab,
        "JSON.stringify({inner: window.innerWidth, width: document.documentElement.scrollWidth, \
         nav: document.querySelectorAll('nav a[href=\"index.html\"]').length, \
         csp: (document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]') || {}).content || ''})",
    ))
    .unwrap();
    let inner = found["inner"].as_u64().unwrap();
    assert!(inner <= 420, "a phone's width: {inner}");
    assert!(
        found["width"].as_u64().unwrap() <= inner,
        "the page is wider than the phone: {found}"
    );
    assert_eq!(found["nav"], 1, "{found}");
    assert!(
        found["csp"]
            .as_str()
            .unwrap()
            .contains("default-src 'none'"),
        "{found}"
    );
    // On a phone the grid clips no word either: the page scrolls sideways instead.
    tab.navigate_to(&url_of(&site.join("matrix.html")))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    let overflowing = eval_string(
        &tab,
        "JSON.stringify(Array.from(document.querySelectorAll('#m td')).filter(function (td) { return td.scrollWidth > td.clientWidth + 1; }).map(function (td) { return td.textContent; }).slice(0, 5))",
    );
    assert_eq!(overflowing, "[]", "labels wider than their cells at 400 px");
}

/// Screenshots for a person to look at, at 1,400 and 400 px: `ROBOTSTXT_SCREENS=<dir> cargo test
/// --test site -- --ignored screenshots` (`ROBOTSTXT_SCREENS_SITE=<site dir>` shoots a site built
/// already, e.g. from a run of every adapter, instead of this file's).
#[test]
#[ignore = "writes PNG files into $ROBOTSTXT_SCREENS for a person to look at"]
fn screenshots() {
    use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
    let out = PathBuf::from(std::env::var("ROBOTSTXT_SCREENS").expect("ROBOTSTXT_SCREENS=<dir>"));
    std::fs::create_dir_all(&out).unwrap();
    let site = std::env::var("ROBOTSTXT_SCREENS_SITE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| site().to_path_buf());
    // (page and fragment, element to scroll to, file name)
    let shots: &[(&str, Option<&str>, &str)] = &[
        ("index.html", None, "index"),
        ("parsers/google-cpp/differs-from-rfc9309.html", None, "differs-google-cpp-rfc9309"),
        ("parsers/robotstxt.html", Some("h2:nth-of-type(3)"), "parser-robotstxt-fingerprint"),
        ("documents/rfc9309.html#2.2.2", Some("[id='2.2.2']"), "document-rfc9309-2.2.2"),
        ("documents/norobots-1994.html#translator-note", Some("[id='translator-note']"), "document-1994-translator-note"),
        ("playground.html#body=User-agent%3A%20%2A%0ADisallow%3A%20%2Fprivate%0A&agent=FooBot&url=example.com%2Fprivate%2Fx", None, "playground-no-scheme"),
        ("playground.html", Some("#peers"), "playground-parsers"),
        ("realworld.html", None, "realworld"),
        ("matrix.html", Some("#m"), "matrix-grid"),
        ("matrix/checks-1.html", Some("#m tbody"), "matrix-checks"),
    ];
    for width in [1400, 400] {
        let profile = tempfile::tempdir().unwrap();
        let browser = browser_of_width(profile.path(), width);
        let tab = browser.new_tab().unwrap();
        if width < 500 {
            narrow(&tab, width);
        }
        for (page, element, name) in shots {
            let (file, fragment) = page.split_once('#').map_or((*page, ""), |(f, h)| (f, h));
            let file = site.join(file);
            if !file.is_file() {
                eprintln!("no {file:?} in this site");
                continue;
            }
            let url = if fragment.is_empty() {
                url_of(&file)
            } else {
                format!("{}#{fragment}", url_of(&file))
            };
            tab.navigate_to(&url)
                .unwrap()
                .wait_until_navigated()
                .unwrap();
            if page.starts_with("playground") {
                wait_ready(&tab);
                let _ = tab.wait_for_element("body[data-peers=ready]");
            }
            if let Some(selector) = element {
                tab.evaluate(
                    &format!("var e = document.querySelector(\"{selector}\"); if (e) {{ e.scrollIntoView(); }}"),
                    false,
                )
                .unwrap();
            }
            std::thread::sleep(Duration::from_millis(300));
            let png = tab
                .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
                .unwrap();
            std::fs::write(out.join(format!("{name}-{width}.png")), png).unwrap();
        }
    }
}

/// A case that asks the `aipref` reading's question has its page: per check what the case expects
/// and what the reading answers, and that the run's parsers, none of which announces the
/// `preferences` capability, were not asked.
#[test]
fn an_aipref_case_page_shows_the_expected_and_the_answered_preference() {
    let page = site().join("cases/aipref/attach/section-3-4-example.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(
            "The case expects <strong>n</strong>; the <code>aipref</code> reading answers <strong>n</strong>."
        ),
        "{html}"
    );
    assert!(
        html.contains("parsers of the run were not asked: they announce no <code>preferences</code> capability"),
        "{html}"
    );
    assert!(
        html.contains("<code>spec-cases/aipref/attach/section-3-4-example.yaml</code>"),
        "{html}"
    );
    let list = std::fs::read_to_string(site().join("cases/index.html")).unwrap();
    assert!(
        list.contains("aipref/attach/section-3-4-example.html"),
        "{list}"
    );
}
