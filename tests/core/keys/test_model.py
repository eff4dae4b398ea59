"""Expiry as people write it, and the shape of secrets."""

from __future__ import annotations

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError
from jupyter_mcp_lab.core.keys import parse_expiry
from jupyter_mcp_lab.core.keys.model import id_of, new_secret

NOW = 1_700_000_000.0  # 2023-11-14


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30d", 30 * 86400), ("12h", 12 * 3600), ("90m", 90 * 60), ("2w", 14 * 86400), ("1.5d", 1.5 * 86400)],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_expiry(text, NOW) == NOW + seconds


def test_iso_dates_are_utc_unless_they_say_otherwise() -> None:
    assert parse_expiry("2027-01-15", NOW) == 1_799_971_200
    assert parse_expiry("2027-01-15T00:00:00Z", NOW) == 1_799_971_200
    assert parse_expiry("2027-01-15T02:00:00+02:00", NOW) == 1_799_971_200


@pytest.mark.parametrize("text", ["", "soon", "30", "30y", "-1d", "0d", "2023-01-01", "2027-13-01"])
def test_bad_or_past_expiry_is_an_argument_error(text: str) -> None:
    with pytest.raises(ArgumentError) as refused:
        parse_expiry(text, NOW)
    assert refused.value.argument == "expires"


def test_secrets_are_unique_and_name_their_record() -> None:
    made = {new_secret() for _ in range(200)}
    assert len({s for _, s in made}) == 200
    for key_id, secret in made:
        assert id_of(secret) == key_id
