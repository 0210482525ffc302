"""Orders and results by e-mail: the gamesmaster's official address.

Mail comes in by SMTP (`server.start`, the intake beside the website) or IMAP polling
(`imap.ImapPoller`); `intake.Intake` obeys each mail's commands through the same
`gamesmaster.gm` calls as the web and answers every mail. `notify.Dispatcher` mails
results, press and reminders; `outbox.Sender` delivers everything through the relay,
retrying until it is sent. See docs/mail.md.
"""

from .config import MailConfig, MailConfigError
from .intake import Intake, Received

__all__ = ["MailConfig", "MailConfigError", "Intake", "Received"]
