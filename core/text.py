"""Words for messages about values and failures: the one owner of how a bad value is shown.

A leaf module (it imports nothing of the project), so every layer words the same things alike:

>>> short_repr("x" * 50)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
>>> describe_value([1, 2]), describe_value(None), describe_value("QS")
('a list of 2', 'null', "'QS'")
>>> os_reason(FileNotFoundError(2, "No such file or directory"))
'No such file or directory'
"""

from __future__ import annotations

#: How long ``short_repr`` lets a repr grow before it is cut.
SHORT_LIMIT = 40
#: How long ``describe_value`` lets a number or a string grow before it is cut.
VALUE_LIMIT = 24


def short_repr(value: object, limit: int = SHORT_LIMIT) -> str:
    """Return the repr of a value cut to ``limit`` characters, for messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_value(value: object) -> str:
    """Return a short description of a (JSON) value for an error message, never a long one.

    Numbers and strings show themselves (cut short), lists their length, other values their
    kind: ``null``, ``true``, ``42``, ``'QS'``, ``a list of 3``, ``an object``.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 4] + "..."
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 4] + "...'"
    if isinstance(value, list):
        return f"a list of {len(value)}" if value else "an empty list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def os_reason(error: BaseException) -> str:
    """Return why an operating-system call failed, in a few words (its ``strerror``)."""
    return getattr(error, "strerror", None) or str(error)
