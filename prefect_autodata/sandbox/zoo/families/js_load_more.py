"""A script-built listing: records fetched from a JSON endpoint, a "load more" button appends pages."""

from prefect_autodata.sandbox.zoo.families.js_base import JsFamily

FAMILY = JsFamily("js_load_more", "load_more")
