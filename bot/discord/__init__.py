"""The Discord front end: /note, the message context menu, persistent buttons."""
