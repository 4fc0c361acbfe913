"""Token counts use the configured model's encoding, built offline from hash-checked rank files."""

from prefect_autodata.ohcache import tokens


def test_gpt4o_family_counts_with_o200k_and_older_models_with_cl100k(monkeypatch):
    monkeypatch.delenv(tokens.ENV_MODEL, raising=False)
    assert tokens.encoding_name() == "o200k_base"  # the default model, gpt-4o-mini
    assert tokens.encoding_name("gpt-4o") == "o200k_base"
    assert tokens.encoding_name("gpt-4") == "cl100k_base"
    assert tokens.encoding_name("qwen2.5-7b-instruct") == "o200k_base"  # unknown to tiktoken
    monkeypatch.setenv(tokens.ENV_MODEL, "gpt-3.5-turbo")
    assert tokens.encoding_name() == "cl100k_base"


def test_encodings_are_built_offline_and_round_trip():
    text = "Collected 1,234 rows from the listing — naïve café, 東京, emoji 🙂."
    o200k = tokens.encoding("o200k_base")
    cl100k = tokens.encoding("cl100k_base")
    assert o200k.n_vocab > 199_000 and cl100k.n_vocab < 101_000
    for enc in (o200k, cl100k):
        assert enc.decode(enc.encode(text)) == text
    assert o200k.encode(text) != cl100k.encode(text)
    assert tokens.count_tokens(text, "gpt-4o") == len(o200k.encode(text))
    assert tokens.count_tokens(text, "gpt-4") == len(cl100k.encode(text))
    assert tokens.count_tokens("") == 0
    assert tokens.count_tokens("<|endoftext|>", "gpt-4o") > 1  # special strings are plain text
