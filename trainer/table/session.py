"""The game behind the card table: one learner seat, bots in the others, a score table.

Pure Python and no widget: every learner action is checked by the engine first and refused
with a ``TableError`` (a reason code and a sentence) that leaves everything unchanged.
Each action returns the events it caused, so the widget can announce and broadcast them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Generator, Iterable, Mapping

from engine import (
    ActionRecord,
    CardParseError,
    CardSet,
    Game,
    HandState,
    MoonAction,
    MoonChoice,
    PassAction,
    Phase,
    PlayAction,
    PlayerView,
    Rules,
    hand_from_record,
    hand_to_record,
    parse_cards,
    to_card,
)
from engine.bots import LEVELS, Bot, bot_turn, make_bot
from engine.bots.ladder import level_keys
from engine.bots.table import recall_game
from engine.excerpt import clip, excerpt

from ..coach.hint import Hint, HintSource, coach_hint, decision_seed

__all__ = ["SESSION_FORMAT", "Event", "TableError", "TableSession"]

SESSION_FORMAT = "hearts-trainer/table-session"

Event = dict[str, object]


class TableError(ValueError):
    """A learner action or browser message that was refused; nothing changed."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class TableSession:
    """A game to the rules' target, seen from ``seat``.

    ``bots`` maps other seats to a bot level (``"easy"``...) or a Bot; seats left out get an
    easy bot. ``hints`` answers the hint button: by default the coach (``coach_hint``: the
    choice the coach grades best, on the same seed the review will use, and why); a Bot gives
    its choice with no reason (quick, for tests).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        seat: int = 0,
        bots: Mapping[int, str | Bot] | None = None,
        hints: HintSource | Bot | None = None,
        practice: bool = True,
    ) -> None:
        self.rules = rules or Rules()
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"there is no seat {seat} at a table of {self.rules.players}")
        self.seat = seat
        self.seed = seed
        self.practice = practice
        self.hints: HintSource | Bot = hints or coach_hint
        self.bots: dict[int, Bot] = {}
        for other in range(self.rules.players):
            if other != seat:
                choice = (bots or {}).get(other, "easy")
                self.bots[other] = make_bot(choice, seed + other) if isinstance(choice, str) else choice
        self.game = Game(self.rules, seed)
        self.game_key = uuid.uuid4().hex
        self.on_game_over: Callable[[TableSession], None] | None = None
        """Called when a game played here from its first hand ends (to keep it for review)."""
        self.review_href: str | None = None
        """Where the review of a finished game is (shown with the result), when it is kept."""
        self.selected: tuple[str, ...] = ()
        self.hint: tuple[str, ...] = ()
        self.hint_text = ""
        self.totals_carried = False
        """The one earlier score row is a game's totals before this hand (a puzzle's, an analysed
        position's): which hand of its game this is, is not known."""

    # ----- what the table shows -----

    @property
    def hand(self) -> HandState:
        return self.game.hand

    @property
    def hand_index(self) -> int:
        return self.game.hand_index

    @property
    def score_rows(self) -> list[tuple[int, ...]]:
        """Every finished hand's scores, this one's as soon as it ends."""
        return self.game.score_table

    @property
    def totals(self) -> tuple[int, ...]:
        return self.game.totals

    @property
    def winners(self) -> tuple[int, ...]:
        return self.game.winners

    @property
    def game_hands(self) -> list[HandState]:
        """The finished hands of this game, when every one was played at this table (a game set
        up part-way through, with earlier score rows, keeps none)."""
        if self.game.earlier_scores:
            return []
        return [hand for hand in self.game.hands if hand.is_over]

    @property
    def bot_to_act(self) -> int | None:
        """The bot seat that decides next, or None when it is the learner's turn or the hand is over."""
        hand = self.hand
        if hand.phase is Phase.PASSING:
            return next((s for s in hand.seats_to_pass if s != self.seat), None)
        if hand.to_move is not None and hand.to_move != self.seat:
            return hand.to_move
        return None

    # ----- setting up -----

    def set_position(
        self,
        hand: HandState,
        score_rows: Iterable[Iterable[int]] = (),
        totals_before: Iterable[int] | None = None,
    ) -> list[Event]:
        """Show any hand (e.g. from ``setup_position``); ``score_rows`` are earlier hands' scores,
        or ``totals_before`` the game's totals before this hand (then shown as one row, "Before")."""
        if hand.rules.players != self.rules.players:
            raise TableError(
                "wrong_players", f"This table seats {self.rules.players}, the hand has {hand.players}."
            )
        rows = [tuple(int(p) for p in row) for row in score_rows]
        carried = tuple(int(p) for p in totals_before or ())
        if any(carried):
            rows = [carried]
        if any(len(row) != self.rules.players for row in rows):
            raise TableError("bad_scores", f"Every score row needs {self.rules.players} numbers.")
        self.rules = hand.rules
        self.game = Game(hand.rules, self.seed, first_hand=hand, earlier_scores=rows)
        self.totals_carried = any(carried)
        self.game_key = uuid.uuid4().hex
        self._clear_marks()
        self._game_over_check()
        return [{"type": "position", "text": "A new position is on the table."}]

    @property
    def hand_in_progress(self) -> bool:
        """A hand someone has acted in and that is not finished: a new deal would throw it away."""
        return not self.hand.is_over and bool(self.hand.history)

    def new_hand(self, discard: bool = False) -> list[Event]:
        """The next hand of the game once this one is over; a new game once the game is over.
        Before the hand is over, a fresh deal in its place only with ``discard`` (the learner
        confirmed throwing the hand away) once anyone has acted in it."""
        if self.hand.is_over:
            if self.winners:
                self.seed += 1
                self.game = Game(self.rules, self.seed)
                self.totals_carried = False
                self.game_key = uuid.uuid4().hex
            else:
                self.game.next_hand()
        else:
            if self.hand_in_progress and discard is not True:
                raise TableError(
                    "hand_in_progress",
                    "This hand is not finished: a new deal throws it away. Confirm to deal a new hand.",
                )
            self.game.redeal()
            self.seed = self.game.seed
        self._clear_marks()
        direction = self.hand.pass_direction.value
        return [{"type": "new_hand", "hand": self.hand_index + 1, "text": f"New hand: pass {direction}."}]

    def _game_over_check(self) -> None:
        if self.winners and self.game_hands and self.on_game_over is not None:
            self.on_game_over(self)

    # ----- keeping and resuming -----

    def to_record(self) -> dict:
        """The whole game at this table as plain JSON: every hand with its actions so far, the
        earlier score rows, the seed for the hands to come, the seats and their bots."""
        game = self.game
        return {
            "format": SESSION_FORMAT,
            "version": 1,
            "seat": self.seat,
            "seed": game.seed,
            "redeals": game.redeals,
            "key": self.game_key,
            "bots": {str(seat): getattr(bot, "name", "bot") for seat, bot in self.bots.items()},
            "earlier_scores": [list(row) for row in game.earlier_scores],
            "hands": [hand_to_record(hand) for hand in game.hands],
        }

    def resume(self, record: object) -> list[Event]:
        """Put a game kept by ``to_record`` back on the table exactly as it was; a record that
        does not load raises ``TableError`` and changes nothing."""
        try:
            game, key = _game_from_session_record(record, self.seat)
            levels = {int(seat): str(name) for seat, name in dict(record["bots"]).items()}  # type: ignore[index]
        except (KeyError, TypeError, ValueError, ArithmeticError, RecursionError) as error:
            # int() of Infinity is an OverflowError, whose words ("float infinity") say nothing here
            why = "a number in it is not finite" if isinstance(error, ArithmeticError) else clip(str(error))
            raise TableError("bad_record", f"The saved game cannot be resumed: {why}.") from error
        if game.rules.players != self.rules.players:
            raise TableError(
                "wrong_players", f"This table seats {self.rules.players}, the game {game.rules.players}."
            )
        self.rules = game.rules
        self.game = game
        self.totals_carried = False
        self.seed = game.seed
        known = (*LEVELS, *level_keys())  # the lessons' levels and the career's
        for seat, level in levels.items():
            if seat in self.bots and level in known:
                self.bots[seat] = make_bot(level, self.seed + seat)
                recall_game(self.bots[seat], game, seat)  # the master's read of the table is back
        self.game_key = key
        self._clear_marks()
        return [{"type": "position", "text": "Your game is back on the table where you left it."}]

    @property
    def opponents(self) -> dict[int, str]:
        return {seat: getattr(bot, "name", "bot") for seat, bot in self.bots.items()}

    def _clear_marks(self) -> None:
        self.selected = ()
        self.hint = ()
        self.hint_text = ""

    # ----- the learner's actions -----

    def _cards(self, cards: object) -> list[str]:
        if isinstance(cards, str) or not isinstance(cards, list | tuple):
            raise TableError("bad_message", "Cards must be a list such as ['QS', '10H'].")
        try:
            parsed = parse_cards(cards)
        except CardParseError as error:
            raise TableError("bad_card", str(error)) from error
        if len(set(parsed)) != len(parsed):
            raise TableError("card_repeated", "A card is chosen twice.")
        for card in parsed:
            if card not in self.hand.hand(self.seat):
                raise TableError("not_in_hand", f"You do not hold the {card}.")
        return [card.code for card in parsed]

    def select(self, cards: object) -> list[Event]:
        """Mark cards in the learner's hand: up to the pass count while passing, one while playing."""
        codes = self._cards(cards)
        hand = self.hand
        if hand.phase is Phase.PASSING:
            if self.seat not in hand.seats_to_pass:
                raise TableError("already_passed", "You have already passed: wait for the others.")
            limit = self.rules.pass_count
            if len(codes) > limit:
                raise TableError("too_many", f"Pass exactly {limit} cards: unselect one first.")
        elif hand.phase is Phase.PLAYING:
            if len(codes) > 1:
                raise TableError("too_many", "Select one card to play.")
        else:
            raise TableError("wrong_phase", "There are no cards to choose now.")
        self.selected = tuple(codes)
        return [{"type": "select", "cards": list(codes)}]

    def toggle(self, card: object) -> list[Event]:
        """Mark a card in the learner's hand while passing, or unmark it: each click's own intent,
        so quick clicks add up even before the table has shown the one before."""
        if not isinstance(card, str):
            raise TableError("bad_message", f"A card must be a string such as 'QS', not {excerpt(card)}.")
        (code,) = self._cards([card])
        marked = list(self.selected)
        return self.select([c for c in marked if c != code] if code in marked else [*marked, code])

    def pass_selected(self, cards: object) -> list[Event]:
        codes = self._cards(cards)
        if refusal := self.hand.why_not_pass(self.seat, codes):
            raise TableError(refusal.reason.value, refusal.message)
        self.hand.apply(PassAction(self.seat, CardSet(codes)))
        self._clear_marks()
        return self._after_pass(self.seat, codes)

    def _after_pass(self, seat: int, codes: list[str]) -> list[Event]:
        events: list[Event] = [{"type": "pass", "seat": seat, "cards": codes if seat == self.seat else []}]
        if self.hand.phase is not Phase.PASSING:
            received = self.hand.received(self.seat)
            names = ", ".join(card.name for card in received) if received else "nothing"
            events.append({"type": "exchange", "received": received.codes if received else [],
                           "text": f"Cards exchanged. You receive the {names}."})  # fmt: skip
        return events

    def play(self, card: object) -> list[Event]:
        if not isinstance(card, str):
            raise TableError("bad_message", "A play needs one card, such as 'QS'.")
        try:
            parsed = to_card(card)
        except CardParseError as error:
            raise TableError("bad_card", str(error)) from error
        if (
            self.hand.phase is Phase.PLAYING
            and self.hand.to_move != self.seat
            and parsed in self.hand.hand(self.seat)
        ):
            raise TableError("not_your_turn", "Wait for your turn: the others are still playing.")
        if refusal := self.hand.why_not_play(parsed, self.seat):
            raise TableError(refusal.reason.value, refusal.message)
        self._clear_marks()
        return self._play_events(self.hand.apply(PlayAction(self.seat, parsed)))

    def choose_moon(self, choice: object) -> list[Event]:
        try:
            if not isinstance(choice, str):  # Enum's own refusal repr()s the value whole
                raise ValueError
            moon = MoonChoice(choice)
        except ValueError as error:
            raise TableError("bad_message", f"{excerpt(choice)} is not a moon choice.") from error
        if refusal := self.hand.why_not_choose_moon(moon, self.seat):
            raise TableError(refusal.reason.value, refusal.message)
        self.hand.apply(MoonAction(self.seat, moon))
        return self._hand_over_events()

    @property
    def can_take_back(self) -> bool:
        """Whether Take back would do something now (the table greys the button out when not)."""
        return self.practice and not self._kept_over() and self._last_own_action() is not None

    def _kept_over(self) -> bool:
        """A finished game that was kept (and may have been reviewed) stays as it ended."""
        return bool(self.winners and self.game_hands and self.on_game_over is not None)

    def _last_own_action(self) -> int | None:
        """The index in the hand's history of the learner's last pass or play."""
        history = self.hand.history
        for index in range(len(history) - 1, -1, -1):
            action = history[index]
            if action.seat == self.seat and isinstance(action, PlayAction | PassAction):
                return index
        return None

    def take_back(self) -> list[Event]:
        """Practice mode: back to just before the learner's last decision."""
        if not self.practice:
            raise TableError("not_practice", "Taking back is only for practice games.")
        if self._kept_over():
            raise TableError(
                "game_over",
                "The game is over and kept for review as it ended: its cards cannot be taken back. "
                "Press New hand for a new game.",
            )
        index = self._last_own_action()
        if index is None:
            raise TableError("nothing_to_take_back", "There is nothing of yours to take back in this hand.")
        # Bot passes made before the learner's stay: they choose without seeing it.
        self.hand.take_back_to(index)
        self._clear_marks()
        return [{"type": "take_back", "text": "Taken back: your move again."}]

    def ask_hint(self) -> list[Event]:
        """The hint for the learner's pass or play, from the learner's own view only."""
        hand = self.hand
        to_pass = hand.phase is Phase.PASSING and self.seat in hand.seats_to_pass
        if (not to_pass and hand.to_move != self.seat) or hand.phase is Phase.MOON_CHOICE:
            raise TableError("no_hint", "A hint is for your own pass or play: it is not your turn.")
        view = hand.view(self.seat, hand_index=self.hand_index, scores=self.totals)
        hint = self._hint(view, decision_seed(self.hand_index, hand.cards_played, to_pass))
        self.hint = hint.codes
        self.hint_text = hint.text
        return [{"type": "hint", "cards": list(hint.codes), "text": hint.text}]

    def _hint(self, view: PlayerView, seed: int) -> Hint:
        source = self.hints
        if hasattr(source, "choose_play"):  # a Bot
            if view.phase is Phase.PASSING:
                cards = tuple(source.choose_pass(view))
            else:
                cards = (source.choose_play(view),)
            names = ", ".join(card.name for card in cards)
            verb = "passing" if view.phase is Phase.PASSING else "playing"
            return Hint(cards, f"Hint ({source.name} bot): consider {verb} the {names}.")
        return source(view, seed)

    # ----- the bots -----

    def bot_step(self) -> list[Event]:
        """One bot decision (a pass, a card or a moon choice); [] when no bot is to act."""
        turn = self.bot_turn()
        while True:
            try:
                next(turn)
            except StopIteration as done:
                return done.value

    def bot_turn(self) -> Generator[None, None, list[Event]]:
        """``bot_step`` in parts (a Hard bot's looks, ``engine.bots.bot_turn``): yields between
        them and returns the decision's events. The hand must not change until it returns."""
        seat = self.bot_to_act
        if seat is None:
            return []

        def view_of(s: int):
            return self.hand.view(s, hand_index=self.hand_index, scores=self.totals)

        record = yield from bot_turn(self.hand, seat, self.bots[seat], view_of)
        if isinstance(record.action, PassAction):
            return self._after_pass(seat, [])  # a bot's pass stays hidden
        if isinstance(record.action, MoonAction):
            return self._hand_over_events()
        return self._play_events(record)

    def _play_events(self, record: ActionRecord) -> list[Event]:
        card = record.action.card
        events: list[Event] = [{"type": "play", "seat": record.seat, "card": card.code, "name": card.name}]
        if record.trick is not None:
            cards = [c.code for c in record.trick.cards]
            events.append({"type": "trick", "winner": record.winner, "cards": cards})
        if self.hand.is_over:
            events += self._hand_over_events()
        return events

    def _hand_over_events(self) -> list[Event]:
        if not self.hand.is_over:
            return []
        self._game_over_check()
        return [{"type": "hand_over", "scores": list(self.hand.result.scores), "totals": list(self.totals)}]


def _game_from_session_record(record: object, seat: int) -> tuple[Game, str]:
    if not isinstance(record, dict) or record.get("format") != SESSION_FORMAT:
        raise ValueError(f"not a {SESSION_FORMAT} record")
    if record.get("version") != 1:
        raise ValueError(f"version {excerpt(record.get('version'))}: this program reads version 1")
    if record["seat"] != seat:
        raise ValueError(f"it was played from seat {excerpt(record['seat'])}, this table is seat {seat}")
    hands = [hand_from_record(data) for data in record["hands"]]
    if not hands:
        raise ValueError("it has no hand")
    if any(not hand.is_over for hand in hands[:-1]):
        raise ValueError("a hand before the last one is unfinished")
    game = Game(
        hands[0].rules, int(record["seed"]), first_hand=hands[0], earlier_scores=record["earlier_scores"]
    )
    game.hands = hands
    game.redeals = int(record["redeals"])
    return game, str(record["key"])
