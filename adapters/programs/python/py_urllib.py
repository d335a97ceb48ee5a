"""py-urllib: Python's standard-library urllib.robotparser, speaking robotstxt-adapter/1."""

import platform
import urllib.robotparser

from robotstxt_adapter_protocol import serve, text


def prepare(body):
    """Parses the body as RobotFileParser.read() would (decoded text, str.splitlines())."""
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(text(body).splitlines())  # parse() also marks the rules as freshly read.
    return lambda agent, url: parser.can_fetch(agent, url)


def has_rfc9309_rewrite():
    """Whether this CPython's robotparser is the RFC 9309 rewrite (in main since 2026-05-04 and in
    3.13 and 3.14 patch releases of 2026: longest match, Allow wins ties, `*` and `$`) rather than
    the legacy module (the first matching rule in file order, no wildcards). Told by what it
    does, not by its version number: under `Disallow: /` then `Allow: /a`, only the rewrite
    allows /a (the longer rule wins)."""
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(["User-agent: *", "Disallow: /", "Allow: /a"])
    return parser.can_fetch("ProbeBot", "http://example.com/a")


RUNTIME = f"{platform.python_implementation()} {platform.python_version()}"
BEHAVIOUR = (
    "the RFC 9309 rewrite of 2026 (longest match, Allow wins ties, `*` and `$`)"
    if has_rfc9309_rewrite()
    else "the legacy module, before the RFC 9309 rewrite of 2026 (the first matching rule in "
    "file order wins; no `*` or `$`)"
)

serve(
    {
        "id": "py-urllib",
        "library": "urllib.robotparser",
        "version": platform.python_version(),
        "language": "Python",
        "licence": "PSF-2.0",
        "source": f"{RUNTIME} standard library",
        # The module docstring: "implemented as specified in
        # http://www.robotstxt.org/norobots-rfc.txt" (the 1996 draft).
        "profile": "draft-1996",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "full",
        "notes": (
            "RobotFileParser().parse(lines) then can_fetch(agent, url): agent first, full URL "
            "(the library keeps its path, params and query). Lines: the body decoded as UTF-8 with "
            "invalid octets replaced by U+FFFD (read() would raise instead), split by "
            "str.splitlines() as read() does, so VT, FF, FS, GS, RS, NEL, U+2028 and U+2029 also "
            "end lines; a BOM is kept. The version is the Python version. HTTP status is only "
            "handled by read(), which fetches by itself, so no fetch outcomes. "
            f"Runtime: {RUNTIME}, whose robotparser is {BEHAVIOUR} (told by asking it, not by "
            "its version). The ledger is written for the legacy module of Debian 12's and the "
            "machines' Python 3.11; no CPython with the rewrite is installable from this "
            "project's registries (Debian 12 has 3.11 only; PyPI has no CPython)."
        ),
    },
    prepare,
)
