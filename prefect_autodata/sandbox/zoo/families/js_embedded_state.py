"""Records embedded in a <script type="application/json"> element or a JS variable, drawn by script."""

from prefect_autodata.sandbox.zoo.families.js_base import JsFamily

FAMILY = JsFamily("js_embedded_state", "embedded")
