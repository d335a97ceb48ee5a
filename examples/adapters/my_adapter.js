// A minimal adapter (adapters/PROTOCOL.md) in JavaScript: put your parser in isAllowed, then run
// `robotstxt-conformance certify` on it (docs/certify.md). The parser here is a small toy.
const readline = require('readline');

// RFC 3986 appendix B: a URI's five parts, split without decoding or re-encoding anything (never
// WHATWG `new URL`, which normalises). adapters/PROTOCOL.md, "Two kinds of library".
const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;
// For a library that takes a path: the path (`/` when empty) and query as written, no fragment.
function pathAndQuery(url) {
  const parts = URI_PARTS.exec(url); const path = parts[3] || '/';
  return parts[4] === undefined ? path : `${path}?${parts[4]}`;
}
// For a library that takes the robots.txt URL and checks the host: the check's own origin's.
function robotsUrlOf(url) {
  const parts = URI_PARTS.exec(url);
  return `${parts[1]}://${parts[2]}/robots.txt`;
}

function isAllowed(body, agent, url) {
  const groups = []; let group = null; let inAgents = false;
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const m = raw.replace(/#.*/, '').match(/^\s*([A-Za-z-]+)\s*:\s*(.*?)\s*$/);
    if (!m) continue;
    const key = m[1].toLowerCase();
    if (key === 'user-agent') {
      if (!inAgents) groups.push(group = { agents: [], rules: [] });
      group.agents.push(m[2].toLowerCase()); inAgents = true;
    } else if (group && (key === 'allow' || key === 'disallow')) {
      if (m[2]) group.rules.push({ allow: key === 'allow', path: m[2] });
      inAgents = false;
    }
  }
  const mine = groups.filter(g => g.agents.includes(agent.toLowerCase()));
  const rules = (mine.length ? mine : groups.filter(g => g.agents.includes('*'))).flatMap(g => g.rules);
  const path = pathAndQuery(url); // this toy takes a path; a host-checking library: robotsUrlOf(url)
  let best = null;
  for (const r of rules) {
    const pattern = r.path.replace(/[.+?^{}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    if (!new RegExp('^' + pattern).test(path)) continue;
    if (!best || r.path.length > best.path.length || (r.path.length === best.path.length && r.allow)) best = r;
  }
  return !best || best.allow;
}

const send = m => process.stdout.write(JSON.stringify(m) + '\n');
send({ protocol: 'robotstxt-adapter/1', id: 'mine', library: 'toy', version: '0.0.1', language: 'JavaScript',
  licence: 'MIT', source: 'examples/adapters/my_adapter.js', profile: 'rfc9309', url: 'full' });
readline.createInterface({ input: process.stdin }).on('line', line => {
  const req = JSON.parse(line);
  const body = req.body !== undefined ? req.body : Buffer.from(req.body_base64, 'base64').toString('latin1');
  req.checks.forEach((c, i) => {
    try { send({ check: i, answer: isAllowed(body, c.agent, c.url) ? 'allowed' : 'disallowed' }); }
    catch (e) { send({ check: i, answer: 'error', message: String(e) }); }
  });
});
