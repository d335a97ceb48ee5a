"""py-fastrobots: fastrobots (a Rust core through PyO3), speaking robotstxt-adapter/1."""

import importlib.machinery
import importlib.util
import sys
import types

from robotstxt_adapter_protocol import installed_version, path_and_query, pypi_source, serve, text


def load_core():
    """The compiled module `fastrobots._core`, loaded without running the package's __init__,
    which imports httpx and click for its fetching client and command line: those are not
    installed (pip --no-deps), and no parsing goes through them."""
    spec = importlib.util.find_spec("fastrobots")
    package = types.ModuleType("fastrobots")
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules["fastrobots"] = package
    return importlib.import_module("fastrobots._core")


core = load_core()


def prepare(body):
    """Parses the body once per request; each check is an allowed(path, agent) call."""
    robots = core.Robots.parse(text(body))
    return lambda agent, url: robots.allowed(path_and_query(url), agent)


serve(
    {
        "id": "py-fastrobots",
        "library": "fastrobots",
        "version": installed_version("fastrobots"),
        "language": "Python over Rust",
        "licence": "MIT",
        "source": pypi_source(
            "fastrobots", "0.3.0", "7c7c2ba4eaf4f3a93c3df21bbad2bfa5b6fab345e6e612b8c1e8a2fc3c2c4b88"
        )
        + " (sdist built with maturin and the crates of its Cargo.lock)",
        # README: "RFC Compliant: Supports Allow, Disallow, Crawl-delay, Sitemap, wildcards"; its
        # wildcards are "as per Google's robots.txt specification". No RFC is named, so the claim
        # is read as RFC 9309, the only RFC about robots.txt.
        "profile": "rfc9309",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "path-and-query",
        "notes": (
            "Robots.parse(text).allowed(path, agent): path first, then agent; given the path and "
            "query (the stub calls the argument a path, e.g. \"/admin/users\"). Text: the body "
            "decoded as UTF-8 with invalid octets replaced by U+FFFD; a BOM is kept. The "
            "compiled module fastrobots._core is imported without the package's __init__ (which "
            "needs httpx for fetching, not installed)."
        ),
    },
    prepare,
)
