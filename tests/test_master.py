"""The master table's bot: its reading of the opponents (``engine.bots.reader``) and its use."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import HandState, Rules
from engine.bots import bot_action
from engine.bots.hard import HardBot
from engine.bots.master import MasterBot
from engine.bots.normal import NormalBot
from engine.bots.reader import OpponentReader, hand_evidence
from engine.cards import parse_card
from engine.hand import Phase, Trick
from engine.moon import BLOCKERS, Blocking


def trick(leader: int, cards: str) -> Trick:
    return Trick(leader, tuple(parse_card(card) for card in cards.split()), 4)


def seen(tricks: list[Trick], hand_index: int = 0, seed: int = 11):
    """Seat 0's view of a hand (seeded, held) with ``tricks`` played: what the reader is shown."""
    view = HandState.from_seed(seed, Rules(), "hold").view(0, hand_index=hand_index)
    leader = tricks[-1].winner if tricks else 0
    return replace(view, tricks=tuple(tricks), current_trick=Trick(leader, (), 4))


# Seat 1 takes the 2♥ (it is the runner), then leads hearts; seat 2 ducks under the runner
# twice holding hearts over it (the 10♥ it plays later), seat 3 once (the Q♥ later), then takes
# the third heart trick: the moon is off.
LET_THROUGH = [
    trick(1, "KD 2H 3D 4D"),
    trick(1, "5H 3H 4H 2D"),
    trick(1, "7H 6H 9H 5D"),
    trick(3, "QH 8H 10H AH"),
]


def test_a_seat_that_let_a_runner_through_is_read_as_not_blocking():
    reads = hand_evidence(seen(LET_THROUGH))
    assert (reads[2].blocks.yes, reads[2].blocks.no) == (0, 2)
    assert (reads[3].blocks.yes, reads[3].blocks.no) == (0, 1)
    assert reads[2].lets_runners_through
    assert not reads[3].lets_runners_through  # one runner let through is not enough
    assert reads[1].blocks.chances == 0  # the runner itself had nobody to block
    reader = OpponentReader()
    reader.observe(seen(LET_THROUGH))
    assert reader.blockers(seen(LET_THROUGH)) == 0b1011  # every seat but 2, this one included


def test_a_seat_that_overtook_the_runner_holding_a_lower_card_is_read_as_blocking():
    blocked = [trick(1, "KD 2H 3D 4D"), trick(1, "5H 8H 4H 2D"), trick(2, "3H 6H 7H 9H")]
    reads = hand_evidence(seen(blocked))
    assert (reads[2].blocks.yes, reads[2].blocks.no) == (1, 0)
    assert not any(read.lets_runners_through for read in reads.values())


def test_ducks_and_the_queen_thrown_at_the_first_chance_are_counted():
    tricks = [
        trick(0, "2C 5C 3C KD"),  # seat 3, void in clubs, may not throw the Q♠ on the first trick
        trick(0, "4C 9C 6C QS"),  # so this is its first chance, and it throws her
        trick(1, "10C 8C 2D 7C"),
        trick(1, "AC JC 5D KC"),
    ]
    reads = hand_evidence(seen(tricks))
    assert (reads[3].queen_early.yes, reads[3].queen_early.no) == (1, 0)
    # Seat 2 ducked twice holding the J♣ over the winning club; under the 10♣ of seat 1, who took
    # the Q♠ (a runner winning the trick), ducking is moon play, and under the A♣ it had no choice.
    assert (reads[2].ducks.yes, reads[2].ducks.no) == (2, 0)
    assert reads[1].ducks.chances == 0  # it never held a club under the winning one


def test_with_nothing_read_every_seat_blocks_as_in_hards_deals():
    reader = OpponentReader()
    view = seen([])
    reader.observe(view)
    assert reader.blockers(view) == -1 == BLOCKERS.blockers
    assert reader.read(2).blocks.mean == 2 / 3  # the prior: a seat blocks until seen otherwise


def test_the_read_carries_to_the_next_hand_and_into_the_masters_plans():
    bot = MasterBot(5, queen_lead=False, play_samples=64, pass_samples=64)
    bot.reader.observe(seen(LET_THROUGH, hand_index=0))
    fresh = HandState.from_seed(12, Rules(), "left").view(0, hand_index=1)
    bot.choose_pass(fresh)  # the first view of the next hand
    assert bot.reader.read(2).lets_runners_through
    plans = bot._plans(fresh)
    assert plans and all(plan.blockers == 0b1011 for plan in plans)
    assert Blocking(shooter=0, blockers=0b1011) in plans  # the moon plan, seat 2 not blocking


def test_the_master_reads_a_table_of_beginners_over_hands_at_one_table():
    # Seat 0's views over hands of one game (the same reader all game, as at a table): the seat
    # that never blocks is read as such, the blockers never are.
    bots = [NormalBot(0), NormalBot(1), NormalBot(2, block_moons=False), NormalBot(3)]
    reader = OpponentReader()
    for index in range(40):
        state = HandState.from_seed(1000 + index, Rules(), "hold")
        while (seat := state.seat_to_act) is not None:
            view = state.view(seat, hand_index=index)
            if seat == 0:
                reader.observe(view)
            state.apply(bot_action(bots[seat], view))
    assert reader.read(2).lets_runners_through and reader.read(2).blocks.no >= 2
    assert not reader.read(1).lets_runners_through and not reader.read(3).lets_runners_through
    assert reader.read(1).blocks.no == reader.read(3).blocks.no == 0


def test_with_no_read_the_master_decides_as_hard_and_the_same_for_a_seed():
    """Without its deals' Q♠ lead (``queen_lead``, on by default) and with nothing read, the
    master is Hard: its reads alone are what make it differ."""
    for seed in (3, 4):
        state = HandState.from_seed(seed, Rules(), "hold")
        for _ in range(5):
            state.play(state.legal_cards()[0])
        view = state.view(state.seat_to_act)
        master = MasterBot(seed, queen_lead=False, play_samples=128).choose_play(view)
        assert master in view.legal_cards
        assert master == MasterBot(seed, queen_lead=False, play_samples=128).choose_play(view)
        assert master == HardBot(seed, play_samples=128).choose_play(view)
        assert MasterBot(seed, play_samples=128).choose_play(view) in view.legal_cards


def test_the_master_plays_a_hand_legally_to_the_end():
    state = HandState.from_seed(21, Rules(), "left")
    bots = [
        MasterBot(1, play_samples=64, pass_samples=64),
        NormalBot(2),
        NormalBot(3, block_moons=False),
        NormalBot(4),
    ]
    while (seat := state.seat_to_act) is not None:
        state.apply(bot_action(bots[seat], state.view(seat)))
    assert state.phase is Phase.DONE


def test_play_outs_leave_a_seat_read_as_not_blocking_out_of_blocking_compiled_as_the_reference():
    """``Blocking.blockers`` reaches the compiled policy card for card, and it decides cards: with
    every opponent of seat 0 left out, runs that blockers stop get through."""
    from engine.search.batch import Batch
    from engine.search.playout import playout_result
    from tests.test_batch import moon_positions, positions

    rules = Rules()
    changed = 0
    for blocking in (Blocking(blockers=0b1011), Blocking(shooter=0, blockers=0b0001)):
        for played in (0, 3, 9):
            states = positions(rules, 24, played) + moon_positions(rules, 24, played)
            scores = Batch.from_states(states).run("heuristic", blocking=blocking)
            for row, state in enumerate(states):
                result = playout_result(state, None, blocking=blocking)
                assert tuple(scores[row]) == result.scores, (blocking, played, row)
                everyone = playout_result(state, None, blocking=replace(blocking, blockers=-1))
                changed += result.scores != everyone.scores
    assert changed > 0


def play_hand_at_table(session, learner, new: bool) -> None:
    """One hand at the card table, the learner's seat played by ``learner``, the bots by their turns."""
    if new:
        session.new_hand()
    while not session.hand.is_over:
        if session.bot_to_act is not None:
            session.bot_step()
            continue
        view = session.hand.view(0, hand_index=session.hand_index)
        if session.hand.phase is Phase.PASSING:
            session.pass_selected([card.code for card in learner.choose_pass(view)])
        else:
            session.play(learner.choose_play(view).code)


def test_at_a_table_the_master_keeps_its_read_from_hand_to_hand():
    """The card table seats one bot object for the whole game (``trainer.table.session``): the
    master's reader still holds the first hand's evidence once the next hand has begun."""
    from trainer.table.session import TableSession

    master = MasterBot(1, play_samples=16, pass_samples=16)
    learner = NormalBot(7, block_moons=False)
    session = TableSession(
        seed=5, bots={1: master, 2: NormalBot(2, block_moons=False), 3: "normal"}, hints=learner
    )
    snapshots = []
    for hand in range(2):
        play_hand_at_table(session, learner, new=hand > 0)
        snapshots.append({seat: master.reader.read(seat).ducks.chances for seat in (0, 2, 3)})
    first, both = snapshots
    assert session.bots[1] is master and session.hand_index == 1
    # The second hand's evidence adds to the first's: nothing counted in the first is lost.
    assert all(both[seat] >= first[seat] for seat in first)
    assert 0 < sum(first.values()) < sum(both.values())


def test_a_resumed_table_gives_the_master_back_what_it_had_read():
    """A reload puts a kept game back with new bot objects (``TableSession.resume``): the master
    is shown the game's hands so far from its seat, so its read of the table is not lost."""
    from trainer.table.session import TableSession

    master = MasterBot(1, play_samples=16, pass_samples=16)
    learner = NormalBot(7, block_moons=False)
    session = TableSession(seed=5, bots={1: master, 2: "normal", 3: "normal"}, hints=learner)
    for hand in range(2):
        play_hand_at_table(session, learner, new=hand > 0)
    live = {seat: master.reader.read(seat) for seat in (0, 2, 3)}
    resumed = TableSession(seed=99, bots={1: "master", 2: "normal", 3: "normal"}, hints=learner)
    resumed.resume(session.to_record())
    again = resumed.bots[1]
    assert again is not master and again.name == "master"
    read = {seat: again.reader.read(seat) for seat in (0, 2, 3)}
    # Everything the live master counted is counted again (it may see a hand's last cards too,
    # which the live one, deciding no more, did not look at).
    for seat in live:
        for habit in ("blocks", "ducks", "queen_early"):
            seen, back = getattr(live[seat], habit), getattr(read[seat], habit)
            assert back.chances >= seen.chances
    assert sum(read[seat].ducks.chances for seat in read) > 0


# Seat 2 plays over the winning club, then over the winning diamond, each time holding a card
# under it (the 4♣ and the 2♦ it leads next): no duck, twice.
PLAYS_OVER = [
    trick(0, "2C 5C 9C 3C"),
    trick(2, "4C 6C 7C 8C"),
    trick(1, "4D 9D 3D 5D"),
    trick(2, "2D 6D 7D 8D"),
]

# Seat 3 is void in clubs from the first trick, where the Q♠ is barred (not a chance); on the
# second it throws a diamond though it holds the Q♠ (it plays her next): kept at its first chance.
KEEPS_QUEEN = [
    trick(0, "2C 5C 3C KD"),
    trick(1, "9C 4C 4D 6C"),
    trick(1, "2S 3S QS 5S"),
]


def test_a_seat_that_plays_over_where_it_could_duck_is_read_as_not_ducking():
    reads = hand_evidence(seen(PLAYS_OVER))
    assert (reads[2].ducks.yes, reads[2].ducks.no) == (0, 2)
    assert reads[2].plays_over and not reads[1].plays_over and not reads[3].plays_over
    assert reads[1].ducks.chances == reads[3].ducks.chances == 0  # never held a card on each side
    reader = OpponentReader()
    reader.observe(seen(PLAYS_OVER))
    assert reader.duckers(seen(PLAYS_OVER)) == 0b1011
    assert reader.blockers(seen(PLAYS_OVER)) == reader.queen_droppers(seen(PLAYS_OVER)) == -1


def test_a_seat_that_keeps_the_queen_is_read_so_after_two_hands_not_one():
    reads = hand_evidence(seen(KEEPS_QUEEN))
    assert (reads[3].queen_early.yes, reads[3].queen_early.no) == (0, 1)
    reader = OpponentReader()
    reader.observe(seen(KEEPS_QUEEN, hand_index=0))
    assert not reader.read(3).keeps_queen  # one chance a hand: one keep is not enough
    assert reader.queen_droppers(seen(KEEPS_QUEEN)) == -1
    reader.observe(seen(KEEPS_QUEEN, hand_index=1))
    assert reader.read(3).keeps_queen and reader.read(3).queen_early.no == 2
    assert reader.queen_droppers(seen(KEEPS_QUEEN, hand_index=1)) == 0b0111


def test_the_queen_is_not_counted_where_she_was_barred_or_would_feed_a_runner():
    # Seat 3, void in clubs and holding the Q♠ (played last): on the first trick she is barred; on
    # the third seat 1, who took the 2♥ (the runner), wins the club trick: she would feed its moon.
    tricks = [
        trick(0, "2C 5C 3C KD"),
        trick(1, "AD 2H 3D 4D"),
        trick(1, "9C 4C 7D 6C"),
        trick(1, "2S 3S QS 5S"),
    ]
    assert hand_evidence(seen(tricks))[3].queen_early.chances == 0
    # The same throw with no runner on the table is a chance, and a keep.
    tricks[1] = trick(1, "AD 2D 3D 4D")
    assert hand_evidence(seen(tricks))[3].queen_early.no == 1


def test_the_master_plays_its_imagined_deals_with_the_seats_as_read():
    """Read over two hands, seat 2 plays over and seat 3 keeps the Q♠: in the master's plans, the
    play-outs' seat 2 plays its highest card over the winning one where it could duck, and seat 3
    throws a heart rather than the Q♠; seat 1, read as neither, ducks and throws her."""
    from engine.search.policy import choose_card
    from tests.test_moon import MOON, mask

    bot = MasterBot(5, reads=MasterBot.READS, play_samples=64, pass_samples=64)
    bot.reader.observe(seen(PLAYS_OVER + KEEPS_QUEEN[1:], hand_index=0))
    bot.reader.observe(seen(KEEPS_QUEEN, hand_index=1))
    fresh = HandState.from_seed(12, Rules(), "left").view(0, hand_index=2)
    bot.choose_pass(fresh)
    plans = bot._plans(fresh)
    assert plans and all(p.duckers == 0b1011 and p.queen_droppers == 0b0111 for p in plans)
    assert all(p.blockers == -1 for p in plans)  # nothing read on blocking: all block

    def card(seat, hand, trick, plan):
        outstanding = ((1 << 52) - 1) & ~mask(hand) & ~mask(trick)
        cards = [parse_card(c) for c in trick.split()]
        legal = mask(hand)
        if any(c // 13 == cards[0] // 13 for c in [parse_card(c) for c in hand.split()]):
            legal &= 0x1FFF << (13 * (cards[0] // 13))
        return choose_card(mask(hand), legal, cards, 4, True, seat, (seat - len(cards)) % 4,
                           -1, MOON, 0, outstanding, plan)  # fmt: skip

    for plan in plans:
        # Following the 8♦ with the 3♦ and the K♦: seat 2 plays over, seat 1 ducks.
        assert card(2, "3D KD 5C", "8D", plan) == parse_card("KD")
        assert card(1, "3D KD 5C", "8D", plan) == parse_card("3D")
        # Void in diamonds with the Q♠ and the 9♥: seat 3 keeps her, seat 1 throws her.
        assert card(3, "QS 9H 5C", "8D", plan) == parse_card("9H")
        assert card(1, "QS 9H 5C", "8D", plan) == parse_card("QS")
    assert card(2, "3D KD 5C", "8D", BLOCKERS) == parse_card("3D")  # Hard's deals: every seat ducks
    assert card(3, "QS 9H 5C", "8D", BLOCKERS) == parse_card("QS")


def test_seats_seen_ducking_and_throwing_the_queen_leave_the_master_deciding_as_hard():
    tricks = [trick(0, "2C 5C 3C KD"), trick(0, "4C 9C 6C QS"), trick(1, "AC JC 5D KC")]
    for seed in (3, 4):
        view = seen(tricks, seed=seed)
        master = MasterBot(seed, queen_lead=False, play_samples=64)
        hard = HardBot(seed, play_samples=64)
        master.reader.observe(view)
        assert master.reader.read(3).queen_early.yes == 1 and master.reader.read(2).ducks.yes == 2
        assert master._plans(view) == hard._plans(view)


def test_play_outs_play_seats_read_as_not_ducking_or_keeping_the_queen_compiled_as_the_reference():
    """``Blocking.duckers`` and ``queen_droppers`` reach the compiled policy card for card, and
    they decide cards."""
    from engine.search.batch import Batch
    from engine.search.playout import playout_result
    from tests.test_batch import moon_positions, positions

    rules = Rules()
    changed = 0
    for blocking in (
        Blocking(duckers=0b1011),
        Blocking(queen_droppers=0b0111),
        Blocking(shooter=0, blockers=0b0011, duckers=0b0001, queen_droppers=0b0101),
    ):
        for played in (0, 3, 9):
            states = positions(rules, 24, played) + moon_positions(rules, 24, played)
            scores = Batch.from_states(states).run("heuristic", blocking=blocking)
            for row, state in enumerate(states):
                result = playout_result(state, None, blocking=blocking)
                assert tuple(scores[row]) == result.scores, (blocking, played, row)
                plain = replace(blocking, duckers=-1, queen_droppers=-1)
                changed += result.scores != playout_result(state, None, blocking=plain).scores
    assert changed > 0


def test_by_default_the_master_reads_blocking_alone_and_plays_its_deals_with_every_seat_ducking():
    """``reads`` chooses the habits its deals use (by default blocking alone: the ducks and Q♠
    reads measured no stronger); the ones left out are counted but leave the deals as Hard's."""
    bot = MasterBot(5, play_samples=64, pass_samples=64)
    bot.reader.observe(seen(PLAYS_OVER + KEEPS_QUEEN[1:], hand_index=0))
    bot.reader.observe(seen(KEEPS_QUEEN, hand_index=1))
    fresh = HandState.from_seed(12, Rules(), "left").view(0, hand_index=2)
    bot.choose_pass(fresh)
    assert bot.reader.read(2).plays_over and bot.reader.read(3).keeps_queen
    plans = bot._plans(fresh)  # and by default its deals' Q♠ holders lead short (``queen_lead``)
    assert plans == [replace(plan, queen_leaders=-1) for plan in HardBot(5)._plans(fresh)] and not bot.used
    full = MasterBot(5, reads=MasterBot.READS, play_samples=64, pass_samples=64)
    full.reader = bot.reader
    full._plans(fresh)
    assert full.used == {"ducks", "queen"}
    with pytest.raises(ValueError, match="unknown habit 'queens'"):
        MasterBot(5, reads=("blocks", "queens"))


@pytest.mark.parametrize("queen_lead", [False, True])
def test_the_queen_lead_option_plays_the_masters_deals_alone_with_every_holder_leading_short(queen_lead):
    """``queen_lead``: every plan's seats, holding the Q♠ on lead, lead their shortest side suit
    (``Blocking.queen_leaders``); Hard's plans, which the coach's map is fitted beside, never."""
    fresh = HandState.from_seed(12, Rules(), "left").view(0, hand_index=0)
    bot = MasterBot(5, queen_lead=queen_lead, play_samples=32, pass_samples=32)
    hard = HardBot(5)._plans(fresh)
    assert all(plan.queen_leaders == 0 for plan in hard)
    expected = [replace(plan, queen_leaders=-1 if queen_lead else 0) for plan in hard]
    assert bot._plans(fresh) == expected
    state = HandState.from_seed(12, Rules(), "hold")
    for _ in range(6):
        state.play(state.legal_cards()[0])
    view = state.view(state.seat_to_act)
    assert bot.choose_play(view) in view.legal_cards
