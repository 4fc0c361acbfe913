"""S11 E3: record links numbered on one script are no pager; a real numbered pager still is."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.pagination import detect

URL = "http://127.0.0.1/cgi/nph-Parser?Sect1=PTO2&s1=folding&d=PTXT"


def _hits(n: int) -> str:
    rows = "".join(
        f"<TR><TD>{i}</TD><TD><A HREF=nph-Parser?Sect1=PTO2&amp;s1=folding&amp;d=PTXT&amp;r={i}&amp;f=G>"
        f"8,0{i:02d},117</A></TD><TD><A HREF=nph-Parser?Sect1=PTO2&amp;s1=folding&amp;d=PTXT&amp;r={i}&amp;f=G>"
        f"Folding bicycle frame {chr(64 + i)}</A></TD></TR>"
        for i in range(1, n + 1)
    )
    return f"<HTML><BODY><TABLE><TR><TH>PAT. NO.</TH><TH>Title</TH></TR>{rows}</TABLE></BODY></HTML>"


def test_record_links_numbered_by_one_script_are_no_pager():
    assert detect(parse(_hits(10)), URL) is None


def test_numbered_pager_links_still_paginate():
    pager = "".join(
        f"<a href='nph-Parser?Sect1=PTO2&amp;s1=folding&amp;d=PTXT&amp;p={i}'>{i}</a> " for i in (2, 3, 4)
    )
    html = _hits(3).replace("</BODY>", f"<div>{pager}</div></BODY>")
    p = detect(parse(html), URL)
    assert p is not None and p.param == "p"


def test_page_links_titled_page_n_paginate():
    links = "".join(f"<a href='/l?page={i}'>Page {i}</a>" for i in (2, 3))
    p = detect(parse(f"<html><body><ul><li>a</li></ul>{links}</body></html>"), "http://127.0.0.1/l")
    assert p is not None and p.kind == "page" and p.param == "page"
