"""Which link on a listing is the requested team's/player's own page (pure, no sockets)."""

from __future__ import annotations

from prefect_autodata.agents.evidence import Link
from prefect_autodata.agents.offline import discovery as d
from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.runtime.spec import CollectorSpec

LINKS = [
    Link(url="http://h.test/teams/white-sox/stats", text="CHW"),
    Link(url="http://h.test/teams/red-sox/stats", text="BOS"),
    Link(url="http://h.test/teams/yankees/stats", text="NYY"),
    Link(url="http://h.test/players/2544", text="LeBron James"),
    Link(url="http://h.test/players/201939", text="Stephen Curry"),
]


def test_entity_link_by_code_and_slug_not_a_namesake():
    plan = parse_instruction(
        "Collect all regular-season hitting statistics of MLB Boston Red Sox from 2015 to 2019."
    )
    assert d.entity_link([LINKS], plan).url.endswith("/red-sox/stats")


def test_entity_link_by_player_name_and_none_when_absent():
    plan = parse_instruction("Collect all regular-season statistics of NBA player Stephen Curry up to 2024.")
    assert d.entity_link([LINKS], plan).url.endswith("/201939")
    other = parse_instruction("Collect all regular-season statistics of NBA player Dirk Nowitzki up to 2024.")
    assert d.entity_link([LINKS], other) is None
    league = parse_instruction("Collect the hitting statistics of all MLB teams in 2021.")
    assert d.entity_link([LINKS], league) is None


def test_internal_field_is_not_a_column():
    spec = CollectorSpec.parse(
        {
            "name": "x",
            "primary_key": ["ID"],
            "sources": [
                {
                    "name": "list",
                    "kind": "json",
                    "request": {"url": "https://h.test/list"},
                    "fields": [
                        {"name": "ID", "jsonpath": "$.id"},
                        {"name": "detail_url", "jsonpath": "$.href", "internal": True},
                    ],
                    "detail": {
                        "url_field": "detail_url",
                        "kind": "json",
                        "fields": [{"name": "NAME", "jsonpath": "$.n"}],
                    },
                }
            ],
        }
    )
    assert [c.name for c in spec.output_columns()] == ["ID", "NAME"]
