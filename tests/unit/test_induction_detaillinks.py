"""An action link (send a message, vote) is no detail link: its targets fail or are one same page."""

from __future__ import annotations

from types import SimpleNamespace

from prefect_autodata.agents.induction.assemble import induce_page

URL = "http://127.0.0.1:9/members"
MEMBERS = [("Aldous Brandt", "Senior Member"), ("Kora Amsel", "Moderator"), ("Teo Brun", "Member"),
           ("Ada Celik", "Junior Member"), ("Ivo Dahl", "Member")]  # fmt: skip


def _listing():
    items = "".join(
        f"<li><a href='/sendmessage?u={i}'>Send a message</a> <h3><a href='/member/{i}'>{n}</a></h3></li>"
        for i, (n, _t) in enumerate(MEMBERS)
    )
    return f"<html><body><ul>{items}</ul></body></html>"


class _Fetcher:
    def __init__(self):
        self.asked = []

    def get(self, url):
        self.asked.append(url)
        if "/sendmessage" in url:  # every message link answers with one login page
            return SimpleNamespace(
                text="<html><head><title>Log in</title></head><body><form>Log in</form></body></html>"
            )
        i = int(url.rsplit("/", 1)[-1])
        name, title = MEMBERS[i]
        return SimpleNamespace(
            text=f"<html><head><title>{name} - profile</title></head><body><h1>{name}</h1>"
            f"<p><b>User title:</b> <span>{title}</span></p></body></html>"
        )


def test_the_record_link_replaces_an_action_link():
    f = _Fetcher()
    built = induce_page(URL, _listing(), ["name", "user title"], name="members", fetcher=f)
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    assert set(best.matches) == {"name", "user title"}
    detail = best.spec.sources[0].detail
    assert detail is not None
    url_rule = next(r for r in best.spec.sources[0].fields if r.name == "detail_url")
    assert "sendmessage" not in url_rule.xpath
    assert any("/member/" in u for u in f.asked)


def test_links_to_the_listing_and_its_siblings_are_navigation_not_detail_pages():
    """Day tabs on Saturday's schedule: one tab is the page itself, the others its sibling days."""
    page = "http://127.0.0.1:9/schedule/saturday.html"
    days = [("friday", "Friday 17 April", "Workshops and tutorials all day"),
            ("saturday", "Saturday 18 April", "Talks in three rooms"),
            ("sunday", "Sunday 19 April", "Sprints and hallway track")]  # fmt: skip
    tabs = "".join(f"<li><h3><a href='{d}.html'>{t}</a></h3> <p>{k}</p></li>" for d, t, k in days)
    html = f"<html><head><title>Schedule</title></head><body><ul class='nav'>{tabs}</ul></body></html>"
    asked = []

    class Days:
        def get(self, url):
            asked.append(url)
            return SimpleNamespace(text=html.replace("Schedule", url.rsplit("/", 1)[-1]))

    built = induce_page(page, html, ["name", "description"], name="days", fetcher=Days())
    assert built and all(b.spec.sources[0].detail is None for b in built)
