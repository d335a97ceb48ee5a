"""py-gpyrobotstxt: gpyrobotstxt (a pure-Python port of Google's C++ parser), speaking
robotstxt-adapter/1."""

from gpyrobotstxt.robots_cc import RobotsMatcher

from robotstxt_adapter_protocol import installed_version, pypi_source, serve


def prepare(body):
    """Each check parses the body again, as Google's OneAgentAllowedByRobots does; the library
    takes bytes (it encodes a str as UTF-8 itself), so the exact octets are passed."""
    return lambda agent, url: RobotsMatcher().one_agent_allowed_by_robots(body, agent, url)


serve(
    {
        "id": "py-gpyrobotstxt",
        "library": "gpyrobotstxt",
        "version": installed_version("gpyrobotstxt"),
        "language": "Python",
        "licence": "GPL-3.0-only",
        "source": pypi_source(
            "gpyrobotstxt", "1.0.0", "465076abe3e7de00a980850f1714d0a5276ccbad28244a8b9b5d4bce0d6e5c7d"
        ),
        # README: "a native Python port of Google's robots.txt parser and matcher C++ library",
        # "Preserves all behaviour of the original library".
        "profile": "google",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "full",
        "notes": (
            "RobotsMatcher().one_agent_allowed_by_robots(body, agent, url), a fresh matcher per "
            "check, as Google's C++ is called. The body's exact octets are passed (the library "
            "parses bytes), so NUL, invalid UTF-8 and a BOM reach it untouched. A port of "
            "google-cpp: every answer that differs from google-cpp's is the port's (see the "
            "fidelity test and the ledger). GPL-3.0: only ever run out of process."
        ),
    },
    prepare,
)
