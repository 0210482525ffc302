"""Orders and results by e-mail: the gamesmaster's official address.

Mail comes in by SMTP (`server.start`, the intake beside the website) or IMAP polling
(`imap.ImapPoller`); `intake.Intake` obeys each mail's commands through the same
`gamesmaster.gm` calls as the web and answers every mail. `notify.Dispatcher` renders
and mails the results, press and reminders gm's mail channel decided on; `outbox.Sender`
delivers everything through the relay, retrying until it is sent. See docs/mail.md.
"""

from .config import MailConfig, MailConfigError
from .intake import Intake, Received

__all__ = ["MailConfig", "MailConfigError", "Intake", "Received"]
