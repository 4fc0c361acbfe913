"""A 2000s/2010s-style page: layout tables, upper-case tags, <FONT>, bold header cells in <TD>s,
unquoted attributes, optional end tags left out, &nbsp; padding, no <main>, a "hit counter" box.

The records table sits inside the layout table's content cell; navigation is a table cell too.
Pagination: one page, ``?page=`` with "Next >>" links, or an A-Z letter index.
"""

from __future__ import annotations

import random

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families._common import (
    Pager,
    bad_request,
    base_notes,
    basics,
    esc,
    group_key,
    html_ok,
)


class LegacyTables:
    name = "html_legacy_tables"
    kinds = None

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        prefix = "/" + host
        order = b.order
        pager = Pager.draw(rs, rng, ("single", "page_param", "letter"))
        close_tags = rng.random() < 0.5
        pad = rng.random() < 0.5
        bg = rng.choice(("#EEEEEE", "#FFFFCC", "#DDEEFF"))
        font = rng.choice(("Verdana,Arial", "Times New Roman", "Tahoma"))
        n = len(rs.records)
        size = max(1, pager.size)
        pages = max(1, -(-n // size))
        end_td, end_tr = ("</TD>", "</TR>") if close_tags else ("", "")
        counter = rng.randint(10000, 99999)

        def cell(v: object) -> str:
            text = "" if v is None else esc(v)
            return f"&nbsp;{text}&nbsp;" if pad and text else text

        def data_table(indices: list[int]) -> str:
            head = "".join(f"<TD><B>{esc(b.labels[f])}</B>{end_td}" for f in order)
            rows = [f"<TR BGCOLOR={bg}>{head}{end_tr}"]
            for k, i in enumerate(indices):
                color = " BGCOLOR=#FFFFFF" if k % 2 else ""
                cells = "".join(
                    f"<TD><FONT SIZE=2>{cell(rs.records[i].get(f))}</FONT>{end_td}" for f in order
                )
                rows.append(f"<TR{color}>{cells}{end_tr}")
            return f"<TABLE BORDER=1 CELLPADDING=2 CELLSPACING=0 WIDTH=100%>{''.join(rows)}</TABLE>"

        def shell(title: str, content: str) -> str:
            nav = "".join(
                f'<A HREF="{esc(prefix + href)}">{esc(text)}</A><BR>' for text, href in b.chrome.nav
            )
            gen = (
                "Sample data - generated records."
                if rs.generated
                else "Records as published by their sources."
            )
            return (
                '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\n'
                f'<HTML><HEAD><META HTTP-EQUIV=Content-Type CONTENT="text/html; charset=utf-8"><TITLE>{esc(title)}</TITLE></HEAD>\n'
                f'<BODY BGCOLOR=#FFFFFF><FONT FACE="{font}">'
                f"<TABLE WIDTH=760 BORDER=0><TR><TD COLSPAN=2><H2>{esc(b.site_name)}</H2>{end_td}{end_tr}"
                f"<TR><TD VALIGN=top WIDTH=140>{nav}<HR><SMALL>Visitors: 0{counter}</SMALL>{end_td}"
                f"<TD VALIGN=top>{content}{end_td}{end_tr}</TABLE>"
                f"<HR><CENTER><SMALL>&copy; {esc(b.site_name)} - {gen}</SMALL></CENTER></FONT></BODY></HTML>\n"
            )

        title = f"{kind.plural.capitalize()} - {b.site_name}"

        def href(p: int) -> str:
            return b.entry if p == 1 else f"{b.entry}?page={p}"

        routes: list[BaseRoute] = []
        if pager.mode == "letter":
            groups: dict[str, list[int]] = {}
            for i, r in enumerate(rs.records):
                groups.setdefault(group_key("letter", r.get(kind.title_field)), []).append(i)
            keys = sorted(groups)
            slug = {k: k.lower().replace("-", "") for k in keys}
            by_slug = {v: k for k, v in slug.items()}

            async def index(request: Request) -> Response:
                links = " | ".join(
                    f'<A HREF="{esc(prefix + b.entry + "?letter=" + slug[k])}">{esc(k)}</A>' for k in keys
                )
                return html_ok(shell(title, f"<P>Browse: {links}</P>"))

            async def entry(request: Request) -> Response:
                letter = request.query_params.get("letter")
                if letter is None:
                    return await index(request)
                k = by_slug.get(letter)
                if k is None:
                    return bad_request("unknown letter")
                return html_ok(shell(f"{title} - {k}", f"<P><B>{esc(k)}</B></P>{data_table(groups[k])}"))

            routes.append(Route(b.entry, entry))
            paths = [b.entry + "?letter=" + slug[k] for k in keys]
        else:
            if pager.mode == "single":
                size, pages = max(n, 1), 1

            async def entry(request: Request) -> Response:
                raw = request.query_params.get("page", "1")
                if not raw.isdigit() or not 1 <= int(raw) <= pages:
                    return bad_request(f"page must be 1..{pages}")
                p = int(raw)
                lo, hi = (p - 1) * size, min(n, p * size)
                nav = ""
                if pages > 1:
                    prev = f'<A HREF="{esc(prefix + href(p - 1))}">&lt;&lt; Prev</A> ' if p > 1 else ""
                    nxt = f' <A HREF="{esc(prefix + href(p + 1))}">Next &gt;&gt;</A>' if p < pages else ""
                    nav = f"<P>{prev}Page {p} of {pages}{nxt}</P>"
                total = f"<P>Records {lo + 1} - {hi} of {n}</P>" if pager.total_line else ""
                return html_ok(shell(title, total + data_table(list(range(lo, hi))) + nav))

            routes.append(Route(b.entry, entry))
            paths = [href(p) for p in range(1, pages + 1)]

        async def about(request: Request) -> Response:
            return html_ok(
                shell(f"About - {b.site_name}", f"<P>{esc(b.site_name)} lists {esc(kind.plural)}.</P>")
            )

        async def contact(request: Request) -> Response:
            return html_ok(shell("Contact", "<P>Write to the webmaster.</P>"))

        routes += [Route("/about", about), Route("/contact", contact)]
        item = "//table[tr[1]/td/b][not(.//table)]/tr[position()>1]"
        fields = {f: {"x": f"./td[{k}]", "prefix": None} for k, f in enumerate(order, start=1)}
        notes = base_notes(
            b, self.name, pager, paths, mode="items", item=item, fields=fields, detail_link=None
        )
        return ZooSite(host=host, family=self.name, routes=routes, entry_path=b.entry, notes=notes)


FAMILY = LegacyTables()
