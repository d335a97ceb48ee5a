"""py-rerp: robotexclusionrulesparser, speaking robotstxt-adapter/1."""

from robotexclusionrulesparser import RobotExclusionRulesParser

from robotstxt_adapter_protocol import pypi_source, installed_version, serve


def prepare(body):
    """Parses the body's octets once (the library decodes them); each check is is_allowed."""
    parser = RobotExclusionRulesParser()
    parser.parse(body)
    return lambda agent, url: parser.is_allowed(agent, url)


serve(
    {
        "id": "py-rerp",
        "library": "robotexclusionrulesparser",
        "version": installed_version("robotexclusionrulesparser"),
        "language": "Python",
        "licence": "BSD-3-Clause",
        "source": pypi_source(
            "robotexclusionrulesparser",
            "1.7.1",
            "d23aa14ae8145c13c95612d696736bad52a4bd0819ce8c9437ee745098fb8388",
        ),
        # Module docstring: follows MK1996 ("the 1996 robots.txt draft spec") plus GYM2008 (the
        # 2008 Google-Yahoo-Microsoft wildcard extensions), which is_allowed() applies by default.
        "profile": "draft-1996",
        "capabilities": {"fetch_status": False, "multiple_agents": False},
        "url": "full",
        "notes": (
            "RobotExclusionRulesParser().parse(octets) then is_allowed(agent, url): agent first; "
            "the library drops the URL's scheme and host itself. It is given the raw octets and "
            "decodes them as ISO-8859-1 itself (its fetch() default too), so every octet is kept. "
            "Syntax GYM2008 (the default): * and $ wildcards; first matching rule wins."
        ),
    },
    prepare,
)
