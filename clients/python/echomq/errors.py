"""The exceptions of the Python client, named after the Java engine's (docs/protocol.md, "Python client").

Input the client refuses before any call (so nothing is written) raises a ``ValueError`` or ``TypeError``
subclass with the message text of the Java check it mirrors; a script's error reply raises
:class:`ProtocolError` carrying its ``EMQ*`` code; an await raises one of the outcomes below.
"""

import re


class EchoMqError(Exception):
    """Base of every exception this client raises on purpose."""


class InvalidQueueNameError(EchoMqError, ValueError):
    """A queue name (or lane key) that is not 1-64 characters of ``[A-Za-z0-9._-]`` (Java:
    ``InvalidQueueNameException``, same message)."""


class InvalidJobIdError(EchoMqError, ValueError):
    """A text that is not a JOB id (Java: ``InvalidJobIdException``, same message)."""

    def __init__(self, text, reason):
        shown = text if len(text) <= 80 else text[:80] + "..."
        super().__init__("Invalid JOB id '%s': %s" % (shown, reason))
        self.input = text


class InvalidArgumentError(EchoMqError, ValueError):
    """An option out of range or of the wrong type (Java: ``IllegalArgumentException``, same message
    where Java has one)."""


class ProtocolError(EchoMqError):
    """An error reply of a script (nothing was written): ``code`` is its ``EMQ*`` code (``EMQARG``,
    ``EMQKEYTYPE``, ``EMQDUP``...), or the reply's first word when it has none."""

    def __init__(self, message):
        # an error_reply starts with its code; a Lua error() arrives as 'ERR <code> ...', or on Redis 6.2
        # as 'Error running script (call to f_<sha>): @user_script:<line>: <code> ...'
        super().__init__(message)
        found = re.search(r"\b(EMQ[A-Z]+)\b", message or "")
        self.code = found.group(1) if found else (message.split(" ", 1)[0] if message else "")


    @staticmethod
    def of(message):
        """The error of a reply: :class:`WrongKeyTypeError` for ``EMQKEYTYPE``, :class:`DuplicateJobError` for
        ``EMQDUP``, :class:`LaneFullError` for ``EMQFULL``, else a :class:`ProtocolError`."""
        error = ProtocolError(message)
        kind = {"EMQKEYTYPE": WrongKeyTypeError, "EMQDUP": DuplicateJobError,
                "EMQFULL": LaneFullError}.get(error.code)
        return kind(message) if kind else error


class WrongKeyTypeError(ProtocolError):
    """``EMQKEYTYPE``: a declared key holds the wrong type (Java: ``WrongKeyTypeException``)."""


class DuplicateJobError(ProtocolError):
    """``EMQDUP``: a row for the id already exists (the id was minted twice)."""


class LaneFullError(ProtocolError):
    """``EMQFULL``: the enqueue would leave more jobs in its lane's pending set than the lane's cap allows; none
    of its jobs was written (Java: ``LaneFullException``)."""


class UnsupportedFormatError(EchoMqError):
    """The queue's stored format is not the one this client's scripts speak."""


class AwaitError(EchoMqError):
    """An await that ended without a result: ``queue`` and ``job_id`` name the job."""

    def __init__(self, message, queue, job_id):
        super().__init__(message)
        self.queue, self.job_id = queue, job_id


class AwaitTimeoutError(AwaitError):
    """No outcome within the timeout; the job may still finish (its result stays readable by id)."""

    def __init__(self, queue, job_id, timeout):
        super().__init__("Job %s on queue '%s' had no outcome within %ss" % (job_id, queue, timeout), queue, job_id)


class JobFailedError(AwaitError):
    """The job dead-lettered (or was quarantined): ``error`` is the last error the worker gave."""

    def __init__(self, queue, job_id, error):
        super().__init__("Job %s on queue '%s' was dead-lettered%s" % (job_id, queue, (": " + error) if error else ""),
                         queue, job_id)
        self.error = error


class JobGoneError(AwaitError):
    """The job ended without a readable result: ``outcome`` is cancelled, deleted, skipped or not_found."""

    def __init__(self, message, queue, job_id, outcome):
        super().__init__(message, queue, job_id)
        self.outcome = outcome


class JobCancelledError(JobGoneError):
    """The job was cancelled."""

    def __init__(self, queue, job_id):
        super().__init__("Job %s on queue '%s' was cancelled" % (job_id, queue), queue, job_id, "cancelled")


class JobNotFoundError(JobGoneError):
    """No row and no result: the job never existed, was deleted, or its result expired."""

    def __init__(self, queue, job_id, detail="not_found"):
        super().__init__("Job %s on queue '%s' is gone with no result: %s" % (job_id, queue, detail), queue, job_id,
                         detail)


# the names of the first release
ScriptError = ProtocolError
JobFailed = JobFailedError
JobGone = JobGoneError
AwaitTimeout = AwaitTimeoutError
