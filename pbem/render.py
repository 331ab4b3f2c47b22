"""Rendering replies and sitreps with Jinja, from views only.

Templates never see a game state: the context is the seat's view, the
events and rolls it may see, and engine facts about the game (turn,
deadline, seed commitment).  A GM may override any template for one game
by putting a file of the same name in the game's template folder.

Every template renders in Jinja's sandbox: a GM's override is text from
outside pbem, and in a plain environment ``{{ cycler.__init__.__globals__.os }}``
reaches the whole process.  The sandbox changes no output of a template that
keeps to the context (the shipped ones render byte for byte the same).
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

import jinja2
from jinja2.ext import InternationalizationExtension
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from pbem.core.errors import PbemError
from pbem.core.texts import Text
from pbem.i18n import SOURCE, render, translations

#: The most items a template may make with ``*`` (a string or list repeated), and the largest power.
MAX_REPEAT = 1_000_000
MAX_EXPONENT = 256


class RenderError(PbemError):
    """A template could not be rendered (a GM's override broke, or tried to leave the sandbox)."""


class Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, plus a guard on ``*`` and ``**`` (``'x' * 10**9`` would take the memory)."""

    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(right, int) and abs(right) > MAX_EXPONENT:
            raise SecurityError(f"a power above {MAX_EXPONENT} is not allowed in a template")
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(count, int) \
                        and len(seq) * count > MAX_REPEAT:
                    raise SecurityError(f"a template may not make more than {MAX_REPEAT:,} items "
                                                       "by repetition")
        return super().call_binop(context, operator, left, right)


class I18n(InternationalizationExtension):
    """Jinja's i18n extension, English (the messages themselves) until a language's catalog is installed,
    with new-style gettext: ``_("Game %(id)s", id=game.id)`` formats, and escapes its values in HTML."""

    def __init__(self, environment: jinja2.Environment) -> None:
        super().__init__(environment)
        environment.install_gettext_translations(translations(SOURCE), newstyle=True)  # type: ignore[attr-defined]


#: How every template is read; a test builds a plain environment with the same options to compare.
OPTIONS: dict[str, Any] = dict(
    extensions=[I18n],
    undefined=jinja2.StrictUndefined,  # a template that reaches for a missing field fails loudly
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    autoescape=jinja2.select_autoescape(["html", "html.j2"]),
)


def loader(override_dir: str = "") -> jinja2.BaseLoader:
    loaders: list[jinja2.BaseLoader] = []
    if override_dir:
        loaders.append(jinja2.FileSystemLoader(override_dir))
    loaders.append(jinja2.FileSystemLoader(str(resources.files("pbem.templates"))))
    return jinja2.ChoiceLoader(loaders)


@lru_cache(maxsize=64)
def environment(override_dir: str = "", lang: str = "en") -> jinja2.Environment:
    """The sandbox for one override folder and one language: ``_``, ``gettext``, ``ngettext`` and
    ``{% trans %}`` use that language's catalog (pbem.i18n); English renders the messages themselves."""
    env = Sandbox(
        loader=loader(override_dir),
        # a rule text (pbem.core.texts.Text) in a view prints in the reader's language; anything else as it is
        finalize=lambda value: render(value.msg, lang) if isinstance(value, Text) else value,
        # the shipped templates change only with pbem itself; a GM's override folder is re-read when edited
        auto_reload=bool(override_dir),
        **OPTIONS,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    for name in ("_", "gettext", "ngettext"):  # a rule text given as a message's argument is written in lang too
        env.globals[name] = _local_args(env.globals[name], lang)
    env.globals["lang"] = lang
    env.filters["tr"] = lambda value: render(value.msg, lang) if isinstance(value, Text) else value
    return env


def _local_args(fn: Any, lang: str) -> Any:
    """Jinja's new-style ``gettext``/``ngettext``, with every :class:`Text` argument written in ``lang``."""
    @jinja2.pass_context
    def call(context: Any, *args: Any, **variables: Any) -> Any:
        return fn(context, *args, **{k: render(v.msg, lang) if isinstance(v, Text) else v
                                      for k, v in variables.items()})
    return call


def _pick(env: jinja2.Environment, ruleset: str, name: str) -> jinja2.Template:
    return env.select_template([f"{ruleset}/{name}", f"common/generic_{name}"])


def _render(pick, context: Mapping[str, Any]) -> str:
    """Render one template; whatever goes wrong in it becomes a :class:`RenderError` naming it."""
    name = "?"
    try:
        template = pick()
        name = template.name or "?"
        return template.render(**context)
    except Exception as exc:  # a template is text from outside pbem: any failure is the template's
        raise RenderError(f"template {name} failed: {exc.__class__.__name__}: {exc}"[:1000]) from exc


def render_sitrep(ruleset: str, context: Mapping[str, Any], override_dir: str = "", lang: str = SOURCE
                  ) -> tuple[str, str]:
    """Return (text, html) of a sitrep, in the reader's language."""
    env = environment(override_dir, lang)
    text = _render(lambda: _pick(env, ruleset, "sitrep.txt.j2"), context)
    html = _render(lambda: _pick(env, ruleset, "sitrep.html.j2"), context)
    return text, html


def render_reply(kind: str, context: Mapping[str, Any], override_dir: str = "", lang: str = SOURCE
                 ) -> tuple[str, str]:
    """Return (text, html) of an acknowledgement (``ack``) or rejection (``reject``), in the reader's language."""
    env = environment(override_dir, lang)
    return (_render(lambda: env.get_template(f"common/{kind}.txt.j2"), context),
            _render(lambda: env.get_template(f"common/{kind}.html.j2"), context))


def renderer_stamp() -> str:
    """What rendered a sitrep: the same game renders to the same bytes only under the same stamp."""
    from importlib.metadata import version

    return f"pbem {version('pbem')}, Jinja2 {version('jinja2')}, Pillow {version('pillow')}"


#: how a stamp names the language a sitrep was written in (English: not named, as before languages)
LANG_MARK = ", lang "


def stamp_with_lang(stamp: str, lang: str) -> str:
    """The renderer stamp of a sitrep in ``lang``: replay reads the language back from it."""
    return stamp if lang == SOURCE else f"{stamp}{LANG_MARK}{lang}"


def stamp_lang(stamp: str) -> tuple[str, str]:
    """(renderer, language) of a stored stamp."""
    base, mark, lang = (stamp or "").rpartition(LANG_MARK)
    return (base, lang) if mark else (stamp, SOURCE)
