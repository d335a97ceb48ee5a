"""The robotstxt-adapter/1 protocol (adapters/PROTOCOL.md) for Python libraries.

Each adapter program (py_urllib.py, py_protego.py, ...) describes its library in a handshake and
says how to ask it one question; `serve` does the rest: it prints the handshake, reads one request
per line from standard input until it closes, and answers every check on its own line, flushing
each. A failure inside the library never ends the process: it becomes that check's `error` answer.
"""

import base64
import importlib.metadata
import json
import os
import re
import sys

PROTOCOL = "robotstxt-adapter/1"


def serve(handshake, prepare):
    """Speaks the protocol on standard input and output until standard input closes.

    `handshake` holds every handshake field except `protocol`. `prepare(body)` is given the body's
    octets once per request and returns `check(agent, url)`, which returns True (allowed) or False
    (disallowed) for one check. An exception from either becomes an `error` answer.
    """
    try:
        write({"protocol": PROTOCOL, **handshake})
        for line in sys.stdin.buffer:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
                checks = request["checks"]
            except Exception as e:  # The runner never sends this: stop, it will say we crashed.
                sys.stderr.write(f"malformed request: {e!r}\n")
                sys.exit(2)
            answer_request(request, checks, prepare)
    except BrokenPipeError:  # The runner went away: nothing left to answer; exit quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def answer_request(request, checks, prepare):
    """Answers each check of one request, in order, one line each."""
    try:
        check = prepare(body_bytes(request))
    except Exception as e:
        failure = describe(e)
        for index in range(len(checks)):
            write({"check": index, "answer": "error", "message": failure})
        return
    for index, wire_check in enumerate(checks):
        try:
            write({"check": index, **verdict(check(wire_check["agent"], wire_check["url"]))})
        except Exception as e:
            write({"check": index, "answer": "error", "message": describe(e)})


def body_bytes(request):
    """The body's exact octets: `body` (UTF-8 text) or `body_base64`."""
    if "body_base64" in request:
        return base64.b64decode(request["body_base64"], validate=True)
    return request["body"].encode("utf-8")


def verdict(result):
    """The answer fields for what the library returned; anything but a bool is an error."""
    if result is True:
        return {"answer": "allowed"}
    if result is False:
        return {"answer": "disallowed"}
    return {"answer": "error", "message": f"the library returned {result!r}, not a bool"}


def describe(error):
    """One line naming an exception and its message."""
    return f"{type(error).__name__}: {error}"[:2000]


def write(message):
    """Writes one message as one ASCII line and flushes it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def text(body):
    """The body as text for libraries that take str: UTF-8, invalid octets become U+FFFD, a
    byte-order mark is kept (the library sees U+FEFF)."""
    return body.decode("utf-8", errors="replace")


def installed_version(distribution):
    """The installed version of a PyPI distribution, read from its metadata."""
    return importlib.metadata.version(distribution)


def pypi_source(distribution, pinned, sha256):
    """Where the library came from: the PyPI pin and the hash of the file requirements.txt allows,
    or a warning when the installed version is not the pinned one."""
    version = installed_version(distribution)
    if version != pinned:
        return f"PyPI {distribution}=={version} (NOT the pinned {pinned})"
    return f"PyPI {distribution}=={version} (sha256:{sha256}, pinned in requirements.txt)"


# RFC 3986 appendix B: the generic split of a URI reference into its five parts.
URI_PARTS = re.compile(r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.S)


def path_and_query(url):
    """The path (`/` when empty, RFC 9309 2.2.2's "/" for an empty path) and query of an absolute
    URL (RFC 3986 appendix B split, no normalisation, fragment dropped): what a path-taking
    library is given (the handshake's `url` is `path-and-query`), as the Rust and Go adapters'
    `path_and_query` does."""
    parts = URI_PARTS.match(url)
    path, query = parts.group(3) or "/", parts.group(4)
    return path if query is None else f"{path}?{query}"
