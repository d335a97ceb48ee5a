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

use super::page::{case_path, fragment_value, shell, SitePath};
use super::{Inputs, Site};

/// The playground's link for a corpus check, from the site's root.
pub fn check_link(case: &str, check: usize) -> String {
    format!(
        "playground.html#case={}&check={check}",
        fragment_value(case.as_bytes())
    )
}

/// The playground's link for a real-world bucket's example, from the site's root.
pub fn realworld_link(adapter: &str, cause: &str) -> String {
    format!(
        "playground.html#rw={}",
        fragment_value(format!("{adapter}|{cause}").as_bytes())
    )
}

/// The site path of a case's recorded data (`data/cases/<case-id>.js`).
pub fn case_data_path(case: &str) -> String {
    let page = case_path(case);
    format!("data/{}.js", page.trim_end_matches(".html"))
}

/// Adds the page, its script, the module and the recorded data.
pub fn add(site: &mut Site, inputs: &Inputs) {
    let path = SitePath("playground.html".to_string());
    site.add(path.0.clone(), shell(&path, "Playground", PAGE));
    site.add("playground.js", SCRIPT);
    site.add(
        "oracle-wasm.js",
        format!(
            "window.ROBOTS_ORACLE_WASM = \"{}\";\n",
            base64::engine::general_purpose::STANDARD.encode(&inputs.wasm)
        ),
    );
    add_case_data(site, inputs);
    add_realworld_data(site, inputs);
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
                            super::case::status_words(cell.status)
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
        let body = crate::cases::escape::decode(&example.body).unwrap_or_default();
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

/// The page's body.
const PAGE: &str = r#"<h1>Playground</h1>
<p>Paste a robots.txt body, an agent and a URL: the four documents' verdicts appear below, with the oracle's explanation. They are computed in this page by the oracle compiled to WebAssembly; nothing is sent anywhere. The address of the page holds the inputs: copy it to share the question.</p>
<div id="origin" hidden></div>
<label for="body">robots.txt body</label>
<textarea id="body" spellcheck="false" autocomplete="off"></textarea>
<p id="body-note" class="muted" hidden></p>
<label for="agent">User agent (product token)</label>
<input id="agent" type="text" spellcheck="false" autocomplete="off">
<label for="url">URL (absolute, or a path)</label>
<input id="url" type="text" spellcheck="false" autocomplete="off">
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
<p><a id="permalink" href="playground.html">Permalink to this question</a></p>
<div id="recorded" hidden></div>
<h2>Explanations</h2>
<div id="explanations"></div>
<noscript><p>The playground needs JavaScript and WebAssembly.</p></noscript>
<script src="oracle-wasm.js"></script>
<script src="playground.js"></script>"#;

/// The page's script: reads and writes the fragment, runs the module, shows the answers.
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
  // The fragment's parameters while a corpus check's or a real-world example's data is loading.
  var pending = null;

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
  function ask(q) {
    var status = null;
    if (q.status !== '') {
      if (!/^[0-9]{1,3}$/.test(q.status)) { throw new Error('The fetch status is a number from 0 to 999: ' + q.status); }
      status = parseInt(q.status, 10);
    }
    var e = oracle.exports;
    var qOctets = encoder.encode(JSON.stringify({ agent: q.agent, url: q.url, status: status }));
    var bodyPtr = e.alloc(bodyOctets.length);
    var qPtr = e.alloc(qOctets.length);
    new Uint8Array(e.memory.buffer, bodyPtr, bodyOctets.length).set(bodyOctets);
    new Uint8Array(e.memory.buffer, qPtr, qOctets.length).set(qOctets);
    var len = e.ask(bodyPtr, bodyOctets.length, qPtr, qOctets.length);
    var out = new Uint8Array(e.memory.buffer, e.answer_ptr(), len).slice();
    e.release(bodyPtr, bodyOctets.length);
    e.release(qPtr, qOctets.length);
    var answer = JSON.parse(textOf(out));
    if (answer.error) { throw new Error(answer.error); }
    return answer;
  }
  function verdictSpan(verdict) {
    var span = document.createElement('span');
    span.className = verdict;
    span.textContent = verdict;
    return span;
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
    if (!oracle) { return; }
    var answers;
    try { answers = ask(q); } catch (err) {
      error.hidden = false; error.textContent = err.message;
      PROFILES.forEach(function (p) { $('verdict-' + p).textContent = '…'; });
      return;
    }
    var explanations = $('explanations');
    explanations.textContent = '';
    answers.forEach(function (a) {
      var cell = $('verdict-' + a.profile);
      cell.textContent = '';
      cell.appendChild(verdictSpan(a.verdict));
      var h = document.createElement('h3');
      h.textContent = TITLES[a.profile] || a.profile;
      var pre = document.createElement('pre');
      pre.textContent = a.explanation;
      explanations.appendChild(h);
      explanations.appendChild(pre);
    });
    showRecorded();
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
  function loadScript(src, onError) {
    var s = document.createElement('script');
    s.src = src;
    s.onerror = onError;
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
  window.robotsRecorded = function (data) {
    var params = pending || {};
    pending = null;
    var check = data.checks[params.check];
    if (!check) { showOriginError('The case ' + data['case'] + ' has no check ' + params.check + '.'); return; }
    var body = pctDecode(data.body);
    var status = data.status === null ? '' : String(data.status);
    setInputs(body, check.agent, check.url, status);
    var rows = check.answers.map(function (a) { return [a[0], a[1], a[2]]; });
    var expected = PROFILES.filter(function (p) { return check.expected[p]; }).map(function (p) { return TITLES[p] + ': ' + check.expected[p]; }).join(', ');
    var intro = 'Corpus check ' + data['case'] + '#' + params.check + '. The corpus expects ' + expected + '.' + (data.robots_url ? ' The case gives the robots.txt URL ' + data.robots_url + ', which the playground does not take: step 0 (scope) is not asked here.' : '');
    origin = originFor(location.hash.replace(/^#/, ''), 'Every parser\'s recorded answer', intro, body, check.agent, check.url, status, ['parser', 'answer', 'standing'], rows);
    update();
  };
  window.robotsRealworld = function (examples) {
    var key = textOf(pctDecode((pending || {}).rw || ''));
    pending = null;
    var ex = examples[key];
    if (!ex) { showOriginError('No real-world example is recorded as ' + key + '.'); return; }
    var body = pctDecode(ex.body);
    var status = ex.status === null ? '' : String(ex.status);
    setInputs(body, ex.agent, ex.url, status);
    var intro = 'The first example of the real-world bucket ' + ex.cause + ' for ' + ex.adapter + ', from ' + ex.file + (ex.minimised ? ' (minimised)' : '') + '. Only this parser\'s answer is recorded for it; ' + ex.profile + ' expects ' + ex.expected + '.';
    origin = originFor(location.hash.replace(/^#/, ''), 'The recorded answer', intro, body, ex.agent, ex.url, status, ['parser', 'answer'], [[ex.adapter, ex.got]]);
    update();
  };
  function showOriginError(message) {
    var error = $('error');
    error.hidden = false;
    error.textContent = message;
  }
  function start() {
    var params = readFragment();
    if (params['case'] && params.check) {
      var id = textOf(pctDecode(params['case']));
      var path = 'data/cases/' + id.split('/').map(fileSafe).join('/') + '.js';
      setInputs(new Uint8Array(0), '', '', '');
      pending = params;
      loadScript(path, function () { pending = null; showOriginError('No recorded data for the case ' + id + '.'); });
      return;
    }
    if (params.rw) {
      pending = params;
      loadScript('data/realworld.js', function () { pending = null; showOriginError('No real-world data in this site.'); });
      return;
    }
    if (params.body !== undefined || params.agent !== undefined) {
      setInputs(pctDecode(params.body || ''), textOf(pctDecode(params.agent || '')), textOf(pctDecode(params.url || '')), textOf(pctDecode(params.status || '')));
    } else {
      setInputs(encoder.encode(DEFAULT.body), DEFAULT.agent, DEFAULT.url, DEFAULT.status);
    }
    update();
  }
  $('body').addEventListener('input', function () { bodyOctets = encoder.encode($('body').value); update(); });
  ['agent', 'url', 'status'].forEach(function (id) { $(id).addEventListener('input', update); });
  window.addEventListener('hashchange', function () {
    if (location.hash !== '#' + fragmentFor(question())) { origin = null; start(); }
  });
  var binary = atob(window.ROBOTS_ORACLE_WASM);
  var octets = new Uint8Array(binary.length);
  for (var i = 0; i < binary.length; i++) { octets[i] = binary.charCodeAt(i); }
  WebAssembly.instantiate(octets, {}).then(function (result) {
    oracle = result.instance;
    document.body.setAttribute('data-oracle', 'ready');
    update();
  }, function (err) { showOriginError('The oracle could not start: ' + err); });
  start();
})();
"#;
