"""Game review, the printable score sheet and the mistake charts."""
