"""Rendering replies and sitreps with Jinja, from views only.

Templates never see a game state: the context is the seat's view, the
events and rolls it may see, and engine facts about the game (turn,
deadline, seed commitment).  A GM may override any template for one game
by putting a file of the same name in the game's template folder.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

import jinja2


@lru_cache(maxsize=64)
def environment(override_dir: str = "") -> jinja2.Environment:
    loaders: list[jinja2.BaseLoader] = []
    if override_dir:
        loaders.append(jinja2.FileSystemLoader(override_dir))
    loaders.append(jinja2.FileSystemLoader(str(resources.files("pbem.templates"))))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,  # a template that reaches for a missing field fails loudly
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=jinja2.select_autoescape(["html", "html.j2"]),
        # the shipped templates change only with pbem itself; a GM's override folder is re-read when edited
        auto_reload=bool(override_dir),
    )


def _pick(env: jinja2.Environment, ruleset: str, name: str) -> jinja2.Template:
    return env.select_template([f"{ruleset}/{name}", f"common/generic_{name}"])


def render_sitrep(ruleset: str, context: Mapping[str, Any], override_dir: str = "") -> tuple[str, str]:
    """Return (text, html) of a sitrep."""
    env = environment(override_dir)
    text = _pick(env, ruleset, "sitrep.txt.j2").render(**context)
    html = _pick(env, ruleset, "sitrep.html.j2").render(**context)
    return text, html


def render_reply(kind: str, context: Mapping[str, Any], override_dir: str = "") -> tuple[str, str]:
    """Return (text, html) of an acknowledgement (``ack``) or rejection (``reject``)."""
    env = environment(override_dir)
    return (env.get_template(f"common/{kind}.txt.j2").render(**context),
            env.get_template(f"common/{kind}.html.j2").render(**context))


def renderer_stamp() -> str:
    """What rendered a sitrep: the same game renders to the same bytes only under the same stamp."""
    from importlib.metadata import version

    return f"pbem {version('pbem')}, Jinja2 {version('jinja2')}, Pillow {version('pillow')}"

