"""General domain vocabulary the offline instruction parser may know (no site, URL or task knowledge).

Conference abbreviations and full names, NBA and MLB franchises (city, nickname, abbreviations,
former names and fan nicknames), a handful of household company names, and words that look like
tickers but are not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# abbreviation → (canonical full name, extra aliases matched case-insensitively)
CONFERENCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "NeurIPS": (
        "Conference on Neural Information Processing Systems",
        ("NIPS", "Neural Information Processing Systems"),
    ),
    "ICML": ("International Conference on Machine Learning", ()),
    "ICLR": ("International Conference on Learning Representations", ()),
    "NAACL": (
        "Conference of the North American Chapter of the Association for Computational Linguistics",
        ("NAACL-HLT", "North American Chapter of the Association for Computational Linguistics"),
    ),
    "ACL": (
        "Annual Meeting of the Association for Computational Linguistics",
        ("Association for Computational Linguistics",),
    ),
    "EMNLP": (
        "Conference on Empirical Methods in Natural Language Processing",
        ("Empirical Methods in Natural Language Processing",),
    ),
    "EACL": ("Conference of the European Chapter of the Association for Computational Linguistics", ()),
    "COLING": ("International Conference on Computational Linguistics", ()),
    "CVPR": (
        "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
        ("Computer Vision and Pattern Recognition",),
    ),
    "ICCV": (
        "IEEE/CVF International Conference on Computer Vision",
        ("International Conference on Computer Vision",),
    ),
    "ECCV": ("European Conference on Computer Vision", ()),
    "AAAI": ("AAAI Conference on Artificial Intelligence", ()),
    "IJCAI": ("International Joint Conference on Artificial Intelligence", ()),
    "KDD": ("ACM SIGKDD Conference on Knowledge Discovery and Data Mining", ("SIGKDD",)),
    "SIGIR": ("ACM SIGIR Conference on Research and Development in Information Retrieval", ()),
    "AISTATS": ("International Conference on Artificial Intelligence and Statistics", ()),
    "UAI": ("Conference on Uncertainty in Artificial Intelligence", ()),
    "COLT": ("Conference on Learning Theory", ()),
    "WACV": ("IEEE/CVF Winter Conference on Applications of Computer Vision", ()),
}

# Track phrases (regex, case-insensitive) → the track label used by proceedings.
TRACKS: list[tuple[str, str]] = [
    (r"\bfindings\b", "Findings Track"),
    (r"\blong[- ]papers?\b|\blong track\b", "Long Paper Track"),
    (r"\bshort[- ]papers?\b|\bshort track\b", "Short Paper Track"),
    (r"\bmain[- ](?:conference|track|proceedings|papers?)\b", "Main Conference Track"),
    (r"\bposters?(?: track| papers?)?\b", "Poster Track"),
    (r"\bcompanion\b", "Companion Conference Track"),
    (r"\bdemo(?:nstration)?s?(?: track| papers?)?\b", "Demo Track"),
    (r"\bworkshops?\b", "Workshop Track"),
    (r"\bdatasets and benchmarks\b", "Datasets and Benchmarks Track"),
]


@dataclass(frozen=True)
class Franchise:
    """One franchise: the name a person reads, its code, and every other way people say it."""

    league: str
    city: str
    nickname: str
    abbr: str
    abbrs: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        return f"{self.city} {self.nickname}"


def _f(league, city, nick, abbr, abbrs=(), aliases=()):
    return Franchise(league, city, nick, abbr, tuple(abbrs), tuple(aliases))


NBA_TEAMS: list[Franchise] = [
    _f("NBA", "Atlanta", "Hawks", "ATL"),
    _f("NBA", "Boston", "Celtics", "BOS", aliases=("Celts",)),
    _f("NBA", "Brooklyn", "Nets", "BKN", ("BRK", "NJN"), ("New Jersey Nets",)),
    _f("NBA", "Charlotte", "Hornets", "CHA", ("CHO",), ("Charlotte Bobcats",)),
    _f("NBA", "Chicago", "Bulls", "CHI"),
    _f("NBA", "Cleveland", "Cavaliers", "CLE", aliases=("Cavs",)),
    _f("NBA", "Dallas", "Mavericks", "DAL", aliases=("Mavs",)),
    _f("NBA", "Denver", "Nuggets", "DEN"),
    _f("NBA", "Detroit", "Pistons", "DET"),
    _f("NBA", "Golden State", "Warriors", "GSW", ("GS",), ("Dubs",)),
    _f("NBA", "Houston", "Rockets", "HOU"),
    _f("NBA", "Indiana", "Pacers", "IND"),
    _f("NBA", "Los Angeles", "Clippers", "LAC", aliases=("LA Clippers", "Clips")),
    _f("NBA", "Los Angeles", "Lakers", "LAL", aliases=("LA Lakers",)),
    _f("NBA", "Memphis", "Grizzlies", "MEM", ("VAN",), ("Vancouver Grizzlies", "Grizz")),
    _f("NBA", "Miami", "Heat", "MIA"),
    _f("NBA", "Milwaukee", "Bucks", "MIL"),
    _f("NBA", "Minnesota", "Timberwolves", "MIN", aliases=("Wolves", "T-Wolves")),
    _f("NBA", "New Orleans", "Pelicans", "NOP", ("NO", "NOH"), ("New Orleans Hornets", "Pels")),
    _f("NBA", "New York", "Knicks", "NYK", ("NY",)),
    _f("NBA", "Oklahoma City", "Thunder", "OKC", ("SEA",), ("Seattle SuperSonics", "Sonics", "OKC Thunder")),
    _f("NBA", "Orlando", "Magic", "ORL"),
    _f("NBA", "Philadelphia", "76ers", "PHI", aliases=("Sixers", "Philadelphia Sixers")),
    _f("NBA", "Phoenix", "Suns", "PHX", ("PHO",)),
    _f("NBA", "Portland", "Trail Blazers", "POR", aliases=("Blazers", "Portland Blazers")),
    _f("NBA", "Sacramento", "Kings", "SAC"),
    _f("NBA", "San Antonio", "Spurs", "SAS", ("SA",)),
    _f("NBA", "Toronto", "Raptors", "TOR", aliases=("Raps",)),
    _f("NBA", "Utah", "Jazz", "UTA"),
    _f("NBA", "Washington", "Wizards", "WAS", ("WSH",), ("Washington Bullets",)),
]

MLB_TEAMS: list[Franchise] = [
    _f("MLB", "Arizona", "Diamondbacks", "ARI", ("AZ",), ("D-backs", "Dbacks")),
    _f("MLB", "Atlanta", "Braves", "ATL"),
    _f("MLB", "Baltimore", "Orioles", "BAL", aliases=("O's",)),
    _f("MLB", "Boston", "Red Sox", "BOS", aliases=("BoSox",)),
    _f("MLB", "Chicago", "Cubs", "CHC"),
    _f("MLB", "Chicago", "White Sox", "CHW", ("CWS",), ("ChiSox",)),
    _f("MLB", "Cincinnati", "Reds", "CIN"),
    _f("MLB", "Cleveland", "Guardians", "CLE", aliases=("Cleveland Indians",)),
    _f("MLB", "Colorado", "Rockies", "COL"),
    _f("MLB", "Detroit", "Tigers", "DET"),
    _f("MLB", "Houston", "Astros", "HOU", aliases=("Stros",)),
    _f("MLB", "Kansas City", "Royals", "KCR", ("KC",)),
    _f("MLB", "Los Angeles", "Angels", "LAA", ("ANA",), ("Anaheim Angels", "Halos")),
    _f("MLB", "Los Angeles", "Dodgers", "LAD"),
    _f("MLB", "Miami", "Marlins", "MIA", ("FLA",), ("Florida Marlins",)),
    _f("MLB", "Milwaukee", "Brewers", "MIL", aliases=("Brew Crew",)),
    _f("MLB", "Minnesota", "Twins", "MIN"),
    _f("MLB", "New York", "Mets", "NYM"),
    _f("MLB", "New York", "Yankees", "NYY", aliases=("Yanks", "Bronx Bombers")),
    _f("MLB", "Oakland", "Athletics", "OAK", ("ATH",), ("A's", "Oakland A's")),
    _f("MLB", "Philadelphia", "Phillies", "PHI", aliases=("Phils",)),
    _f("MLB", "Pittsburgh", "Pirates", "PIT", aliases=("Bucs",)),
    _f("MLB", "San Diego", "Padres", "SDP", ("SD",), ("Friars",)),
    _f("MLB", "San Francisco", "Giants", "SFG", ("SF",)),
    _f("MLB", "Seattle", "Mariners", "SEA", aliases=("M's",)),
    _f(
        "MLB",
        "St. Louis",
        "Cardinals",
        "STL",
        aliases=("Saint Louis Cardinals", "St Louis Cardinals", "Cards"),
    ),
    _f("MLB", "Tampa Bay", "Rays", "TBR", ("TB",), ("Tampa Bay Devil Rays", "Devil Rays")),
    _f("MLB", "Texas", "Rangers", "TEX"),
    _f("MLB", "Toronto", "Blue Jays", "TOR", aliases=("Jays",)),
    _f("MLB", "Washington", "Nationals", "WSN", ("WSH", "WAS"), ("Nats", "Montreal Expos")),
]

# Household company names → ticker (general knowledge; anything else must be given as a ticker).
COMPANIES: dict[str, str] = {
    "apple": "AAPL",
    "microsoft": "MSFT",
    "amazon": "AMZN",
    "alphabet": "GOOGL",
    "google": "GOOGL",
    "nvidia": "NVDA",
    "meta": "META",
    "facebook": "META",
    "tesla": "TSLA",
    "berkshire hathaway": "BRK-B",
    "jpmorgan": "JPM",
    "jp morgan": "JPM",
    "coca-cola": "KO",
    "coca cola": "KO",
    "exxon": "XOM",
    "exxonmobil": "XOM",
    "exxon mobil": "XOM",
    "netflix": "NFLX",
    "intel": "INTC",
    "walmart": "WMT",
    "visa": "V",
    "johnson & johnson": "JNJ",
    "procter & gamble": "PG",
    "pfizer": "PFE",
    "boeing": "BA",
    "disney": "DIS",
}

# Upper-case words that are not tickers even when they look like one.
NOT_TICKERS = (
    frozenset(
        """A I S P US USA NBA MLB NFL NHL ETF ETFS OHLC OHLCV CSV JSON API ISO UTC EST ET PT GMT Q1 Q2 Q3 Q4 H1 H2
    AND OR THE ON IN OF FOR TO FROM ALL EVERY DAILY STOCK STOCKS DATA PRICE PRICES YTD EOD NYSE NASDAQ SP
    SEC IPO CEO CFO AI ML NLP CV ERA RBI HR AB BB SO SB CS IP GP REB AST PTS FG FT TOV PF
    ME MY PLEASE NEED GET WANT""".split()
    )
    | frozenset(CONFERENCES)
    | frozenset(a for _, (_, al) in CONFERENCES.items() for a in al if a.isupper())
)
