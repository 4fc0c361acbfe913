"""Paging induced from what the docs say plus the sample body (``engineering._docs_pagination``)."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.engineering import _docs_pagination
from prefect_autodata.agents.induction.jsonsets import json_record_sets
from prefect_autodata.agents.offline.induction import GeneralRequest

DOCS = {
    "cur": "Opaque cursor from the previous response; omit it for the first page.",
    "n": "Records per response, 1 to 40 (default 5).",
}


def _body(next_key: str) -> dict:
    return {
        "out": [{"rid": str(i), "ttl": f"Book {i}"} for i in range(5)],
        "pg": {"tlcnt": 27, next_key: "5"},
    }


@pytest.mark.parametrize("next_key", ["cur", "nextToken"])
def test_cursor_read_from_the_body_even_under_the_parameters_own_name(next_key):
    obj = _body(next_key)
    rs = json_record_sets(obj)[0]
    gr = GeneralRequest(base_url="http://h", path="/v2/shelf", query={"n": "5"}, params={})
    pag = _docs_pagination(DOCS, obj, rs, "http://h/v2/shelf?n=5", gr)
    assert pag is not None and pag.kind == "cursor" and pag.param == "cur"
    assert pag.next is not None and pag.next.jsonpath == f"$.pg.{next_key}"
    assert pag.total is not None and pag.total.jsonpath == "$.pg.tlcnt"
    assert gr.query == {"n": "40"}  # the largest page size the docs allow


def test_page_parameter_echoed_in_the_body_is_not_a_cursor():
    docs = {"pg": "Page number (first page is 0).", "n": "Records per response, 1 to 40 (default 5)."}
    obj = {"out": [{"rid": str(i)} for i in range(5)], "meta": {"pg": "0", "total": 27}}
    rs = json_record_sets(obj)[0]
    gr = GeneralRequest(base_url="http://h", path="/v2/shelf", query={"pg": "0"}, params={})
    pag = _docs_pagination(docs, obj, rs, "http://h/v2/shelf?pg=0", gr)
    assert pag is not None and pag.kind == "page" and pag.start == 0 and pag.param == "pg"
