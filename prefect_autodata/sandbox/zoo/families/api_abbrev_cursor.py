"""JSON API with abbreviated keys, cursor tokens in the response ("next") and a bearer token."""

from prefect_autodata.sandbox.zoo.families.api_site import ApiFamily

FAMILY = ApiFamily(
    "api_abbrev_cursor",
    key_style=("abbrev", "abbrev_snake"),
    shape=("objects", "nested"),
    pagination="cursor",
    auth="bearer",
)
