"""The position in a page address: compact, versioned, URL-safe, an exact round trip; anything else
given as an address is refused with one line and no position."""

from __future__ import annotations

import base64
import random
import re
import zlib
from dataclasses import replace

import pytest

from engine.rules import PRESETS
from tests.analysis_helpers import decisions, from_learner
from trainer.analysis import PositionError, from_address, from_view, parse_cards, to_address
from trainer.analysis.address import LONGEST, PRESET_CODES, VERSION
from trainer.analysis.errors import LONGEST as LONGEST_LINE
from trainer.analysis.position import AnalysisPosition, Trick

URL_SAFE = re.compile(r"[0-9]+\.[A-Za-z0-9_-]+")

TABLES = [
    ("standard", range(3)),
    ("three_players", range(3)),
    ("five_players", range(2)),
    ("seven_players", range(2)),
    ("six_players", range(1)),
    ("spot_hearts", range(1)),
    ("new_moon", range(1)),
    ("no_hold", range(2)),
]


@pytest.mark.parametrize(("preset", "seeds"), TABLES)
def test_every_real_position_round_trips_exactly_through_a_short_url_safe_address(preset, seeds):
    longest = 0
    for view in decisions(preset, seeds):
        pos = from_view(view)
        address = to_address(pos)
        assert URL_SAFE.fullmatch(address), address
        assert address.startswith(f"{VERSION}.")
        longest = max(longest, len(address))
        back = from_address(address)
        assert back == pos
        assert back.view() == from_learner(view)
    assert longest < 200


def test_every_preset_has_a_number_in_the_address():
    assert set(PRESET_CODES) == set(PRESETS)
    assert len(PRESET_CODES) == len(set(PRESET_CODES)) <= 32


def test_scores_of_either_sign_round_trip():
    pos = next(from_view(view) for view in decisions("new_moon", range(1)) if view.phase.value == "playing")
    for scores in ((0, 0, 0, 0), (-26, 99, 0, 52), (-999, 0, 0, 0)):
        moved = replace(pos, scores=scores)
        assert from_address(to_address(moved)).scores == scores


def refused(text: object) -> str:
    with pytest.raises(PositionError) as caught:
        from_address(text)
    error = caught.value
    assert error.field == "address"
    line = str(error)
    assert line.startswith("address: ") and "\n" not in line and len(line) <= LONGEST_LINE
    return line


def address_of(data: bytes, version: int = VERSION) -> str:
    data += bytes([zlib.crc32(data) & 0xFF])
    return f"{version}." + base64.urlsafe_b64encode(data).decode().rstrip("=")


def good() -> str:
    view = next(view for view in decisions("standard", range(1)) if len(view.tricks) == 3)
    return to_address(from_view(view))


def test_hostile_addresses_are_refused_with_one_line():
    address = good()
    assert "version 9 is not one this app reads" in refused("9" + address[1:])
    assert "does not start with a version" in refused("hello")
    assert "does not start with a version" in refused("")
    assert "too long" in refused(address + "A" * LONGEST)
    assert "too long" in refused("1." + "A" * 10_000_000)
    assert "characters no position address has" in refused(address[:10] + "%" + address[11:])
    assert "characters no position address has" in refused(address + "=")
    assert "not sound base64" in refused(address + "A" * (4 - len(address.split(".")[1]) % 4 + 1))
    assert "too short" in refused("1.")
    assert "expected text" in refused(None)
    assert "expected text" in refused(b"1.AAAA")


def test_a_truncated_or_changed_address_is_refused():
    address = good()
    body = address.split(".", 1)[1]
    rng = random.Random(54)
    for cut in range(1, len(body) - 1):
        refused(f"{VERSION}.{body[:cut]}")  # checksum or length
    for _ in range(300):
        index = rng.randrange(len(body))
        changed = body[:index] + rng.choice([c for c in "AQgw09_-" if c != body[index]]) + body[index + 1 :]
        try:
            pos = from_address(f"{VERSION}.{changed}")
        except PositionError as error:
            assert str(error).startswith("address: ")
        else:  # a change the checksum misses must still be a possible position
            pos.check()


def test_random_bytes_never_get_past_the_reading_without_one_line():
    rng = random.Random(5454)
    for size in range(0, 90, 3):
        for _ in range(20):
            data = bytes(rng.randrange(256) for _ in range(size))
            text = address_of(data)
            try:
                pos = from_address(text)
            except PositionError as error:
                line = str(error)
                assert line.startswith("address: ") and len(line) <= LONGEST_LINE
            else:
                pos.check()


def test_a_valid_encoding_of_an_impossible_position_is_refused_with_the_position_reason():
    pos = AnalysisPosition(
        4, "standard", "pass", parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"), "left"
    )
    address = to_address(pos)
    assert from_address(address) == pos
    # the same bits with a 14th card in the hand: re-encoded by hand, checksum and all
    data = base64.urlsafe_b64decode(address[2:] + "==")[:-1]
    value = int.from_bytes(data, "big")
    bits = len(data) * 8
    value |= 1 << (bits - 11 - 52 + 13)  # the 2♦'s bit of the hand mask (card 13)
    line = refused(address_of(value.to_bytes(len(data), "big")))
    assert "this position cannot happen: hand: 14 cards" in line
    with pytest.raises(PositionError):
        to_address(replace(pos, hand=pos.hand[:-1]))  # no address for an impossible position


def test_a_field_out_of_range_is_named():
    bits = (7 << 5 | 0) << 8  # players 10
    assert "players: 10 is not 3 to 7" in refused(address_of(bits.to_bytes(2, "big")))
    bits = (1 << 5 | 31) << 8  # preset number 31
    assert "preset: number 31" in refused(address_of(bits.to_bytes(2, "big")))
    tricks = AnalysisPosition(4, "standard", "play", (), "hold", tricks=(Trick(0, ()),))
    with pytest.raises(PositionError):
        to_address(tricks)
