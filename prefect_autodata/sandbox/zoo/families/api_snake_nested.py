"""JSON API with snake_case keys, records nested in groups, ``?offset=&limit=`` slices."""

from prefect_autodata.sandbox.zoo.families.api_site import ApiFamily

FAMILY = ApiFamily(
    "api_snake_nested", key_style="snake", shape="nested", pagination="offset", auth=("query", "header", None)
)
