"""JOB ids: ``JOB`` and 22 base62 digits of a 48-bit millisecond timestamp and 80 random bits.

The string order is the mint order: within one millisecond (or when the clock goes back) the random
part is incremented, as the Java engine's ``JobId.mint`` does.
"""

import re
import secrets
import threading
import time

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
PREFIX = "JOB"
DIGITS = 22
_PATTERN = re.compile(r"^JOB[0-9A-Za-z]{22}$")
_RANDOM_BITS = 80
_MAX_TIMESTAMP = (1 << 48) - 1

_lock = threading.Lock()
_last_millis = -1
_last_random = 0


def encode(value):
    """The id of a 128-bit value (timestamp << 80 | random)."""
    digits = []
    for _ in range(DIGITS):
        value, digit = divmod(value, 62)
        digits.append(ALPHABET[digit])
    if value:
        raise ValueError("value does not fit 22 base62 digits")
    return PREFIX + "".join(reversed(digits))


def decode(text):
    """The 128-bit value of an id."""
    if not is_valid(text):
        raise ValueError("not a JOB id: %r" % (text,))
    value = 0
    for char in text[len(PREFIX):]:
        value = value * 62 + ALPHABET.index(char)
    return value


def is_valid(text):
    """Whether ``text`` is a JOB id (the brand and 22 base62 digits)."""
    return isinstance(text, str) and _PATTERN.match(text) is not None


def mint(now_millis=None):
    """A new id, greater than every id this process minted before."""
    global _last_millis, _last_random
    millis = int(time.time() * 1000) if now_millis is None else now_millis
    with _lock:
        millis = max(millis, _last_millis)
        if millis == _last_millis:
            _last_random = (_last_random + 1) & ((1 << _RANDOM_BITS) - 1)
            if _last_random == 0:
                millis += 1
        else:
            _last_random = secrets.randbits(_RANDOM_BITS)
        _last_millis = millis
        if millis > _MAX_TIMESTAMP:
            raise ValueError("clock is beyond the 48-bit JOB id range")
        return encode((millis << _RANDOM_BITS) | _last_random)


_PARTITION_SHIFT = 72  # bits 8-15 of the id's high 64 bits, as JobId.mint(int) sets them


def mint_in(partition):
    """A new id naming a partition of a partitioned queue (``JobId.mint(int)``): the workers read the
    partition from the id."""
    if not isinstance(partition, int) or partition < 0 or partition > 0xFF:
        raise ValueError("partition must be between 0 and 255, was %r" % (partition,))
    value = decode(mint())
    return encode((value & ~(0xFF << _PARTITION_SHIFT)) | (partition << _PARTITION_SHIFT))


def partition(text):
    """The partition an id names (``JobId.partition()``); 0 for an id of a queue with one partition."""
    return (decode(text) >> _PARTITION_SHIFT) & 0xFF


def timestamp(text):
    """The mint time of an id, epoch milliseconds."""
    return decode(text) >> _RANDOM_BITS
