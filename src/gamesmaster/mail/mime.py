"""Reading a mail as a player sends it: the text to obey, and what was left out and why.

The text is the first plain-text part (or, in HTML-only mail, the text of the HTML),
decoded from whatever charset and transfer encoding it says (and if it lies, read as
UTF-8 or Latin-1 with a note). Quoted replies ('>' lines, "On ... wrote:", Outlook's
"Original Message" and the HTML quote blocks) and the signature (after a '-- ' line)
are not read; attachments are listed but not read. A message whose MIME structure is
broken is read for whatever text it has. Nothing here raises on bad input.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from email import policy
from email.message import Message
from email.parser import BytesParser
from datetime import datetime, timezone
from email.utils import getaddresses, parseaddr, parsedate_to_datetime
from html.parser import HTMLParser
from typing import Iterable

from . import headers

_ATTRIBUTION = re.compile(r"^\s*(on\b.{0,300}\bwrote|le\b.{0,300}\ba écrit|am\b.{0,300}\bschrieb|.{0,200}\b(wrote|schrieb|a écrit|escribió|ha scritto))\s*:\s*$",
                          re.IGNORECASE)
_STOP = re.compile(r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|message d'origine)\s*-{2,}"
                   r"|_{20,}|-----\s*reply message\s*-----)\s*$", re.IGNORECASE)
_OUTLOOK_HEADER = re.compile(r"^\s*(from|de|von)\s*:\s*.+$", re.IGNORECASE)


@dataclass
class Incoming:
    """A received mail as the gamesmaster reads it."""

    reply_to: str | None  # where the answer goes: Reply-To, else From, else the envelope sender
    from_address: str | None
    envelope_from: str | None
    recipients: list[str]
    subject: str
    message_id: str | None
    date: str | None
    text: str  # the text read
    notes: list[str] = field(default_factory=list)  # what was left out or guessed, for the answer
    no_reply: str | None = None  # why no answer may go (a bounce, an auto-reply), else None
    size: int = 0
    written_at: datetime | None = None  # the Date header, when it is a date with its zone
    answers: list[str] = field(default_factory=list)  # message ids of In-Reply-To and References
    references: tuple[str, ...] = ()  # the thread it answers (checked message ids), for the answer's References


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # noqa: BLE001 - a header too broken to parse counts as absent
        return ""
    if value is None:
        return ""
    try:
        return " ".join(str(value).split())
    except Exception:  # noqa: BLE001
        return ""


def _raw_header(msg: Message, name: str) -> str:
    """A header's value as written in the mail (not decoded), one line."""
    try:
        for key, value in msg.raw_items():
            if key.lower() == name.lower():
                return " ".join(str(value).split())
    except Exception:  # noqa: BLE001 - a header too broken to read counts as absent
        return ""
    return ""


def _subject(msg: Message, notes: list[str]) -> str:
    """The subject decoded, as one line; left out when it decodes to line breaks or control characters."""
    try:
        value = msg.get("Subject")
        decoded = str(value) if value is not None else ""
    except Exception:  # noqa: BLE001
        return ""
    if not headers.safe(decoded.replace("\t", " ")) and decoded.strip():
        notes.append("the subject held line breaks or control characters: it is not repeated")
        return ""
    return headers.subject(decoded)


def _address(text: str) -> str | None:
    if not text:
        return None
    try:
        pairs = getaddresses([text])
    except Exception:  # noqa: BLE001
        pairs = [parseaddr(text)]
    for _, addr in pairs:
        found = headers.address(addr)
        if found:
            return found
    return None


def _decode(payload: bytes, charset: str | None, notes: list[str]) -> str:
    charset = (charset or "us-ascii").strip().strip('"').lower()
    try:
        return payload.decode(charset)
    except LookupError:
        why = f"the mail says its charset is {charset!r}, which is unknown"
    except UnicodeDecodeError:
        why = f"the mail's text is not valid {charset}"
    for fallback in ("utf-8", "cp1252"):
        try:
            text = payload.decode(fallback)
        except UnicodeDecodeError:
            continue
        if charset not in ("us-ascii", "ascii"):
            notes.append(f"{why}: read as {fallback.upper() if fallback == 'utf-8' else 'Windows-1252'}")
        return text
    notes.append(f"{why}: read as Latin-1")
    return payload.decode("latin-1")


def _unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed: a line ending in a space goes on in the next line."""
    out: list[str] = []
    buf = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if line.endswith(" ") and line != "-- ":
            buf += line[:-1] if delsp else line
            continue
        out.append(buf + line)
        buf = ""
    if buf:
        out.append(buf)
    return "\n".join(out)


class _HTMLText(HTMLParser):
    """The text of an HTML mail, a line per block; quoted replies and scripts left out."""

    BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol",
             "section", "article", "header", "footer", "hr", "dt", "dd"}
    SKIP = {"script", "style", "head", "title", "template"}
    VOID = {"br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, hides its content)
        self.hidden = 0
        self.quoted = False

    def _hides(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        if tag in self.SKIP or tag == "blockquote":
            if tag == "blockquote":
                self.quoted = True
            return True
        a = {k.lower(): (v or "").lower() for k, v in attrs}
        marks = a.get("class", "") + " " + a.get("id", "")
        if any(m in marks for m in ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "divrplyfwdmsg", "appendonsend",
                                    "protonmail_quote", "gmail_signature", "moz-signature")):
            self.quoted = True
            return True
        return False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        tag = tag.lower()
        if tag in self.BLOCK:
            self.parts.append("\n")
        if tag in self.VOID:
            return
        hides = self._hides(tag, attrs)
        self.stack.append((tag, hides))
        if hides:
            self.hidden += 1

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        if tag in self.BLOCK:
            self.parts.append("\n")
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for _, hides in self.stack[i:]:
                    if hides:
                        self.hidden -= 1
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)

    def text(self) -> str:
        raw = "".join(self.parts).replace("\xa0", " ")
        lines = [" ".join(line.split()) for line in raw.split("\n")]
        return "\n".join(line for line in lines if line)  # block breaks, not blank lines


def html_to_text(markup: str) -> tuple[str, bool]:
    """The text of an HTML document, and whether quoted text was left out."""
    parser = _HTMLText()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # noqa: BLE001 - broken HTML: strip the tags the hard way
        return html.unescape(re.sub(r"<[^>]*>", "\n", markup)), False
    return parser.text(), parser.quoted


def _filename(part: Message) -> str | None:
    try:
        return part.get_filename()
    except Exception:  # noqa: BLE001
        return None


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.0f} kB"
    return f"{n} bytes"


def _payload(part: Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001
        data = None
    if isinstance(data, bytes):
        return data
    raw = part.get_payload()
    if isinstance(raw, str):
        return raw.encode("utf-8", "surrogateescape")
    return b""


def _part_text(part: Message, notes: list[str]) -> str:
    text = _decode(_payload(part), part.get_content_charset(), notes)
    params = {k.lower(): v.lower() for k, v in (part.get_params() or [])[1:]}
    if params.get("format") == "flowed":
        text = _unflow(text.replace("\r\n", "\n"), params.get("delsp") == "yes")
    return text


def _body(msg: Message, notes: list[str]) -> str:
    plain: Message | None = None
    html_part: Message | None = None
    parts: Iterable[Message] = msg.walk() if msg.is_multipart() else [msg]
    for part in parts:
        if part.is_multipart() or (part is msg and part.get_content_maintype() == "multipart"):
            continue
        ctype = part.get_content_type()
        disposition = (part.get_content_disposition() or "").lower()
        name = _filename(part)
        if ctype in ("text/plain", "text/html") and disposition != "attachment" and not name:
            if ctype == "text/plain" and plain is None:
                plain = part
            elif ctype == "text/html" and html_part is None:
                html_part = part
            continue  # else an alternative, or a second text part of the same mail
        size = len(_payload(part))
        what = f"the attachment '{name}'" if name else ("the mail's content" if part is msg else f"the {ctype} part")
        notes.append(f"{what} ({ctype}, {_size(size)}) was not read: commands and orders go in the text of the mail")
    if plain is not None:
        return _part_text(plain, notes)
    if html_part is not None:
        text, quoted = html_to_text(_part_text(html_part, notes))
        notes.append("the mail has no plain-text part: its HTML was read as text")
        if quoted:
            notes.append("the quoted reply in the HTML was not read")
        return text
    if msg.get_content_maintype() == "multipart" and not msg.is_multipart():
        return _broken_multipart(_decode(_payload(msg), msg.get_content_charset(), notes), notes)
    if not msg.is_multipart() and msg.get_content_maintype() == "text":
        return _part_text(msg, notes)
    return ""


def _broken_multipart(text: str, notes: list[str]) -> str:
    """A multipart mail whose boundary is missing or wrong: keep the lines that are not MIME furniture."""
    notes.append("the mail's MIME structure is broken (its parts cannot be told apart): its text was read as it stands")
    out = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if re.match(r"^--\S{6,}(--)?\s*$", line) or re.match(r"^content-[a-z-]+\s*:", line, re.I):
            continue
        if re.match(r"^mime-version\s*:", line, re.I):
            continue
        out.append(line)
    return "\n".join(out)


def strip_replies(text: str) -> tuple[str, list[str]]:
    """The player's own text: quoted lines, attributions, forwarded originals and the signature left out."""
    notes: list[str] = []
    out: list[str] = []
    quoted = 0
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in enumerate(lines):
        bare = line.strip()
        if line.rstrip("\n") in ("-- ", "--") or bare == "--":
            if any(x.strip() for x in lines[i + 1:]):
                notes.append("the signature (after the '-- ' line) was not read")
            break
        if _STOP.match(line):
            notes.append("the quoted original below your text was not read")
            break
        if bare.startswith(">"):
            quoted += 1
            continue
        if _ATTRIBUTION.match(line) and any(x.strip().startswith(">") for x in lines[i + 1:i + 4]):
            continue
        if _OUTLOOK_HEADER.match(line) and i + 1 < len(lines) and re.match(r"^\s*(sent|date|gesendet|envoyé)\s*:", lines[i + 1], re.I):
            notes.append("the quoted original below your text was not read")
            break
        out.append(line)
    if quoted:
        notes.append(f"{quoted} quoted line{'s' if quoted > 1 else ''} (beginning with '>') not read")
    return "\n".join(out), notes


def read_message(raw: bytes, envelope_from: str | None = None, recipients: Iterable[str] = ()) -> Incoming:
    """Read a mail: who it is from, where the answer goes, and the text to obey."""
    notes: list[str] = []
    try:
        msg = BytesParser(policy=policy.default).parsebytes(raw)
    except Exception:  # noqa: BLE001 - the parser itself gave up: read the bytes as text
        head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
        msg = None
        text = _decode(body, "utf-8", notes)
        notes.append("the mail could not be parsed as MIME: its text was read as it stands")
    # Addresses and the message id are read from the header as written: an encoded word is
    # no part of an address or a message id, and whoever writes one there is up to no good.
    from_address = _address(_raw_header(msg, "From")) if msg is not None else None
    reply_to = (_address(_raw_header(msg, "Reply-To")) if msg is not None else None) or from_address
    env = envelope_from if envelope_from not in ("", "<>") else None
    subject = _subject(msg, notes) if msg is not None else ""
    message_id = headers.message_id(_raw_header(msg, "Message-ID")) if msg is not None else None
    thread = (headers.references(_raw_header(msg, "References"), _raw_header(msg, "In-Reply-To"))
              if msg is not None else ())
    date = _header(msg, "Date") if msg is not None else ""
    if msg is not None:
        try:
            text = _body(msg, notes)
        except Exception as exc:  # noqa: BLE001 - a structure the library cannot walk
            notes.append(f"the mail's MIME structure could not be read ({type(exc).__name__}): its text was read as it stands")
            _, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
            text = _broken_multipart(_decode(body, "utf-8", []), [])
        if msg.defects and not any("MIME structure" in n for n in notes):
            kinds = sorted({type(d).__name__ for d in msg.defects})
            notes.append(f"the mail is not well-formed MIME ({', '.join(kinds)}); it was read as far as possible")
    text, more = strip_replies(text)
    notes.extend(more)
    no_reply = None
    if envelope_from in ("", "<>"):
        no_reply = "a delivery report (empty envelope sender)"
    elif msg is not None:
        auto = _header(msg, "Auto-Submitted").lower()
        precedence = _header(msg, "Precedence").lower()
        if auto and auto != "no":
            no_reply = f"an automatic mail (Auto-Submitted: {auto})"
        elif precedence in ("bulk", "junk", "list"):
            no_reply = f"a bulk mail (Precedence: {precedence})"
        elif (from_address or "").lower().startswith(("mailer-daemon@", "noreply@", "no-reply@")):
            no_reply = f"a mail from {from_address}"
    if reply_to is None and env is not None and "@" in env:
        reply_to = headers.address(env)
    answers = (headers.message_ids(_raw_header(msg, "In-Reply-To")) + headers.message_ids(_raw_header(msg, "References"))
               if msg is not None else [])
    return Incoming(reply_to=reply_to, from_address=from_address, envelope_from=env, recipients=list(recipients),
                    subject=subject, message_id=message_id or None, date=date or None, text=text, notes=notes,
                    no_reply=no_reply, size=len(raw), written_at=_date(date), answers=answers,
                    references=thread)


def _date(value: str | None) -> datetime | None:
    """A Date header as a UTC time; None when it is missing, unreadable or without a zone."""
    if not value:
        return None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return when.astimezone(timezone.utc)
