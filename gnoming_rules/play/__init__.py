"""Play: bots, the recorder that writes a record while a game is played, a seat's
observation and the text rendering of the table."""

__all__: list[str] = []
