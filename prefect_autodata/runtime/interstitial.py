"""Recognise bot-check / interstitial pages served with HTTP 200, so a challenge is never landed as data."""

from __future__ import annotations

import re

_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)

# Phrases that only appear on challenge pages (checked in the title and the first part of the body).
_TITLE_MARKERS = (
    "just a moment",
    "checking your browser",
    "attention required",
    "access denied",
    "are you a robot",
    "are you human",
    "security check",
    "verify you are human",
    "ddos protection",
    "please wait while we verify",
    "bot verification",
    "captcha",
)
_BODY_MARKERS = (
    "checking your browser before accessing",
    "verify you are human",
    "verifying you are human",
    "enable javascript and cookies to continue",
    "please enable cookies",
    "cf-browser-verification",
    "cf_chl_opt",
    "challenge-platform",
    "g-recaptcha",
    "h-captcha",
    "hcaptcha.com",
    "px-captcha",
    "_incapsula_resource",
    "distil_r_captcha",
    "are you a robot",
    "unusual traffic from your computer",
    "press & hold",
)


def detect_interstitial(text: str, content_type: str = "text/html") -> str | None:
    """Return the marker that gave a challenge page away, or None for an ordinary page.

    Only HTML is inspected: a JSON API answering with data is never a challenge."""
    if "html" not in content_type and not text.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
        return None
    head = text[:20000].lower()
    m = _TITLE.search(head)
    title = m.group(1).strip() if m else ""
    for marker in _TITLE_MARKERS:
        if marker in title:
            return f"title {title[:60]!r}"
    for marker in _BODY_MARKERS:
        if marker in head:
            return f"marker {marker!r}"
    # A tiny page that only runs a script and reloads: the classic JS challenge.
    visible = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", head, flags=re.S)
    if len(text) < 4096 and "<script" in head and len(visible.split()) < 8:
        if re.search(r"location\.(reload|replace|href)|document\.cookie|settimeout\(", head):
            return "tiny page that only runs a reload/cookie script"
    return None
