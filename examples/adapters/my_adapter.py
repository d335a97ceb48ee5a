"""A minimal adapter (adapters/PROTOCOL.md) for Python's urllib.robotparser: put your parser in
`is_allowed`, then run `robotstxt-conformance certify` on it (docs/certify.md)."""
import base64
import json
import platform
import sys
import urllib.robotparser


def is_allowed(body: bytes, agent: str, url: str) -> bool:
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(body.decode("utf-8", "replace").splitlines())
    return parser.can_fetch(agent, url)


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
