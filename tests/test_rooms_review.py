"""The coach after a room's game (``trainer.rooms.review``): each seat gets lesson 9's review of its
own decisions, from its own view; the payload for the page holds that seat's hands and what was
played, never another hand; decisions a bot made for the seat are not graded as the player's; the
game is kept in the host's progress (charts, key moments as puzzles) and downloads as a file that
``hearts-trainer import-progress`` reads; reviews run in one worker process and report progress."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from engine import Phase, Rules
from engine.bots import make_bot
from engine.bots.table import bot_action
from engine.game import Game
from tests.rooms_helpers import run_apart
from trainer.coach import coach_pass, coach_play
from trainer.progress import transfer
from trainer.progress.decisions import load_decisions
from trainer.progress.games import load_games, readable_games
from trainer.progress.transfer import ProgressFileError, import_progress, read_progress
from trainer.review.game import ReviewDepth, decision_points, review_game, review_hands
from trainer.review.page import game_markdown, review_markdown
from trainer.review.stored import stored_review
from trainer.rooms.review import (
    RoomGame,
    game_key,
    keep_game,
    progress_file,
    review_payload,
    review_seat,
)
from trainer.rooms.reviewer import Reviewer
from trainer.store import Store

BUDGET = ReviewDepth(play_samples=32, pass_samples=32, pass_seconds=None, pass_stages=((16, 12),))
NAMES = ("Ann", "Bob", "Cy", "Di")


def bot_game(rules: Rules, seed: int) -> Game:
    """A whole game, every seat a bot (seat 0 an Easy one, so it makes mistakes to review)."""
    game = Game(rules, seed)
    bots = [make_bot("easy" if seat == 0 else "normal", seed + seat) for seat in range(rules.players)]
    while not game.is_over:
        if game.hand.is_over:
            game.next_hand()
            continue
        seat = game.hand.seat_to_act
        game.hand.apply(bot_action(bots[seat], game.view(seat)))
    return game


@pytest.fixture(scope="module")
def played():
    game = bot_game(Rules(target=26), 3)
    assert len(game.hands) >= 2
    return game


def room_game(game: Game, seat: int = 0, bot_made=frozenset(), names=NAMES) -> RoomGame:
    return RoomGame(
        tuple(game.hands), seat, names, game_key("room-code", 1, seat), {2: "normal", 3: "normal"}, bot_made
    )


@pytest.fixture(scope="module")
def reviewed(played):
    game = room_game(played)
    return game, review_seat(game, BUDGET)


def test_the_review_is_lesson_nines_from_the_seat_and_the_page_says_it_as_lesson_9(played, reviewed) -> None:
    game, review = reviewed
    lesson = review_hands(played.hands, 0, BUDGET)
    assert review.summary() == lesson.summary()
    payload = review_payload(game, review)
    markdown = review_markdown(review).splitlines()
    assert payload["lines"] == [markdown[0].removeprefix("### "), markdown[1]]
    assert f"**Luck and skill.** {payload['explain']}" in markdown
    assert [h["result"] for h in payload["hands"]] == [round(h.result, 1) for h in review.hands]
    assert payload["all"]["points"] == sum(hand.result.scores[0] for hand in played.hands)
    assert [p["total"] for p in payload["players"]] == list(played.totals)
    assert [p["you"] for p in payload["players"]] == [True, False, False, False]
    assert len(payload["moments"]) == len(review.key_moments()) >= 1
    json.dumps(payload)  # plain JSON for the WebSocket


def test_the_payload_holds_the_seats_own_view_and_the_coachs_checked_verdicts(played, reviewed) -> None:
    game, review = reviewed
    payload = review_payload(game, review)
    for shown, moment in zip(payload["moments"], review.key_moments(), strict=True):
        state = moment.state
        assert shown["seen"]["hand"] == [str(card) for card in state.hand(0)]
        if state.phase is Phase.PLAYING:
            assert shown["seen"]["trick"] == [
                {"name": NAMES[s], "card": str(card)} for s, card in state.current_trick.plays
            ]
        # the coach's own verdict, made from this seat's view (its reasons' facts checked there)
        view = state.view(0, scores=moment.scores)
        coach = coach_pass if moment.decision.kind == "pass" else coach_play
        verdict = coach(view, moment.decision.choice, moment.evaluation)
        assert not verdict.withheld
        assert shown["verdict"] == [verdict.headline, *verdict.reasons, verdict.numbers]
    # of the other seats: names, seat words and the score sheet; no position, deal or pass
    keys = set()

    def walk(value):
        if isinstance(value, dict):
            keys.update(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(payload)
    assert not keys & {"position", "dealt", "deal", "seed", "passed", "record", "puzzle", "tricks"}
    assert payload["scores"] == [list(hand.result.scores) for hand in played.hands]
    assert payload["seat_words"] == [
        {"seat": "Left", "name": "Bob"},
        {"seat": "Across", "name": "Cy"},
        {"seat": "Right", "name": "Di"},
    ]


def test_another_seat_gets_its_own_review(played) -> None:
    game = room_game(played, seat=2)
    review = review_seat(game, BUDGET)
    payload = review_payload(game, review)
    assert review.summary() == review_hands(played.hands, 2, BUDGET).summary()
    assert [p["you"] for p in payload["players"]] == [False, False, True, False]
    assert payload["seat_words"][0] == {"seat": "Left", "name": "Di"}
    for moment in review.key_moments():
        assert moment.decision.seat == 2


def test_a_decision_a_bot_made_for_the_seat_is_not_graded_and_the_split_still_adds_up(
    played, reviewed
) -> None:
    _game, full = reviewed
    # the costliest real decision of the seat, as if its timer had run out there
    worst = max(full.moments, key=lambda m: m.loss)
    assert worst.loss > 0
    index = next(
        i
        for i, _state, _choice, real in decision_points(played.hands[worst.hand_index], 0)
        if real and i == worst.state.actions_made
    )
    game = room_game(played, bot_made=frozenset({(worst.hand_index, index)}))
    review = review_seat(game, BUDGET)
    assert review.decisions == full.decisions - 1
    assert review.total_loss == pytest.approx(full.total_loss - worst.loss)
    for hand in review.hands:
        assert hand.cards + hand.decisions_loss + hand.luck == pytest.approx(hand.result)
    assert review.luck == pytest.approx(full.luck + worst.loss)
    line = review_payload(game, review)["lines"][2]
    assert line.startswith("1 pass or play of yours was made by a bot for you")
    with pytest.raises(ValueError, match="not an action of seat 0"):
        room_game(played, bot_made=frozenset({(0, 10_000)}))


def test_the_hosts_game_is_kept_in_progress_with_its_review_once(tmp_path, reviewed) -> None:
    game, review = reviewed
    store = Store(tmp_path / "progress.sqlite3")
    keep_game(store, game)  # at the game's end, before the review
    (kept,) = load_games(store)
    assert kept.review is None and len(kept.hands) == len(game.hands)
    game_id = keep_game(store, game, review)
    again = keep_game(store, game, review)  # asked twice: the same game, the same decisions
    assert again == game_id
    (kept,) = load_games(store)
    assert kept.seat == 0 and kept.opponents == {"2": "normal", "3": "normal"}
    assert len(load_decisions(store, "game", game_id)) == review.decisions
    keep_game(store, game)  # the game's end seen again (a restart): the review stays
    (kept,) = load_games(store)
    stored = stored_review(kept)  # reopens at once on the review page, moments as puzzles
    assert stored is not None and len(stored.moments) == len(review.key_moments())
    assert stored.accuracy == pytest.approx(review.accuracy, abs=0.01)
    # the review page says who the game was against: one friend and the bots, not "bots" alone
    assert "hands with 1 other player and normal bots" in game_markdown(kept)


def test_a_kept_room_game_reviewed_on_the_review_page_leaves_out_the_bots_decisions(
    tmp_path, played, reviewed
) -> None:
    """The host's game is kept at its end, before any review: the review page's own review of it
    (and of the downloaded file, imported) must not grade as theirs what a bot did for them."""
    _game, full = reviewed
    worst = max(full.moments, key=lambda m: m.loss)
    game = room_game(played, bot_made=frozenset({(worst.hand_index, worst.state.actions_made)}))
    store = Store(tmp_path / "progress.sqlite3")
    keep_game(store, game)
    (kept,) = load_games(store)
    assert kept.bot_made == game.bot_made
    review = review_game(kept, BUDGET, workers=1)
    assert review.decisions == full.decisions - 1
    assert review.total_loss == pytest.approx(full.total_loss - worst.loss)
    said = "1 pass or play of yours was made by a bot for you: the review does not grade it as yours (its"
    assert said in game_markdown(kept)
    path = tmp_path / "room-game.json"
    path.write_bytes(progress_file(game))
    home = Store(tmp_path / "home.sqlite3")
    import_progress(home, path)
    (imported,) = load_games(home)
    assert imported.bot_made == game.bot_made
    # a pair naming another seat's action is named, and the row left as it is
    record = json.loads(store.query("SELECT record FROM games")[0][0])
    other = next(i for i, action in enumerate(played.hands[0].history) if getattr(action, "seat", 0) != 0)
    record["bot_made"] = [[0, other]]
    with store.transaction() as db:
        db.execute("UPDATE games SET record = ?", (json.dumps(record),))
    games, problems = readable_games(store)
    assert games == [] and problems == [
        f"games row {kept.id}, record: bot_made: [0, {other}] is not an action of seat 0"
    ]


def test_the_downloaded_file_imports_into_progress_once(tmp_path, played, reviewed, monkeypatch) -> None:
    game, review = reviewed
    data = progress_file(game, review)
    path = tmp_path / "room-game.json"
    path.write_bytes(data)
    # the installed app's command reads it
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path / "home"))
    assert transfer.main([str(path)]) == 0
    home = Store()
    (kept,) = load_games(home)
    assert len(load_decisions(home, "game", kept.id)) == review.decisions
    assert stored_review(kept) is not None
    assert sum(import_progress(home, path).values()) == 0
    # the host kept the same game directly: importing the file as well adds nothing twice
    host = Store(tmp_path / "host.sqlite3")
    keep_game(host, game, review)
    assert sum(import_progress(host, path).values()) == 0
    # the record lists the dealt cards, never the room's seeds
    document = json.loads(data)
    record = json.loads(document["tables"]["games"][0]["record"])
    for hand, dealt in zip(record["hands"], played.hands, strict=True):
        assert "seed" not in hand["deal"] and len(hand["deal"]["hands"]) == 4
        assert dealt.seed is not None and str(dealt.seed) not in data.decode()
    # a game not yet reviewed downloads too, and a damaged file is refused naming its field
    bare = tmp_path / "bare.json"
    bare.write_bytes(progress_file(game))
    assert len(read_progress(bare, Store(":memory:"))["games"]) == 1
    document["tables"]["games"][0]["seat"] = 9
    path.write_text(json.dumps(document))
    with pytest.raises(ProgressFileError, match=r"tables\.games\[0\]\.seat"):
        import_progress(Store(tmp_path / "other.sqlite3"), path)


def test_reviews_run_in_one_worker_process_reporting_progress_while_the_loop_answers(reviewed) -> None:
    game, review = reviewed

    async def run():
        reviewer = Reviewer(BUDGET)
        heard, ticks = [], [0]

        async def ticker():
            while True:
                await asyncio.sleep(0.01)
                ticks[0] += 1

        tick = asyncio.create_task(ticker())
        try:
            first, second = await asyncio.gather(
                reviewer.review(game, lambda done, total: heard.append((done, total))),
                reviewer.review(game),  # asked twice at once: made once
            )
            again = await reviewer.review(game)  # kept: answers at once
        finally:
            tick.cancel()
            reviewer.close()
        return first, second, again, heard, ticks[0]

    first, second, again, heard, ticks = run_apart(run())
    assert first is second is again
    assert first.payload == review_payload(game, review)  # the same review as in this process
    total = heard[-1][1]
    assert heard[-1] == (total, total) and [done for done, _ in heard] == sorted(done for done, _ in heard)
    assert ticks > 0  # the event loop ran while the worker reviewed
    assert first.file == first.file and json.loads(first.file)["format"] == "hearts-trainer-progress"


# ----- through the room server -----


def _my_move(view: dict) -> dict | None:
    """The table intent for the host's own decision now (its first legal one), or None."""
    if view.get("passing"):
        return {"type": "pass", "cards": [card["code"] for card in view["hand"][: view["pass_count"]]]}
    if view.get("moon_choice"):
        return {"type": "moon", "choice": "add_to_others"}
    if view.get("my_turn"):
        return {"type": "play", "card": next(card["code"] for card in view["hand"] if card["legal"])}
    return None


def _next(ws, kind: str) -> dict:
    """The next message of ``kind``, errors included in what is skipped."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


def test_each_player_asks_for_their_own_review_over_the_websocket(tmp_path) -> None:
    from starlette.testclient import TestClient

    from trainer.rooms.hub import RATE, Hub
    from trainer.rooms.reviewer import RoomReviews, room_game
    from trainer.rooms.server import build_app
    from trainer.rooms.store import MemoryStore

    timing = {"grace": 0, "bot_delay": 0, "trick_pause": 0, "hand_pause": 0}
    hub = Hub(MemoryStore(), timing=timing, targets=(50, 100, 30))  # 30: a test server's short game
    progress = tmp_path / "progress.sqlite3"
    hub.reviewer = RoomReviews(Reviewer(BUDGET), progress=progress)
    with TestClient(build_app(hub), base_url="http://127.0.0.1:2719") as client:  # one event loop: the hub's
        settings = {"preset": "standard", "target": 30, "bot_level": "easy", "timer": 0, "name": "Ann"}
        made = client.post("/rooms/api/rooms", json=settings).json()
        code, secret = made["code"], made["secret"]
        download = f"/rooms/api/rooms/{code}/game"
        address = f"ws://127.0.0.1:2719/rooms/ws/{code}"
        with client.websocket_connect(address) as bob:  # Bob takes seat 1, then leaves
            bob.send_json({"type": "hello", "secret": None, "name": "Bob"})
            welcome = _next(bob, "welcome")
            assert welcome["seat"] == 1
            bob_secret = welcome["secret"]
        with client.websocket_connect(address) as ann:
            ann.send_json({"type": "hello", "secret": secret, "name": "Ann"})
            assert _next(ann, "welcome")["seat"] == 0
            ann.send_json({"type": "review"})
            assert "when the game is over" in _next(ann, "error")["text"]
            assert client.post(download, json={"secret": secret}).status_code == 409
            ann.send_json({"type": "start"})
            seq, sent = 0, None
            while True:  # Ann plays her own cards; a bot plays Bob's (he is away) and the empty seats
                view = _next(ann, "state")["view"]
                if view["room"]["status"] == "over":
                    break
                if not view.get("seats"):  # the lobby: no table yet
                    continue
                moment = (view["hand_number"], view["phase"], view["tricks_done"], len(view["trick"]))
                if moment != sent and (move := _my_move(view)):
                    seq, sent = seq + 1, moment  # once a decision: later views may come before it is applied
                    time.sleep(1 / RATE)  # the bots play at once: keep under the server's rate of messages
                    ann.send_json({"type": "intent", "view": "t", "messages": [{"seq": seq, **move}]})
            ann.send_json({"type": "review"})
            first = _next(ann, "review")
            assert first["status"] == "working"
            while (message := _next(ann, "review"))["status"] == "working":
                assert message["done"] <= message["total"]
            assert message["status"] == "done" and message["seat"] == 0
        room = hub.rooms[code]
        game = room_game(room, 0)
        assert not game.bot_made  # Ann made every decision of hers herself
        expected = review_payload(game, review_seat(game, BUDGET))
        assert {k: v for k, v in message.items() if k != "kept"} == expected
        assert message["kept"].startswith("This game and its review are kept")
        # the host's game is in the server's progress with its review: charts, key moments as puzzles
        (kept,) = load_games(Store(progress))
        assert kept.key == game.key and stored_review(kept) is not None
        # Bob's review is his own: every pass and play of his was a bot's, so nothing is graded
        with client.websocket_connect(address) as bob:
            bob.send_json({"type": "hello", "secret": bob_secret, "name": "Bob"})
            assert _next(bob, "welcome")["seat"] == 1
            bob.send_json({"type": "review"})
            while (his := _next(bob, "review"))["status"] == "working":
                pass
        assert his["seat"] == 1 and his["bands"] == dict.fromkeys(
            ("best", "good", "inaccuracy", "mistake", "blunder"), 0
        )
        assert "were made by a bot for you" in his["lines"][2] and his["moments"] == []
        assert [p["you"] for p in his["players"]] == [False, True, False, False]
        # each downloads their own game as a file import-progress reads; a wrong secret gets nothing
        assert client.post(download, json={"secret": "not-a-seat"}).status_code == 403
        answer = client.post(download, json={"secret": bob_secret})
        assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
        path = tmp_path / "bob.json"
        path.write_bytes(answer.content)
        (game_row,) = read_progress(path, Store(":memory:"))["games"]
        assert game_row["seat"] == 1 and game_row["key"] == room_game(room, 1).key
    hub.reviewer.close()


def test_a_worker_that_dies_is_replaced_and_the_review_asked_again_is_made(reviewed) -> None:
    from concurrent.futures.process import BrokenProcessPool

    game, review = reviewed

    async def run():
        reviewer = Reviewer(BUDGET)
        try:
            started = asyncio.Event()
            asking = asyncio.create_task(reviewer.review(game, lambda done, total: started.set()))
            await started.wait()  # the worker is reviewing: kill it (out of memory, say)
            for process in reviewer._pool._processes.values():
                process.kill()
            with pytest.raises(BrokenProcessPool):
                await asking
            return await reviewer.review(game)
        finally:
            reviewer.close()

    again = run_apart(run())
    assert again.payload == review_payload(game, review)


@pytest.mark.parametrize("players", [3, 5])
def test_tables_of_three_and_five_are_reviewed_with_their_seat_names(players) -> None:
    played = bot_game(Rules(players=players, target=26), 5)
    names = tuple(f"P{seat}" for seat in range(players))
    game = RoomGame(tuple(played.hands), 1, names, game_key("room", 1, 1))
    review = review_seat(game, BUDGET)
    payload = review_payload(game, review)
    assert [w["name"] for w in payload["seat_words"]] == [names[(1 + k) % players] for k in range(1, players)]
    assert payload["seat_words"][0]["seat"] == "Left" and payload["seat_words"][-1]["seat"] == "Right"
    assert all(len(row) == players for row in payload["scores"])
    for shown, moment in zip(payload["moments"], review.key_moments(), strict=True):
        assert shown["seen"]["hand"] == [str(card) for card in moment.state.hand(1)]
    assert len(read_progress_bytes(progress_file(game, review))["games"]) == 1


def read_progress_bytes(data: bytes) -> dict:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_bytes(data)
        return read_progress(path, Store(":memory:"))
