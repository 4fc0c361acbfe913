"""Registry of the zoo's layout families: one module per family, each exposing FAMILY."""

from __future__ import annotations

from prefect_autodata.sandbox.zoo.base import Family
from prefect_autodata.sandbox.zoo.families import (
    api_abbrev_cursor,
    api_camel_pages,
    api_csv_download,
    api_keyed_ids,
    api_ndjson_download,
    api_rows_header,
    api_snake_nested,
    html_cards,
    html_detail,
    html_dl,
    html_flex,
    html_grouped,
    html_legacy,
    html_list,
    html_table,
    html_text,
    html_transposed,
    js_embedded_state,
    js_infinite_scroll,
    js_load_more,
    sd_jsonld_detail,
    sd_microdata_cards,
)

FAMILIES: dict[str, Family] = {
    "html_table_listing": html_table.FAMILY,
    "html_transposed_table": html_transposed.FAMILY,
    "html_item_list": html_list.FAMILY,
    "html_card_grid": html_cards.FAMILY,
    "html_dl_blocks": html_dl.FAMILY,
    "html_flex_rows": html_flex.FAMILY,
    "html_text_lines": html_text.FAMILY,
    "html_detail_pages": html_detail.FAMILY,
    "html_grouped_sections": html_grouped.FAMILY,
    "html_legacy_tables": html_legacy.FAMILY,
    # API, file, JS and structured-data families
    "api_camel_pages": api_camel_pages.FAMILY,
    "api_snake_nested": api_snake_nested.FAMILY,
    "api_abbrev_cursor": api_abbrev_cursor.FAMILY,
    "api_rows_header": api_rows_header.FAMILY,
    "api_keyed_ids": api_keyed_ids.FAMILY,
    "api_csv_download": api_csv_download.FAMILY,
    "api_ndjson_download": api_ndjson_download.FAMILY,
    "js_load_more": js_load_more.FAMILY,
    "js_infinite_scroll": js_infinite_scroll.FAMILY,
    "js_embedded_state": js_embedded_state.FAMILY,
    "sd_jsonld_detail": sd_jsonld_detail.FAMILY,
    "sd_microdata_cards": sd_microdata_cards.FAMILY,
}
