"""A producer and awaiter of EchoMQ queues: enqueue jobs that Java workers (or any worker speaking the
protocol) run, and await their results. See docs/protocol.md, "Python client"."""

import time

import redis

from . import ids
from .scripts import Scripts, ScriptError


class JobFailed(Exception):
    """The job dead-lettered (or was quarantined): ``error`` is the last error the worker gave."""

    def __init__(self, queue, job_id, error):
        super().__init__("job %s of queue %s failed: %s" % (job_id, queue, error))
        self.queue, self.job_id, self.error = queue, job_id, error


class JobGone(Exception):
    """The job ended without a readable result: ``outcome`` is cancelled, deleted, skipped, or not_found."""

    def __init__(self, queue, job_id, outcome):
        super().__init__("job %s of queue %s: %s" % (job_id, queue, outcome))
        self.queue, self.job_id, self.outcome = queue, job_id, outcome


class AwaitTimeout(Exception):
    """No outcome within the timeout; the job may still finish (its result stays readable by id)."""


class Client:
    """EchoMQ over one redis-py connection (standalone; keys of a queue share the ``{queue}`` tag).

    :param connection: a ``redis.Redis`` with ``decode_responses=True``
    :param protocol_dir: a directory holding ``manifest.json`` and ``scripts/`` (echomq-core's protocol
        artifact unpacked, or ``echomq-core/target/protocol`` of a build)
    :param prefix: the key prefix, ``echomq.key-prefix`` of the Java side (``emq`` by default)
    """

    def __init__(self, connection, protocol_dir, prefix="emq"):
        self.redis = connection
        self.scripts = protocol_dir if isinstance(protocol_dir, Scripts) else Scripts(protocol_dir)
        self.prefix = prefix
        self._formats_checked = set()

    def key(self, queue, suffix):
        return "%s:{%s}:%s" % (self.prefix, queue, suffix)

    def call(self, name, keys, argv):
        return self.scripts.call(self.redis, name, keys, argv)

    def check_format(self, queue):
        """Refuse a queue whose stored format this client does not speak (format.lua), once per queue."""
        if queue in self._formats_checked:
            return
        state, value = self.call("format", [self.key(queue, "meta")], [self.scripts.format])
        if state == "malformed" or int(value) != self.scripts.format:
            raise ValueError("queue %s is in stored format %r; this client speaks format %s"
                             % (queue, value, self.scripts.format))
        self._formats_checked.add(queue)

    def enqueue(self, queue, payload, *, job_id=None, max_attempts=3, priority=0, delay_ms=0, run_at_ms=None,
                lane=None, fields=None, events_maxlen=None):
        """Enqueue one job (enqueue.lua) and return its id.

        :param payload: the payload text (the Java default converter reads JSON)
        :param delay_ms: run no sooner than this long from the server's now
        :param run_at_ms: or an absolute run-at, epoch ms
        :param lane: the lane key, or None
        :param fields: extra row fields (e.g. trace headers)
        :param events_maxlen: for a queue whose event stream is on, the stream's bound (the Java side's
            ``echomq.queues.<queue>.events.max-length``): the call then adds the 'added' event
        """
        job_id = job_id or ids.mint()
        self.check_format(queue)
        fields = fields or {}
        keys = [self.key(queue, "pending"), self.key(queue, "schedule"), self.key(queue, "metrics"),
                self.key(queue, "wake"), self.key(queue, "job:" + job_id)]
        if lane:
            keys += [self.key(queue, "lane:%s:pending" % lane), self.key(queue, "lanes")]
        argv = [max_attempts, priority, delay_ms, "" if run_at_ms is None else run_at_ms, len(fields), lane or ""]
        for name, value in fields.items():
            argv += [name, value]
        argv += [job_id, payload]
        if events_maxlen is not None:
            keys.append(self.key(queue, "events"))
            argv += ["=events", events_maxlen]
        self.call("enqueue", keys, argv)
        return job_id

    def server_millis(self):
        seconds, micros = self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000

    def await_result(self, queue, job_id, timeout=30.0):
        """Wait for a job's outcome and return its result text (None: completed without one).

        As the awaiter row of docs/protocol.md says: add the id to ``emq:{q}:waiters`` (scored by when
        the wait ends), subscribe to ``emq:{q}:done``, then read the row (or the result key) once, to
        catch an end that came before the subscription; then wait for ``<outcome> <id>``.
        Raises :class:`JobFailed`, :class:`JobGone` or :class:`AwaitTimeout`.
        """
        deadline = time.monotonic() + timeout
        now = self.server_millis()
        waiters = self.key(queue, "waiters")
        self.redis.zremrangebyscore(waiters, "-inf", now)
        self.redis.zadd(waiters, {job_id: now + int(timeout * 1000)}, gt=True)
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(self.key(queue, "done"))
            outcome = None
            while True:
                settled, value = self._read(queue, job_id, outcome)
                if settled:
                    return value
                outcome = None
                while outcome is None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise AwaitTimeout("no outcome for job %s of queue %s within %ss" % (job_id, queue, timeout))
                    message = pubsub.get_message(timeout=min(left, 1.0))
                    if message and message["type"] == "message":
                        kind, _, member = message["data"].partition(" ")
                        if member == job_id:
                            outcome = kind
        finally:
            pubsub.close()

    def _read(self, queue, job_id, outcome):
        state, last_error, result = self.redis.hmget(self.key(queue, "job:" + job_id), "state", "last_error", "result")
        if state is None:
            kept = self.redis.get(self.key(queue, "result:" + job_id))
            if kept is not None:
                return True, kept
            if outcome in (None, "completed"):
                if outcome is None:
                    raise JobGone(queue, job_id, "not_found")
                return True, None
            raise JobGone(queue, job_id, outcome)
        if state == "completed":
            return True, result
        if state == "dead":
            raise JobFailed(queue, job_id, last_error)
        if state == "quarantine":
            raise JobFailed(queue, job_id, "quarantined")
        if outcome in ("cancelled", "deleted", "skipped"):
            raise JobGone(queue, job_id, outcome)
        return False, None


__all__ = ["Client", "JobFailed", "JobGone", "AwaitTimeout", "ScriptError"]
