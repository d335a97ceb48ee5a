"""A minimal adapter (adapters/PROTOCOL.md) for Python's urllib.robotparser: put your parser in
`is_allowed`, then run `robotstxt-conformance certify` on it (docs/certify.md)."""
import base64
import json
import platform
import re
import sys
import urllib.robotparser

# RFC 3986 appendix B: a URI's five parts (scheme, authority, path, query, fragment), split
# without decoding or re-encoding anything.
URI_PARTS = re.compile(r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.S)


def path_and_query(url: str) -> str:
    """For a library that takes a path: the URL's path (`/` when empty) and query as written, the
    fragment dropped (then say "url": "path-and-query" in the handshake). adapters/PROTOCOL.md,
    "Two kinds of library"."""
    parts = URI_PARTS.match(url)
    path, query = parts.group(3) or "/", parts.group(4)
    return path if query is None else f"{path}?{query}"


def robots_url_of(url: str) -> str:
    """For a library that takes the robots.txt URL and checks the host: the robots.txt URL of the
    check's own origin, so that no check is refused for being on another host."""
    parts = URI_PARTS.match(url)
    return f"{parts.group(1)}://{parts.group(2)}/robots.txt"


def is_allowed(body: bytes, agent: str, url: str) -> bool:
    parser = urllib.robotparser.RobotFileParser(robots_url_of(url))
    parser.parse(body.decode("utf-8", "replace").splitlines())
    return parser.can_fetch(agent, url)  # takes the full URL ("url": "full")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


send({"protocol": "robotstxt-adapter/1", "id": "mine", "library": "urllib.robotparser",
      "version": platform.python_version(), "language": "Python", "licence": "PSF-2.0",
      "source": "CPython standard library", "profile": "draft-1996", "url": "full"})
for line in sys.stdin:
    request = json.loads(line)
    if "body" in request:
        body = request["body"].encode("utf-8")
    else:
        body = base64.b64decode(request["body_base64"])
    for i, check in enumerate(request["checks"]):
        try:
            allowed = is_allowed(body, check["agent"], check["url"])
            send({"check": i, "answer": "allowed" if allowed else "disallowed"})
        except Exception as error:  # the library rejected the input: an answer, not a crash
            send({"check": i, "answer": "error", "message": repr(error)})
