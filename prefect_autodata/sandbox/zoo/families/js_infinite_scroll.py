"""A script-built listing with infinite scroll: the next slice loads when the page bottom comes into view."""

from prefect_autodata.sandbox.zoo.families.js_base import JsFamily

FAMILY = JsFamily("js_infinite_scroll", "infinite")
