"""py-jwm: jwm.robotstxt (Google's C++ robots.txt parser through pybind11), speaking
robotstxt-adapter/1."""

import importlib.metadata

from jwm.robotstxt.googlebot import RobotsMatcher

from robotstxt_adapter_protocol import installed_version, serve


def prepare(body):
    """Each check parses the body again: OneAgentAllowedByRobots takes body, agent and URL."""
    return lambda agent, url: RobotsMatcher().OneAgentAllowedByRobots(body, agent, url)


def wheel_tag():
    """The installed wheel's first tag (e.g. cp311-cp311-manylinux_2_17_x86_64)."""
    wheel = importlib.metadata.distribution("jwm.robotstxt").read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    return tags[0] if tags else "unknown tag"


serve(
    {
        "id": "py-jwm",
        "library": "jwm.robotstxt",
        "version": installed_version("jwm.robotstxt"),
        "language": "Python over C++",
        "licence": "MIT AND Apache-2.0",
        "source": (
            f"PyPI jwm.robotstxt=={installed_version('jwm.robotstxt')} (wheel {wheel_tag()}; "
            "sha256 pinned in requirements.txt)"
        ),
        # The bundled google/robotstxt documentation (googlebot module docstring): "Google doesn't
        # follow the standard strictly ... we err on the side of disallowing".
        "profile": "google",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "full",
        "notes": (
            "RobotsMatcher().OneAgentAllowedByRobots(body, agent, url), a fresh matcher per check. "
            "The body's exact octets are passed (pybind11 turns bytes into std::string), so NUL, "
            "invalid UTF-8 and a BOM reach Google's parser untouched. Wrapper MIT, bundled "
            "google/robotstxt Apache-2.0."
        ),
    },
    prepare,
)
