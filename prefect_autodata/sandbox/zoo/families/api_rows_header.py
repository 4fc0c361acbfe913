"""JSON API answering arrays of arrays with a header row (separate or as the first row)."""

from prefect_autodata.sandbox.zoo.families.api_site import ApiFamily

FAMILY = ApiFamily(
    "api_rows_header",
    key_style=("camel", "snake", "pascal", "abbrev"),
    shape="rows",
    pagination=("page", "offset", "none"),
    auth=("query", "header", "bearer"),
)
