"""Names that become keys, checked with the Java engine's rules and messages (``Keyspace``,
``QueuePartitions``, ``UniqueKey``, ``JobId``), and the partition names of a partitioned queue."""

import re

from .errors import InvalidArgumentError, InvalidJobIdError, InvalidQueueNameError

MAX_QUEUE_NAME_LENGTH = 64
MAX_LANE_LENGTH = 64
MAX_UNIQUE_LENGTH = 128
MAX_PARTITIONS = 256
MAX_PARTITION_KEY_BYTES = 1024
SLOTS = 16384
_NAME = re.compile(r"[A-Za-z0-9._-]+\Z")
_UNIQUE = re.compile(r"[A-Za-z0-9._~@/+=-]+\Z")
_GENERATED = re.compile(r"(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,5}))?\Z")
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _abbreviate(text):
    return text if len(text) <= 80 else text[:80] + "..."


def _check_length(what, value, most):
    if value is None:
        raise InvalidQueueNameError("Invalid EchoMQ %s: must not be null" % what)
    if not isinstance(value, str):
        raise InvalidQueueNameError("Invalid EchoMQ %s: must be a string, was %s" % (what, type(value).__name__))
    if not value or len(value) > most:
        raise InvalidQueueNameError("Invalid EchoMQ %s '%s': must be 1-%d characters, was %d"
                                    % (what, _abbreviate(value), most, len(value)))


def validate_queue_name(queue):
    """A queue name as ``Keyspace.validateQueueName`` checks it."""
    _check_length("queue name", queue, MAX_QUEUE_NAME_LENGTH)
    if not _NAME.match(queue):
        raise InvalidQueueNameError("Invalid EchoMQ queue name '%s': only letters, digits, '.', '_' and '-' are "
                                    "allowed (no braces, colons or spaces; '#' is reserved for the partition names "
                                    "EchoMQ generates)" % queue)
    return queue


def validate_engine_name(name):
    """A queue name or a partition name ``q#i`` (``QueuePartitions.validateEngineName``)."""
    at = name.find("#") if isinstance(name, str) else -1
    if at < 0:
        return validate_queue_name(name)
    validate_queue_name(name[:at])
    suffix = _GENERATED.match(name[at + 1:])
    if not suffix or int(suffix.group(1)) >= MAX_PARTITIONS:
        raise InvalidQueueNameError("Invalid EchoMQ queue name '%s': '#' is reserved for the partition names "
                                    "EchoMQ generates (<queue>#<0-%d>[.<n>])" % (name, MAX_PARTITIONS - 1))
    return name


def validate_lane(lane):
    """A lane key as ``Keyspace.validateLane`` checks it."""
    _check_length("lane key", lane, MAX_LANE_LENGTH)
    if not _NAME.match(lane):
        raise InvalidQueueNameError("Invalid EchoMQ lane key '%s': only letters, digits, '.', '_' and '-' are "
                                    "allowed (no braces, colons or spaces)" % lane)
    return lane


def validate_unique_name(name):
    """A unique key name as ``UniqueKey.validateName`` checks it."""
    if name is None:
        raise InvalidArgumentError("Unique key must not be null")
    if not isinstance(name, str):
        raise InvalidArgumentError("Unique key must be a string, was %s" % type(name).__name__)
    if not name:
        raise InvalidArgumentError("Unique key must not be empty")
    if len(name) > MAX_UNIQUE_LENGTH:
        raise InvalidArgumentError("Unique key '%s...' is %d bytes long; the limit is %d"
                                   % (name[:40], len(name.encode("utf-8")), MAX_UNIQUE_LENGTH))
    if not _UNIQUE.match(name):
        raise InvalidArgumentError("Unique key '%s' is invalid: only letters, digits and . _ ~ @ / + = - are "
                                   "allowed (no braces, colons or spaces)" % name)
    return name


def parse_job_id(text):
    """A JOB id as ``JobId.parse`` checks it: ``JOB`` and 22 base62 digits, at most 128 bits."""
    if text is None:
        raise InvalidJobIdError("null", "must not be null")
    if not isinstance(text, str):
        raise InvalidJobIdError(str(text), "must be a string, was %s" % type(text).__name__)
    if len(text) != 25:
        raise InvalidJobIdError(text, "must be 25 characters ('JOB' + 22 base62), was %d" % len(text))
    if not text.startswith("JOB"):
        raise InvalidJobIdError(text, "must start with 'JOB'")
    value = 0
    for i in range(3, 25):
        digit = _ALPHABET.find(text[i])
        if digit < 0:
            raise InvalidJobIdError(text, "character '%s' at index %d is not base62 (0-9A-Za-z)" % (text[i], i))
        value = value * 62 + digit
        if value >> 128:
            raise InvalidJobIdError(text, "value is beyond 128 bits")
    return text


def crc16(data):
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def slot(key):
    """The cluster slot of a key, honouring a ``{...}`` hash tag."""
    data = key.encode("utf-8")
    open_at = data.find(b"{")
    if open_at >= 0:
        close_at = data.find(b"}", open_at + 1)
        if close_at > open_at + 1:
            return crc16(data[open_at + 1:close_at]) % SLOTS
    return crc16(data) % SLOTS


def partition_names(queue, count):
    """The engine queue names of a queue's partitions, as ``QueuePartitions.of`` generates them: ``q#i`` (or
    ``q#i.k``) whose slot lies in the middle half of the i-th 1/count of the slots."""
    validate_queue_name(queue)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1 or count > MAX_PARTITIONS:
        raise InvalidArgumentError("Invalid partition count %s for EchoMQ queue '%s': must be between 1 and %d"
                                   % (count, queue, MAX_PARTITIONS))
    if count == 1:
        return [queue]
    names = []
    for index in range(count):
        low_slot, high_slot = index * SLOTS // count, (index + 1) * SLOTS // count
        width = high_slot - low_slot
        low, high = low_slot + width // 4, high_slot - width // 4
        k = 0
        while True:
            name = "%s#%d" % (queue, index) if k == 0 else "%s#%d.%d" % (queue, index, k)
            if low <= slot("{" + name + "}") < high:
                names.append(name)
                break
            k += 1
    return names


def partition_for_key(key, count):
    """The partition of a partition key (``QueuePartitions.partitionForKey``): CRC16 of its UTF-8 bytes
    modulo the count."""
    if key is None or key == "":
        raise InvalidArgumentError("Partition key must not be null or empty")
    if not isinstance(key, str):
        raise InvalidArgumentError("Partition key must be a string, was %s" % type(key).__name__)
    data = key.encode("utf-8")
    if len(data) > MAX_PARTITION_KEY_BYTES:
        raise InvalidArgumentError("Partition key is %d bytes, more than the %d allowed: '%s...'"
                                   % (len(data), MAX_PARTITION_KEY_BYTES, key[:40]))
    return crc16(data) % count
