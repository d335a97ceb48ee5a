// js-robots-parser: the npm package robots-parser, speaking robotstxt-adapter/1
// (adapters/PROTOCOL.md).
//
// Usage: node js_robots_parser.js <dir>, where <dir> holds the node_modules that
// `npm ci` installed from package-lock.json (robots-parser@3.0.1, pinned by integrity hash).
"use strict";

const path = require("path");
const readline = require("readline");
const { createRequire } = require("module");

const installed = createRequire(path.join(path.resolve(process.argv[2] || "."), "package.json"));
const robotsParser = installed("robots-parser");
const version = installed("robots-parser/package.json").version;

function write(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The body as text: UTF-8, invalid octets become U+FFFD, a BOM is kept.
function bodyText(request) {
  if (request.body_base64 !== undefined) {
    return Buffer.from(request.body_base64, "base64").toString("utf8");
  }
  return request.body;
}

// The library refuses (returns undefined for) URLs of other hosts than its robots.txt URL's,
// so each check gets the robots.txt of its own scheme, host and port (`/robots.txt` resolved
// against the URL: a URL's `origin` is "null" for schemes such as gopher); parsed once per
// robots.txt URL per request.
function answer(body, checks) {
  const parsed = new Map();
  checks.forEach((check, index) => {
    try {
      const robotsUrl = new URL("/robots.txt", check.url).href;
      if (!parsed.has(robotsUrl)) parsed.set(robotsUrl, robotsParser(robotsUrl, body));
      const allowed = parsed.get(robotsUrl).isAllowed(check.url, check.agent);
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
  id: "js-robots-parser",
  library: "robots-parser",
  version,
  language: "JavaScript",
  licence: "MIT",
  source: `npm robots-parser@${version} (integrity sha512 pinned in package-lock.json)`,
  // README: "A robots.txt parser which aims to be compliant with the draft specification"
  // (draft-koster-rep, published as RFC 9309).
  profile: "rfc9309",
  capabilities: { fetch_status: false, multiple_agents: false },
  url: "full",
  notes:
    "robotsParser(robotsUrl, text).isAllowed(url, agent): URL first. robotsUrl is /robots.txt " +
    "resolved against the check URL (the library answers undefined for other origins). Text: " +
    "the body decoded as UTF-8 with invalid octets replaced by U+FFFD; a BOM is kept. Lines " +
    "end at CRLF, CR or LF. Parsed once per robots.txt URL per request.",
});

// The runner went away (it closed our output): nothing left to answer.
process.stdout.on("error", () => process.exit(0));

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
  answer(bodyText(request), request.checks);
});
