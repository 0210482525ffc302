"""The gamesmaster's console commands: new, games, status, orders, process, ... verify, export, import.

Each handler calls the same `Gamesmaster` methods the web site and e-mail will call.
The database is --db URL, else $GAMESMASTER_DATABASE_URL, else a SQLite file in the
data directory ($GAMESMASTER_DATA or ~/.local/share/gamesmaster).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Sequence, TextIO

from ..gm import (LABELS, Document, Gamesmaster, GMError, LiveConfig, Refused, RuleSpec, Settings,
                  StoreError, describe_import, end_setting, export_game, export_saved_game, import_game, import_sample,
                  import_saved_game, is_saved_game, parse_duration, parse_movement, parse_time, plain, read_document,
                  report_correction, report_final, report_games, report_history, report_processed, report_status,
                  report_submission, report_undelivered, report_verify, run_worker, verify_archive)
from ..config import Config, ConfigError
from .options import CommandError, Subcommands, add_command, database_parent


def _gm(args: argparse.Namespace) -> Gamesmaster:
    try:
        return Gamesmaster.open(args.db, config=Config.from_environ())  # the settings, read once for the command
    except (StoreError, ConfigError) as exc:
        raise CommandError(str(exc)) from None


def _handler(body: Callable[[argparse.Namespace, TextIO, Gamesmaster], int]) -> Callable[[argparse.Namespace, TextIO], int]:
    def handle(args: argparse.Namespace, out: TextIO) -> int:
        gm = _gm(args)
        try:
            return body(args, out, gm)
        except Refused as exc:
            raise CommandError(f"{exc}" + (f" (recorded as ledger entry {exc.seq})" if exc.seq else "")) from None
        except (GMError, StoreError) as exc:
            raise CommandError(str(exc)) from None
        finally:
            gm.close()
    handle.__doc__ = body.__doc__
    return handle


def _read(path: str | None) -> str:
    if path in (None, "-"):
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _document(path: str | None) -> Document:
    """A JSON document from a file (or stdin), read within the bounds of gm.archive.read_document."""
    what = "the standard input" if path in (None, "-") else str(path)
    try:
        if path in (None, "-"):
            return read_document(sys.stdin.buffer, what)
        with open(path, "rb") as f:
            return read_document(f, what)
    except GMError as exc:
        raise CommandError(str(exc)) from None


def _names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def _pairs(text: str | None, what: str) -> dict[str, str]:
    out = {}
    for item in _names(text):
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise CommandError(f"{what}: write NAME=VALUE, comma-separated (got {item!r})")
        out[name.strip()] = value.strip()
    return out


def _commands(powers: Sequence[str]) -> str:
    """The powers a player commands, as the set-up names them: 'England', 'Austria/France'."""
    return "/".join(p.capitalize() for p in powers)


def _rule_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low.isdigit():
        return int(low)
    return text



def _tz(gm: Gamesmaster, game: str) -> str:
    return gm.games.game(game).settings.schedule.tz


# -- handlers ---------------------------------------------------------------------------


def cmd_new(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Create a game."""
    if getattr(args, "live", False) or getattr(args, "practice", False):
        return _new_live(args, out, gm)  # a live club game or a newcomers' practice game
    rules = RuleSpec(args.rules)
    if args.rule:
        rules = RuleSpec.named(args.rules or "2023", {k: _rule_value(v) for k, v in _pairs(",".join(args.rule), "--rule").items()})
    schedule: dict[str, Any] = {"tz": args.tz}
    try:
        if args.movement:
            schedule.update(parse_movement(args.movement))
        if args.min_gap:
            schedule["min_hours"] = parse_duration(args.min_gap)
        if args.retreats:
            schedule["retreat_hours"] = parse_duration(args.retreats)
        if args.adjustments:
            schedule["adjustment_hours"] = parse_duration(args.adjustments)
        given = {"press": args.press, "schedule": schedule, "replacement": args.replacement,
                 "grace_hours": parse_duration(args.grace) if args.grace else 0.0,
                 "early_movement": args.early_movement, "draw_vote": args.draw_vote, "votes": args.votes,
                 "end_year": args.end_year, "end_at": end_setting(args.end_at, args.tz) if args.end_at else None,
                 "daide_level": args.daide_level, "scoring": args.scoring,
                 "min_reliability": args.min_reliability, "min_games": args.min_games}
    except GMError as exc:
        raise CommandError(str(exc)) from None
    settings = Settings.from_dict(given)
    players, standbys = _names(args.players), _names(args.standby)
    assign = _pairs(args.assign, "--assign") if args.assign else None
    created = gm.setup.create_game(args.game, title=args.title, variant=args.variant, rules=rules, settings=settings,
                             players=players, standbys=standbys, assign=assign, seed=args.seed,
                             start=not args.no_start)
    st = gm.games.game(args.game)
    out.write(f"Created {args.game}: {st.status}.\n")
    if created.seed is not None:
        out.write(f"Powers drawn by lot, seed {created.seed} (on the record).\n")
    elif created.powers:
        out.write("Powers assigned by the gamesmaster.\n")
    if created.credentials:
        out.write("Credentials (shown this once; give each player theirs):\n")
        for name, secret in created.credentials.items():
            powers = created.commands.get(name)
            role = _commands(powers) if powers else ("stand-by" if name in standbys else "player")
            out.write(f"  {name:20} {role:10} {secret}\n")
    out.write(report_status(st) + "\n")
    return 0


def cmd_join(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Sign a player (or a stand-by) up."""
    secret = gm.setup.join_game(args.game, args.name, standby=args.standby)
    out.write(f"{args.name} joins {args.game}{' as a stand-by' if args.standby else ''}. Credential (shown this once): {secret}\n")
    return 0


def cmd_start(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Draw lots (or assign the powers) and start."""
    created = gm.setup.assign_powers(args.game, _pairs(args.assign, "--assign")) if args.assign else gm.setup.draw_lots(args.game, args.seed)
    if created.seed is not None:
        out.write(f"Powers drawn by lot with seed {created.seed}:\n")
    for name, powers in created.commands.items():
        out.write(f"  {name:20} {_commands(powers)}\n")
    out.write(report_status(gm.games.game(args.game)) + "\n")
    return 0


def cmd_games(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """List the games."""
    out.write(report_games(gm.games.games()) + "\n")
    waiting = gm.questions.unanswered()
    if waiting:
        out.write("Questions waiting for an answer: " + ", ".join(f"{g} {n}" for g, n in waiting.items())
                  + " (gamesmaster question GAME)\n")
    trouble = report_undelivered(gm.mailroom.mail_trouble())
    if trouble:
        out.write(trouble + "\n")
    return 0


def cmd_status(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Show a game."""
    st = gm.games.game(args.game)
    if args.json:
        out.write(json.dumps(plain(st), indent=2, ensure_ascii=False) + "\n")
        return 0
    text = report_status(st)
    if st.result:
        text = text.replace(report_final(st), gm.games.final_report(args.game))
    out.write(text + "\n")
    return 0


def cmd_orders(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Enter, show or withdraw a power's orders."""
    who = {"credential": args.credential} if args.credential else {"by_gm": True}
    if args.show:
        rows = gm.orders.orders_on_record(args.game, args.power, **who)
        if not rows:
            out.write(f"No orders on record for {args.power.capitalize()}.\n")
        for r in rows:
            src = f"{r.author}, {r.channel}, entered by {r.entered_by}"
            out.write(f"Orders of {r.power.capitalize()} for {r.phase} ({src}), receipt {r.receipt}:\n")
            out.writelines(f"  {o}\n" for o in r.orders)
            if r.condition:
                out.write(f"  (conditional orders chosen by: {r.condition})\n")
            if r.conditional:
                out.write("".join(f"  {line}\n" for line in r.conditional.splitlines()))
        return 0
    if args.withdraw:
        seq = gm.orders.withdraw_orders(args.game, args.power, **who)
        out.write(f"Orders of {args.power.capitalize()} withdrawn" + (f" (ledger entry {seq}).\n" if seq else ".\n"))
        return 0
    if args.ready is not None:
        done = gm.orders.set_ready(args.game, args.power, args.ready, **who)
        out.write(f"{args.power.capitalize()} is {'ready' if args.ready else 'not ready'}.\n")
        for p in done:
            out.write(f"Every player is ready: {p} processed.\n")
        return 0
    channel = args.channel or ("console" if args.credential else "in-person")
    sub = gm.orders.submit_orders(args.game, args.power, _read(args.file), channel=channel, phase=args.phase, **who)
    out.write(report_submission(sub) + "\n")
    return 0


def cmd_process(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Adjudicate due phases."""
    done = gm.deadlines.process(args.game, force=args.now) if args.game else gm.deadlines.process_due()
    out.write(report_processed(done) + "\n")
    return 0


def cmd_worker(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Run the deadline worker (looping: with the webhook poster beside it, as `serve` runs them; --once: one
    pass, then the webhooks' posts it made are sent, so a worker run from cron posts the results it published)."""
    from ..serving.webhook import Poster, one_pass  # noqa: PLC0415 - cli -> serving, which starts background loops
    if args.once:
        run_worker(gm, interval=args.interval, once=True, out=out)
        while one_pass(gm):  # each pass sends what is due; one that sent nothing has nothing left it can send
            pass
        return 0
    poster = Poster(gm)
    poster.start()
    try:
        run_worker(gm, interval=args.interval, once=False, out=out)
    finally:
        poster.stop()
    return 0


def cmd_extend(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Extend the deadline."""
    if args.until:
        new = gm.deadlines.extend(args.game, until=parse_time(args.until, _tz(gm, args.game)), reason=args.reason or "")
    else:
        new = gm.deadlines.extend(args.game, hours=parse_duration(args.by), reason=args.reason or "")
    out.write(f"{args.game}: orders now due {gm.games.game(args.game).deadline_text} ({new.isoformat()}).\n")
    return 0


def cmd_pause(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Pause a game."""
    gm.deadlines.pause(args.game, reason=args.reason or "")
    out.write(f"{args.game} is paused.\n")
    return 0


def cmd_resume(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Resume a paused game."""
    until = parse_time(args.until, _tz(gm, args.game)) if args.until else None
    gm.deadlines.resume(args.game, until=until, reason=args.reason or "")
    out.write(f"{args.game} resumes: orders due {gm.games.game(args.game).deadline_text}.\n")
    return 0


def cmd_replace(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Put a new player on a power."""
    secret = gm.players.replace_player(args.game, args.power, args.name, reason=args.reason or "")
    out.write(f"{args.name} now plays {args.power.capitalize()} in {args.game}. Credential (shown this once): {secret}\n")
    return 0


def cmd_credential(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Give a player a new credential."""
    secret = gm.players.new_credential(args.game, args.who, reason=args.reason or "")
    out.write(f"A new credential for {args.who} in {args.game} (shown this once; the old one no longer works): "
              f"{secret}\n")
    return 0


def cmd_correct(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Correct the last published phase."""
    orders = {power: _read(path) for power, path in (args.orders or [])}
    rules = None
    if args.rule:
        rules = gm.games.game(args.game).rules_spec.changed(
            {k: _rule_value(v) for k, v in _pairs(",".join(args.rule), "--rule").items()})
    c = gm.corrections.correct(args.game, args.reason, orders=orders or None, rules=rules, phase=args.phase)
    out.write(report_correction(c) + "\n")
    return 0


def cmd_press(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Send or read press."""
    if args.list:
        for p in gm.press.press(args.game, args.as_power):
            to = "all" if p.to is None else ", ".join(p.to)
            out.write(f"[{p.sent_at:%Y-%m-%d %H:%M}Z] {p.sender} to {to}: {p.text}\n")
        return 0
    if not args.text:
        raise CommandError("press needs a TEXT (or --list to read)")
    text = _read(None) if args.text == "-" else args.text
    pid = gm.press.post_press(args.game, text, power=args.sender, to=_names(args.to) or None, anonymous=args.anonymous,
                        by_gm=True)
    out.write(f"Press {pid} sent by {args.sender.capitalize() if args.sender else 'the gamesmaster'} "
              f"to {args.to or 'everyone'}.\n")
    return 0


def cmd_question(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Questions to the gamesmaster: list them, answer one, or enter one handed over in person."""
    if args.answer is not None:
        number, text = args.answer
        if not number.isdigit():
            raise CommandError(f"--answer N TEXT: N is the question's number, not {number!r}")
        gm.questions.answer_question(args.game, int(number), _read(None) if text == "-" else text, public=args.public)
        out.write(f"Question {number} answered {'for everyone' if args.public else 'to its asker'}.\n")
        return 0
    if args.ask is not None:
        text = _read(None) if args.ask == "-" else args.ask
        if not args.sender:
            raise CommandError("a question handed over needs --from POWER (or --answer N to answer one)")
        number = gm.questions.ask(args.game, text, power=args.sender, by_gm=True, channel="in-person")
        out.write(f"Question {number} from {args.sender.capitalize()} is on the record.\n")
        return 0
    rows = gm.questions.questions(args.game, args.sender)
    for q in rows:
        state = "answered" if q.answered else "NOT ANSWERED"
        out.write(f"Question {q.number} from {q.power.capitalize()} ({q.phase or '-'}, {q.asked_at:%Y-%m-%d %H:%M}Z, "
                  f"{state}):\n" + "".join(f"  > {line}\n" for line in q.text.splitlines()))
        for a in q.answers:
            out.write(f"  answered {'for everyone' if a.public else 'privately'} {a.at:%Y-%m-%d %H:%M}Z:\n"
                      + "".join(f"    {line}\n" for line in a.text.splitlines()))
    if not rows:
        out.write(f"No questions in {args.game}.\n")
    return 0


def cmd_draw(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Draws and concessions."""
    if args.declare:
        gm.press.declare_draw(args.game, powers=_names(args.powers) or None, reason=args.reason or "")
        out.write(report_status(gm.games.game(args.game)) + "\n")
        return 0
    if args.vote is not None:
        if not args.power or args.yes == args.no:
            raise CommandError("a vote needs --power POWER and one of --yes or --no")
        status = gm.press.vote(args.game, args.vote, args.yes, power=args.power, by_gm=True)
        out.write(f"{args.power.capitalize()} votes {'yes' if args.yes else 'no'} on proposal {args.vote}: {status}.\n")
        return 0
    if args.propose or args.concede_to:
        pid = gm.press.propose(args.game, kind="concession" if args.concede_to else "draw", powers=_names(args.powers) or None,
                         concede_to=args.concede_to, power=args.power, by_gm=True)
        out.write(f"Proposal {pid} is open.\n")
        return 0
    rows = gm.press.proposals(args.game)
    if not rows:
        out.write("No proposals.\n")
    for r in rows:
        votes = ", ".join(f"{p.capitalize()} {'yes' if v else 'no'}" for p, v in r.votes.items()) or "no votes"
        out.write(f"{r.id}: {r.kind} {', '.join(p.capitalize() for p in r.powers)} ({r.phase}, "
                  f"by {r.proposer}): {r.status}; {votes}\n")
    return 0


def cmd_history(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Show the record of a game."""
    h = gm.games.history(args.game)
    if args.json:
        out.write(json.dumps(plain(h), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(report_history(h, ledger=args.ledger) + "\n")
    return 0


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    """Verify a game's record (in the store, or a downloaded public record with --archive: no store needed)."""
    if args.archive:
        if args.game:
            raise CommandError("give either GAME (a game in the store) or --archive FILE, not both")
        doc = _document(args.archive)
        try:
            r = verify_archive(doc, receipts=args.receipt or (), heads=args.head or ())
        except GMError as exc:
            raise CommandError(f"{args.archive}: {exc}") from None
    else:
        if not args.game:
            raise CommandError("verify needs a GAME, or --archive FILE (a public record downloaded from the site)")
        gm = _gm(args)
        try:
            r = gm.record.verify(args.game, receipts=args.receipt or (), heads=args.head or ())
        except (GMError, StoreError) as exc:
            raise CommandError(str(exc)) from None
        finally:
            gm.close()
    out.write(report_verify(r) + "\n")
    return 0 if r.ok else 1


def cmd_rebuild(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Rewrite a game's tables from its ledger."""
    gm.desk.rebuild(args.game)
    r = gm.record.verify(args.game)
    out.write(f"{args.game}: the tables were written again from the ledger.\n" + report_verify(r) + "\n")
    return 0 if r.ok else 1


def cmd_export(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Write a game as one JSON archive (or its public record, with --public)."""
    doc: object  # three JSON documents of their own shapes, all written as they are
    if args.format == "saved-game":
        doc = export_saved_game(gm, args.game)
    else:
        doc = gm.record.archive(args.game) if args.public else export_game(gm, args.game)
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if args.file and args.file != "-":
        with open(args.file, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{args.game} exported to {args.file}", file=sys.stderr)
    else:
        out.write(text)
    return 0


def cmd_import(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Read a game from a JSON archive, or the rulebook's sample game."""
    if args.sample:
        game = import_sample(gm, args.as_id or "sample-1971")
        out.write(f"Imported the 1971 rulebook's sample game as {game} (paused at Spring 1903; "
                  f"gamesmaster resume {game} to play on).\n")
        return 0
    if not args.file:
        raise CommandError("import needs a FILE (an archive written by gamesmaster export, or a saved game) or --sample")
    doc = _document(args.file)
    if is_saved_game(doc):
        out.write(describe_import(import_saved_game(gm, doc, args.as_id, rules=args.rules)) + "\n")
        return 0
    source = doc.get("game") if isinstance(doc, dict) else None
    game = import_game(gm, doc, args.as_id, seated=True if args.seated else None)
    if game != source and not args.seated:
        out.write(f"Imported {source} as {game}, a new game with its seats empty: the original's credentials and "
                  f"the players' accounts do not act in it. Seat a player with: gamesmaster credential {game} NAME "
                  "(or import again with --seated to keep the original's seats).\n")
        return 0
    out.write(f"Imported {game}.\n")
    return 0


# -- the parsers ------------------------------------------------------------------------

def _new_live(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """`gamesmaster new GAME --live|--practice --players ... [--assign ...] [--minutes writing=5,...]`."""
    config: dict[str, Any] = {"practice": bool(args.practice)}
    for pair in (args.minutes or "").split(","):
        if pair.strip():
            key, eq, value = pair.partition("=")
            if not eq:
                raise GMError(f"--minutes {pair.strip()!r}: write PERIOD=MINUTES, e.g. writing=5")
            config[key.strip().replace("-", "_")] = value.strip()
    players = [" ".join(n.split()) for n in (args.players or "").split(",") if n.strip()]
    assign = None
    if args.assign:
        assign = {}
        for pair in args.assign.split(","):
            name, eq, power = pair.partition("=")
            if not eq:
                raise GMError(f"--assign {pair.strip()!r}: write NAME=POWER")
            assign[name.strip()] = power.strip()
        players = players or list(assign)
    created = gm.live.create(args.game, title=args.title, players=players, assign=assign, seed=args.seed,
                                   config=LiveConfig.from_dict(config), variant=args.variant, rules=args.rules,
                                   press=args.press)
    live = gm.live.get(args.game)
    assert live is not None  # create() has just made it live
    cfg, st = live
    kind = "practice game (no diplomacy; the powers nobody plays hold)" if cfg.practice else "live club game"
    out.write(f"Created {args.game}: a {kind}.\n")
    out.write(f"Periods: diplomacy {cfg.diplomacy_first:g} min first, {cfg.diplomacy:g} min later; writing "
              f"{cfg.writing:g} min; retreats {cfg.retreats:g} min; builds {cfg.adjustments:g} min.\n")
    out.write(f"Now: {LABELS[st.period]}, {st.left(gm.desk.now()) or 0:.0f} seconds left. "
              f"Table view: /games/{args.game}/table\n")
    if created.seed is not None:
        out.write(f"Powers drawn by lot, seed {created.seed} (on the record).\n")
    out.write("Credentials (shown this once; give each player theirs):\n")
    for name, secret in created.credentials.items():
        out.write(f"  {name:20} {_commands(created.commands.get(name, ())):10} {secret}\n")
    out.write(report_status(gm.games.game(args.game)) + "\n")
    return 0


def register(sub: Subcommands) -> None:
    """Add the GM's commands to the `gamesmaster` command line."""
    common = database_parent()

    def add(name: str, help_: str, example: str, func: Callable[..., int]) -> argparse.ArgumentParser:
        return add_command(sub, name, help_, example, _handler(func), [common])

    p = add("new", "create a game (with players: powers drawn by lot at once)",
            "  gamesmaster new club7 --players Ann,Bob,Cat,Dan,Eve,Fay,Gus --standby Sam,Tom \\\n"
            "      --replacement standby --tz Europe/London --movement 'tue,fri 22:00' --retreats 24h --press full\n"
            "  gamesmaster new short --players Ann,Bob --assign Ann=England,Bob=France --end-year 1905 --rules 1971",
            cmd_new)
    p.add_argument("game", metavar="GAME", help="the game's id (lowercase letters, digits, - and _)")
    p.add_argument("--title", help="the game's name as shown to players")
    p.add_argument("--players", metavar="NAMES", help="comma-separated player names")
    p.add_argument("--standby", metavar="NAMES", help="named stand-by players, first called first")
    p.add_argument("--assign", metavar="NAME=POWER,...", help="the GM assigns the powers (else drawn by lot)")
    p.add_argument("--seed", type=int, help="seed of the lot (default: a random one, recorded)")
    p.add_argument("--no-start", action="store_true", help="create only; sign players up with join, then start")
    p.add_argument("--variant", default="standard", help="the map (default standard)")
    p.add_argument("--rules", help="rule preset (2023, 1971; default: the variant's)")
    p.add_argument("--rule", action="append", metavar="OPTION=VALUE", help="override a rule option (repeatable)")
    p.add_argument("--press", default="full", choices=("none", "public", "full", "anonymous"), help="press allowed (default full)")
    p.add_argument("--tz", default="UTC", help="the GM's time zone for deadlines (default UTC)")
    p.add_argument("--movement", metavar="DAYS TIME|DURATION",
                   help="movement deadlines: move nights and time ('tue,fri 22:00') or a duration after results ('72h'; default)")
    p.add_argument("--min-gap", metavar="DURATION", help="least time from results to a move-night deadline (default 24h)")
    p.add_argument("--retreats", metavar="DURATION", help="retreats due this long after results (default 24h)")
    p.add_argument("--adjustments", metavar="DURATION", help="builds and removals due this long after results (default 24h)")
    p.add_argument("--grace", metavar="DURATION", help="NMR grace period: one extension of a movement deadline")
    p.add_argument("--replacement", default="preset", choices=("none", "standby", "successor", "gm"),
                   help="replacement policy: standby (Graustark/Erehwon), successor (Brobdingnag), gm (Armageddonia); "
                        "default: the rule preset's (a magazine's own), else none")
    p.add_argument("--early-movement", action="store_true", help="process movement early once every player is ready")
    p.add_argument("--draw-vote", default="unanimous", choices=("unanimous", "majority"), help="how draws pass")
    p.add_argument("--votes", default="secret", choices=("secret", "open"),
                   help="draw and concession votes: secret (only the outcome is published; default) or open")
    p.add_argument("--scoring", default="none", metavar="SYSTEM",
                   help="scoring system: none, dss, sos, carnage, c-diplo, manorcon, tribute (docs/scoring.md)")
    p.add_argument("--min-reliability", type=float, metavar="PERCENT",
                   help="an open game takes only players who ordered this share of their phases on time (docs/standings.md)")
    p.add_argument("--min-games", type=int, default=0, metavar="N",
                   help="an open game takes only players with N finished games")
    p.add_argument("--end-year", type=int, help="short game: after this year the player with the most pieces on the board wins")
    p.add_argument("--daide-level", type=int, metavar="LEVEL",
                   help="the press level DAIDE bots are told (0, 10 ... 160, 8000; default 8000, or 0 without press)")
    p.add_argument("--end-at", metavar="'YYYY-MM-DD HH:MM'",
                   help="short game by the clock (rulebook III): the game stops at that time (in --tz); "
                        "the player with the most pieces on the board then wins")
    p.add_argument("--live", action="store_true",
                   help="a live club game: periods in minutes at the table (see docs/live.md)")
    p.add_argument("--practice", action="store_true",
                   help="a newcomers' practice game: live, no diplomacy, the powers nobody plays hold")
    p.add_argument("--minutes", metavar="PERIOD=MIN,...",
                   help="live period lengths: diplomacy_first=30,diplomacy=15,writing=5,retreats=5,adjustments=5")

    p = add("join", "sign a player (or a stand-by) up for a game", "  gamesmaster join club7 Hal\n"
            "  gamesmaster join club7 Ike --standby", cmd_join)
    p.add_argument("game", metavar="GAME")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--standby", action="store_true", help="as a stand-by player")

    p = add("start", "draw the powers by lot (or assign them) and start the game",
            "  gamesmaster start club7 --seed 1971\n  gamesmaster start club7 --assign Ann=England,Bob=France", cmd_start)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--seed", type=int)
    p.add_argument("--assign", metavar="NAME=POWER,...")

    add("games", "list the games", "  gamesmaster games", cmd_games)

    p = add("status", "show a game: phase, deadline, who has ordered", "  gamesmaster status club7", cmd_status)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--json", action="store_true", help="as JSON")

    p = add("orders", "enter a power's orders (prints the answer and the receipt), or show or withdraw them",
            "  gamesmaster orders club7 England orders.txt        # handed over in person\n"
            "  echo 'A Par-Bur; A Mar S A Par-Bur' | gamesmaster orders club7 France\n"
            "  gamesmaster orders club7 France --show\n"
            "  gamesmaster orders club7 France orders.txt --credential 4.Xy...   # as the player", cmd_orders)
    p.add_argument("game", metavar="GAME")
    p.add_argument("power", metavar="POWER")
    p.add_argument("file", nargs="?", metavar="FILE", help="the orders, one a line (default: stdin)")
    p.add_argument("--credential", help="act as the player (else the GM enters them, on the record as such)")
    p.add_argument("--channel", choices=("console", "in-person", "mail", "web"), help="how the orders came")
    p.add_argument("--phase", help="refuse unless the game is in this phase (e.g. S1901M)")
    p.add_argument("--show", action="store_true", help="show the orders on record")
    p.add_argument("--withdraw", action="store_true", help="withdraw the orders on record")
    p.add_argument("--ready", dest="ready", action="store_const", const=True, help="mark the power ready")
    p.add_argument("--not-ready", dest="ready", action="store_const", const=False, help="mark it not ready")

    p = add("process", "adjudicate phases whose deadline has passed (or one game now)",
            "  gamesmaster process               # every game that is due\n"
            "  gamesmaster process club7 --now   # this game's phase, before its deadline", cmd_process)
    p.add_argument("game", nargs="?", metavar="GAME")
    p.add_argument("--now", action="store_true", help="process at once, deadline or not")

    p = add("worker", "keep processing deadlines as they pass", "  gamesmaster worker --interval 30", cmd_worker)
    p.add_argument("--interval", type=float, default=30.0, help="seconds between passes")
    p.add_argument("--once", action="store_true", help="one pass, then send the webhook posts it made, and exit (for cron)")

    p = add("extend", "extend the deadline (everyone is told)",
            "  gamesmaster extend club7 --by 24h --reason 'postal strike'\n"
            "  gamesmaster extend club7 --until '2024-05-10 22:00'", cmd_extend)
    p.add_argument("game", metavar="GAME")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--by", metavar="DURATION", help="e.g. 24h, 2d")
    g.add_argument("--until", metavar="TIME", help="YYYY-MM-DD HH:MM in the game's time zone")
    p.add_argument("--reason")

    p = add("pause", "stop a game's clock", "  gamesmaster pause club7 --reason 'summer break'", cmd_pause)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--reason")

    p = add("resume", "restart a paused game's clock", "  gamesmaster resume club7 --until '2024-09-03 22:00'", cmd_resume)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--until", metavar="TIME", help="new deadline (default: the time that was left)")
    p.add_argument("--reason")

    p = add("replace", "put a new player on a power (prints the new credential)",
            "  gamesmaster replace club7 Italy 'Ken Davidson' --reason 'neutral stand-by'", cmd_replace)
    p.add_argument("game", metavar="GAME")
    p.add_argument("power", metavar="POWER")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--reason")

    p = add("credential", "give a player a new credential (the old one stops working; the record says so)",
            "  gamesmaster credential club7 France --reason 'lost it'\n  gamesmaster credential club7 'Ann'", cmd_credential)
    p.add_argument("game", metavar="GAME")
    p.add_argument("who", metavar="PLAYER-OR-POWER")
    p.add_argument("--reason")

    p = add("correct", "correct a published phase before the next movement result is published",
            "  gamesmaster correct club7 --reason 'transcription: France sent A Par-Bur' --orders France fixed.txt\n"
            "  gamesmaster correct club7 --phase S1901M --reason 'ruling: the support was cut' --orders Italy it.txt\n"
            "  gamesmaster correct club7 --reason 'ruling' --rule koning=false", cmd_correct)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--reason", required=True)
    p.add_argument("--orders", nargs=2, action="append", metavar=("POWER", "FILE"), help="the power's corrected orders")
    p.add_argument("--rule", action="append", metavar="OPTION=VALUE", help="a corrected rule option")
    p.add_argument("--phase", metavar="PHASE", help="the phase to correct (default: the last published), e.g. S1901M "
                                                    "behind retreats or builds published since")

    p = add("press", "send a GM notice or enter a press release; or read the press",
            "  gamesmaster press club7 'Deadlines move to Wednesdays from Spring 1902.'\n"
            "  gamesmaster press club7 'Peace in our time' --from England --to France,Germany\n"
            "  gamesmaster press club7 --list --as France", cmd_press)
    p.add_argument("game", metavar="GAME")
    p.add_argument("text", nargs="?", metavar="TEXT", help="the text ('-': stdin)")
    p.add_argument("--from", dest="sender", metavar="POWER", help="a power's release handed to the GM (default: GM notice)")
    p.add_argument("--to", metavar="POWERS", help="comma-separated: a private letter (default: public)")
    p.add_argument("--anonymous", action="store_true", help="anonymous (where the game allows it)")
    p.add_argument("--list", action="store_true", help="read the press")
    p.add_argument("--as", dest="as_power", metavar="POWER", help="with --list: what this power may read")

    p = add("question", "list the players' questions to the gamesmaster, answer one, or enter one handed over",
            "  gamesmaster question club7\n"
            "  gamesmaster question club7 --answer 3 'Yes: a fleet may convoy an army of another power.'\n"
            "  gamesmaster question club7 --answer 4 'Kiel is a canal: fleets pass through it.' --public\n"
            "  gamesmaster question club7 --from France --ask 'Plan of campaign: France takes Iberia, then Italy.'",
            cmd_question)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--answer", nargs=2, metavar=("N", "TEXT"), help="answer question N (privately, to its asker; "
                                                                   "TEXT '-': stdin)")
    p.add_argument("--public", action="store_true", help="with --answer: for everyone (the asker is not named)")
    p.add_argument("--ask", metavar="TEXT", help="enter a question handed over in person (with --from)")
    p.add_argument("--from", dest="sender", metavar="POWER",
                   help="the power asking; without --ask or --answer: only that power's questions")

    p = add("draw", "propose, vote on or declare a draw or concession; or list proposals",
            "  gamesmaster draw club7 --propose --power France\n"
            "  gamesmaster draw club7 --vote 1 --power England --yes\n"
            "  gamesmaster draw club7 --concede-to Russia --power Turkey\n"
            "  gamesmaster draw club7 --declare --reason 'deadlock: no plan of campaign is feasible'", cmd_draw)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--propose", action="store_true", help="propose a draw (among --powers, default all survivors)")
    p.add_argument("--powers", metavar="POWERS", help="comma-separated powers sharing the draw")
    p.add_argument("--concede-to", metavar="POWER", help="propose conceding the game to this power")
    p.add_argument("--power", metavar="POWER", help="the power proposing or voting (as handed to the GM)")
    p.add_argument("--vote", type=int, metavar="ID", help="vote on proposal ID")
    p.add_argument("--yes", action="store_true")
    p.add_argument("--no", action="store_true")
    p.add_argument("--declare", action="store_true", help="the GM declares a draw (e.g. deadlock)")
    p.add_argument("--reason")

    p = add("history", "show the record of a game: results, corrections, press (and the ledger)",
            "  gamesmaster history club7 --ledger", cmd_history)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--ledger", action="store_true", help="also list every ledger entry")
    p.add_argument("--json", action="store_true")

    p = add_command(sub, "verify", "replay a game from its ledger, audit every ruling, check receipts and tables",
                    "  gamesmaster verify club7\n  gamesmaster verify club7 --receipt club7/S1901M/FRANCE/2:9f3a...\n"
                    "  gamesmaster verify --archive club7-record.json --receipt club7/S1901M/FRANCE/2:9f3a...",
                    cmd_verify, [common])
    p.add_argument("game", nargs="?", metavar="GAME", help="a game in the store")
    p.add_argument("--archive", metavar="FILE", help="verify a public record downloaded from the site instead "
                   "(no store or GM credential needed)")
    p.add_argument("--receipt", action="append", metavar="RECEIPT", help="a receipt a player holds (repeatable)")
    p.add_argument("--head", action="append", metavar="SEQ:HASH",
                   help="a ledger head published with results (repeatable): it must be in the chain")

    p = add("rebuild", "rewrite a game's tables from its ledger (after verify reports a table that differs)",
            "  gamesmaster rebuild club7", cmd_rebuild)
    p.add_argument("game", metavar="GAME")

    p = add("export", "write a whole game as one JSON archive (--public: its public record)",
            "  gamesmaster export club7 club7.json\n  gamesmaster export club7 club7-record.json --public\n"
            "  gamesmaster export club7 club7-saved.json --format saved-game", cmd_export)
    p.add_argument("game", metavar="GAME")
    p.add_argument("file", nargs="?", metavar="FILE", help="default: stdout")
    p.add_argument("--public", action="store_true", help="the public record (what anyone may check with "
                   "verify --archive), not the GM's archive with credential hashes")
    p.add_argument("--format", choices=("archive", "saved-game"), default="archive",
                   help="saved-game: the diplomacy package's saved-game JSON (every phase's units, centres, orders, "
                        "results, and press where the game allows)")

    p = add("import", "read a game from a JSON archive, or the rulebook's sample game as a demo",
            "  gamesmaster import club7.json --as club7-copy\n  gamesmaster import --sample\n"
            "  gamesmaster import webdip-123.json --as webdip-123   # a saved game of the diplomacy package", cmd_import)
    p.add_argument("file", nargs="?", metavar="FILE")
    p.add_argument("--as", dest="as_id", metavar="GAME",
                   help="the id to import under: a copy, a new game with its seats empty (unless --seated)")
    p.add_argument("--seated", action="store_true",
                   help="a copy keeps the original's seats: its players' credentials and accounts act in it too")
    p.add_argument("--sample", action="store_true", help="the 1971 rulebook's sample game (Spring 1901 to Winter 1902)")
    p.add_argument("--rules", metavar="PRESET", help="for a saved game: the rule preset it is replayed by (default 2023)")
