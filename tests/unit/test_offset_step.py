"""An offset pagination steps by the records one call asks for: ``?count=9&offset=0`` with a body
stating a total steps 9, 18, 27 (a step of the raised page size, 1000, read the first 9 records only)."""

from __future__ import annotations

from prefect_autodata.agents.offline.induction import generalise_url
from prefect_autodata.agents.offline.instruction import parse_instruction


def test_offset_steps_by_the_size_the_call_asks_for() -> None:
    plan = parse_instruction("Collect all of the MLB team pitching seasons listed on the site.")
    gr = generalise_url(
        ["http://h/ajax/list?count=9&offset=0"], plan, page_size=1000, total_key="total_count"
    )
    assert gr.pagination is not None and gr.pagination.kind == "offset" and gr.pagination.param == "offset"
    assert gr.pagination.size == 9 and gr.pagination.size_param == "count"
    assert gr.query["count"] == "9"


def test_offset_without_a_size_parameter_keeps_its_step() -> None:
    plan = parse_instruction("Collect all of the MLB team pitching seasons listed on the site.")
    gr = generalise_url(["http://h/ajax/list?offset=0"], plan)
    assert gr.pagination is not None and gr.pagination.size == 100 and gr.pagination.size_param is None
