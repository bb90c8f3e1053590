"""Play with friends: rooms where people (and bots in the empty seats) play one game over
WebSockets, the server the referee (see docs in README's "Play with friends")."""
