"""py-protego: Scrapy's Protego, speaking robotstxt-adapter/1."""

from protego import Protego

from robotstxt_adapter_protocol import pypi_source, installed_version, serve, text


def prepare(body):
    """Parses the body once; each check is a can_fetch call."""
    parser = Protego.parse(text(body))
    return lambda agent, url: parser.can_fetch(url, agent)


serve(
    {
        "id": "py-protego",
        "library": "protego",
        "version": installed_version("protego"),
        "language": "Python",
        "licence": "BSD-3-Clause",
        "source": pypi_source(
            "protego", "0.7.0", "944638aaee608f6c83fcad442695f3f9381a60be8d5007248f46b00f201fa5fc"
        ),
        # README: "It implements the parsing and URL matching rules of RFC 9309".
        "profile": "rfc9309",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "full",
        "notes": (
            "Protego.parse(text).can_fetch(url, agent): URL first, then agent. Text: the body "
            "decoded as UTF-8 with invalid octets replaced by U+FFFD; a BOM is kept. Fetching, "
            "HTTP status and size limits are left to the caller by design (README)."
        ),
    },
    prepare,
)
