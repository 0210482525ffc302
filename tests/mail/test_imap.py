"""IMAP polling: against a real Dovecot server started for the test (skipped, with the
reason, where Dovecot is not installed: `apt-get install dovecot-imapd`), and against a
stand-in client for what a real server cannot easily be made to do."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from email.message import EmailMessage
from email import policy

import pytest
from imapclient import IMAPClient

from gamesmaster.mail.imap import ImapError, ImapPoller
from gamesmaster.mail.intake import Intake
from gamesmaster.store.mailbox import MailRecords

from mailhelp import GM_ADDRESS, NAMES, POWERS, address

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Dovecot:
    """A Dovecot IMAP server of the test's own: a config, users and Maildirs in a temporary directory."""

    def __init__(self) -> None:
        if not os.path.exists(DOVECOT):
            pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd): IMAP against a real server not tested")
        self.dir = tempfile.mkdtemp(prefix="gmdv")  # short: Dovecot's sockets live under it
        self.port = _free_port()
        self.user, self.password = "gm", "s3cret-gm"
        os.chmod(self.dir, 0o755)
        mail = os.path.join(self.dir, "mail")
        os.mkdir(mail)
        if os.geteuid() == 0:
            internal, login, owner = "dovecot", "dovenull", "dovecot"
            try:
                pwd.getpwnam("dovecot"), pwd.getpwnam("dovenull")
            except KeyError:
                pytest.skip("Dovecot's system users (dovecot, dovenull) are missing")
            shutil.chown(mail, owner, owner)
        else:
            internal = login = owner = pwd.getpwuid(os.getuid()).pw_name
        with open(os.path.join(self.dir, "users"), "w") as f:
            f.write(f"{self.user}:{{PLAIN}}{self.password}\n")
        conf = os.path.join(self.dir, "dovecot.conf")
        with open(conf, "w") as f:
            f.write(f"""protocols = imap
listen = 127.0.0.1
base_dir = {self.dir}/run
state_dir = {self.dir}/state
instance_name = gmtest-{os.path.basename(self.dir)}
log_path = {self.dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:{mail}/%u
default_login_user = {login}
default_internal_user = {internal}
default_internal_group = {internal}
first_valid_uid = 0
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {self.dir}/users
}}
userdb {{
  driver = static
  args = uid={owner} gid={owner} home={mail}/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
""")
        self.proc = subprocess.Popen([DOVECOT, "-F", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                pytest.skip(f"Dovecot would not start here: {err.strip()[:300]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.skip("Dovecot did not start listening within 15 s")

    def client(self) -> IMAPClient:
        c = IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=10)
        c.login(self.user, self.password)
        return c

    def deliver(self, msg: EmailMessage, folder: str = "INBOX") -> None:
        c = self.client()
        try:
            c.append(folder, msg.as_bytes(policy=policy.SMTP))
        finally:
            c.logout()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def dovecot():
    server = Dovecot()
    yield server
    server.stop()


def _orders(sender: str, body: str, subject: str = "orders") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, GM_ADDRESS, subject
    msg["Message-ID"] = f"<{time.monotonic_ns()}@players.test>"
    msg.set_content(body)
    return msg


def test_imap_polling_against_dovecot(dovecot, make_mailroom):
    room = make_mailroom(imap_host="127.0.0.1", imap_port=dovecot.port, imap_ssl=False, imap_user=dovecot.user,
                         imap_password=dovecot.password, imap_interval=0.3)
    created = room.gm.setup.create_game("club", players=NAMES, assign=dict(zip(NAMES, POWERS)))
    cred = {power: created.credentials[name] for name, power in zip(NAMES, POWERS)}
    # The server started with the IMAP settings polls the mailbox in the background.
    dovecot.deliver(_orders(address("ann"), f"SIGNON club England {cred['ENGLAND']}\nA Liv.--Yor.\nF Lon-Nth\n"))
    reply = room.sink.wait(address("ann"), "Re: orders")[0].text
    assert "'A Liv.--Yor.' read as 'A LVP - YOR'" in reply
    c = dovecot.client()
    try:
        c.select_folder("INBOX")
        assert c.search(["UNSEEN"]) == [] and len(c.search(["SEEN"])) == 1
    finally:
        c.logout()
    # Polling again answers nothing twice.
    poller = ImapPoller(Intake(room.gm, room.config), room.config)
    assert poller.poll_once() == 0
    time.sleep(0.5)
    assert len(room.sink.to(address("ann"))) == 1
    assert room.gm.orders.orders_on_record("club", "ENGLAND", credential=cred["ENGLAND"])[0].channel == "mail"


def test_imap_done_folder_and_login_failure(dovecot, make_mailroom):
    room = make_mailroom()
    room.gm.setup.create_game("club", players=NAMES, assign=dict(zip(NAMES, POWERS)))
    c = dovecot.client()
    c.create_folder("Answered")
    c.logout()
    for i in range(3):
        dovecot.deliver(_orders(address("bob"), "STATUS club\n", f"status {i}"))
    config = room.config.with_(imap_host="127.0.0.1", imap_port=dovecot.port, imap_ssl=False,
                               imap_user=dovecot.user, imap_password=dovecot.password, imap_done_folder="Answered")
    assert ImapPoller(Intake(room.gm, config), config).poll_once() == 3
    c = dovecot.client()
    try:
        assert c.select_folder("INBOX")[b"EXISTS"] == 0
        assert c.select_folder("Answered")[b"EXISTS"] == 3
    finally:
        c.logout()
    room.server.wake()
    assert len(room.sink.wait(address("bob"), "Re: status", 3)) == 3
    wrong = config.with_(imap_password="wrong")
    with pytest.raises(ImapError, match="IMAP gm@127.0.0.1"):
        ImapPoller(Intake(room.gm, wrong), wrong).poll_once()


class FakeIMAP:
    """What ImapPoller asks of an IMAPClient, with a mailbox in memory."""

    def __init__(self, messages: dict[int, bytes]) -> None:
        self.messages = messages
        self.seen: set[int] = set()
        self.logged_out = False

    def select_folder(self, folder):  # noqa: ANN001, ANN201
        return {b"UIDVALIDITY": 42, b"EXISTS": len(self.messages)}

    def search(self, criteria):  # noqa: ANN001, ANN201
        return [u for u in self.messages if u not in self.seen]

    def fetch(self, uids, what):  # noqa: ANN001, ANN201
        return {u: {b"BODY[]": self.messages[u]} for u in uids}

    def add_flags(self, uids, flags):  # noqa: ANN001, ANN201
        self.seen.update(uids)

    def logout(self):  # noqa: ANN201
        self.logged_out = True


def test_imap_poller_marks_seen_only_after_recording(make_mailroom, monkeypatch):
    room = make_mailroom(imap_host="imap.test", imap_user="gm")
    created = room.gm.setup.create_game("club", players=NAMES, assign=dict(zip(NAMES, POWERS)))
    fake = FakeIMAP({7: _orders(address("cat"), f"SIGNON club Germany {created.credentials['Cat']}\nA Mun-Ruh\n")
                     .as_bytes(policy=policy.SMTP)})
    poller = ImapPoller(Intake(room.gm, room.config), room.config)
    monkeypatch.setattr(poller, "_client", lambda: fake)
    calls = []
    real = poller.intake.receive

    def flaky(*args, **kw):  # noqa: ANN002, ANN003, ANN202
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("database away")
        return real(*args, **kw)

    monkeypatch.setattr(poller.intake, "receive", flaky)
    with pytest.raises(RuntimeError):
        poller.poll_once()
    assert fake.seen == set() and fake.logged_out  # not recorded: left unseen for the next poll
    assert poller.poll_once() == 1 and fake.seen == {7}
    # A crash after recording but before the \Seen flag: the next poll does not answer twice.
    fake.seen.clear()
    assert poller.poll_once() == 1
    with room.store.connect(write=False) as conn:
        rows = MailRecords(conn).inbox()
    assert [r.status for r in rows] == ["answered"] and (rows[0].source_key or "").endswith(":42:7")
    with room.store.connect(write=False) as conn:
        replies = [m for m in MailRecords(conn).outbox() if m.kind == "reply"]
    assert [m.recipients for m in replies] == [(address("cat"),)]  # one answer queued, not two
    room.server.wake()
    room.sink.wait(address("cat"), "Re: orders")
