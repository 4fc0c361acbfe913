"""Generated sample records: what the sandbox serves when the shared real records are absent.

Why: the real Instruct2DS and SWDE records are public data from outside and never live in the
repository. A fresh clone without ``../shared`` must still run ``make demo`` and its tests, so this
module writes small record sets of the same schemas (every column the sandbox sites, the task
catalog and the zoo read, with the real files' dtypes) from word lists and random draws,
deterministic by seed. Nothing here is read from or copied out of ``../shared``; pages that serve
these records say so in their footer (``sandbox.data.sample_note``).

Value shapes follow what real pages show: BibTeX-style author lists on the anthology venues, prices
like ``$23,495``, dates in each site's own format, phone numbers in several notations. Every name
the task catalog asks for (conferences and tracks, tickers, NBA teams and players, MLB clubs) is
present with the seasons or years the catalog names, so the catalog and ``autodata demo`` work.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from functools import cache

import numpy as np
import pandas as pd

DEFAULT_SEED = 0

# ---------------------------------------------------------------- word lists (written for this module)

FIRST_NAMES = (
    "Anna Ben Chen Daria Elif Felix Grace Hiro Ines Jonas Kavya Liam Mei Noor Omar Priya Quentin Rosa Sven Tara "
    "Uma Victor Wen Ximena Yusuf Zoe Aiko Bruno Carmen Dmitri Emma Farid Gita Hugo Ivan Julia Kenji Lena Marco "
    "Nadia Oscar Paula Rafael Sofia Tomas Ursula Vera Wei Yara Zhen Ahmed Beatriz Cyrus Dana Erik Fatima Gustavo "
    "Hana Isaac Jamal Katrin Luca Maya Nikolai Olga Pedro Rina Samir Thea Yuki Zainab Álvaro Chloé Jürgen Zoë "
    "Søren Inés José Łukasz"
).split()
LAST_NAMES = (
    "Abara Becker Castillo Dubois Eriksen Fischer Garcia Huang Ivanova Jensen Kato Lindqvist Moreau Nakamura "
    "Okafor Petrov Quinn Rossi Schmidt Tanaka Ueda Vogel Wang Xu Yilmaz Zhang Almeida Brennan Costa Dietrich "
    "Esposito Fontaine Gupta Horvath Iyer Janssen Kowalski Larsen Mendes Novak Oliveira Park Ramos Silva Tran "
    "Usman Varga Weber Yamamoto Zhou Ahn Bauer Chowdhury Dang Ekström Ferreira Gómez Hoffmann Ibrahim Jovanović "
    "Kim Lopez Müller Nguyen Ortiz Patel Quispe Reyes Sato Takahashi Van Dijk Walsh Young Zaman"
).split()
_ADJ = (
    "Robust Efficient Scalable Sparse Adaptive Unsupervised Contrastive Hierarchical Causal Probabilistic "
    "Multilingual Lightweight Differentiable Interpretable Federated Generative Compositional Incremental "
    "Self-Supervised Low-Resource Neural Implicit Equivariant Bayesian Structured Dynamic"
).split()
_NOUN = (
    "Representations Transformers Embeddings Graphs Policies Attention Networks Priors Kernels Retrieval "
    "Alignment Tokenizers Encoders Decoders Memories Agents Features Ensembles Adapters Prompts Fields"
).split()
_TASK = (
    "Machine Translation|Question Answering|Image Segmentation|Object Detection|Speech Recognition|Text "
    "Summarization|Depth Estimation|Dialogue Generation|Named Entity Recognition|Video Understanding|Pose "
    "Estimation|Code Generation|Relation Extraction|Optical Flow|Semantic Parsing|Image Retrieval|Reinforcement "
    "Learning|Time Series Forecasting|Sentiment Analysis|3D Reconstruction|Domain Adaptation|Few-Shot Learning"
).split("|")
_TECH = (
    "Curriculum Learning|Knowledge Distillation|Contrastive Pretraining|Meta-Learning|Data Augmentation|Optimal "
    "Transport|Diffusion Models|Variational Inference|Active Learning|Mixture of Experts|Graph Neural Networks|"
    "Energy-Based Models|Sparse Coding|Low-Rank Adaptation"
).split("|")
_ABSTRACT = (
    "We study {task} under realistic constraints.",
    "Existing methods rely on large labelled corpora and degrade when the distribution shifts.",
    "We propose {adj} {noun} that combine {tech} with a simple training objective.",
    "Our approach requires no additional supervision and adds little computational overhead.",
    "Experiments on {n} benchmarks show consistent gains over strong baselines.",
    "We further analyse when and why the method fails.",
    "Code and models are publicly available.",
    "Theoretical analysis shows that the estimator is consistent under mild assumptions.",
    "On {task}, our model improves the state of the art by {k} points.",
)

# ---------------------------------------------------------------- papers

# venue -> years served when generated (every catalog year, plus neighbours for variety)
PAPER_YEARS: dict[str, tuple[int, ...]] = {
    "NeurIPS": (2015, 2016, 2017, 2018, 2019, 2020),
    "ACL": (2022, 2023, 2024),
    "EMNLP": (2021, 2022, 2023),
    "NAACL": (2021, 2022, 2024),
    "CVPR": (2019, 2020, 2021, 2022),
    "ICCV": (2019, 2021),
    "ECCV": (2018, 2020, 2022),
    "ICML": (2019, 2020, 2021, 2022, 2023),
    "ICLR": (2019, 2020, 2021, 2022, 2023),
}
_ICML_VOLUMES = {2019: 97, 2020: 119, 2021: 139, 2022: 162, 2023: 202}
_ECCV_VOLUME = {2020: 12346, 2022: 13661}
_BIBTEX_VENUES = {"ACL", "EMNLP", "NAACL", "ICML"}


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _volumes(abbr: str, year: int) -> list[tuple[str, str, str, float]]:
    """(track, conference full name, anthology volume or "", share of the year's papers)."""
    if abbr == "ACL":
        meeting = f"Proceedings of the {_ordinal(year - 1962)} Annual Meeting of the Association for Computational Linguistics"
        return [
            ("Long Paper Track", f"{meeting} (Volume 1: Long Papers)", f"{year}.acl-long", 0.45),
            ("Short Paper Track", f"{meeting} (Volume 2: Short Papers)", f"{year}.acl-short", 0.12),
            ("Findings Track", f"Findings of the Association for Computational Linguistics: ACL {year}",
             f"{year}.findings-acl", 0.43),
        ]  # fmt: skip
    if abbr == "EMNLP":
        return [
            ("Main Conference Track",
             f"Proceedings of the {year} Conference on Empirical Methods in Natural Language Processing",
             f"{year}.emnlp-main", 0.6),
            ("Findings Track", f"Findings of the Association for Computational Linguistics: EMNLP {year}",
             f"{year}.findings-emnlp", 0.4),
        ]  # fmt: skip
    if abbr == "NAACL":
        name = (
            f"Proceedings of the {year} Conference of the North American Chapter of the Association for "
            "Computational Linguistics: Human Language Technologies"
        )
        return [("Main Conference Track", name, f"{year}.naacl-main", 1.0)]
    names = {
        "NeurIPS": f"Advances in Neural Information Processing Systems {year - 1987}  "
        f"({'NIPS' if year <= 2017 else 'NeurIPS'} {year})",
        "CVPR": f"IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR), {year}",
        "ICCV": f"IEEE/CVF International Conference on Computer Vision (ICCV), {year}",
        "ECCV": f"European Conference on Computer Vision (ECCV), {year}",
        "ICML": f"Proceedings of the {_ordinal(year - 1983)} International Conference on Machine Learning",
        "ICLR": f"International Conference on Learning Representations {year}",
    }
    return [("Main Conference Track", names[abbr], "", 1.0)]


def _person(rng: random.Random) -> tuple[str, str]:
    first = rng.choice(FIRST_NAMES)
    if rng.random() < 0.15:
        first = f"{first} {rng.choice('ABCDEJKLMPRST')}."
    return first, rng.choice(LAST_NAMES)


def _title(rng: random.Random) -> str:
    forms = (
        "{adj} {noun} for {task}",
        "{adj} {task} with {tech}",
        "Towards {adj} {task}",
        "On the Robustness of {noun} in {task}",
        "Learning {adj} {noun} via {tech}",
        "{name}: {adj} {noun} for {task}",
        "Rethinking {tech} for {adj} {task}",
        "When Do {noun} Help {task}?",
    )
    name = "".join(rng.choice("BCDFGKLMNPRSTVZ") + rng.choice("aeiou") for _ in range(2)).capitalize() + "Net"
    return rng.choice(forms).format(
        adj=rng.choice(_ADJ),
        noun=rng.choice(_NOUN),
        task=rng.choice(_TASK),
        tech=rng.choice(_TECH),
        name=name,
    )


def _abstract(rng: random.Random) -> str:
    picks = [_ABSTRACT[0]] + rng.sample(_ABSTRACT[1:], rng.randint(2, 5))
    return " ".join(
        s.format(
            task=rng.choice(_TASK).lower(),
            adj=rng.choice(_ADJ).lower(),
            noun=rng.choice(_NOUN).lower(),
            tech=rng.choice(_TECH).lower(),
            n=rng.choice(["three", "four", "five", "seven"]),
            k=rng.randint(1, 9),
        )
        for s in picks
    )


def _authors(people: list[tuple[str, str]], abbr: str, year: int) -> str:
    if abbr in _BIBTEX_VENUES:
        sep = "  and " if abbr != "ICML" else " and "
        return sep.join(f"{last}, {first}" for first, last in people)
    sep = ",  " if abbr in ("CVPR", "ICCV") and year <= 2020 else ", "
    return sep.join(f"{first} {last}" for first, last in people)


def _ascii(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _words(title: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9]+", _ascii(title))


def _links(abbr: str, year: int, vol: str, n: int, title: str, people, rng: random.Random, used: set[str]):
    """(paper_link, bibtex_link, supp_link) shaped like each venue's real URLs."""
    first, last = people[0]
    surname = re.sub(r"[^A-Za-z]", "", _ascii(last)) or "Anon"
    if abbr in ("ACL", "EMNLP", "NAACL"):
        base = f"https://aclanthology.org/{vol}.{n}"
        return f"{base}.pdf", f"{base}.bib", ""
    if abbr == "NeurIPS":
        digest = hashlib.md5(f"{year}|{title}|{n}".encode()).hexdigest()
        base = f"https://papers.nips.cc/paper_files/paper/{year}/file/{digest}"
        supp = f"{base}-Supplemental.zip" if rng.random() < 0.7 else ""
        return f"{base}-Paper.pdf", f"{base}-Bibtex.bib", supp
    if abbr in ("CVPR", "ICCV"):
        folder = f"content/{abbr}{year}" if year >= 2021 else f"content_{abbr}_{year}"
        words = "_".join(_words(title))
        stem = f"{surname}_{words}_{abbr}_{year}"
        short = f"{surname}_{'_'.join(_words(title)[:3])}_{abbr}_{year}"
        supp = f"https://openaccess.thecvf.com/{folder}/supplemental/{short}_supplemental.pdf"
        return (
            f"https://openaccess.thecvf.com/{folder}/papers/{stem}_paper.pdf",
            "",
            supp if rng.random() < 0.6 else "",
        )
    if abbr == "ECCV":
        folder = f"https://www.ecva.net/papers/eccv_{year}/papers_ECCV/papers"
        if year not in _ECCV_VOLUME:
            fname = re.sub(r"[^A-Za-z]", "", _ascii(first.split()[0]))
            stem = f"{fname}_{surname}_{'_'.join(_words(title)[:3])}_ECCV_{year}_paper"
            return f"{folder}/{stem}.pdf", "", ""
        stem = f"{_ECCV_VOLUME[year] + n // 40}{(n % 40) * 16 + 1:04d}"
        return f"{folder}/{stem}.pdf", "", f"{folder}/{stem}-supp.pdf" if rng.random() < 0.8 else ""
    if abbr == "ICML":
        base = f"{surname.lower()}{year % 100:02d}"
        letter = "a"
        while f"{base}{letter}" in used:
            letter = chr(ord(letter) + 1)
        pid = f"{base}{letter}"
        used.add(pid)
        root = f"http://proceedings.mlr.press/v{_ICML_VOLUMES[year]}/{pid}/{pid}"
        return f"{root}.pdf", "", f"{root}-supp.pdf" if rng.random() < 0.8 else ""
    digest = hashlib.sha1(f"{abbr}|{year}|{title}|{n}".encode()).hexdigest()  # ICLR
    return f"https://openreview.net/pdf/{digest}.pdf", "", ""


def papers(seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """Accepted papers per venue-year (abbr, year, idx, title, authors, abstract, conference, track, links)."""
    rows = []
    for abbr, years in PAPER_YEARS.items():
        for year in years:
            rng = random.Random(f"{seed}|papers|{abbr}|{year}")
            total = rng.randint(70, 160)  # more than one page of the paginated listings and APIs
            idx = 0
            titles: set[str] = set()
            used: set[str] = set()
            for track, conference, vol, share in _volumes(abbr, year):
                for n in range(1, max(6, round(total * share)) + 1):
                    title = _title(rng)
                    while title in titles:
                        title = _title(rng)
                    titles.add(title)
                    people = [_person(rng) for _ in range(rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8)))]
                    paper, bib, supp = _links(abbr, year, vol, n, title, people, rng, used)
                    no_abstract = abbr in ("ACL", "EMNLP", "NAACL") and rng.random() < 0.3
                    rows.append(
                        {
                            "abbr": abbr,
                            "year": year,
                            "idx": idx,
                            "title": title,
                            "authors": _authors(people, abbr, year),
                            "abstract": "" if no_abstract else _abstract(rng),
                            "conference": conference,
                            "track": track,
                            "paper_link": paper,
                            "bibtex_link": bib,
                            "supp_link": supp,
                        }
                    )
                    idx += 1
    return pd.DataFrame(rows).astype({"year": "int64", "idx": "int64"})


# ---------------------------------------------------------------- stocks

# The tickers the catalog names, then other large US companies (symbols only; prices are drawn).
TICKERS = (
    "AAPL MSFT AMZN GOOGL NVDA JPM XOM KO TSLA META BRK-B UNH V "
    "ADBE BAC CAT COST CRM CSCO CVX DIS GS HD IBM INTC JNJ MA MCD MRK NFLX NKE ORCL PEP PFE PG QCOM T VZ WMT"
).split()
STOCK_YEARS = (2015, 2024)
# Rough public price levels (first and last day, in today's terms) of some named tickers, so the
# generated series look like their stocks (e.g. checks that a 2024 close exceeds 100 behave alike).
PRICE_LEVELS = {
    "AAPL": (24.0, 235.0), "MSFT": (40.0, 420.0), "AMZN": (15.0, 215.0), "GOOGL": (26.0, 185.0),
    "NVDA": (0.5, 135.0), "JPM": (48.0, 235.0), "XOM": (62.0, 108.0), "KO": (33.0, 62.0),
}  # fmt: skip
INDEX_SIZE = 503  # tickers in the last year (an index's worth of constituents)


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The n-th (1-based; -1 = last) given weekday of a month."""
    if n > 0:
        d = dt.date(year, month, 1)
        d += dt.timedelta(days=(weekday - d.weekday()) % 7)
        return d + dt.timedelta(weeks=n - 1)
    d = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
    return d - dt.timedelta(days=(d.weekday() - weekday) % 7)


def _easter(year: int) -> dt.date:
    """Gregorian Easter Sunday (anonymous algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    m = (32 + 2 * e + 2 * i - h - k) % 7
    n = (a + 11 * h + 22 * m) // 451
    month, day = divmod(h + m - 7 * n + 114, 31)
    return dt.date(year, month, day + 1)


def _observed(d: dt.date, saturday_to_friday: bool = True) -> dt.date | None:
    if d.weekday() == 5:
        return d - dt.timedelta(days=1) if saturday_to_friday else None
    if d.weekday() == 6:
        return d + dt.timedelta(days=1)
    return d


def exchange_holidays(year: int) -> set[dt.date]:
    """Full-day closures of the New York exchange by its published rules (plus the 2018 day of mourning)."""
    days = {
        _observed(dt.date(year, 1, 1), saturday_to_friday=False),
        _nth_weekday(year, 1, 0, 3),
        _nth_weekday(year, 2, 0, 3),
        _easter(year) - dt.timedelta(days=2),
        _nth_weekday(year, 5, 0, -1),
        _observed(dt.date(year, 7, 4)),
        _nth_weekday(year, 9, 0, 1),
        _nth_weekday(year, 11, 3, 4),
        _observed(dt.date(year, 12, 25)),
    }
    if year >= 2022:
        days.add(_observed(dt.date(year, 6, 19)))
    if year == 2018:
        days.add(dt.date(2018, 12, 5))
    return {d for d in days if d is not None}


def trading_days(first: int, last: int) -> list[dt.date]:
    out = []
    for year in range(first, last + 1):
        closed = exchange_holidays(year)
        d = dt.date(year, 1, 1)
        while d.year == year:
            if d.weekday() < 5 and d not in closed:
                out.append(d)
            d += dt.timedelta(days=1)
    return out


def _symbols(rng: random.Random, n: int, taken: set[str]) -> list[str]:
    """Made-up ticker symbols (2-4 capitals), none of them taken."""
    out: list[str] = []
    while len(out) < n:
        sym = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ") for _ in range(rng.choice((2, 3, 3, 4, 4))))
        if sym not in taken:
            taken.add(sym)
            out.append(sym)
    return out


def _price_block(tickers: list[str], days: list[dt.date], rs: np.random.Generator) -> pd.DataFrame:
    """Daily prices of several tickers at once: random walks with splits and quarterly dividends; a
    ticker with a rough known price level (``PRICE_LEVELS``) walks a bridge between its two levels."""
    t, n = len(tickers), len(days)
    walk = np.cumsum(rs.normal(0.0005, 1.0, (t, n)) * rs.uniform(0.011, 0.028, t)[:, None], axis=1)
    log_close = rs.normal(3.6, 0.8, t)[:, None] + walk
    frac = np.arange(n)[None, :] / max(1, n - 1)
    for i, sym in enumerate(tickers):
        if sym in PRICE_LEVELS:
            lo, hi = np.log(PRICE_LEVELS[sym])
            log_close[i] = lo + (hi - lo) * frac[0] + 0.5 * (walk[i] - frac[0] * walk[i, -1])
    adj_close = np.exp(log_close)
    split = np.ones((t, n))
    has = rs.random(t) < 0.35
    when = rs.integers(n // 5, max(n // 5 + 1, n - 5), t)
    split[has, when[has]] = rs.choice([2.0, 3.0, 4.0, 10.0], t)[has]
    later_splits = np.cumprod(split[:, ::-1], axis=1)[:, ::-1] / split  # splits after each day
    close = np.round(adj_close * later_splits, 2)  # before a split the price was higher by its ratio
    prev = np.concatenate([close[:, :1], close[:, :-1]], axis=1)
    noise = 1 + rs.normal(0, 0.006, (t, n))
    open_ = np.round(np.where(split > 1, close, prev) * noise, 2)
    high = np.round(np.maximum(open_, close) * (1 + np.abs(rs.normal(0, 0.008, (t, n)))), 2)
    low = np.round(np.minimum(open_, close) * (1 - np.abs(rs.normal(0, 0.008, (t, n)))), 2)
    volume = (np.exp(rs.normal(15.5, 0.9, t))[:, None] * np.exp(rs.normal(0, 0.35, (t, n)))).astype("int64")
    offset = rs.integers(20, 60, t)[:, None]
    day = np.arange(n)[None, :]
    pays = ((day - offset) % 63 == 0) & (day >= offset) & (rs.random(t) < 0.7)[:, None]
    div = np.where(pays, np.round(adj_close * rs.uniform(0.002, 0.008, t)[:, None], 2), 0.0)
    div_ratio = np.where(div > 0, 1 - div / np.where(prev > 0, prev, 1), 1.0)
    factor = (np.cumprod(div_ratio[:, ::-1], axis=1)[:, ::-1] / div_ratio) / later_splits
    flat = {
        "close": close, "high": high, "low": low, "open": open_, "volume": volume,
        "adjClose": np.round(close * factor, 6), "adjHigh": np.round(high * factor, 6),
        "adjLow": np.round(low * factor, 6), "adjOpen": np.round(open_ * factor, 6),
        "adjVolume": np.round(volume * later_splits).astype("int64"), "divCash": div, "splitFactor": split,
    }  # fmt: skip
    out = pd.DataFrame({"ticker": np.repeat(np.asarray(tickers, dtype=object), n)})
    out["date"] = np.tile(np.asarray(days, dtype=object), t)
    for k, v in flat.items():
        out[k] = v.reshape(-1)
    return out.astype({"ticker": "str"})


def stocks(seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """Daily prices: the named tickers over 2015-2024, and an index-sized set of others for the last year."""
    rs = np.random.default_rng(int.from_bytes(hashlib.sha256(f"{seed}|stocks".encode()).digest()[:8]))
    others = _symbols(random.Random(f"{seed}|symbols"), INDEX_SIZE - len(TICKERS), set(TICKERS))
    full = _price_block(list(TICKERS), trading_days(*STOCK_YEARS), rs)
    last = _price_block(others, trading_days(STOCK_YEARS[1], STOCK_YEARS[1]), rs)
    out = pd.concat([full, last], ignore_index=True)
    return out.sort_values(["ticker", "date"], kind="stable").reset_index(drop=True)


# ---------------------------------------------------------------- NBA

# (public league team id, city, nickname, abbreviation, first season) for the thirty franchises
NBA_TEAMS = (
    (1610612737, "Atlanta", "Hawks", "ATL", 1949), (1610612738, "Boston", "Celtics", "BOS", 1946),
    (1610612751, "Brooklyn", "Nets", "BKN", 1976), (1610612766, "Charlotte", "Hornets", "CHA", 1988),
    (1610612741, "Chicago", "Bulls", "CHI", 1966), (1610612739, "Cleveland", "Cavaliers", "CLE", 1970),
    (1610612742, "Dallas", "Mavericks", "DAL", 1980), (1610612743, "Denver", "Nuggets", "DEN", 1976),
    (1610612765, "Detroit", "Pistons", "DET", 1948), (1610612744, "Golden State", "Warriors", "GSW", 1946),
    (1610612745, "Houston", "Rockets", "HOU", 1967), (1610612754, "Indiana", "Pacers", "IND", 1976),
    (1610612746, "LA", "Clippers", "LAC", 1970), (1610612747, "Los Angeles", "Lakers", "LAL", 1948),
    (1610612763, "Memphis", "Grizzlies", "MEM", 1995), (1610612748, "Miami", "Heat", "MIA", 1988),
    (1610612749, "Milwaukee", "Bucks", "MIL", 1968), (1610612750, "Minnesota", "Timberwolves", "MIN", 1989),
    (1610612740, "New Orleans", "Pelicans", "NOP", 2002), (1610612752, "New York", "Knicks", "NYK", 1946),
    (1610612760, "Oklahoma City", "Thunder", "OKC", 1967), (1610612753, "Orlando", "Magic", "ORL", 1989),
    (1610612755, "Philadelphia", "76ers", "PHI", 1949), (1610612756, "Phoenix", "Suns", "PHX", 1968),
    (1610612757, "Portland", "Trail Blazers", "POR", 1970), (1610612758, "Sacramento", "Kings", "SAC", 1948),
    (1610612759, "San Antonio", "Spurs", "SAS", 1976), (1610612761, "Toronto", "Raptors", "TOR", 1995),
    (1610612762, "Utah", "Jazz", "UTA", 1974), (1610612764, "Washington", "Wizards", "WAS", 1961),
)  # fmt: skip
NBA_LAST_SEASON = 2024
NBA_FIRST_SEASON = 1946  # of the generated player-seasons
# Players the catalog and the shipped examples name: (public person id, name, first and last season).
NBA_NAMED_PLAYERS = (
    (2544, "LeBron James", 2003, 2024), (201939, "Stephen Curry", 2009, 2024), (1717, "Dirk Nowitzki", 1998, 2018),
    (201142, "Kevin Durant", 2007, 2024), (977, "Kobe Bryant", 1996, 2015), (201935, "James Harden", 2009, 2024),
    (203507, "Giannis Antetokounmpo", 2013, 2024), (203954, "Joel Embiid", 2016, 2024),
    (893, "Michael Jordan", 1984, 2002), (1495, "Tim Duncan", 1997, 2015),
)  # fmt: skip


def _roster(year: int) -> int:
    """Generated players per season (besides the named ones): a league that grew with its teams."""
    return 90 if year < 1960 else 140 if year < 1970 else 220 if year < 1980 else 330


_COUNTRIES = ("USA",) * 8 + (
    "Canada",
    "France",
    "Spain",
    "Serbia",
    "Australia",
    "Germany",
    "Nigeria",
    "Greece",
)
_ADV = ("OFF_RATING", "DEF_RATING", "NET_RATING", "PACE", "TS_PCT", "EFG_PCT", "AST_PCT", "REB_PCT", "PIE")


def _games(year: int) -> int:
    if year < 1967:
        return 60 + 2 * ((year - 1946) // 3)
    return {1998: 50, 2011: 66, 2019: 72, 2020: 72}.get(year, 82)


def nba_teams(seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """One row per franchise-season with standings, counting stats and a few advanced ratings."""
    rows = []
    for tid, city, nick, abbr, first in NBA_TEAMS:
        rng = random.Random(f"{seed}|nba_teams|{abbr}")
        strength = rng.uniform(0.35, 0.65)
        for year in range(first, NBA_LAST_SEASON + 1):
            gp = _games(year)
            strength = min(0.8, max(0.2, strength + rng.gauss(0, 0.07)))
            wins = max(5, min(gp - 5, round(gp * rng.gauss(strength, 0.05))))
            fga = round(gp * rng.gauss(86, 3))
            fg3a = round(gp * (3 + (year - 1979) * 0.7) * rng.uniform(0.85, 1.15)) if year >= 1979 else 0
            fg3m = round(fg3a * rng.uniform(0.28, 0.38))
            fgm = round(fga * rng.uniform(0.44, 0.49))
            fta = round(gp * rng.gauss(24, 2))
            ftm = round(fta * rng.uniform(0.72, 0.8))
            oreb, dreb = round(gp * rng.gauss(11, 1)), round(gp * rng.gauss(33, 1.5))
            po_wins = rng.choice((0, 0, 1, 2, 3, 4, 6, 8, 12, 16)) if wins > gp / 2 else 0
            rows.append(
                {
                    "TEAM_ID": tid,
                    "TEAM_CITY": city,
                    "TEAM_NAME": f"{city} {nick}",
                    "YEAR": year,
                    "GP": gp,
                    "WINS": wins,
                    "LOSSES": gp - wins,
                    "WIN_PCT": round(wins / gp, 3),
                    "CONF_RANK": 0,
                    "DIV_RANK": rng.randint(1, 5),
                    "PO_WINS": po_wins,
                    "PO_LOSSES": rng.randint(1, 4) if po_wins or wins > gp / 2 else 0,
                    "CONF_COUNT": 15.0,
                    "DIV_COUNT": 5,
                    "NBA_FINALS_APPEARANCE": None,
                    "FGM": fgm,
                    "FGA": fga,
                    "FG_PCT": round(fgm / fga, 3),
                    "FG3M": fg3m,
                    "FG3A": fg3a,
                    "FG3_PCT": round(fg3m / fg3a, 3) if fg3a else 0.0,
                    "FTM": ftm,
                    "FTA": fta,
                    "FT_PCT": round(ftm / fta, 3),
                    "OREB": oreb,
                    "DREB": dreb,
                    "REB": oreb + dreb,
                    "AST": round(gp * rng.gauss(23, 2)),
                    "PF": round(gp * rng.gauss(20, 1.5)),
                    "STL": round(gp * rng.gauss(7.5, 0.8)),
                    "TOV": round(gp * rng.gauss(14, 1.2)),
                    "BLK": round(gp * rng.gauss(5, 0.7)),
                    "PTS": 2 * fgm + fg3m + ftm,
                    "PTS_RANK": 0,
                    "TEAM_ABBREVIATION": abbr,
                    **{
                        f"ADV_{c}": round(
                            rng.uniform(0.4, 0.6) if "PCT" in c or c == "PIE" else rng.uniform(95, 118), 3
                        )
                        for c in _ADV
                    },
                }  # fmt: skip
            )
    df = pd.DataFrame(rows)
    by_year = df.groupby("YEAR")
    df["CONF_RANK"] = by_year["WIN_PCT"].rank(ascending=False, method="first").astype("int64").clip(upper=15)
    df["PTS_RANK"] = by_year["PTS"].rank(ascending=False, method="first").astype("int64")
    champs = df.loc[df.groupby("YEAR")["PO_WINS"].idxmax()]
    df.loc[champs.index, "NBA_FINALS_APPEARANCE"] = "LEAGUE CHAMPION"
    df["NBA_FINALS_APPEARANCE"] = (
        df["NBA_FINALS_APPEARANCE"].astype("str").where(df["NBA_FINALS_APPEARANCE"].notna(), None)
    )
    return df.reset_index(drop=True)


def _height(rng: random.Random) -> str:
    inches = round(rng.gauss(78.5, 3.3))
    return f"{inches // 12}-{inches % 12}"


def nba_players(seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """Player-seasons: the catalog's named players over their careers plus a generated league."""
    rng = random.Random(f"{seed}|nba_players")
    teams = [(tid, abbr, first) for tid, _, _, abbr, first in NBA_TEAMS]
    people: list[list] = [list(p[1:]) for p in NBA_NAMED_PLAYERS]
    names = {p[0] for p in people}
    # a league of _roster(year) generated players each season: some retire, rookies replace them
    active: list[list] = []
    for year in range(NBA_FIRST_SEASON, NBA_LAST_SEASON + 1):
        active = [p for p in active if rng.random() >= 0.18]
        for p in active:
            p[2] = year
        while len(active) < _roster(year):
            name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
            if name not in names:
                names.add(name)
                active.append([name, year, year])
                people.append(active[-1])
    stars = {p[1] for p in NBA_NAMED_PLAYERS}
    pids = [p[0] for p in NBA_NAMED_PLAYERS]
    pids += rng.sample(range(300_000, 1_700_000), len(people) - len(pids))
    # one row per stint (player, season, team); a traded player has two stints in a season
    stints: list[tuple] = []
    info: list[tuple] = []
    for i, (name, start, end) in enumerate(people):
        birth = dt.date(start - rng.randint(19, 22), rng.randint(1, 12), rng.randint(1, 28))
        drafted = rng.random() < 0.8 or name in stars  # the named stars were all drafted
        info.append(
            (
                f"{birth.isoformat()}T00:00:00",
                rng.choice(_COUNTRIES),
                _height(rng),
                float(round(rng.gauss(218, 22))),
                str(start - rng.choice((0, 0, 0, 1))) if drafted else "Undrafted",
                str(rng.choice((1, 1, 2))) if drafted else "Undrafted",
                str(rng.randint(1, 60)) if drafted else "Undrafted",
                name,
            )
        )
        team = rng.randrange(len(teams))
        while teams[team][2] > start:
            team = rng.randrange(len(teams))
        level = rng.uniform(1.4, 2.0) if name in stars else rng.uniform(0.3, 1.3)
        for year in range(start, end + 1):
            if rng.random() < 0.12 and name not in stars:  # traded in mid-season (never the named stars)
                other = rng.randrange(len(teams))
                if other != team and teams[other][2] <= year:
                    stints.append((pids[i], year, team, True, level, birth.year, i, 0))
                    stints.append((pids[i], year, other, True, level, birth.year, i, 1))
                    team = other
                    continue
            stints.append((pids[i], year, team, False, level, birth.year, i, 0))
    cols = dict(
        zip(
            ("pid", "year", "team", "split", "level", "born", "person", "sub"),
            zip(*stints, strict=True),
            strict=True,
        )
    )
    df = _player_lines(cols, seed)
    # the real table adds a season total row ("TOT") after the stints of a traded player
    totals = df[np.asarray(cols["split"], dtype=bool)].groupby(["PLAYER_ID", "SEASON_ID"], sort=False)
    totals = totals.agg(
        {**{c: "sum" for c in _PLAYER_COUNTS}, **{c: "first" for c in ("PLAYER_AGE", "_person")}}
    )
    totals = totals.reset_index().assign(_team=-1, _sub=9)
    df = pd.concat([df, totals], ignore_index=True)
    df = df.iloc[np.lexsort((df["_sub"].to_numpy(), df["SEASON_ID"].to_numpy(), df["_person"].to_numpy()))]
    df = df.reset_index(drop=True)
    _add_rates(df)
    team_id = np.array([t[0] for t in teams] + [0])
    abbr = np.array([t[1] for t in teams] + ["TOT"], dtype=object)
    code = df["_team"].to_numpy()
    df["TEAM_ID"] = team_id[code]
    df["TEAM_ABBREVIATION"] = abbr[code]
    df["LEAGUE_ID"] = "00"
    person = df["_person"].to_numpy()
    for k, column in zip(_PLAYER_INFO, zip(*info, strict=True), strict=True):
        df[k] = np.asarray(column, dtype=object)[person]
    floats = [
        "PLAYER_AGE",
        "GS",
        "MIN",
        "FG3M",
        "FG3A",
        "OREB",
        "DREB",
        "REB",
        "STL",
        "BLK",
        "TOV",
        "PLAYER_WEIGHT",
    ]
    ints = ["PLAYER_ID", "SEASON_ID", "TEAM_ID", "GP", "FGM", "FGA", "FTM", "FTA", "AST", "PF", "PTS"]
    strs = ["LEAGUE_ID", "TEAM_ABBREVIATION", *(k for k in _PLAYER_INFO if k != "PLAYER_WEIGHT")]
    types = {**dict.fromkeys(floats, "float64"), **dict.fromkeys(ints, "int64"), **dict.fromkeys(strs, "str")}
    return df[_PLAYER_COLUMNS].astype(types)


_PLAYER_INFO = (
    "PLAYER_BIRTHDATE",
    "PLAYER_COUNTRY",
    "PLAYER_HEIGHT",
    "PLAYER_WEIGHT",
    "PLAYER_DRAFT_YEAR",
    "PLAYER_DRAFT_ROUND",
    "PLAYER_DRAFT_NUMBER",
    "PLAYER_NAME",
)
_PLAYER_COUNTS = "GP GS MIN FGM FGA FG3M FG3A FTM FTA OREB DREB REB AST STL BLK TOV PF PTS".split()
_PLAYER_COLUMNS = [
    "PLAYER_ID", "SEASON_ID", "LEAGUE_ID", "TEAM_ID", "TEAM_ABBREVIATION", "PLAYER_AGE", "GP", "GS", "MIN",
    "FGM", "FGA", "FG_PCT", "FG3M", "FG3A", "FG3_PCT", "FTM", "FTA", "FT_PCT", "OREB", "DREB", "REB", "AST",
    "STL", "BLK", "TOV", "PF", "PTS", *_PLAYER_INFO,
]  # fmt: skip


def _player_lines(st: dict[str, list], seed: int) -> pd.DataFrame:
    """Counting stats of every stint at once (numpy), consistent with each other (PTS = 2 FGM + 3PM + FTM)."""
    r = np.random.default_rng(int.from_bytes(hashlib.sha256(f"{seed}|nba_lines".encode()).digest()[:8]))
    n = len(st["pid"])
    year = np.asarray(st["year"])
    split = np.asarray(st["split"], dtype=bool)
    level = np.asarray(st["level"])
    games = np.array([_games(int(y)) for y in year])
    gp = np.where(split, r.integers(10, games // 2 + 1), r.integers(8, games + 1))  # two stints fit a season
    minutes = np.round(gp * r.uniform(10, 36, n) * np.minimum(1.0, level))
    fga = np.round(minutes * 0.38 * level)
    fgm = np.round(fga * r.uniform(0.41, 0.53, n))
    fg3a = np.round(fga * r.uniform(0.1, 0.4, n) * np.where(year < 2000, 0.4, 1.0))
    fg3m = np.round(fg3a * r.uniform(0.28, 0.4, n))
    fta = np.round(fga * r.uniform(0.15, 0.35, n))
    ftm = np.round(fta * r.uniform(0.65, 0.9, n))
    oreb = np.round(minutes * r.uniform(0.02, 0.08, n))
    dreb = np.round(minutes * r.uniform(0.08, 0.22, n))
    return pd.DataFrame(
        {
            "PLAYER_ID": st["pid"],
            "SEASON_ID": year,
            "_team": st["team"],
            "PLAYER_AGE": (year - np.asarray(st["born"])).astype(float),
            "GP": gp,
            "GS": np.floor(gp * r.uniform(0, 1, n)),
            "MIN": minutes,
            "FGM": fgm,
            "FGA": fga,
            "FG3M": fg3m,
            "FG3A": fg3a,
            "FTM": ftm,
            "FTA": fta,
            "OREB": oreb,
            "DREB": dreb,
            "REB": oreb + dreb,
            "AST": np.round(minutes * r.uniform(0.03, 0.2, n)),
            "STL": np.round(minutes * r.uniform(0.01, 0.04, n)),
            "BLK": np.round(minutes * r.uniform(0.0, 0.04, n)),
            "TOV": np.round(minutes * r.uniform(0.03, 0.08, n)),
            "PF": np.round(minutes * r.uniform(0.05, 0.1, n)),
            "PTS": 2 * fgm + fg3m + ftm,
            "_person": st["person"],
            "_sub": st["sub"],
        }
    )


def _add_rates(df: pd.DataFrame) -> None:
    for rate, made, att in (("FG_PCT", "FGM", "FGA"), ("FG3_PCT", "FG3M", "FG3A"), ("FT_PCT", "FTM", "FTA")):
        df[rate] = np.where(df[att] > 0, (df[made] / df[att].where(df[att] > 0, 1)).round(3), 0.0)


# ---------------------------------------------------------------- MLB

# (teamIDfg, abbreviation, nickname, first season, [(until season, older abbreviation, older nickname)])
MLB_TEAMS = (
    (1, "LAA", "Angels", 1990, []), (2, "BAL", "Orioles", 1990, []), (3, "BOS", "Red Sox", 1990, []),
    (4, "CHW", "White Sox", 1990, []), (5, "CLE", "Guardians", 1990, [(2021, "CLE", "Indians")]),
    (6, "DET", "Tigers", 1990, []), (7, "KCR", "Royals", 1990, []), (8, "MIN", "Twins", 1990, []),
    (9, "NYY", "Yankees", 1990, []), (10, "OAK", "Athletics", 1990, []), (11, "SEA", "Mariners", 1990, []),
    (12, "TBR", "Rays", 1998, [(2007, "TBD", "Devil Rays")]), (13, "TEX", "Rangers", 1990, []),
    (14, "TOR", "Blue Jays", 1990, []), (15, "ARI", "Diamondbacks", 1998, []), (16, "ATL", "Braves", 1990, []),
    (17, "CHC", "Cubs", 1990, []), (18, "CIN", "Reds", 1990, []), (19, "COL", "Rockies", 1993, []),
    (20, "MIA", "Marlins", 1993, [(2011, "FLA", "Marlins")]), (21, "HOU", "Astros", 1990, []),
    (22, "LAD", "Dodgers", 1990, []), (23, "MIL", "Brewers", 1990, []),
    (24, "WSN", "Nationals", 1990, [(2004, "MON", "Expos")]), (25, "NYM", "Mets", 1990, []),
    (26, "PHI", "Phillies", 1990, []), (27, "PIT", "Pirates", 1990, []), (28, "STL", "Cardinals", 1990, []),
    (29, "SDP", "Padres", 1990, []), (30, "SFG", "Giants", 1990, []),
)  # fmt: skip
MLB_LAST_SEASON = 2024
_MLB_INT = set(
    "teamIDfg Season BAT_G BAT_AB BAT_PA BAT_H BAT_1B BAT_2B BAT_3B BAT_HR BAT_R BAT_BB BAT_wRC BAT_wRC+ PIT_W "
    "PIT_L PIT_G PIT_GS PIT_CG PIT_ShO PIT_SV PIT_H PIT_R PIT_ER PIT_BB PIT_SO PIT_ERA- FLD_G".split()
)


def _mlb_games(year: int) -> int:
    return {1994: 115, 1995: 144, 2020: 60}.get(year, 162)


def _mlb_row(rng: random.Random, year: int, quality: float) -> dict:
    g = _mlb_games(year)
    pa = round(g * rng.gauss(38.2, 0.8))
    bb, hbp, sf, sh = (
        round(pa * rng.uniform(0.07, 0.1)),
        round(pa * 0.01),
        round(pa * 0.008),
        round(pa * 0.005),
    )
    ab = pa - bb - hbp - sf - sh
    h = round(ab * rng.uniform(0.238, 0.275))
    hr = round(ab * rng.uniform(0.022, 0.045))
    b3 = round(ab * rng.uniform(0.002, 0.006))
    b2 = round(h * rng.uniform(0.18, 0.22))
    so = round(pa * rng.uniform(0.15, 0.24))
    r = round(g * rng.gauss(4.5 + quality, 0.3))
    sb, cs = round(g * rng.uniform(0.3, 0.9)), round(g * rng.uniform(0.1, 0.3))
    obp = (h + bb + hbp) / (ab + bb + hbp + sf)
    slg = (h + b2 + 2 * b3 + 3 * hr) / ab
    wins = max(1, min(g - 1, round(g * rng.gauss(0.5 + quality / 6, 0.03))))
    outs = round(g * rng.uniform(26.7, 27.1))
    ip = outs // 3 + (outs % 3) / 10
    p_h, p_bb, p_so, p_hr = round(g * rng.gauss(8.6, 0.4)), round(g * rng.gauss(3.2, 0.3)), round(g * rng.gauss(7.8, 0.8)), round(g * rng.gauss(1.1, 0.15))  # fmt: skip
    p_r = round(g * rng.gauss(4.5 - quality, 0.3))
    p_er = round(p_r * rng.uniform(0.9, 0.95))
    era = round(p_er * 27 / outs, 2)
    fip = round((13 * p_hr + 3 * p_bb - 2 * p_so) * 3 / outs + 3.1, 2)
    inn = outs / 3
    po = outs
    a, e = round(g * rng.uniform(9, 11)), round(g * rng.uniform(0.45, 0.75))
    war_b, war_p = round(rng.gauss(18 + 20 * quality, 6), 1), round(rng.gauss(14 + 15 * quality, 5), 1)
    row = {
        "BAT_G": g, "BAT_AB": ab, "BAT_PA": pa, "BAT_H": h, "BAT_1B": h - b2 - b3 - hr, "BAT_2B": b2, "BAT_3B": b3,
        "BAT_HR": hr, "BAT_R": r, "BAT_RBI": float(round(r * 0.95)), "BAT_BB": bb, "BAT_IBB": float(round(bb * 0.05)),
        "BAT_SO": float(so), "BAT_HBP": float(hbp), "BAT_SF": float(sf), "BAT_SH": float(sh),
        "BAT_GDP": float(round(g * 0.8)), "BAT_SB": float(sb), "BAT_CS": float(cs), "BAT_AVG": round(h / ab, 3),
        "BAT_BB%": round(bb / pa, 3), "BAT_K%": round(so / pa, 3), "BAT_BB/K": round(bb / so, 2),
        "BAT_OBP": round(obp, 3), "BAT_SLG": round(slg, 3), "BAT_OPS": round(obp + slg, 3),
        "BAT_ISO": round(slg - h / ab, 3), "BAT_Spd": round(rng.uniform(3, 6), 1),
        "BAT_BABIP": round((h - hr) / max(1, ab - so - hr + sf), 3), "BAT_UBR": round(rng.gauss(0, 5), 1),
        "BAT_wGDP": round(rng.gauss(0, 3), 1), "BAT_wSB": round(rng.gauss(0, 3), 1),
        "BAT_wRC": round(r * rng.uniform(0.92, 1.05)), "BAT_wRAA": round(rng.gauss(30 * quality, 20), 1),
        "BAT_wOBA": round(obp * 0.95 + slg * 0.12, 3), "BAT_wRC+": round(100 + 40 * quality + rng.gauss(0, 6)),
        "BAT_BsR": round(rng.gauss(0, 6), 1), "BAT_Off": round(rng.gauss(30 * quality, 25), 1),
        "BAT_Def": round(rng.gauss(0, 20), 1), "BAT_WAR": war_b,
        "PIT_W": wins, "PIT_L": g - wins, "PIT_ERA": era, "PIT_G": g, "PIT_GS": g, "PIT_CG": rng.randint(0, 8),
        "PIT_ShO": rng.randint(0, 4), "PIT_SV": round(wins * rng.uniform(0.4, 0.6)), "PIT_BS": float(rng.randint(10, 30)),
        "PIT_IP": ip, "PIT_TBF": float(round(outs * 1.42)), "PIT_H": p_h, "PIT_R": p_r, "PIT_ER": p_er,
        "PIT_HR": float(p_hr), "PIT_BB": p_bb, "PIT_IBB": float(round(p_bb * 0.05)), "PIT_HBP": float(round(g * 0.4)),
        "PIT_WP": float(round(g * 0.35)), "PIT_BK": float(rng.randint(0, 8)), "PIT_SO": p_so,
        "PIT_K/9": round(p_so * 9 / inn, 2), "PIT_BB/9": round(p_bb * 9 / inn, 2), "PIT_K/BB": round(p_so / p_bb, 2),
        "PIT_HR/9": round(p_hr * 9 / inn, 2), "PIT_K%": round(p_so / (outs * 1.42), 3),
        "PIT_BB%": round(p_bb / (outs * 1.42), 3), "PIT_AVG": round(p_h / (outs + p_h), 3),
        "PIT_WHIP": round((p_h + p_bb) / inn, 2), "PIT_BABIP": round(rng.uniform(0.27, 0.31), 3),
        "PIT_LOB%": round(rng.uniform(0.68, 0.76), 3), "PIT_ERA-": round(100 - 30 * quality + rng.gauss(0, 5)),
        "PIT_FIP-": float(round(100 - 25 * quality + rng.gauss(0, 5))),
        "PIT_xFIP-": float(round(100 - 20 * quality + rng.gauss(0, 5))), "PIT_FIP": fip,
        "PIT_E-F": round(era - fip, 2), "PIT_xFIP": round(fip + rng.gauss(0, 0.2), 2),
        "PIT_SIERA": round(fip + rng.gauss(0, 0.25), 2), "PIT_GB%": round(rng.uniform(0.4, 0.48), 3),
        "PIT_HR/FB": round(rng.uniform(0.09, 0.15), 3), "PIT_WAR": war_p,
        "FLD_G": g, "FLD_GS": float(g), "FLD_Inn": round(inn, 1), "FLD_PO": float(po), "FLD_A": float(a),
        "FLD_E": float(e), "FLD_FE": float(round(e * 0.45)), "FLD_TE": float(round(e * 0.55)),
        "FLD_DP": float(round(g * 0.9)), "FLD_DPS": float(round(g * 0.45)), "FLD_DPT": float(round(g * 0.45)),
        "FLD_DPF": 0.0, "FLD_SB": float(round(g * 0.5)), "FLD_CS": float(round(g * 0.15)),
        "FLD_PB": float(rng.randint(3, 15)), "FLD_WP": float(round(g * 0.35)),
        "FLD_FP": round((po + a) / (po + a + e), 3), "FLD_TZ": float(round(rng.gauss(0, 20))),
        "FLD_rSB": float(round(rng.gauss(0, 3))), "FLD_rGDP": float(round(rng.gauss(0, 2))),
        "FLD_rARM": float(round(rng.gauss(0, 3))), "FLD_rGFP": float(round(rng.gauss(0, 3))),
        "FLD_rPM": float(round(rng.gauss(0, 12))), "FLD_DRS": float(round(rng.gauss(0, 20))),
        "FLD_BIZ": float(round(g * 25)), "FLD_Plays": float(round(g * 21)), "FLD_RZR": round(rng.uniform(0.8, 0.85), 3),
        "FLD_OOZ": float(round(g * 2.2)), "FLD_ARM": round(rng.gauss(0, 4), 1), "FLD_DPR": round(rng.gauss(0, 3), 1),
        "FLD_RngR": round(rng.gauss(0, 12), 1), "FLD_ErrR": round(rng.gauss(0, 5), 1),
        "FLD_UZR": round(rng.gauss(0, 18), 1), "FLD_UZR/150": round(rng.gauss(0, 3), 1),
        "FLD_Def": round(rng.gauss(0, 20), 1), "FLD_OAA": float(round(rng.gauss(0, 15))),
    }  # fmt: skip
    return row


def mlb_teams(seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """One row per club-season with hitting (BAT_*), pitching (PIT_*) and fielding (FLD_*) columns."""
    rows = []
    for tid, abbr, nick, first, eras in MLB_TEAMS:
        rng = random.Random(f"{seed}|mlb|{abbr}")
        quality = rng.uniform(-0.5, 0.5)
        for year in range(first, MLB_LAST_SEASON + 1):
            quality = max(-1.0, min(1.0, quality + rng.gauss(0, 0.2)))
            era_abbr, era_nick = next(((a, n) for until, a, n in eras if year <= until), (abbr, nick))
            rows.append(
                {
                    "teamIDfg": tid,
                    "Season": year,
                    "Team": era_abbr,
                    **_mlb_row(rng, year, quality),
                    "FLD_Team": era_nick,
                }
            )
    df = pd.DataFrame(rows)
    return df.astype({c: "int64" for c in df.columns if c in _MLB_INT})


# ---------------------------------------------------------------- the six SWDE kinds

SWDE_ROWS = 400
_MAKES = {
    "Toyota": ("Camry", "Corolla", "RAV4", "Highlander", "Tacoma", "Prius"),
    "Honda": ("Civic", "Accord", "CR-V", "Pilot", "Odyssey", "Fit"),
    "Ford": ("F-150", "Focus", "Fusion", "Escape", "Mustang", "Explorer"),
    "Chevrolet": ("Malibu", "Silverado 1500", "Equinox", "Impala", "Tahoe", "Cruze"),
    "BMW": ("328i", "535i", "X5", "X3", "Z4"),
    "Subaru": ("Outback", "Forester", "Impreza", "Legacy"),
    "Hyundai": ("Sonata", "Elantra", "Santa Fe", "Tucson"),
    "Volkswagen": ("Jetta", "Passat", "Golf", "Tiguan"),
    "Nissan": ("Altima", "Sentra", "Rogue", "Maxima", "Frontier"),
    "Audi": ("A4", "A6", "Q5", "Q7"),
}
_TRIMS = ("", "LE", "SE", "LX", "EX-L", "Sport", "Limited", "Base", "Touring", "XLT", "2.5i Premium")
_BODIES = ("Sedan", "Coupe", "Wagon", "Hatchback", "4WD", "AWD", "Crew Cab", "")
_CAMERA_BRANDS = (
    "Canon",
    "Nikon",
    "Sony",
    "Olympus",
    "Panasonic",
    "Fujifilm",
    "Kodak",
    "Pentax",
    "Samsung",
    "Casio",
)
_CAMERA_LINES = (
    "PowerShot",
    "Coolpix",
    "Cyber-shot",
    "Stylus",
    "Lumix",
    "FinePix",
    "EasyShare",
    "Optio",
    "Exilim",
)
_COLORS = ("Black", "Silver", "Red", "Blue", "Pink", "Silver Argent")
_JOB_ROLES = (
    "Software Engineer|Java Developer|Registered Nurse|Account Manager|Data Analyst|Project Manager|Sales "
    "Associate|Network Administrator|Financial Analyst|Mechanical Engineer|Customer Service Representative|"
    "Marketing Coordinator|Web Developer|Business Analyst|Systems Administrator|Pharmacist|Truck Driver|"
    "Management Information Systems|Quality Assurance Tester|Database Administrator"
).split("|")
_JOB_LEVELS = ("", "Senior ", "Junior ", "Lead ", "Sr. ", "Principal ")
_JOB_SUFFIX = (
    "",
    "",
    " II",
    " - Contract",
    " (Remote)",
    " - Full Time",
    " (Solid Company with great Benefits)",
)
_COMPANY_A = (
    "Acme",
    "Blue Ridge",
    "Northwind",
    "Summit",
    "Pioneer",
    "Keystone",
    "Lakeside",
    "Redwood",
    "Harbor",
)
_COMPANY_B = (
    "Systems",
    "Health",
    "Solutions",
    "Group",
    "Technologies",
    "Partners",
    "Logistics",
    "Bank",
    "Labs",
)
_CITIES = (
    ("Los Angeles", "CA", "90012"), ("Chicago", "IL", "60601"), ("Houston", "TX", "77002"), ("Seattle", "WA", "98101"),
    ("Boston", "MA", "02108"), ("Denver", "CO", "80202"), ("Atlanta", "GA", "30303"), ("Phoenix", "AZ", "85004"),
    ("Portland", "OR", "97204"), ("Santa Rosa", "CA", "95405"), ("Glendale", "AZ", "85306"), ("Austin", "TX", "78701"),
    ("Honolulu", "HI", "96815"), ("Miami", "FL", "33130"), ("Annapolis Junction", "MD", "20701"),
)  # fmt: skip
_MOVIE_A = ("The", "A", "", "", "Last", "Dark", "Little", "Spring", "Silent", "Midnight", "Lost", "Golden")
_MOVIE_B = (
    "Forward|River|Tango|Summer|Heist|Garden|Road|Kingdom|Promise|Stranger|Horizon|Storm|Harbor|Letters|Game|"
    "Station|Secret|Wedding|Island|Family"
).split("|")
_GENRES = (
    "Comedy",
    "Drama",
    "Romance",
    "Action",
    "Thriller",
    "Horror",
    "Documentary",
    "Animation",
    "Sci-Fi",
    "Family",
)
_RATINGS = ("G", "PG", "PG-13", "R", "NC-17")
_REASONS = (
    "language",
    "some violence",
    "sex-related situations",
    "thematic elements",
    "brief nudity",
    "drug use",
)
_CUISINES = (
    "Italian", "Mexican", "Japanese", "Chinese", "Thai", "Indian", "American", "French", "Greek", "Vietnamese",
    "Sushi Bar", "Pizza", "Seafood", "Steakhouse", "Barbecue", "Vegetarian", "Others",
)  # fmt: skip
_FOOD = ("Pizzeria", "Grill", "Bistro", "Kitchen", "Cafe", "Taqueria", "Noodle House", "Diner", "Trattoria")
_STREETS = (
    "Main St",
    "Montgomery Dr",
    "W Greenway Rd",
    "Kona St",
    "Oak Ave",
    "Broadway",
    "Elm St",
    "Market St",
)
_UNI_PLACES = (
    "Eastern Shore", "Lakewood", "Riverside", "Northern Plains", "Bay Valley", "Cedar Hills", "Granite State",
    "Pacific Coast", "Sunset Mesa", "Three Rivers", "Blue Mountain", "Prairie View",
)  # fmt: skip
_MONTHS = ("January February March April May June July August September October November December").split()


def _money(amount: float, cents: bool) -> str:
    return f"${amount:,.2f}" if cents else f"${round(amount):,}"


def _phone(rng: random.Random, style: int) -> str:
    a, b, c = rng.randint(201, 989), rng.randint(200, 999), rng.randint(0, 9999)
    return (f"({a}) {b}-{c:04d}", f"{a}-{b}-{c:04d}", f"{a}/{b}-{c:04d}", f"{a}.{b}.{c:04d}")[style]


def _date(d: dt.date, style: int, rng: random.Random) -> str:
    if style == 0:
        return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"
    if style == 1:
        return f"{d.isoformat()} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
    if style == 2:
        return f"{d.month}-{d.day}-{d.year}"
    if style == 3:
        return f"{d.month:02d}/{d.day:02d}/{d.year}"
    return f"{d.day} {_MONTHS[d.month - 1][:3]} {d.year}"


def _site_styles(kind: str, seed: int, n_styles: int) -> list[tuple[str, int]]:
    """Ten made-up source sites per kind, each with its own formatting style."""
    rng = random.Random(f"{seed}|sites|{kind}")
    syll = ("ka", "lo", "mi", "ra", "ven", "tor", "sel", "do", "qui", "bex", "nar", "fy")
    names: list[str] = []
    while len(names) < 10:
        name = "".join(rng.sample(syll, 2)) + kind[:3]
        if name not in names:
            names.append(name)
    return [(name, rng.randrange(n_styles)) for name in names]


def _maybe(rng: random.Random, value: str, p_null: float = 0.05) -> str | None:
    return None if rng.random() < p_null else value


def _auto(rng: random.Random, style: int) -> dict:
    make = rng.choice(list(_MAKES))
    model = f"{rng.randint(2008, 2011)} {make} {rng.choice(_MAKES[make])} {rng.choice(_TRIMS)} {rng.choice(_BODIES)}"
    price = rng.randint(12, 70) * 1000 + rng.choice((0, 95, 395, 495, 850, 995))
    liters = rng.choice((1.8, 2.0, 2.4, 2.5, 3.0, 3.5, 3.6, 4.8, 5.3))
    cyl = "L4" if liters < 2.6 else ("V6" if liters < 4 else "V8")
    hp = round(liters * rng.uniform(55, 70))
    city, hwy = rng.randint(12, 30), rng.randint(18, 40)
    fuel = (
        f"{city} MPG city / {hwy} MPG highway",
        f"{city} City / {hwy} Hwy",
        f"{city} - {city + 2} | {hwy} - {hwy + 2}",
        f"{city}/{hwy} mpg",
    )[style % 4]
    prices = (
        _money(price, False),
        f"{_money(price, False)} | {_money(price * 0.7, False)}&nbsp;- {_money(price * 1.6, False)}",
    )
    return {
        "model": re.sub(r"\s+", " ", model).strip(),
        "price": _maybe(rng, prices[1] if style == 2 else prices[0]),
        "engine": _maybe(rng, (f"{liters}L {cyl}", f"{liters}L {hp} hp {cyl}", f"{liters}L {cyl} 24V")[style % 3], 0.1),
        "fuel_economy": _maybe(rng, fuel, 0.1),
    }  # fmt: skip


def _camera(rng: random.Random, style: int) -> dict:
    brand = rng.choice(_CAMERA_BRANDS)
    line = rng.choice(_CAMERA_LINES)
    mp = rng.choice((8, 10, 12.1, 14.1, 16, 18))
    zoom = rng.choice((3, 4, 5, 7, 10, 12))
    code = f"{rng.choice('ASWDTXZ')}{rng.randint(10, 990)}"
    model = (
        f"{brand} {line} {code} {mp}MP Digital Camera with {zoom}x Optical Zoom ({rng.choice(_COLORS)})",
        f"{brand} {line} {code}",
        f"{line} {code} {mp} Megapixel",
    )[style % 3]
    maker = (brand, f"Brand = {brand}", f"{brand} | : {brand}")[style % 3]
    amount = rng.choice((79.99, 99.95, 149.0, 199.99, 249.99, 329.0, 499.95, 1299.0))
    return {
        "manufacturer": _maybe(rng, maker),
        "model": model,
        "price": _maybe(rng, _money(amount, True), 0.08),
    }


def _job(rng: random.Random, style: int) -> dict:
    city, state, _ = rng.choice(_CITIES)
    title = f"{rng.choice(_JOB_LEVELS)}{rng.choice(_JOB_ROLES)}{rng.choice(_JOB_SUFFIX)}"
    company = rng.choice((f"{rng.choice(_COMPANY_A)} {rng.choice(_COMPANY_B)}", "CONFIDENTIAL") if style == 3 else
                         (f"{rng.choice(_COMPANY_A)} {rng.choice(_COMPANY_B)}",))  # fmt: skip
    location = (f"{city}, {state}", f"{city},United States", f"{city}, {state} US", f"{city}, {state}")[
        style % 4
    ]
    posted = dt.date(2010, 1, 1) + dt.timedelta(days=rng.randint(0, 364))
    return {
        "title": title,
        "company": _maybe(rng, company),
        "location": _maybe(rng, location),
        "date_posted": _maybe(rng, _date(posted, style % 5, rng), 0.1),
    }


def _movie(rng: random.Random, style: int) -> dict:
    title = " ".join(w for w in (rng.choice(_MOVIE_A), rng.choice(_MOVIE_B)) if w)
    if rng.random() < 0.3:
        title += f" {rng.choice(('of', 'and', 'in'))} {rng.choice(_MOVIE_B)}"
    year = rng.randint(1970, 2010)
    directors = [" ".join(_person(rng)) for _ in range(rng.choice((1, 1, 1, 2)))]
    rating = rng.choice(_RATINGS)
    shown_rating = (
        rating,
        f"Rated {rating} for {' and '.join(rng.sample(_REASONS, 2))}.",
        rating.replace("-", ""),
    )[style % 3]
    return {
        "title": f"{title} | {title} ({year})" if style == 4 else title,
        "director": _maybe(rng, " | ".join(directors)),
        "genre": _maybe(rng, " | ".join(rng.sample(_GENRES, rng.choice((1, 1, 2, 3))))),
        "mpaa_rating": _maybe(rng, shown_rating, 0.15),
    }


def _restaurant(rng: random.Random, style: int) -> dict:
    city, state, zipcode = rng.choice(_CITIES)
    street = f"{rng.randint(10, 9999)} {rng.choice(_STREETS)}"
    address = (
        f"{street} | {city} | {state} | {zipcode}",
        f"{street.upper()}, | {city}, {state} {zipcode}",
        f"{street}, {city}, {state}",
        f"{street}, {city}, {state} {zipcode}",
    )[style % 4]
    name = f"{rng.choice(LAST_NAMES)}'s {rng.choice(_FOOD)}" if rng.random() < 0.5 else (
        f"{rng.choice(('Rosso', 'Golden', 'Blue', 'Little', 'Casa', 'Green'))} {rng.choice(_FOOD)}")  # fmt: skip
    cuisine = ", ".join(rng.sample(_CUISINES, rng.choice((1, 1, 2))))
    return {
        "name": name,
        "address": _maybe(rng, address),
        "cuisine": _maybe(rng, cuisine if style != 3 else f"{cuisine}/Others", 0.1),
        "phone": _maybe(rng, _phone(rng, style % 4), 0.08),
    }


def _university(rng: random.Random, style: int) -> dict:
    place = rng.choice(_UNI_PLACES)
    form = rng.randrange(5)
    name = (f"{place} Community College", f"University of {place}", f"{place} State University",
            f"College of {place}", f"{place} Technical Institute")[form]  # fmt: skip
    domain = re.sub(r"[^a-z]", "", place.lower())[:10]
    public = rng.random() < 0.6
    kind = ("Public" if public else "Private", f"{'2' if form == 0 else '4'}-year, {'Public' if public else 'Private not-for-profit'}")  # fmt: skip
    phones = " | ".join(_phone(rng, style % 4) for _ in range(rng.choice((1, 1, 2, 3))))
    website = (f"www.{domain}.edu", f"http://www.{domain}.edu/", f"www.{domain}.edu/admissions/")[style % 3]
    return {
        "name": name,
        "phone": _maybe(rng, phones, 0.1),
        "type": _maybe(rng, kind[style % 2]),
        "website": _maybe(rng, website, 0.05),
    }


SWDE_FIELDS = {  # in the real files' column order
    "auto": ("engine", "fuel_economy", "model", "price"),
    "camera": ("manufacturer", "model", "price"),
    "job": ("company", "date_posted", "location", "title"),
    "movie": ("director", "genre", "mpaa_rating", "title"),
    "restaurant": ("address", "cuisine", "name", "phone"),
    "university": ("name", "phone", "type", "website"),
}
_SWDE_MAKERS = {
    "auto": _auto,
    "camera": _camera,
    "job": _job,
    "movie": _movie,
    "restaurant": _restaurant,
    "university": _university,
}


def swde_records(kind: str, seed: int = DEFAULT_SEED, rows: int = SWDE_ROWS) -> pd.DataFrame:
    """Records of one SWDE kind: ``site``, ``page`` and the kind's fields, formatted per source site."""
    if kind not in _SWDE_MAKERS:
        raise KeyError(f"unknown record kind {kind!r}; expected one of {tuple(_SWDE_MAKERS)}")
    rng = random.Random(f"{seed}|swde|{kind}")
    sites = _site_styles(kind, seed, 5)
    out = []
    for i in range(rows):
        site, style = sites[i * len(sites) // rows]
        rec = _SWDE_MAKERS[kind](rng, style)
        out.append({"site": site, "page": f"{i % 10000:04d}", **{f: rec[f] for f in SWDE_FIELDS[kind]}})
    return pd.DataFrame(out).astype({c: "str" for c in ("site", "page", *SWDE_FIELDS[kind])})


# ---------------------------------------------------------------- entry points

INSTRUCT2DS = {
    "papers": papers,
    "stocks": stocks,
    "nba_teams": nba_teams,
    "nba_players": nba_players,
    "mlb_teams": mlb_teams,
}


@cache
def table(name: str, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """One generated Instruct2DS table (cached per process; callers must not mutate it)."""
    if name not in INSTRUCT2DS:
        raise KeyError(f"unknown sandbox table {name!r}; expected one of {tuple(INSTRUCT2DS)}")
    return INSTRUCT2DS[name](seed)


@cache
def records(kind: str, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """One generated SWDE kind (cached per process; callers must not mutate it)."""
    return swde_records(kind, seed)
