"""py-urllib: Python's standard-library urllib.robotparser, speaking robotstxt-adapter/1."""

import platform
import urllib.robotparser

from robotstxt_adapter_protocol import serve, text


def prepare(body):
    """Parses the body as RobotFileParser.read() would (decoded text, str.splitlines())."""
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(text(body).splitlines())  # parse() also marks the rules as freshly read.
    return lambda agent, url: parser.can_fetch(agent, url)


serve(
    {
        "id": "py-urllib",
        "library": "urllib.robotparser",
        "version": platform.python_version(),
        "language": "Python",
        "licence": "PSF-2.0",
        "source": f"CPython {platform.python_version()} standard library",
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
            "handled by read(), which fetches by itself, so no fetch outcomes."
        ),
    },
    prepare,
)
