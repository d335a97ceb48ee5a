// js-robots-txt-guard: the npm packages robots-txt-parse (Woorank's streaming parser) and
// robots-txt-guard (its matcher), speaking robotstxt-adapter/1 (adapters/PROTOCOL.md).
//
// Usage: node js_robots_txt_guard.js <dir>, where <dir> holds the node_modules that `npm ci`
// installed from package-lock.json (robots-txt-guard@1.0.2, robots-txt-parse@2.0.1, pinned by
// integrity hash).
"use strict";

const path = require("path");
const readline = require("readline");
const { Readable } = require("stream");
const { createRequire } = require("module");

const installed = createRequire(path.join(path.resolve(process.argv[2] || "."), "package.json"));
const parse = installed("robots-txt-parse");
const guard = installed("robots-txt-guard");
const guardVersion = installed("robots-txt-guard/package.json").version;
const parseVersion = installed("robots-txt-parse/package.json").version;

function write(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The body's exact octets: the parser reads a stream and decodes it as UTF-8 itself (split2).
function bodyOctets(request) {
  if (request.body_base64 !== undefined) return Buffer.from(request.body_base64, "base64");
  return Buffer.from(request.body, "utf8");
}

// RFC 3986 appendix B: the path (`/` when empty) and query of an absolute URL, fragment dropped,
// no normalisation (the library is given a path: isAllowed(userAgent, path)), as the Rust and Go
// adapters' path_and_query does.
const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;
function pathAndQuery(url) {
  const parts = URI_PARTS.exec(url);
  const path = parts[3] || '/';
  return parts[4] === undefined ? path : `${path}?${parts[4]}`;
}

// Parses the body once per request (a stream of its octets), then asks each check.
async function answer(body, checks) {
  let robots;
  try {
    robots = guard(await parse(Readable.from([body])));
  } catch (e) {
    const message = String(e).slice(0, 2000);
    checks.forEach((_, index) => write({ check: index, answer: "error", message }));
    return;
  }
  checks.forEach((check, index) => {
    try {
      const allowed = robots.isAllowed(check.agent, pathAndQuery(check.url));
      if (allowed === true) write({ check: index, answer: "allowed" });
      else if (allowed === false) write({ check: index, answer: "disallowed" });
      else write({ check: index, answer: "error", message: `isAllowed returned ${allowed}` });
    } catch (e) {
      write({ check: index, answer: "error", message: String(e).slice(0, 2000) });
    }
  });
}

write({
  protocol: "robotstxt-adapter/1",
  id: "js-robots-txt-guard",
  library: "robots-txt-guard",
  version: guardVersion,
  language: "JavaScript",
  licence: "MIT",
  source:
    `npm robots-txt-guard@${guardVersion} with robots-txt-parse@${parseVersion} ` +
    "(integrity sha512 pinned in package-lock.json)",
  // Neither README names a standard ("Validate urls against robots.txt rules", "Streaming
  // robots.txt parser"); its matching is Google's (the longest rule wins, Allow wins a tie of
  // the same path, `*` and `$`), so it is judged as google.
  profile: "google",
  capabilities: { fetch_status: false, multiple_agents: false },
  url: "path-and-query",
  notes:
    "guard(await parse(stream)).isAllowed(agent, path): agent first, given the path and query. " +
    "The body's exact octets are streamed to robots-txt-parse, which decodes them as UTF-8 " +
    "(invalid octets become U+FFFD) and splits lines at LF or CRLF (split2). Parsed once per " +
    "request. Neither package names a standard: the google profile is chosen for its matching.",
});

// The runner went away (it closed our output): nothing left to answer.
process.stdout.on("error", () => process.exit(0));

// Requests are answered strictly in order: each waits for the one before (parsing is async).
let queue = Promise.resolve();
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    // The runner never sends this: stop, it will report that we crashed.
    process.stderr.write(`malformed request: ${e}\n`);
    process.exit(2);
  }
  queue = queue.then(() => answer(bodyOctets(request), request.checks));
});
