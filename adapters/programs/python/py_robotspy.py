"""py-robotspy: robotspy's RobotsParser, speaking robotstxt-adapter/1."""

from robots import RobotsParser

from robotstxt_adapter_protocol import pypi_source, installed_version, serve, text


def prepare(body):
    """Parses the body once; each check is a can_fetch call."""
    parser = RobotsParser.from_string(text(body))
    return lambda agent, url: parser.can_fetch(agent, url)


serve(
    {
        "id": "py-robotspy",
        "library": "robotspy",
        "version": installed_version("robotspy"),
        "language": "Python",
        "licence": "MIT",
        "source": pypi_source(
            "robotspy", "0.13.0", "d65689eb3650d74fd9741bc18e127d9e99c8866b264fdd15b2d93dd865af60f8"
        ),
        # README: "It (mostly) follows the specs from the RFC 9309 - Robots Exclusion Protocol".
        "profile": "rfc9309",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "full",
        "notes": (
            "RobotsParser.from_string(text).can_fetch(agent, url): agent first, full URL. Text: "
            "the body decoded as UTF-8 with invalid octets replaced by U+FFFD; a BOM is kept. "
            "from_string splits lines at LF only. Its own fetcher (from_uri) differs: it strips a "
            "BOM and allows everything once a line is not UTF-8."
        ),
    },
    prepare,
)
