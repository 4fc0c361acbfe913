"""Registry of the zoo's layout families: one module per family, each exposing FAMILY."""

from __future__ import annotations

from prefect_autodata.sandbox.zoo.base import Family
from prefect_autodata.sandbox.zoo.families import (
    html_cards,
    html_detail,
    html_dl,
    html_flex,
    html_list,
    html_table,
    html_text,
    html_transposed,
)

FAMILIES: dict[str, Family] = {
    "html_table": html_table.FAMILY,
    "html_transposed": html_transposed.FAMILY,
    "html_list": html_list.FAMILY,
    "html_cards": html_cards.FAMILY,
    "html_dl": html_dl.FAMILY,
    "html_flex": html_flex.FAMILY,
    "html_text": html_text.FAMILY,
    "html_detail": html_detail.FAMILY,
}
