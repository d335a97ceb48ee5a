//! The playground (`playground.html`): a robots.txt body, an agent, a URL and optionally a fetch
//! status in, the four profiles' verdicts and the oracle's explanations out, computed in the
//! browser by the oracle compiled to WebAssembly (`playground/`, plain `extern "C"` exports, JSON
//! in and out). The inputs live in the URL fragment, so the address is a permalink.
//!
//! The module travels as base64 in `oracle-wasm.js` (a script, because pages opened from
//! `file://` may not `fetch` files). For a corpus check (`#case=<id>&check=<n>`) or a real-world
//! example (`#rw=<adapter>|<cause>`) the page loads `data/...js`, the recorded question and every
//! parser's recorded answer, and shows them beside the oracle's while the inputs are unchanged.

use base64::Engine;
use serde_json::{json, Map, Value};

use crate::page::{attr, case_path, fragment_value, prose, shell, text, SitePath};
use crate::{Inputs, Site};

/// The site path of a case's recorded data (`data/cases/<case-id>.js`).
pub fn case_data_path(case: &str) -> String {
    let page = case_path(case);
    format!("data/{}.js", page.trim_end_matches(".html"))
}

/// Adds the page, its script, the two modules and the recorded data.
pub fn add(site: &mut Site, inputs: &Inputs) {
    let path = SitePath("playground.html".to_string());
    site.add(path.0.clone(), shell(&path, "Playground", &page(inputs)));
    site.add("playground.js", SCRIPT);
    let base64 = |octets: &[u8]| base64::engine::general_purpose::STANDARD.encode(octets);
    site.add(
        "oracle-wasm.js",
        format!(
            "window.ROBOTS_ORACLE_WASM = \"{}\";\n",
            base64(&inputs.wasm)
        ),
    );
    site.add(
        "peers-wasm.js",
        format!(
            "window.ROBOTS_PEERS_WASM = \"{}\";\n",
            base64(&inputs.peers_wasm)
        ),
    );
    add_case_data(site, inputs);
    add_realworld_data(site, inputs);
}

/// Why a parser of the run does not answer in the page.
fn not_in_browser(id: &str, language: &str) -> String {
    match (id, language) {
        ("google-cpp", _) => "C++, compiled with `cc` against abseil: the project builds no C++ for \
WebAssembly (that would need a C++ WebAssembly toolchain, such as Emscripten, which it does not use)"
            .to_string(),
        ("rs-robotparser", _) => "its crate (`robotparser`) compiles only with its networking \
feature (reqwest, tokio, OpenSSL), which does not build for `wasm32-unknown-unknown`"
            .to_string(),
        (_, "Rust") => "a Rust parser outside the page's module".to_string(),
        (_, language) => format!(
            "{language}: the page runs only what compiles to WebAssembly from this repository's Rust"
        ),
    }
}

/// The page's body: the form, the oracle's answers, the Rust parsers' answers beside them, and
/// which parsers answer only in the recorded data, and why.
fn page(inputs: &Inputs) -> String {
    let kb = |octets: usize| (octets * 4 / 3).div_ceil(1024);
    let mut rows = String::new();
    let mut elsewhere = String::new();
    for column in &inputs.results.adapters {
        let identity = &column.identity;
        if robotstxt_rust_peers::peer(&identity.id).is_some() {
            rows.push_str(&format!(
                "<tr data-peer=\"{}\" data-claims=\"{}\"><td>{} {}</td><td>{}</td><td class=\"answer\">…</td><td class=\"standing\"></td></tr>\n",
                attr(&identity.id),
                identity.profile.name(),
                text(&identity.id),
                text(&identity.version),
                robotstxt_matrix::report::badge::profile_title(identity.profile),
            ));
        } else {
            elsewhere.push_str(&format!(
                "<li><code>{}</code>: {}</li>\n",
                text(&identity.id),
                prose(&not_in_browser(&identity.id, &identity.language))
            ));
        }
    }
    format!(
        r#"<h1>Playground</h1>
<p>Paste a robots.txt body, an agent and a URL: the four documents' verdicts appear below, with the oracle's explanation, and beside them what the Rust parsers answer. They are computed in this page (the oracle and the parsers compiled to WebAssembly); nothing is sent anywhere. The address of the page holds the inputs: copy it to share the question.</p>
<p id="loading" class="muted">Loading the oracle ({oracle} KB)…</p>
<div id="origin" hidden></div>
<label for="body">robots.txt body</label>
<textarea id="body" spellcheck="false" autocomplete="off"></textarea>
<p id="body-note" class="muted" hidden></p>
<label for="agent">User agent (product token)</label>
<input id="agent" type="text" spellcheck="false" autocomplete="off">
<label for="url">URL (absolute, with its scheme: <code>https://example.com/x</code>; or a path: <code>/x</code>)</label>
<input id="url" type="text" spellcheck="false" autocomplete="off">
<p id="url-hint" class="unexpected-divergence" hidden><span id="url-hint-text"></span> <button id="url-fix" type="button"></button></p>
<label for="status">Fetch status (optional: an HTTP status, 0 for no response; empty for a plain 200)</label>
<input id="status" class="short" type="text" inputmode="numeric" autocomplete="off">
<p id="error" class="unexpected-divergence" hidden></p>
<h2>Verdicts</h2>
<div class="table"><table id="verdicts">
<tr><th>document</th><th>verdict</th></tr>
<tr><td>RFC 9309</td><td id="verdict-rfc9309">…</td></tr>
<tr><td>Google</td><td id="verdict-google">…</td></tr>
<tr><td>1996 draft</td><td id="verdict-draft-1996">…</td></tr>
<tr><td>1994 standard</td><td id="verdict-original-1994">…</td></tr>
</table></div>
<h2>AI usage preferences</h2>
<p>Which usage preference the file's <code>Content-Usage</code> lines attach to this URL for this agent, per category of use, under the <a href="documents/aipref-attach.html"><code>aipref</code> reading</a> of the IETF AI Preferences drafts ({revision}): <code>y</code> (allowed), <code>n</code> (disallowed), <code>none</code> (no preference applies) or <code>either</code> (the drafts permit more than one answer). No parser is asked this here.</p>
<div class="table"><table id="preferences">
<tr><th>category of use</th><th>preference</th></tr>
{categories}</table></div>
<h2>The Rust parsers, run in this page</h2>
<p id="peers-loading" class="muted">Loading the parsers ({peers} KB)…</p>
<div class="table"><table id="peers">
<tr><th>parser</th><th>claims</th><th>answer</th><th>against its claim</th></tr>
{rows}</table></div>
<p class="muted">Each is asked as <code>run</code> asks it, by the same code (the crate <code>robotstxt-rust-peers</code>): a URL given as a path is put on <code>http://example.com</code>; none takes a fetch outcome, so with a status other than 200 none is asked, as in <code>run</code>; a panic is shown as a crash. "Against its claim" compares its answer with the oracle's verdict under the profile it claims.</p>
<details><summary>The other parsers answer only for the corpus's checks (recorded by <code>run</code>; open a check from a case's page)</summary>
<ul>
{elsewhere}</ul></details>
<p><a id="permalink" href="playground.html">Permalink to this question</a></p>
<div id="recorded" hidden></div>
<h2>Explanations</h2>
<div id="explanations"></div>
<noscript><p>The playground needs JavaScript and WebAssembly.</p></noscript>
<script src="playground.js"></script>"#,
        revision = text(robotstxt_oracle::aipref::REVISION),
        categories = robotstxt_oracle::aipref::CATEGORIES
            .iter()
            .map(|c| format!(
                "<tr><td><code>{}</code></td><td id=\"preference-{}\">…</td></tr>\n",
                text(c),
                attr(c)
            ))
            .collect::<String>(),
        oracle = kb(inputs.wasm.len()),
        peers = kb(inputs.peers_wasm.len()),
    )
}

/// `data/cases/<case-id>.js` for every case of one fetch: its exact body, fetch status, robots.txt
/// URL, and per check the question, the expected verdicts and every parser's recorded answer.
fn add_case_data(site: &mut Site, inputs: &Inputs) {
    for case in &inputs.corpus.cases {
        if !case.fetches.is_empty() {
            continue;
        }
        let mut checks = Map::new();
        for row in inputs.results.rows.iter().filter(|r| r.case == case.id) {
            let answers: Vec<Value> = inputs
                .results
                .adapters
                .iter()
                .filter_map(|column| {
                    let id = &column.identity.id;
                    row.adapters.get(id).map(|cell| {
                        json!([
                            id,
                            cell.answer.kind(),
                            crate::case::status_words(cell.status)
                        ])
                    })
                })
                .collect();
            checks.insert(
                row.check.to_string(),
                json!({
                    "agent": row.agent,
                    "url": row.url,
                    "expected": row.expected.iter().map(|(p, v)| (p.name().to_string(), json!(v.name()))).collect::<Map<String, Value>>(),
                    "answers": answers,
                }),
            );
        }
        let status = match case.fetch {
            robotstxt_oracle::Fetch::Status {
                status: 200,
                redirects: 0,
            } => Value::Null,
            robotstxt_oracle::Fetch::Status { status, .. } => json!(status),
            robotstxt_oracle::Fetch::Unreachable => json!(0),
        };
        let data = json!({
            "case": case.id,
            "body": fragment_value(&case.body),
            "status": status,
            "robots_url": case.robots_url,
            "checks": checks,
        });
        site.add(
            case_data_path(&case.id),
            format!("window.robotsRecorded({});\n", script_json(&data)),
        );
    }
}

/// `data/realworld.js`: each bucket's example (adapter, cause, file, body, question, expected
/// verdict and the parser's answer), keyed `<adapter>|<cause>`.
fn add_realworld_data(site: &mut Site, inputs: &Inputs) {
    let mut examples = Map::new();
    for bucket in inputs.realworld.buckets.values() {
        let example = &bucket.example;
        let body = robotstxt_matrix::cases::escape::decode(&example.body).unwrap_or_default();
        examples.insert(
            format!("{}|{}", bucket.adapter, bucket.cause),
            json!({
                "adapter": bucket.adapter,
                "profile": bucket.profile,
                "cause": bucket.cause,
                "file": example.file,
                "body": fragment_value(&body),
                "agent": example.agent,
                "url": example.url,
                "status": if example.status == 200 { Value::Null } else { json!(example.status) },
                "expected": example.expected,
                "got": example.got,
                "minimised": example.minimised,
            }),
        );
    }
    site.add(
        "data/realworld.js",
        format!(
            "window.robotsRealworld({});\n",
            script_json(&Value::Object(examples))
        ),
    );
}

/// JSON safe inside a script file: `<` escaped, so no `</script>` or `<!--` can appear.
fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// The page's script: reads and writes the fragment, loads and runs the two modules, shows the
/// answers. `window.robotsPlayground` gives the tests (and a console) the parsers' answers.
const SCRIPT: &str = r#"'use strict';
(function () {
  var PROFILES = ['rfc9309', 'google', 'draft-1996', 'original-1994'];
  var TITLES = { 'rfc9309': 'RFC 9309', 'google': 'Google', 'draft-1996': '1996 draft', 'original-1994': '1994 standard' };
  var DEFAULT = { body: 'User-agent: *\nDisallow: /shop\nAllow: /shop/cart\n', agent: 'ExampleBot', url: 'https://example.com/shop/cart', status: '' };
  var $ = function (id) { return document.getElementById(id); };
  var encoder = new TextEncoder();
  var bodyOctets = new Uint8Array(0);
  var origin = null;
  var oracle = null;
  // The Rust parsers: the compiled module, its instance, the ids in its order.
  var peersModule = null;
  var peers = null;
  var peerIds = [];
  // Per question: the parsers that panicked on it (index -> message), so a fresh module is not
  // asked again.
  var crashed = {};
  // The fragment's parameters while a corpus check's or a real-world example's data is loading.
  var pending = null;
  // Recorded data already loaded, by case id; the real-world examples.
  var cases = {};
  var realworld = null;
  var requested = {};

  function pctEncode(octets) {
    var out = '';
    for (var i = 0; i < octets.length; i++) {
      var b = octets[i];
      var c = String.fromCharCode(b);
      if (/[A-Za-z0-9\-._~]/.test(c)) { out += c; } else { out += '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase(); }
    }
    return out;
  }
  function pctDecode(text) {
    var out = [];
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (c === '%' && /^[0-9A-Fa-f]{2}$/.test(text.substr(i + 1, 2))) {
        out.push(parseInt(text.substr(i + 1, 2), 16)); i += 2;
      } else {
        var e = encoder.encode(c === '+' ? ' ' : c);
        for (var j = 0; j < e.length; j++) { out.push(e[j]); }
      }
    }
    return new Uint8Array(out);
  }
  function textOf(octets) { return new TextDecoder('utf-8').decode(octets); }
  function fileSafe(name) { return name.replace(/[^A-Za-z0-9\-_.]/g, '_').replace(/^\.+/, ''); }
  function sameOctets(a, b) {
    if (a.length !== b.length) { return false; }
    for (var i = 0; i < a.length; i++) { if (a[i] !== b[i]) { return false; } }
    return true;
  }
  function readFragment() {
    var params = {};
    var hash = location.hash.replace(/^#/, '');
    if (hash === '') { return params; }
    hash.split('&').forEach(function (part) {
      var eq = part.indexOf('=');
      if (eq < 0) { return; }
      params[part.slice(0, eq)] = part.slice(eq + 1);
    });
    return params;
  }
  function question() {
    return { agent: $('agent').value, url: $('url').value, status: $('status').value.trim() };
  }
  function fragmentFor(q) {
    if (origin && origin.matches()) { return origin.fragment; }
    var f = 'body=' + pctEncode(bodyOctets) + '&agent=' + pctEncode(encoder.encode(q.agent)) + '&url=' + pctEncode(encoder.encode(q.url));
    if (q.status !== '') { f += '&status=' + pctEncode(encoder.encode(q.status)); }
    return f;
  }
  function showBodyNote() {
    var shown = encoder.encode($('body').value);
    var note = $('body-note');
    if (sameOctets(shown, bodyOctets)) { note.hidden = true; return; }
    note.hidden = false;
    note.textContent = 'The body holds octets the text box cannot show as they are (a CR, or octets that are not UTF-8): the verdicts are for the exact ' + bodyOctets.length + ' octets until you edit the box.';
  }
  // A URL is absolute with its scheme and "//" (https://example.com/x) or a path (/x). Anything
  // else is refused with the likely URL: example.com/private/x is most often https://example.com/private/x.
  function urlProblem(url) {
    if (url === '') { return { text: 'Give a URL: an absolute URL such as https://example.com/private/x, or a path starting with /.', fix: null }; }
    if (/^[A-Za-z][A-Za-z0-9+.\-]*:\/\//.test(url)) { return null; }
    if (url.slice(0, 2) === '//') { return { text: 'This URL has no scheme (a URL starting with // takes the scheme of a page, and robots.txt has none).', fix: 'https:' + url }; }
    if (url[0] === '/') { return null; }
    return { text: 'This URL has no scheme: the oracle takes an absolute URL (https://host/path) or a path (/path), and "' + url.split(/[\/?#]/)[0] + '" would be read as neither host nor path.', fix: 'https://' + url };
  }
  function showUrlHint(problem) {
    var hint = $('url-hint');
    if (!problem) { hint.hidden = true; return; }
    hint.hidden = false;
    $('url-hint-text').textContent = problem.text + (problem.fix ? ' Did you mean ' + problem.fix + '?' : '');
    var fix = $('url-fix');
    fix.hidden = !problem.fix;
    if (problem.fix) { fix.textContent = 'Use ' + problem.fix; fix.onclick = function () { $('url').value = problem.fix; update(); }; }
  }
  function parseStatus(text) {
    if (text === '') { return null; }
    if (!/^[0-9]{1,3}$/.test(text)) { throw new Error('The fetch status is a number from 0 to 999: ' + text); }
    return parseInt(text, 10);
  }
  function call(instance, name, args, octetArgs) {
    var e = instance.exports;
    var ptrs = octetArgs.map(function (octets) {
      var ptr = e.alloc(octets.length);
      new Uint8Array(e.memory.buffer, ptr, octets.length).set(octets);
      return ptr;
    });
    var flat = args.slice();
    octetArgs.forEach(function (octets, i) { flat.push(ptrs[i], octets.length); });
    var len = e[name].apply(null, flat);
    var out = new Uint8Array(e.memory.buffer, e.answer_ptr(), len).slice();
    octetArgs.forEach(function (octets, i) { e.release(ptrs[i], octets.length); });
    return JSON.parse(textOf(out));
  }
  function ask(q, status) {
    var qOctets = encoder.encode(JSON.stringify({ agent: q.agent, url: q.url, status: status }));
    var answer = call(oracle, 'ask', [], [bodyOctets, qOctets]);
    if (answer.error) { throw new Error(answer.error); }
    return answer;
  }
  // The aipref reading's preference per category of use: [{category, preference, explanation}].
  function askPreferences(q, status) {
    var qOctets = encoder.encode(JSON.stringify({ agent: q.agent, url: q.url, status: status }));
    var answer = call(oracle, 'ask_preferences', [], [bodyOctets, qOctets]);
    if (answer.error) { throw new Error(answer.error); }
    return answer;
  }
  // Each parser's answer to a question about `octets`: {id: {answer, message}}; a panic traps the
  // module, which is recorded and started afresh (the answer then waits for it).
  function askPeers(octets, agent, url) {
    var key = pctEncode(octets) + '|' + agent + '|' + url;
    var seen = crashed[key] || {};
    var out = {};
    var qOctets = encoder.encode(JSON.stringify({ agent: agent, url: url }));
    for (var i = 0; i < peerIds.length; i++) {
      if (seen[i] !== undefined) { out[peerIds[i]] = { answer: 'crash', message: seen[i] }; continue; }
      try {
        out[peerIds[i]] = call(peers, 'ask', [i], [octets, qOctets]);
      } catch (err) {
        var e = peers.exports;
        var message = textOf(new Uint8Array(e.memory.buffer, e.panic_ptr(), e.panic_len()).slice()) || String(err);
        seen[i] = message;
        crashed[key] = seen;
        peers = null;
        return null;
      }
    }
    return out;
  }
  function restartPeers() {
    return WebAssembly.instantiate(peersModule, {}).then(function (instance) { peers = instance; });
  }
  // `text` into `element`, each citation (rfc9309#2.2.2) a link to its section on the document's page.
  var CITATION = /(^|[^A-Za-z0-9_\-])((rfc9309|draft-2019|google|draft-1996|guide-ch9|norobots-1994|aipref-attach|aipref-vocab)#([A-Za-z0-9.\-]*[A-Za-z0-9]))/g;
  function withCitations(element, text) {
    var at = 0;
    text.replace(CITATION, function (match, before, citation, doc, section, offset) {
      var start = offset + before.length;
      element.appendChild(document.createTextNode(text.slice(at, start)));
      var a = document.createElement('a');
      a.className = 'citation';
      a.href = 'documents/' + doc + '.html#' + section;
      a.textContent = citation;
      element.appendChild(a);
      at = start + citation.length;
      return match;
    });
    element.appendChild(document.createTextNode(text.slice(at)));
  }
  function verdictSpan(verdict) {
    var span = document.createElement('span');
    span.className = verdict;
    span.textContent = verdict;
    return span;
  }
  function clearAnswers() {
    PROFILES.forEach(function (p) { $('verdict-' + p).textContent = '…'; });
    document.querySelectorAll('#preferences td[id]').forEach(function (td) { td.textContent = '…'; });
    $('explanations').textContent = '';
    document.querySelectorAll('#peers tr[data-peer]').forEach(function (tr) {
      tr.querySelector('.answer').textContent = '…';
      tr.querySelector('.standing').textContent = '';
    });
  }
  function update() {
    if (pending) { return; }
    var q = question();
    var error = $('error');
    error.hidden = true;
    showBodyNote();
    var fragment = '#' + fragmentFor(q);
    if (location.hash !== fragment) { history.replaceState(null, '', fragment); }
    $('permalink').href = fragment;
    var problem = urlProblem(q.url);
    showUrlHint(problem);
    if (!oracle || problem) { clearAnswers(); showRecorded(); return; }
    var answers, preferences, status;
    try { status = parseStatus(q.status); answers = ask(q, status); preferences = askPreferences(q, status); } catch (err) {
      error.hidden = false; error.textContent = err.message;
      clearAnswers();
      showRecorded();
      return;
    }
    var explanations = $('explanations');
    explanations.textContent = '';
    var verdicts = {};
    answers.forEach(function (a) {
      verdicts[a.profile] = a.verdict;
      var cell = $('verdict-' + a.profile);
      cell.textContent = '';
      cell.appendChild(verdictSpan(a.verdict));
      var h = document.createElement('h3');
      h.textContent = TITLES[a.profile] || a.profile;
      var pre = document.createElement('pre');
      withCitations(pre, a.explanation);
      explanations.appendChild(h);
      explanations.appendChild(pre);
    });
    preferences.forEach(function (a) {
      var cell = $('preference-' + a.category);
      cell.textContent = '';
      cell.appendChild(verdictSpan(a.preference));
      var h = document.createElement('h3');
      h.textContent = 'aipref: ' + a.category;
      var pre = document.createElement('pre');
      withCitations(pre, a.explanation);
      explanations.appendChild(h);
      explanations.appendChild(pre);
    });
    showPeers(q, status, verdicts);
    showRecorded();
  }
  function showPeers(q, status, verdicts) {
    var rows = document.querySelectorAll('#peers tr[data-peer]');
    var answers = null;
    if (status !== null && status !== 200) {
      rows.forEach(function (tr) {
        tr.querySelector('.answer').textContent = 'not asked';
        tr.querySelector('.standing').textContent = 'it takes no fetch outcome (as in run)';
      });
      return;
    }
    if (peers) {
      answers = askPeers(bodyOctets, q.agent, q.url);
      if (!answers) { restartPeers().then(update); }
    }
    rows.forEach(function (tr) {
      var a = answers && answers[tr.getAttribute('data-peer')];
      var cell = tr.querySelector('.answer');
      var standing = tr.querySelector('.standing');
      cell.textContent = '';
      standing.textContent = '';
      if (!a) { cell.textContent = '…'; return; }
      cell.appendChild(verdictSpan(a.answer));
      if (a.message) { cell.appendChild(document.createTextNode(': ' + a.message)); }
      var expected = verdicts[tr.getAttribute('data-claims')];
      if (a.answer !== 'allowed' && a.answer !== 'disallowed') { standing.textContent = 'no verdict'; }
      else if (expected === 'either' || expected === a.answer) { standing.textContent = 'as its profile says (' + expected + ')'; }
      else { standing.textContent = 'differs: its profile says ' + expected; }
    });
  }
  function showRecorded() {
    var box = $('recorded');
    box.textContent = '';
    if (!origin || !origin.loaded) { box.hidden = true; return; }
    box.hidden = false;
    var h = document.createElement('h2');
    h.textContent = origin.title;
    box.appendChild(h);
    var p = document.createElement('p');
    if (!origin.matches()) {
      p.textContent = 'You changed the question, so these recorded answers no longer apply to it.';
      box.appendChild(p);
      return;
    }
    p.textContent = origin.intro;
    box.appendChild(p);
    var table = document.createElement('table');
    table.id = 'recorded-answers';
    var head = table.insertRow();
    origin.columns.forEach(function (c) { var th = document.createElement('th'); th.textContent = c; head.appendChild(th); });
    origin.rows.forEach(function (r) {
      var tr = table.insertRow();
      r.forEach(function (v, n) {
        var td = tr.insertCell();
        if (n === 1) { td.appendChild(verdictSpan(v)); } else { td.textContent = v; }
      });
    });
    var wrap = document.createElement('div');
    wrap.className = 'table';
    wrap.appendChild(table);
    box.appendChild(wrap);
  }
  function setInputs(body, agent, url, status) {
    bodyOctets = body;
    $('body').value = textOf(body);
    $('agent').value = agent;
    $('url').value = url;
    $('status').value = status;
  }
  // Loads a script once; `then` runs when it has run (at once when it already has).
  function loadScript(src, then, onError) {
    if (requested[src] === 'done') { then(); return; }
    if (requested[src]) { requested[src].push(then); return; }
    requested[src] = [then];
    var s = document.createElement('script');
    s.src = src;
    s.onload = function () { var waiting = requested[src]; requested[src] = 'done'; waiting.forEach(function (f) { f(); }); };
    s.onerror = function () { delete requested[src]; onError(); };
    document.body.appendChild(s);
  }
  function originFor(fragment, title, intro, body, agent, url, status, columns, rows) {
    return {
      loaded: true, fragment: fragment, title: title, intro: intro, columns: columns, rows: rows,
      matches: function () {
        var q = question();
        return sameOctets(bodyOctets, body) && q.agent === agent && q.url === url && q.status === status;
      }
    };
  }
  window.robotsRecorded = function (data) { cases[data['case']] = data; };
  window.robotsRealworld = function (examples) { realworld = examples; };
  function showCase(params) {
    var data = cases[textOf(pctDecode(params['case']))];
    var check = data && data.checks[params.check];
    if (!check) { showOriginError('The case ' + textOf(pctDecode(params['case'])) + ' has no check ' + params.check + '.'); return; }
    var body = pctDecode(data.body);
    var status = data.status === null ? '' : String(data.status);
    setInputs(body, check.agent, check.url, status);
    var rows = check.answers.map(function (a) { return [a[0], a[1], a[2]]; });
    var expected = PROFILES.filter(function (p) { return check.expected[p]; }).map(function (p) { return TITLES[p] + ': ' + check.expected[p]; }).join(', ');
    var intro = 'Corpus check ' + data['case'] + '#' + params.check + '. The corpus expects ' + expected + '.' + (data.robots_url ? ' The case gives the robots.txt URL ' + data.robots_url + ', which the playground does not take: step 0 (scope) is not asked here.' : '');
    origin = originFor(location.hash.replace(/^#/, ''), 'Every parser\'s recorded answer', intro, body, check.agent, check.url, status, ['parser', 'answer', 'standing'], rows);
    update();
  }
  function showRealworld(params) {
    var key = textOf(pctDecode(params.rw || ''));
    var ex = realworld && realworld[key];
    if (!ex) { showOriginError('No real-world example is recorded as ' + key + '.'); return; }
    var body = pctDecode(ex.body);
    var status = ex.status === null ? '' : String(ex.status);
    setInputs(body, ex.agent, ex.url, status);
    var intro = 'The first example of the real-world bucket ' + ex.cause + ' for ' + ex.adapter + ', from ' + ex.file + (ex.minimised ? ' (minimised)' : '') + '. Only this parser\'s answer is recorded for it; ' + ex.profile + ' expects ' + ex.expected + '.';
    origin = originFor(location.hash.replace(/^#/, ''), 'The recorded answer', intro, body, ex.agent, ex.url, status, ['parser', 'answer'], [[ex.adapter, ex.got]]);
    update();
  }
  function showOriginError(message) {
    var error = $('error');
    error.hidden = false;
    error.textContent = message;
  }
  function start() {
    var params = readFragment();
    origin = null;
    if (params['case'] && params.check) {
      var id = textOf(pctDecode(params['case']));
      var path = 'data/cases/' + id.split('/').map(fileSafe).join('/') + '.js';
      setInputs(new Uint8Array(0), '', '', '');
      pending = params;
      loadScript(path, function () { pending = null; showCase(params); }, function () { pending = null; showOriginError('No recorded data for the case ' + id + '.'); });
      return;
    }
    if (params.rw) {
      pending = params;
      loadScript('data/realworld.js', function () { pending = null; showRealworld(params); }, function () { pending = null; showOriginError('No real-world data in this site.'); });
      return;
    }
    if (params.body !== undefined || params.agent !== undefined) {
      setInputs(pctDecode(params.body || ''), textOf(pctDecode(params.agent || '')), textOf(pctDecode(params.url || '')), textOf(pctDecode(params.status || '')));
    } else {
      setInputs(encoder.encode(DEFAULT.body), DEFAULT.agent, DEFAULT.url, DEFAULT.status);
    }
    update();
  }
  function decode(base64) {
    var binary = atob(base64);
    var octets = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { octets[i] = binary.charCodeAt(i); }
    return octets;
  }
  function failed(what, err) {
    $('loading').hidden = false;
    $('loading').textContent = what + ' could not start: ' + err;
  }
  $('body').addEventListener('input', function () { bodyOctets = encoder.encode($('body').value); update(); });
  ['agent', 'url', 'status'].forEach(function (id) { $(id).addEventListener('input', update); });
  window.addEventListener('hashchange', function () {
    if (location.hash !== '#' + fragmentFor(question())) { start(); }
  });
  // For the tests and a console: every Rust parser's answer to (body octets, agent, URL), once
  // the parsers' module has started; a panic is answered `crash` and the module started afresh.
  window.robotsPlayground = {
    pctDecode: pctDecode,
    askPeers: function (octets, agent, url) {
      function attempt() {
        var out = askPeers(octets, agent, url);
        return out ? Promise.resolve(out) : restartPeers().then(attempt);
      }
      return attempt();
    }
  };
  loadScript('oracle-wasm.js', function () {
    WebAssembly.instantiate(decode(window.ROBOTS_ORACLE_WASM), {}).then(function (result) {
      oracle = result.instance;
      $('loading').hidden = true;
      document.body.setAttribute('data-oracle', 'ready');
      update();
      loadScript('peers-wasm.js', function () {
        WebAssembly.compile(decode(window.ROBOTS_PEERS_WASM)).then(function (module) {
          peersModule = module;
          return WebAssembly.instantiate(module, {});
        }).then(function (instance) {
          peers = instance;
          peerIds = call(peers, 'peers', [], []);
          $('peers-loading').hidden = true;
          document.body.setAttribute('data-peers', 'ready');
          update();
        }, function (err) { $('peers-loading').textContent = 'The parsers could not start: ' + err; });
      }, function () { $('peers-loading').textContent = 'The parsers\' module (peers-wasm.js) is missing.'; });
    }, function (err) { failed('The oracle', err); });
  }, function () { failed('The oracle', 'oracle-wasm.js is missing'); });
  start();
})();
"#;
