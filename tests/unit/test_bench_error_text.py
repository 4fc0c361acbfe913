"""A task's error in a bench report names where it was raised, so an in-process failure can be traced."""

from prefect_autodata.bench import error_text


def _inner():
    raise AttributeError("no attribute 'tail'")


def test_error_text_names_type_message_and_innermost_frame_first():
    try:
        _inner()
    except AttributeError as exc:
        got = error_text(exc)
    assert got.startswith("AttributeError: no attribute 'tail' (at test_bench_error_text.py:")
    assert got.index("_inner") < got.index("test_error_text_names")


def test_error_without_traceback_is_type_and_message():
    assert error_text(ValueError("x")) == "ValueError: x"
