"""JSON API with camelCase keys, flat or nested records, ``?page=`` pagination and a key on every request."""

from prefect_autodata.sandbox.zoo.families.api_site import ApiFamily

FAMILY = ApiFamily(
    "api_camel_pages",
    key_style="camel",
    shape=("objects", "nested"),
    pagination="page",
    auth=("query", "header", "bearer"),
)
