"""Records as plain text lines: one record per line, values joined by a separator, no markup.

``Jaleo · 202/628-7949 · 480 7th St. NW, Washington · Spanish<br>`` in a paragraph, or the lines of
a ``<pre>``. The separator is found from the lines themselves: a short run of punctuation (or a tab)
that occurs the same number of times on every line; the fields are the positions between
separators, each profiled by its values (a phone, a year, a price) so the matcher can tell them
apart when the page labels nothing. A first line of label words above lines of values is a header
and names the positions.

The runtime reads such a block with a records XPath that yields text (the container's text nodes,
or a string expression for a ``<pre>``), one record per line, and a regex per field that takes the
k-th piece between separators.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction import lexicon as lx
from prefect_autodata.agents.induction import values as vt
from prefect_autodata.agents.induction.dom import abs_path, clean, xq
from prefect_autodata.agents.induction.matching import Candidate, dominant_type

_CHROME = {"nav", "header", "footer", "aside", "form", "menu"}
MIN_LINES = 3
# A separator: a tab, or 1-3 punctuation marks with spaces around them, or a bare bar/semicolon.
_SEP = re.compile(r"\t|(?<=\S) +[^\w\s]{1,3} +(?=\S)|[|;¦•·]")


@dataclass
class LineBlock:
    """A block of text lines: the records XPath, the separator, and per position label and values."""

    records_xpath: str
    sep: str
    labels: list[str | None]
    columns: list[list[str]]
    chrome: bool = False
    notes: list[str] = field(default_factory=list)
    # records of several lines (see ``stanzas``): the rule of each position, read through its label
    rules: list[dict[str, Any]] | None = None

    @property
    def rows(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def field_regex(self, k: int) -> str:
        """The regex whose group 1 is the ``k``-th (0-based) value of a line; no match when it is empty."""
        s = sep_regex(self.sep)
        piece = f"(?:(?!{s}).)*"
        return rf"^\s*(?:{piece}{s}){{{k}}}\s*((?:(?!{s}).)*?\S)\s*(?:{s}|$)"


def _core(sep: str) -> str:
    return sep if sep == "\t" else sep.strip()


_BARE = "\t|;¦•·"


def sep_regex(sep: str) -> str:
    """The regex of a separator: a bare mark as itself, other punctuation only with spaces around it.

    The spaces are looked at, not required to be the separator's own: in ``a ~  ~ b`` (an empty
    field) both marks separate, though one run of spaces lies between them.
    """
    return re.escape(sep) if sep in _BARE else rf"\s*(?<!\S){re.escape(sep)}(?!\S)\s*"


def find_separator(lines: list[str]) -> str | None:
    """The separator every line holds equally often (at least once), preferring spaced and frequent ones."""
    found = set()
    for ln in lines:
        found |= {_core(m.group(0)) for m in _SEP.finditer(ln)}
    # counted as the lines are split (an empty field between two marks counts both)
    counts = [Counter({c: len(re.findall(sep_regex(c), ln.strip())) for c in found}) for ln in lines]
    best: tuple[float, bool, str] | None = None
    for c in sorted(found):  # sorted: a tie is broken the same way in every process
        per = [cnt[c] for cnt in counts]
        n, share = Counter(per).most_common(1)[0]
        agree = share / len(per)
        if n < 1 or agree < 0.9:
            continue
        spaced = sum(1 for ln in lines if f" {c} " in ln or c == "\t") / len(lines)
        # a mark also written inside words ("5 mm-25 mm" beside " - ") is the values' own punctuation
        inner = sum(1 for ln, cnt in zip(lines, counts, strict=True) if ln.strip().count(c) > cnt[c]) / len(
            lines
        )
        score = agree * 2 + spaced + min(n, 12) / 24 - inner
        # on a tie a tab wins: it lays text out, while a dash or a dot also punctuates the values
        key = (score, c == "\t", c)
        if best is None or key[:2] > best[:2]:
            best = key
    return best[2] if best else None


def _split(line: str, sep: str) -> list[str]:
    return [clean(p) for p in re.split(sep_regex(sep), line.strip())]


def _has_digit(s: str) -> bool:
    return any(ch.isdigit() for ch in s)


def _header(first: list[str], body: list[list[str]]) -> bool:
    """A first line of label words (no digits) over the values they name.

    Told by contrast with the lines below: a column holds digits in most lines while its first piece
    holds none; or half the first pieces (two at least) are words that name a field ("Name", "Directed by", "Category")
    and none of them comes back as a value of its column (a record's values repeat down a column, a
    header's labels do not) -- so a list of names and genres has its header found without any digit.
    """
    if not first or not all(first) or any(_has_digit(x) or len(x) > 40 for x in first):
        return False
    width = len(first)
    cols = [[r[k] for r in body if k < len(r)] for k in range(width)]
    for col in cols:
        if col and sum(1 for v in col if _has_digit(v)) >= 0.8 * len(col):
            return True
    if len(body) < 2 or width < 2:
        return False
    if any(first[k].casefold() in {v.casefold() for v in cols[k]} for k in range(width)):
        return False
    named = sum(1 for x in first if lx.concepts_of(x))
    return named * 2 >= width and named >= 2


def _in_chrome(node: Any) -> bool:
    return node.tag in _CHROME or any(a.tag in _CHROME for a in node.iterancestors())


def _containers(root: Any) -> list[tuple[Any, list[str], str]]:
    """(element, its lines, how the runtime reads it): ``<pre>``s and elements of ``<br>``-separated text."""
    out = []
    for pre in root.iter("pre"):
        lines = [ln for ln in pre.text_content().splitlines() if ln.strip()]
        if len(lines) >= MIN_LINES:
            out.append((pre, lines, "pre"))
    seen: set[int] = set()
    for br in root.iter("br"):
        parent = br.getparent()
        if parent is None or id(parent) in seen:
            continue
        seen.add(id(parent))
        kids = [c for c in parent if isinstance(c.tag, str)]
        if any(c.tag != "br" for c in kids) or len(kids) < MIN_LINES - 1:
            continue  # lines with markup inside are records of another shape (regions)
        texts = [t for t in parent.xpath("text()") if str(t).strip()]
        lines = [str(t) for t in texts]
        if len(lines) >= MIN_LINES:
            out.append((parent, lines, "br"))
    return out


def _locate(node: Any) -> str:
    nid = node.get("id")
    if nid:
        return f"//{node.tag}[@id={xq(nid)}]"
    return abs_path(node)


def blocks(root: Any) -> list[LineBlock]:
    """Every block of separator-delimited text lines on the page (content before page chrome)."""
    out: list[LineBlock] = []
    for node, lines, how in _containers(root):
        sep = find_separator(lines)
        if sep is None:
            continue
        rows = [_split(ln, sep) for ln in lines]
        width = Counter(len(r) for r in rows).most_common(1)[0][0]
        if width < 2:
            continue
        head = _header(rows[0], rows[1:])
        body = [r for r in (rows[1:] if head else rows) if len(r) == width]
        if len(body) < MIN_LINES - 1:
            continue
        labels: list[str | None] = list(rows[0]) if head else [None] * width
        path = _locate(node)
        if how == "pre":
            xp = f"substring-after({path}, {xq(lines[0].strip())})" if head else f"string({path})"
        else:
            xp = f"{path}/text()[normalize-space()]"
            if head:
                xp += f"[normalize-space()!={xq(clean(lines[0]))}]"
        cols = [[r[k] for r in body] for k in range(width)]
        out.append(LineBlock(records_xpath=xp, sep=sep, labels=labels, columns=cols, chrome=_in_chrome(node)))
    out += stanzas(root)
    if any(not b.chrome for b in out):
        out = [b for b in out if not b.chrome]
    return out


# -- records of several lines ------------------------------------------------------------------------------
# ``Name: Jaleo<br>Phone: 202/628-7949<br><br>Name: Kazu<br>…``: a record is a stanza of lines, the
# stanzas parted by a blank line (two ``<br>``s) or an ``<hr>``; its lines are "Label: value" or bare.
MAX_STANZA = 10


# a line break whose line after it is filled: the stanza goes on past it
_GOES_ON = "[self::br][following-sibling::node()[1][self::text()][normalize-space()]]"
# a text node that opens a stanza: nothing before it, or a rule, or a blank line (a break right after
# a break or a rule that has no line of its own)
_OPENS = (
    "[not(preceding-sibling::*[1]) or preceding-sibling::*[1][self::hr] or preceding-sibling::*[1][self::br]"
    "[preceding-sibling::*[1][self::br or self::hr][not(following-sibling::node()[1][self::text()][normalize-space()])]]]"
)


def _stanza_groups(node: Any) -> list[list[str]] | None:
    """The stanzas of ``node``'s text lines, or None when it holds other markup than line breaks."""
    if any(isinstance(c.tag, str) and c.tag not in ("br", "hr") for c in node):
        return None
    pieces: list[Any] = [node.text]
    for c in node:
        if isinstance(c.tag, str):
            pieces.append(c.tag)
        pieces.append(c.tail)
    groups: list[list[str]] = []
    breaks = 2
    for p in pieces:
        if p in ("br", "hr"):
            breaks += 1 if p == "br" else 2
        elif p is not None and clean(p):
            if breaks >= 2 or not groups:
                groups.append([])
            groups[-1].append(clean(p))
            breaks = 0
    return groups


def _line_rule(k: int, label: str | None, width: int) -> dict[str, Any]:
    """The rule of a stanza's line. The record node is the break after the stanza's first line: the
    first line (k = 0) is the text before it, line k the text after the k-th break from it, while every
    break up to there has a filled line after it; a labelled line is the first line of the stanza that
    begins with its label."""
    tr: list[dict[str, Any]] = [{"op": "collapse_whitespace"}]
    if label:
        tr.append({"op": "regex", "pattern": rf"^(?:{re.escape(label)}\s*:\s*)?(.*\S)"})
    has = f"[starts-with(normalize-space(), {xq(label + ':')})]" if label else ""
    ways = []
    for j in range(width) if label else [k]:
        if j == 0:
            ways.append(f"preceding-sibling::node()[1][self::text()]{has}")
            continue
        on = "".join(f"[following-sibling::*[{i}]{_GOES_ON}]" for i in range(1, j))
        step = (
            "following-sibling::node()[1]"
            if j == 1
            else f"following-sibling::*[{j - 1}]/following-sibling::node()[1]"
        )
        ways.append(f"self::*{_GOES_ON}{on}/{step}{has}")
    return {"xpath": " | ".join(ways), "transforms": tr}


def _line_pairs(group: list[str]) -> list[tuple[str | None, str]]:
    return [(m.group(1).strip(), m.group(2)) if (m := _INNER.match(ln)) else (None, ln) for ln in group]


def _positions(parsed: list[list[tuple[str | None, str]]]) -> list[tuple[str | None, int]]:
    """(label, line) per field of the stanzas: the bare lines heading every stanza by their place, then
    each label found once in at least half the stanzas (never twice in one)."""
    width = max(len(g) for g in parsed)
    out: list[tuple[str | None, int]] = []
    for k in range(width):
        if not all(len(g) > k and g[k][0] is None for g in parsed):
            break
        out.append((None, k))
    shown: dict[str, str] = {}
    for g in parsed:
        for lab, _ in g:
            if lab:
                shown.setdefault(lab.casefold(), lab)
    for key, lab in shown.items():
        per = [sum(1 for x, _ in g if x and x.casefold() == key) for g in parsed]
        if sum(1 for n in per if n) >= 0.5 * len(parsed) and max(per) == 1:
            out.append((lab, -1))
    return out


def stanzas(root: Any) -> list[LineBlock]:
    """Blocks of records of several lines each (see above); each block read back through the runtime."""
    out: list[LineBlock] = []
    seen: set[int] = set()
    for br in root.iter("br", "hr"):
        node = br.getparent()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        groups = _stanza_groups(node)
        if not groups or len(groups) < MIN_LINES or max(len(g) for g in groups) > MAX_STANZA:
            continue
        if sum(1 for g in groups if len(g) >= 2) < 0.8 * len(groups):
            continue
        parsed = [_line_pairs(g) for g in groups]
        positions = _positions(parsed)
        if len(positions) < 2:
            continue
        width = max(len(g) for g in groups)
        cols, labels, rules = [], [], []
        for lab, k in positions:
            if lab is None:
                cols.append([g[k][1] for g in parsed])
            else:
                key = lab.casefold()
                cols.append([next((v for x, v in g if x and x.casefold() == key), "") for g in parsed])
            labels.append(lab)
            rules.append(_line_rule(k, lab, width))
        xp = f"{_locate(node)}/text()[normalize-space()]{_OPENS}/following-sibling::*[1]"
        block = LineBlock(
            records_xpath=xp,
            sep="blank line",
            labels=labels,
            columns=cols,
            chrome=_in_chrome(node),
            rules=rules,
        )
        if _reads_back(root, block):
            out.append(block)
    return out


def _reads_back(root: Any, block: LineBlock) -> bool:
    """True when the runtime, reading the block's records XPath and rules, gets the stanzas found here."""
    from prefect_autodata.runtime.extract import extract_field
    from prefect_autodata.runtime.spec import FieldRule

    recs = root.xpath(block.records_xpath)
    if len(recs) != block.rows:
        return False
    for rule, col in zip(block.rules or [], block.columns, strict=True):
        fr = FieldRule(name="v", **rule)
        for rec, want in zip(recs, col, strict=True):
            try:
                got = extract_field(rec, fr, page_url="", params={})
            except ValueError:
                return False
            if clean(got) != clean(want):
                return False
    return True


# "Phone: 202/628-7949": a short label of words, a colon, the value (a time "10:30" is no label)
_INNER = re.compile(r"^([^\W\d_][^\W\d_ .'/&-]*(?:[ .'/&-]+[^\W\d_]+){0,3})\s*:\s+(\S.*)$")


def inner_label(values: list[str]) -> str | None:
    """The label every filled value of one position begins with ("Tel: …", "Date Posted: …"), as the
    page writes it; None when the values do not all carry one same label."""
    filled = [v for v in values if v]
    if len(filled) < 2:
        return None
    heads = [m.group(1).strip() if (m := _INNER.match(v)) else None for v in filled]
    if any(h is None for h in heads) or len({h.casefold() for h in heads if h}) != 1:
        return None
    return heads[0]


def candidates(block: LineBlock) -> list[Candidate]:
    """One candidate per position of the lines: its label (header) or none, its values, its regex.

    A position whose every value begins with one same ``Label:`` is named by it. When most positions
    are written so ("Name: Jaleo; Phone: 202/628-7949; …") the labels are the lines' own header and
    the values are read without them; one labelled position among bare ones ("… | Tel: 202/628-7949 |
    …") is a value that names itself, read whole as the page shows it.
    """
    inner = [
        None if label or block.rules is not None else inner_label(values)
        for label, values in zip(block.labels, block.columns, strict=True)
    ]
    header_like = sum(1 for x in inner if x) * 2 > len(inner)
    out = []
    for k, (label, values) in enumerate(zip(block.labels, block.columns, strict=True)):
        rule: dict[str, Any] = {"regex": block.field_regex(k), "transforms": [{"op": "collapse_whitespace"}]}
        notes = [f"position {k + 1} of {len(block.labels)} between {block.sep!r}"]
        if block.rules is not None:
            rule = block.rules[k]
            notes = [f"line {label!r} of each stanza" if label else f"line {k + 1} of each stanza"]
        elif inner[k]:
            label = inner[k]
            notes.append(f"each value begins with {label + ':'!r}")
            if header_like:
                strip = rf"^(?:{re.escape(label)}\s*:\s*)?(.*\S)"
                rule["transforms"] = [*rule["transforms"], {"op": "regex", "pattern": strip}]
                values = [m.group(1) if (m := re.match(strip, v)) else v for v in values]
        kind, _ = dominant_type(values)
        distinct = len(set(values)) == len(values)
        # the first piece names the record, unless it is plainly another thing: a street address
        # ("9501 Brockbank Drive · ITALIAN · CATHY FILEDS") is where the record is, not its name
        named = k == 0 and distinct and kind == "text" and vt.profile(values).kind != "address"
        out.append(
            Candidate(
                label=label,
                values=values,
                rule=rule,
                origin="text line",
                identity=named,
                anchor=0.6 if label else 0.3,
                notes=notes,
            )
        )
    return out
