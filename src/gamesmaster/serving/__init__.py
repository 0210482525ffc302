"""Runs the doors and the deadline worker in processes: the one place that puts them together.

The doors (web, mail, daide, cli) each talk to the gamesmaster only, and none imports
another. Starting a process is different work: `gamesmaster serve` runs the web site,
the mail intake, the DAIDE door and the deadline worker side by side on one store, and
`gamesmaster daide serve` or `gamesmaster mail serve` run one door with the worker. That
composition lives here, above the doors, so that it may import them:

    serving.site     the web site (uvicorn, its extra processes, the demo, the GM credential)
    serving.process  one more web process on the first one's listening socket
    serving.worker   the deadline worker as a background thread
    serving.daide    the DAIDE door for bots, with the worker
    serving.mail     the mail door's processes: SMTP intake, IMAP polling, dispatch, the outbox

The command line is the only door that imports this package (cli -> serving): its commands
are how a person starts these processes, and they parse the flags and call in here.
"""
