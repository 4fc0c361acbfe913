"""Page chrome told by what a block holds, not by the element around it.

A ``<form>`` is not chrome by itself: ASP.NET wraps the whole page in one (``<form id=aspnetForm>``
with ``__VIEWSTATE``), vBulletin puts the member list inside a form for its per-row checkboxes. A
table inside a form is the form's own layout (labels beside text boxes, a login box) when most of
its rows hold an entry control a person types or picks in; a table of records is not, whatever
encloses it. Navigation, headers, footers, sidebars and menus stay chrome by their element.
"""

from __future__ import annotations

from typing import Any

CHROME = {"nav", "header", "footer", "aside", "menu"}
# Controls a person fills in; a checkbox or a hidden field beside each record does not make a form.
_ENTRY = (
    "self::select or self::textarea or (self::input and (not(@type) or @type='text' or @type='password'"
    " or @type='search' or @type='email' or @type='number' or @type='tel' or @type='date'))"
)


def entry_form(rows: list[Any]) -> bool:
    """Most of ``rows`` hold a control to type or pick in: the layout of a form, not records."""
    if not rows:
        return False
    with_entry = sum(1 for tr in rows if tr.xpath(f".//*[{_ENTRY}]"))
    return with_entry * 2 >= len(rows)


def in_chrome(node: Any, rows: list[Any] | None = None) -> bool:
    """``node`` sits in page chrome, or inside a form whose fields ``rows`` (its own rows) mostly are."""
    ancestors = list(node.iterancestors())
    if any(a.tag in CHROME for a in ancestors):
        return True
    if any(a.tag == "form" for a in ancestors) or node.tag == "form":
        return entry_form(rows if rows is not None else list(node.iter("tr")))
    return False
