"""The schema of config.toml: every section and key pbem reads, checked when a home is loaded.

A typo must stop pbem with a message naming the key, its section and the file — a
silently ignored ``[smtp] hostname`` once made `pbem tick` report mail as sent while it
went to the local outbox.  So every model forbids unknown keys, values are checked for
type and range, and files the config names must exist (``check_files``).

The code elsewhere still reads plain dicts through ``Home.section(name)``; the defaults
here fill in what the file leaves out.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

ADDRESS = re.compile(r"^[^@\s<>\"(),;:]+@[^@\s<>\"(),;:]+\.?[^@\s<>\"(),;:]*$")
MASK = "********"
SECRETS = frozenset({"password"})


class ConfigError(Exception):
    """config.toml breaks the schema; the message names each offending key."""


def _address(value: str, what: str) -> str:
    if not ADDRESS.match(value):
        raise ValueError(f"{value!r} is not a mail address like {what}@example.org")
    return value


def _home_file(info: ValidationInfo, name: str) -> None:
    """A file named relative to the home must exist (when the home is known and files are checked)."""
    ctx = info.context or {}
    home = ctx.get("home")
    if name and home is not None and ctx.get("check_files", True) and not (Path(home) / name).is_file():
        raise ValueError(f"file {name!r} does not exist in {home}")


class Section(BaseModel):
    # strict: TOML has real types, so "587" (a string) for a port is a mistake worth naming
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ServerSection(Section):
    address: str = "pbem@localhost"
    name: str = Field("pbem", min_length=1)
    max_message_bytes: int = Field(1 << 20, ge=1024)
    gm: str = ""
    gm_key: str = ""
    #: the GM's time zone: `pbem games` and `gm journal` show times in it
    tz: str = "UTC"
    #: the language of players who chose none (pbem.i18n: en, ru, pl); each seat may choose its own
    lang: str = "en"

    @field_validator("lang")
    @classmethod
    def _check_lang(cls, v: str) -> str:
        from pbem.i18n import check_lang

        return check_lang(v)

    @field_validator("tz")
    @classmethod
    def _check_tz(cls, v: str) -> str:
        from pbem.schedule import check_zone

        check_zone(v)
        return v

    @field_validator("address")
    @classmethod
    def _check_address(cls, v: str) -> str:
        return _address(v, "pbem")

    @field_validator("gm")
    @classmethod
    def _check_gm(cls, v: str) -> str:
        return _address(v, "gm") if v else v

    @field_validator("gm_key")
    @classmethod
    def _check_gm_key(cls, v: str, info: ValidationInfo) -> str:
        """A file in the home holding the key, or the key line itself (as Server.gm_key reads it)."""
        ctx = info.context or {}
        home, check = ctx.get("home"), ctx.get("check_files", True)
        if not v:
            return v
        if home is not None and (Path(home) / v).is_file():
            _public_key((Path(home) / v).read_text(), f"file {v!r}")
        elif " " in v.strip():
            _public_key(v, "the key line")
        elif home is not None and check:
            raise ValueError(f"file {v!r} does not exist in {home} (nor is it a public key line)")
        return v


def _public_key(text: str, what: str) -> None:
    from pbem.crypto import sshsig

    try:
        sshsig.PublicKey.parse(text)
    except Exception as exc:
        raise ValueError(f"{what} is not an OpenSSH public key: {exc}") from None


class DatabaseSection(Section):
    url: str = "sqlite:///{home}/pbem.db"

    @field_validator("url")
    @classmethod
    def _check_url(cls, v: str) -> str:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            make_url(v.replace("{home}", "home"))
        except ArgumentError:
            raise ValueError(f"{v!r} is not a database URL like sqlite:///{{home}}/pbem.db "
                             "or postgresql://user@host:5432/dbname") from None
        return v


class MailSection(Section):
    inbox: str = Field("inbox", min_length=1)
    outbox: str = Field("outbox", min_length=1)


class ScheduleSection(Section):
    """Defaults for new games (`pbem game new` and its --set override them per game)."""

    hours: float = Field(48.0, gt=0)
    interrupt_hours: float = Field(12.0, gt=0)
    min_hours: float = Field(12.0, ge=0)
    grace_hours: float = Field(0.0, ge=0)
    remind_hours: float = Field(12.0, ge=0)
    max_missing: int = Field(1, ge=0)
    vacation_hours: float = Field(72.0, ge=0)


class _Login(Section):
    """What SMTP and IMAP share: a password given once, files that exist."""

    @field_validator("password_file", "cafile", check_fields=False)
    @classmethod
    def _exists(cls, v: str, info: ValidationInfo) -> str:
        _home_file(info, v)
        return v

    @model_validator(mode="after")
    def _one_password(self):
        # each subclass declares the two keys, in the order its error messages list its keys
        if getattr(self, "password", "") and getattr(self, "password_file", ""):
            raise ValueError("set password or password_file, not both")
        return self


class SmtpSection(_Login):
    """Outgoing mail; without ``host`` it goes to the [mail] outbox Maildir."""

    host: str = ""
    port: int = Field(587, ge=1, le=65535)
    starttls: bool = True
    tls: bool = False  # implicit TLS (port 465)
    username: str = ""
    password: str = ""
    password_file: str = ""
    cafile: str = ""
    confirm_by_copy: bool = True


class ImapSection(_Login):
    """Incoming mail from a mailbox; without ``host`` only the [mail] inbox Maildir is read."""

    host: str = ""
    port: int | None = Field(None, ge=1, le=65535)  # 993 with tls, else 143
    tls: bool = True
    starttls: bool = False
    username: str = ""
    password: str = ""
    password_file: str = ""
    cafile: str = ""
    mailbox: str = Field("INBOX", min_length=1)
    processed: str = "pbem-processed"


class LmtpSection(Section):
    listen: str = ""

    @field_validator("listen")
    @classmethod
    def _check_listen(cls, v: str) -> str:
        if not v or (v.startswith("unix:") and len(v) > 5):
            return v
        host, sep, port = v.rpartition(":")
        if not sep or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError(f"{v!r} is neither host:port (e.g. 127.0.0.1:2424) nor unix:/path")
        return v


class WebSection(Section):
    """`pbem web`: the read-only pages beside the mail; sitreps carry a seat's link only when ``url`` is set."""

    #: the public base URL players reach (behind the reverse proxy), e.g. https://pbem.example.org
    url: str = ""
    listen: str = "127.0.0.1:8080"
    #: how long the link in a sitrep opens the seat's pages
    link_days: float = Field(30.0, gt=0)
    #: how long the cookie a link is exchanged for lasts (a new visit by the link makes a new one)
    cookie_minutes: float = Field(60.0, gt=0)
    #: a running game's turns become public this many turns behind the current one (0: only after the end)
    archive_delay_turns: int = Field(0, ge=0)
    #: requests per minute from one address before 429
    rate_per_minute: int = Field(120, ge=1)

    @field_validator("url")
    @classmethod
    def _check_url(cls, v: str) -> str:
        if v and not re.match(r"^https?://[^/\s]+(/[^\s]*)?$", v):
            raise ValueError(f"{v!r} is not a base URL like https://pbem.example.org")
        return v.rstrip("/")

    @field_validator("listen")
    @classmethod
    def _check_listen(cls, v: str) -> str:
        host, sep, port = v.rpartition(":")
        if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError(f"{v!r} is not host:port (e.g. 127.0.0.1:8080)")
        return v


class NoticesSection(Section):
    """How players hear of their games beside the per-phase sitrep (pbem.notices); each player chooses with
    ``PROFILE pref notices phase|digest``, ``pref digest_hour``, ``pref alarm``, ``pref webhook``."""

    #: the club's own hook: every seat's "your move" is posted there too ("" for none)
    webhook_url: str = ""
    webhook_format: str = "json"
    #: let hooks post to loopback and private addresses (a club server should not: players name the URLs)
    webhook_private: bool = False
    #: seconds before a post is given up as failed (and retried)
    webhook_timeout: float = Field(10.0, gt=0)
    #: tries before a post fails for good; waits 1, 4, 16, 64 … minutes between them
    webhook_attempts: int = Field(6, ge=1)
    #: the local hour a digest goes when the player names none
    digest_hour: int = Field(7, ge=0, le=23)

    @field_validator("webhook_url")
    @classmethod
    def _check_url(cls, v: str) -> str:
        if v and not re.match(r"^https?://[^/\s]+(/[^\s]*)?$", v):
            raise ValueError(f"{v!r} is not an http(s) URL")
        return v

    @field_validator("webhook_format")
    @classmethod
    def _check_format(cls, v: str) -> str:
        if v not in ("discord", "slack", "matrix", "json"):
            raise ValueError(f"{v!r}: a hook's format is discord, slack, matrix or json")
        return v


class Config(Section):
    server: ServerSection = ServerSection()
    database: DatabaseSection = DatabaseSection()
    mail: MailSection = MailSection()
    schedule: ScheduleSection = ScheduleSection()
    smtp: SmtpSection = SmtpSection()
    imap: ImapSection = ImapSection()
    lmtp: LmtpSection = LmtpSection()
    web: WebSection = WebSection()
    notices: NoticesSection = NoticesSection()


# every field of Config is a section (its annotation a Section subclass), which pydantic's types cannot say
SECTIONS: dict[str, type[Section]] = {name: cast("type[Section]", f.annotation)
                                      for name, f in Config.model_fields.items()}


def validate(raw: dict[str, Any], source: str | Path, home: Path | None = None, *,
             check_files: bool = True) -> Config:
    """Check a parsed config.toml; raise ConfigError with one line per problem."""
    try:
        return Config.model_validate(raw, context={"home": home, "check_files": check_files})
    except ValidationError as exc:
        problems = [_explain(err) for err in exc.errors()]
        raise ConfigError(f"{source} is not valid:\n" + "\n".join(f"  {p}" for p in problems)) from None


def _suggest(name: str, known, form: str = "{}") -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {form.format(close[0])}?)" if close else ""


def _explain(err) -> str:
    loc = [str(x) for x in err["loc"]]
    if err["type"] == "extra_forbidden":
        if len(loc) == 1:
            return f"unknown section [{loc[0]}]{_suggest(loc[0], SECTIONS, '[{}]')}; known: {', '.join(SECTIONS)}"
        section, key = loc[0], loc[-1]
        known = SECTIONS[section].model_fields
        return f"[{section}] unknown key {key!r}{_suggest(key, known)}; known: {', '.join(known)}"
    msg = err["msg"].removeprefix("Value error, ")
    if len(loc) == 1:
        return f"[{loc[0]}] {msg}"
    where = f"[{loc[0]}] {'.'.join(loc[1:])}"
    if loc[-1] in SECRETS:
        return f"{where}: {msg}"
    return f"{where} = {err['input']!r}: {msg}"


def defaults(section: str) -> dict[str, Any]:
    """The section's keys with their defaults (keys without one, such as IMAP's port, left out)."""
    model = SECTIONS.get(section)
    return model().model_dump(exclude_none=True) if model else {}


# ---------------------------------------------------------------------------- reporting

def mask_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: the schema says so elsewhere
        return url


def effective(home) -> list[str]:
    """The settings in force, as TOML lines, secrets masked."""
    lines = []
    for name in SECTIONS:
        lines.append(f"[{name}]")
        for key, value in home.section(name).items():
            if key in SECRETS and value:
                value = MASK
            elif (name, key) == ("database", "url"):
                value = mask_url(value)
            lines.append(f"{key} = {_toml(value)}")
        lines.append("")
    return lines


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def transports(home) -> dict[str, str]:
    """Where mail comes from and goes to, and who hears of held games: what is live with this config."""
    imap = home.section("imap")
    smtp = home.section("smtp")
    lmtp = home.section("lmtp")
    inbox = [f"Maildir {home.inbox}"]
    if imap.get("host"):
        port = imap.get("port", 993 if imap.get("tls", True) else 143)
        who = f"{imap['username']}@" if imap.get("username") else ""
        inbox.append(f"IMAP {who}{imap['host']}:{port} ({_tls_mode(imap)}), mailbox {imap.get('mailbox', 'INBOX')}")
    if lmtp.get("listen"):
        inbox.append(f"LMTP listening on {lmtp['listen']} (daemon)")
    if smtp.get("host"):
        copy = ", confirmed by a copy to the game address" if smtp.get("confirm_by_copy", True) else ""
        outbox = f"SMTP {smtp['host']}:{smtp.get('port', 587)} ({_tls_mode(smtp)}){copy}"
    else:
        outbox = f"Maildir {home.outbox} (nothing is sent by SMTP: [smtp] host is not set)"
    gm = home.section("server").get("gm", "")
    return {"inbox": "; ".join(inbox), "outbox": outbox,
            "gm notices": f"to {gm}" if gm else "nobody: set [server] gm"}


def _tls_mode(cfg: dict[str, Any]) -> str:
    if cfg.get("tls"):
        return "TLS"
    return "STARTTLS" if cfg.get("starttls") else "no TLS"


NO_GM = ("no GM address: held games, circuit-breaker trips and bounces reach nobody; "
         "set [server] gm in %s")
