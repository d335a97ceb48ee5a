"""py-fast-robotstxt: fast-robotstxt (Python bindings to a C++20 fork of Google's parser),
speaking robotstxt-adapter/1."""

from robotstxt import RobotsMatcher, get_version
from robotstxt import robots as bindings

from robotstxt_adapter_protocol import installed_version, pypi_source, serve


def prepare(body):
    """Each check asks a fresh matcher. RobotsMatcher.is_allowed(text, agent, url) only encodes
    its str arguments as UTF-8 and calls the library's C function robots_allowed_by_robots; the
    adapter calls that function itself with the body's exact octets, so that a body that is not
    UTF-8 reaches the parser as it is (as py-jwm passes bytes to Google's C++)."""

    def check(agent, url):
        agent_octets, url_octets = agent.encode("utf-8"), url.encode("utf-8")
        with RobotsMatcher() as matcher:
            return bool(
                bindings._lib.robots_allowed_by_robots(
                    matcher._ptr,
                    body,
                    len(body),
                    agent_octets,
                    len(agent_octets),
                    url_octets,
                    len(url_octets),
                )
            )

    return check


serve(
    {
        "id": "py-fast-robotstxt",
        "library": "fast-robotstxt",
        "version": installed_version("fast-robotstxt"),
        "language": "Python over C++",
        "licence": "Apache-2.0",
        "source": (
            pypi_source(
                "fast-robotstxt",
                "1.1.0",
                "11a6c66b7c0b82263ead1fbc328631cf0a16a2fc8241307533368bc638d76260",
            )
            + f"; librobots {get_version()}"
        ),
        # README: "Python bindings for Google's robots.txt parser library - high-performance,
        # RFC 9309 compliant."
        "profile": "rfc9309",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "full",
        "notes": (
            "A fresh RobotsMatcher per check; its C function robots_allowed_by_robots(matcher, "
            "body, agent, url) is called with the body's exact octets (is_allowed() would encode a "
            "str as UTF-8 and call the same function). The library is nzrsky/robotstxt, a C++20 "
            "fork of Google's parser (module `robotstxt`, librobots.so in the wheel) with extra "
            "directives (crawl-delay, request-rate, content-signal); where it answers otherwise "
            "than google-cpp, the fork changed Google's behaviour."
        ),
    },
    prepare,
)
