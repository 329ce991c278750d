"""Invite codes and seat tokens: made with ``secrets``, tokens kept only as hashes.

An invite code names a table and is meant to be read aloud: 8 characters from an alphabet
without the look-alikes 0/O, 1/l/I, shown as ``ABCD-EFGH``. A token (a seat's, or the host's)
is what lets a client act; the server stores its SHA-256 hash and compares hashes in constant
time. A client may propose the token of its ``create`` or ``join`` itself (``is_token``), so that
the command sent again after a drop names the same secret and is known as a retry.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

#: The characters of an invite code: capitals and digits without 0, O, 1, I and L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def new_code() -> str:
    """Return a new invite code, e.g. ``K7QM-3XPA`` (about 40 bits of chance)."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def normal_code(text: str) -> str:
    """Return a typed code in its stored form: capitals, the dash in the middle.

    Spaces and dashes may be anywhere and case does not matter; a text that cannot be a code
    comes back as it is (and so names no table).
    """
    raw = "".join(text.split()).replace("-", "").upper()
    if len(raw) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in raw):
        return text
    return f"{raw[:4]}-{raw[4:]}"


#: What a token proposed by a client may be: 32 to 64 of ``A-Z a-z 0-9 _ -`` (``new_token``'s
#: 43 characters among them).
TOKEN_FORM = "32 to 64 of A-Z a-z 0-9 _ -"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


def new_token() -> str:
    """Return a new secret token (32 random bytes, URL-safe text) that does not begin with ``-``.

    A token is typed after an option (``--host-token TOKEN``); one beginning with a dash would
    be read as an option itself, so such a draw is made again.
    """
    while True:
        token = secrets.token_urlsafe(32)
        if not token.startswith("-"):
            return token


def is_token(value: object) -> bool:
    """Return whether ``value`` has the form of a token a client may propose (``TOKEN_FORM``).

    >>> is_token(new_token()), is_token("short"), is_token("x" * 32 + "!")
    (True, False, False)
    """
    return isinstance(value, str) and _TOKEN.fullmatch(value) is not None


def token_hash(token: str) -> str:
    """Return the hash under which a token is stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Return whether ``token`` is the one whose hash is stored, in constant time."""
    if stored_hash is None:
        hmac.compare_digest(token_hash(token), token_hash(""))  # the same work either way
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
