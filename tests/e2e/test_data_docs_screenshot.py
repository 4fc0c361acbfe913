"""The Data Docs page of a failed run renders, styled, in headless Chromium with networking off."""

from __future__ import annotations

import pandas as pd
import pytest

from prefect_autodata.expectations.enforce import enforce
from prefect_autodata.expectations.spec import load_checks
from tests.unit.test_checkspec import EXAMPLES


@pytest.fixture()
def failed_run(workspace):
    from prefect_autodata.sandbox.data import load_table

    df = load_table("stocks")
    df = df[pd.to_datetime(df["date"]).dt.year == 2024]
    df = df[df["ticker"].isin(sorted(df["ticker"].unique())[:2])].reset_index(drop=True).copy()
    df.loc[3, "high"] = df.loc[3, "low"] - 1
    res = enforce(df, load_checks(EXAMPLES / "stocks.checks.yaml"), workspace=workspace, run_id="failed-run")
    assert res.status in ("failed", "quarantined") and res.docs_path is not None
    return res


def test_failed_expectation_renders_offline(failed_run, artifacts_dir):
    from playwright.sync_api import sync_playwright

    from prefect_autodata.runtime.browser import launch_chromium

    blocked: list[str] = []
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 2000})
            context.set_offline(True)

            def only_files(route):
                if route.request.url.startswith("file://"):
                    return route.continue_()
                blocked.append(route.request.url)
                return route.abort()

            context.route("**/*", only_files)
            page = context.new_page()
            page.goto(failed_run.docs_path.resolve().as_uri(), wait_until="load")
            text = page.inner_text("body")
            # the failed cross-column expectation is rendered, with its columns
            assert "high" in text and "low" in text
            failed_row = page.locator("tr", has_text="unexpected values found").first
            assert "must always be greater than or equal to" in failed_row.inner_text()
            assert "autodata run failed-run" in text
            # Bootstrap really loaded from the vendored files: the table and alert are styled
            styles = page.evaluate(
                """() => {
                    const t = document.querySelector('table.table');
                    const a = document.querySelector('#autodata-run');
                    return {tableWidth: getComputedStyle(t).width, tableCollapse: getComputedStyle(t).borderCollapse,
                            alertPad: getComputedStyle(a).paddingLeft, alertColor: getComputedStyle(a).backgroundColor,
                            jquery: typeof window.jQuery};
                }"""
            )
            assert styles["tableCollapse"] == "collapse"
            assert styles["alertPad"] == "20px"  # .alert { padding: .75rem 1.25rem }
            assert styles["alertColor"] not in ("rgba(0, 0, 0, 0)", "transparent")
            assert styles["jquery"] == "function"
            page.screenshot(path=str(artifacts_dir / "data_docs_failed_run.png"), full_page=False)
        finally:
            browser.close()
    assert blocked == [], f"the page tried to reach the network: {blocked}"
