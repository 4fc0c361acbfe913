"""JSON API whose pages are objects of records keyed by id (not lists), by page or by cursor."""

from prefect_autodata.sandbox.zoo.families.api_site import ApiFamily

FAMILY = ApiFamily(
    "api_keyed_ids",
    key_style=("camel", "snake", "pascal"),
    shape="keyed",
    pagination=("page", "cursor"),
    auth=("query", "header", "bearer", None),
    openapi=True,
)
