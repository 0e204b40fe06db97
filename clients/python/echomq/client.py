"""A producer and awaiter of EchoMQ queues: enqueue jobs (with the Java template's options, flows included)
that Java workers (or any worker speaking the protocol) run, read their state, and await their results.
See docs/protocol.md, "Python client"."""

import random
import threading
import time
from collections import namedtuple

import redis

from . import ids, keys as names
from .errors import (AwaitTimeoutError, InvalidArgumentError, JobCancelledError, JobFailedError, JobGoneError,
                     JobNotFoundError, UnsupportedFormatError)
from .scripts import Scripts

MAX_INT = 2 ** 31 - 1
LATEST_RUN_AT_MS = 253402300799999  # 9999-12-31T23:59:59.999Z, EnqueueOptions.LATEST_RUN_AT
RESERVED_FIELDS = frozenset((
    "state", "attempts", "max_attempts", "payload", "enqueued_at", "ready_at", "run_at", "priority", "last_error",
    "dead_at", "completed_at", "released", "timeout", "quarantined_from", "quarantine_reason", "unique",
    "unique_mode", "unique_ttl", "cancel_requested_at", "lane", "claimed_by", "result", "progress",
    "progress_data", "flow_parent_queue", "flow_parent_id", "flow_policy", "flow_local", "flow_children",
    "children_left", "expires_at", "expire_in", "dead_reason"))
MAX_FLOW_DEPTH, MAX_FLOW_CHILDREN, MAX_FLOW_JOBS = 16, 1000, 10000
_UNIQUE_ROUNDS = 8
ENQUEUE_CHUNK = 200  # Engine.ENQUEUE_CHUNK

EnqueueResult = namedtuple("EnqueueResult", "job_id outcome")
EnqueueResult.__doc__ = """An enqueue with a unique key: the job holding the key, and ``created``, ``duplicate`` or
``debounced``."""
FlowJob = namedtuple("FlowJob", "queue job_id children")
FlowJob.__doc__ = "A job of an enqueued flow: its queue, its id, and its children (FlowJob each)."
JobInfo = namedtuple("JobInfo", "queue job_id state payload result attempts max_attempts last_error fields")
JobInfo.__doc__ = """A job's row as read: ``state`` is its location (pending, schedule, active, waiting, completed,
dead, quarantine), or ``completed`` when only its result is left (a queue without retention)."""


def java_duration(millis):
    """``Duration.ofMillis(millis).toString()``, for messages that read as the Java side's."""
    seconds, nanos = divmod(millis, 1000)
    nanos *= 1000000
    total = seconds + 1 if seconds < 0 and nanos > 0 else seconds
    hours = int(total / 3600)
    minutes = int((total - hours * 3600) / 60)
    secs = total - hours * 3600 - minutes * 60
    text = "PT"
    if hours:
        text += "%dH" % hours
    if minutes:
        text += "%dM" % minutes
    if secs == 0 and nanos == 0 and len(text) > 2:
        return text
    text += ("-0" if secs == 0 else str(secs)) if seconds < 0 and nanos > 0 else str(secs)
    if nanos > 0:
        fraction = str((2 * 1000000000 - nanos) if seconds < 0 else (nanos + 1000000000)).rstrip("0")
        text += "." + fraction[1:]
    return text + "S"


def _integer(name, value, low=-MAX_INT - 1, high=MAX_INT):
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidArgumentError("%s must be an integer, was %s" % (name, type(value).__name__))
    if value < low or value > high:
        raise InvalidArgumentError("%s must be from %d to %d, was %d" % (name, low, high, value))
    return value


class UniqueKey:
    """A unique key of one enqueue (``io.echomq.core.UniqueKey``): ``until_done`` (held while the job exists),
    ``throttle`` (held for a window after the enqueue) or ``debounce`` (the job runs the window after the last
    enqueue with the key, with the last payload)."""

    MAX_WINDOW_MS = 366 * 24 * 3600 * 1000

    def __init__(self, name, mode="until_done", window_ms=None):
        names.validate_unique_name(name)
        if mode not in ("until_done", "throttle", "debounce"):
            raise InvalidArgumentError("Unique key '%s': mode must be until_done, throttle or debounce, was %r"
                                       % (name, mode))
        if mode == "until_done":
            if window_ms is not None:
                raise InvalidArgumentError("Unique key '%s': mode until_done takes no window, was %s"
                                           % (name, java_duration(window_ms)))
        elif (not isinstance(window_ms, int) or isinstance(window_ms, bool) or window_ms <= 0
              or window_ms > self.MAX_WINDOW_MS):
            shown = java_duration(window_ms) if isinstance(window_ms, int) else window_ms
            raise InvalidArgumentError("Unique key '%s': the %s window must be from 1ms to PT8784H, was %s"
                                       % (name, mode, shown))
        self.name, self.mode, self.window_ms = name, mode, window_ms

    @classmethod
    def until_done(cls, name):
        return cls(name)

    @classmethod
    def throttle(cls, name, window_ms):
        return cls(name, "throttle", window_ms)

    @classmethod
    def debounce(cls, name, delay_ms):
        return cls(name, "debounce", delay_ms)


class Flow:
    """A job of a flow: a parent runs when its children have finished (``FlowSpec``). ``on_failure`` is what this
    job's death does to its parent: ``fail`` (the parent dead-letters), ``ignore`` or ``remove``."""

    def __init__(self, queue, payload, children=(), *, on_failure="fail", **options):
        if on_failure not in ("fail", "ignore", "remove"):
            raise InvalidArgumentError("on_failure must be fail, ignore or remove, was %r" % (on_failure,))
        if "unique" in options:
            raise InvalidArgumentError("A job of a flow (queue '%s') cannot have a unique key" % queue)
        self.queue, self.payload, self.children = queue, payload, list(children)
        self.on_failure, self.options = on_failure, options


class Client:
    """EchoMQ over one redis-py connection: a ``redis.Redis`` or a ``redis.cluster.RedisCluster``, with
    ``decode_responses=True`` (every key of one call shares the ``{queue}`` tag, so EVALSHA routes by key).

    :param connection: the connection (see :meth:`connect` to make one from a URL or cluster seed nodes)
    :param protocol_dir: a directory holding ``manifest.json`` and ``scripts/`` (echomq-core's protocol
        artifact unpacked, or ``echomq-core/target/protocol`` of a build)
    :param prefix: the key prefix, ``echomq.key-prefix`` of the Java side (``emq`` by default)
    :param partitions: the partition count of each partitioned queue (``echomq.queues.<q>.partitions``)
    :param max_attempts: the attempts of a job enqueued without ``max_attempts`` (the template's default, 3)
    """

    def __init__(self, connection, protocol_dir, prefix="emq", partitions=None, max_attempts=3):
        self.redis = connection
        self.scripts = protocol_dir if isinstance(protocol_dir, Scripts) else Scripts(protocol_dir)
        self.prefix = prefix
        self.max_attempts = _integer("maxAttempts", max_attempts, 1)
        self._partitions = {}
        for queue, count in (partitions or {}).items():
            self._partitions[queue] = names.partition_names(queue, count)
        self._round_robin = random.randrange(names.MAX_PARTITIONS)
        self._lock = threading.Lock()
        self._formats_checked = set()

    @staticmethod
    def connect(url=None, *, cluster_nodes=None, **kwargs):
        """A connection for :class:`Client`: ``redis.Redis.from_url(url)``, or a ``RedisCluster`` when
        ``cluster_nodes`` (``[(host, port), ...]``) is given or the URL's scheme is ``redis+cluster``."""
        kwargs.setdefault("decode_responses", True)
        if cluster_nodes or (url and url.startswith("redis+cluster://")):
            from redis.cluster import ClusterNode, RedisCluster
            if cluster_nodes:
                return RedisCluster(startup_nodes=[ClusterNode(h, int(p)) for h, p in cluster_nodes], **kwargs)
            return RedisCluster.from_url("redis://" + url[len("redis+cluster://"):], **kwargs)
        return redis.Redis.from_url(url, **kwargs)

    def key(self, queue, suffix):
        return "%s:{%s}:%s" % (self.prefix, queue, suffix)

    def call(self, name, keys, argv):
        return self.scripts.call(self.redis, name, keys, argv)

    def partition_names(self, queue):
        """The engine queues of a queue: its partitions' names, or the queue itself."""
        names.validate_queue_name(queue)
        return self._partitions.get(queue, [queue])

    def engine_queue(self, queue, job_id):
        """The engine queue (partition) holding a job: the partition its id names."""
        queue_names = self.partition_names(queue)
        if len(queue_names) == 1:
            return queue
        partition = ids.partition(job_id)
        if partition >= len(queue_names):
            raise InvalidArgumentError("Job %s names partition %d, but queue '%s' has %d partition(s) (0-%d): it was "
                                       "not enqueued to this queue" % (job_id, partition, queue, len(queue_names),
                                                                       len(queue_names) - 1))
        return queue_names[partition]

    def check_format(self, queue):
        """Refuse a queue whose stored format this client does not speak (format.lua), once per queue."""
        if queue in self._formats_checked:
            return
        state, value = self.call("format", [self.key(queue, "meta")], [self.scripts.format])
        if state == "malformed" or int(value) != self.scripts.format:
            raise UnsupportedFormatError("queue %s is in stored format %r; this client speaks format %s"
                                         % (queue, value, self.scripts.format))
        self._formats_checked.add(queue)

    def _route(self, queue, partition_key, lane, unique=None, rotate=True):
        """The engine queue and id of a new job: the partition of its key (the partition key, else its lane,
        else its unique key's name), else round-robin (a flow's job: random), as the Java template does."""
        queue_names = self.partition_names(queue)
        if len(queue_names) == 1:
            if partition_key is not None:
                names.partition_for_key(partition_key, 1)
            return queue, ids.mint()
        key = partition_key if partition_key is not None else lane if lane is not None else unique
        if key is not None:
            partition = names.partition_for_key(key, len(queue_names))
        elif rotate:
            with self._lock:
                partition = self._round_robin % len(queue_names)
                self._round_robin += 1
        else:
            partition = random.randrange(len(queue_names))
        return queue_names[partition], ids.mint_in(partition)

    def _spec(self, payload, max_attempts, priority, delay_ms, run_at_ms, lane, timeout_ms, fields, expire_in_ms=None,
              expires_at_ms=None):
        """The enqueue's ARGV[1..6+2E] as ``Enqueues.enqueueArgs`` builds them, after the template's checks."""
        if not isinstance(payload, str):
            raise InvalidArgumentError("payload must be a string (the payload converter's text, JSON for the "
                                       "Java default), was %s" % type(payload).__name__)
        max_attempts = self.max_attempts if max_attempts is None else max_attempts
        if not isinstance(max_attempts, int) or isinstance(max_attempts, bool):
            raise InvalidArgumentError("maxAttempts must be an integer, was %s" % type(max_attempts).__name__)
        if max_attempts < 1:
            raise InvalidArgumentError("maxAttempts must be at least 1, was %d" % max_attempts)
        _integer("maxAttempts", max_attempts, 1)
        _integer("priority", priority)
        if not isinstance(delay_ms, int) or isinstance(delay_ms, bool):
            raise InvalidArgumentError("delay must be an integer of ms, was %s" % type(delay_ms).__name__)
        if delay_ms < 0:
            raise InvalidArgumentError("delay must not be negative, was %s" % java_duration(delay_ms))
        if delay_ms > LATEST_RUN_AT_MS:
            raise InvalidArgumentError("delay must be at most %s (to run by 9999-12-31T23:59:59.999Z), was %s"
                                       % (java_duration(LATEST_RUN_AT_MS), java_duration(delay_ms)))
        if run_at_ms is not None:
            _integer("runAt", run_at_ms, 0, LATEST_RUN_AT_MS)
        if lane is not None:
            names.validate_lane(lane)
        fields = dict(fields or {})
        for name, value in fields.items():
            if not isinstance(name, str) or not isinstance(value, str):
                raise InvalidArgumentError("Row field %r: names and values must be strings" % (name,))
            if name in RESERVED_FIELDS:
                raise InvalidArgumentError("Row field '%s' is reserved by EchoMQ" % name)
            if name.startswith("+"):
                raise InvalidArgumentError("Row field '%s' is reserved by EchoMQ: names starting with '+' hold "
                                           "payload parts" % name)
        if timeout_ms is not None:
            _integer("timeout", timeout_ms, 1, 2 ** 63 - 1)
            fields["timeout"] = str(timeout_ms)
        # an expiry travels as an extra field; enqueue.lua writes the row's 'expires_at' on server time and
        # refuses one that is not after the server's now and the run-at (includes/expiry.lua)
        if expire_in_ms is not None and expires_at_ms is not None:
            raise InvalidArgumentError("an enqueue takes an expiry or a deadline, not both")
        if expire_in_ms is not None:
            _integer("expiry", expire_in_ms, 1, LATEST_RUN_AT_MS)
            fields["expire_in"] = str(expire_in_ms)
        if expires_at_ms is not None:
            _integer("expiresAt", expires_at_ms, 1, LATEST_RUN_AT_MS)
            fields["expires_at"] = str(expires_at_ms)
        return [max_attempts, priority, delay_ms, "" if run_at_ms is None else run_at_ms], lane, fields

    def _enqueue_call(self, engine_queue, job_id, payload, head, lane, fields, events_maxlen, unique=None,
                      holder=None):
        keys = [self.key(engine_queue, s) for s in ("pending", "schedule", "metrics", "wake")]
        keys.append(self.key(engine_queue, "job:" + job_id))
        if lane is not None:
            keys += [self.key(engine_queue, "lane:%s:pending" % lane), self.key(engine_queue, "lanes"),
                     self.key(engine_queue, "lane-controls")]
        if unique is not None:
            keys.append(self.key(engine_queue, "unique:" + unique))
            if holder is not None:
                keys.append(self.key(engine_queue, "job:" + holder))
        argv = head + [len(fields), lane or ""]
        for name, value in fields.items():
            argv += [name, value]
        argv += [job_id, payload]
        if events_maxlen is not None:
            keys.append(self.key(engine_queue, "events"))
            argv += ["=events", _integer("events_maxlen", events_maxlen, 1)]
        return self.call("enqueue", keys, argv)

    def enqueue(self, queue, payload, *, job_id=None, max_attempts=None, priority=0, delay_ms=0, run_at_ms=None,
                lane=None, partition_key=None, timeout_ms=None, fields=None, events_maxlen=None, expire_in_ms=None,
                expires_at_ms=None):
        """Enqueue one job (enqueue.lua) and return its id. Every argument is checked before the first call,
        with the Java template's rules and messages, so refused input writes nothing.

        :param payload: the payload text (the Java default converter reads JSON)
        :param job_id: the id, when the caller minted it (a JOB id)
        :param max_attempts: attempts before the job dead-letters (the client's default otherwise)
        :param priority: higher runs sooner
        :param delay_ms: run no sooner than this long from the server's now
        :param run_at_ms: or an absolute run-at, epoch ms (wins over the delay)
        :param lane: the lane key, or None
        :param partition_key: for a partitioned queue, the key whose partition the job goes to (else its lane's;
            else round-robin)
        :param timeout_ms: the job's own handler timeout
        :param fields: extra row fields (e.g. trace headers)
        :param expire_in_ms: the job never runs unless claimed within this long of the enqueue (server time)
        :param expires_at_ms: or an absolute deadline, epoch ms on the server's clock
        :param events_maxlen: for a queue whose event stream is on, the stream's bound (the Java side's
            ``echomq.queues.<queue>.events.max-length``): the call then adds the 'added' event
        """
        head, lane, fields = self._spec(payload, max_attempts, priority, delay_ms, run_at_ms, lane, timeout_ms,
                                        fields, expire_in_ms, expires_at_ms)
        engine_queue, minted = self._route(queue, partition_key, lane)
        if job_id is not None:
            names.parse_job_id(job_id)
            engine_queue = self.engine_queue(queue, job_id)
        job_id = job_id or minted
        self.check_format(engine_queue)
        self._enqueue_call(engine_queue, job_id, payload, head, lane, fields, events_maxlen)
        return job_id

    def enqueue_all(self, queue, payloads, *, max_attempts=None, priority=0, delay_ms=0, run_at_ms=None, lane=None,
                    partition_key=None, timeout_ms=None, fields=None, events_maxlen=None, expire_in_ms=None,
                    expires_at_ms=None):
        """Enqueue many jobs with the same options, ``ENQUEUE_CHUNK`` (200) per enqueue.lua call as
        ``Enqueues.enqueueAll`` does (each call all-or-nothing), and return their ids in payload order. On a
        partitioned queue each job goes to its partition (the key's, else round-robin), one share per
        partition."""
        payloads = list(payloads)
        for payload in payloads:
            if not isinstance(payload, str):
                raise InvalidArgumentError("payload must be a string (the payload converter's text, JSON for the "
                                           "Java default), was %s" % type(payload).__name__)
        head, lane, fields = self._spec("", max_attempts, priority, delay_ms, run_at_ms, lane, timeout_ms, fields,
                                        expire_in_ms, expires_at_ms)
        routes = [self._route(queue, partition_key, lane) for _ in payloads]
        shares = {}
        for (engine_queue, job_id), payload in zip(routes, payloads):
            shares.setdefault(engine_queue, []).append((job_id, payload))
        for engine_queue, jobs in shares.items():
            self.check_format(engine_queue)
            for start in range(0, len(jobs), ENQUEUE_CHUNK):
                chunk = jobs[start:start + ENQUEUE_CHUNK]
                keys = [self.key(engine_queue, s) for s in ("pending", "schedule", "metrics", "wake")]
                keys += [self.key(engine_queue, "job:" + job_id) for job_id, _ in chunk]
                if lane is not None:
                    keys += [self.key(engine_queue, "lane:%s:pending" % lane), self.key(engine_queue, "lanes"),
                             self.key(engine_queue, "lane-controls")]
                argv = head + [len(fields), lane or ""]
                for name, value in fields.items():
                    argv += [name, value]
                for job_id, payload in chunk:
                    argv += [job_id, payload]
                if events_maxlen is not None:
                    keys.append(self.key(engine_queue, "events"))
                    argv += ["=events", _integer("events_maxlen", events_maxlen, 1)]
                self.call("enqueue", keys, argv)
        return [job_id for _, job_id in routes]

    def enqueue_unique(self, queue, payload, unique, *, max_attempts=None, priority=0, delay_ms=0, run_at_ms=None,
                       lane=None, partition_key=None, timeout_ms=None, fields=None, events_maxlen=None):
        """Enqueue one job with a unique key (:class:`UniqueKey`), as ``Enqueues.enqueueUnique`` does: exactly
        one of many concurrent enqueues with a free key creates a job. Returns an :class:`EnqueueResult`."""
        if not isinstance(unique, UniqueKey):
            raise InvalidArgumentError("unique must be a UniqueKey, was %s" % type(unique).__name__)
        if unique.mode == "debounce":
            delay_ms, run_at_ms = unique.window_ms, None
        head, lane, fields = self._spec(payload, max_attempts, priority, delay_ms, run_at_ms, lane, timeout_ms,
                                        fields)
        fields.update({"unique": unique.name, "unique_mode": unique.mode})
        if unique.mode == "throttle":
            fields["unique_ttl"] = str(unique.window_ms)
        engine_queue, job_id = self._route(queue, partition_key, lane, unique.name)
        self.check_format(engine_queue)
        holder = None
        for _ in range(_UNIQUE_ROUNDS):
            reply = self._enqueue_call(engine_queue, job_id, payload, head, lane, fields, events_maxlen,
                                       unique.name, holder)
            outcome, standing = reply[3], reply[4]
            if outcome == "created":
                return EnqueueResult(job_id, "created")
            if outcome in ("duplicate", "debounced"):
                return EnqueueResult(standing, outcome)
            if outcome != "held":
                raise RuntimeError("Unexpected enqueue outcome '%s'" % outcome)
            if not ids.is_valid(standing):
                raise RuntimeError("Unique key %s holds '%s', which is not a JOB id; nothing was written"
                                   % (self.key(engine_queue, "unique:" + unique.name), standing))
            holder = standing
        raise RuntimeError("Unique key %s changed hands on each of %d tries; nothing was written"
                           % (self.key(engine_queue, "unique:" + unique.name), _UNIQUE_ROUNDS))

    def enqueue_flow(self, flow, events_maxlen=None):
        """Enqueue a flow (:class:`Flow`) as ``FlowWrites`` does: every job planned and checked first, then
        written parent before children (a parent by flow_parent.lua, waiting for its children; a job without
        children by enqueue.lua, its row naming its parent). Returns the root's :class:`FlowJob`."""
        order = []
        root = self._plan(flow, None, "fail", 1, order)
        for node in order:
            if node["children"]:
                self._write_parent(node, events_maxlen)
            else:
                self.check_format(node["engine_queue"])
                self._enqueue_call(node["engine_queue"], node["id"], node["payload"], node["head"], node["lane"],
                                   node["fields"], events_maxlen)
        return root["job"]

    def _plan(self, flow, parent, policy, depth, order):
        queue = flow.queue
        if depth > MAX_FLOW_DEPTH:
            raise InvalidArgumentError("A flow has at most %d levels; a job of queue '%s' is deeper"
                                       % (MAX_FLOW_DEPTH, queue))
        if len(order) >= MAX_FLOW_JOBS:
            raise InvalidArgumentError("A flow has at most %d jobs" % MAX_FLOW_JOBS)
        options = dict(flow.options)
        unknown = set(options) - {"max_attempts", "priority", "delay_ms", "run_at_ms", "lane", "partition_key",
                                  "timeout_ms", "fields"}
        if unknown:
            raise TypeError("Flow got unexpected option(s): %s" % ", ".join(sorted(unknown)))
        if flow.children and (options.get("delay_ms") or options.get("run_at_ms") is not None
                              or options.get("lane") is not None):
            raise InvalidArgumentError("A parent of a flow (queue '%s') runs when its children have finished: it "
                                       "cannot have a delay, a run-at or a lane" % queue)
        if len(flow.children) > MAX_FLOW_CHILDREN:
            raise InvalidArgumentError("A parent of a flow (queue '%s') has at most %d children, was %d"
                                       % (queue, MAX_FLOW_CHILDREN, len(flow.children)))
        head, lane, fields = self._spec(flow.payload, options.get("max_attempts"), options.get("priority", 0),
                                        options.get("delay_ms", 0), options.get("run_at_ms"), options.get("lane"),
                                        options.get("timeout_ms"), options.get("fields"))
        engine_queue, job_id = self._route(queue, options.get("partition_key"), lane, rotate=False)
        if parent is not None:
            fields.update({"flow_parent_queue": parent["engine_queue"], "flow_parent_id": parent["id"],
                           "flow_policy": policy})
            if engine_queue == parent["engine_queue"]:
                fields["flow_local"] = "1"
        node = {"engine_queue": engine_queue, "id": job_id, "payload": flow.payload, "head": head, "lane": lane,
                "fields": fields, "children": []}
        order.append(node)
        for child in flow.children:
            node["children"].append(self._plan(child, node, child.on_failure, depth + 1, order))
        node["job"] = FlowJob(queue, job_id, [c["job"] for c in node["children"]])
        return node

    def _write_parent(self, node, events_maxlen):
        engine_queue, job_id = node["engine_queue"], node["id"]
        fields = dict(node["fields"])
        fields["flow_children"] = " ".join("%s/%s" % (c["engine_queue"], c["id"]) for c in node["children"])
        keys = [self.key(engine_queue, "waiting"), self.key(engine_queue, "job:" + job_id),
                self.key(engine_queue, "metrics")]
        argv = [job_id, node["head"][0], node["head"][1], len(node["children"]), node["payload"]]
        for name, value in fields.items():
            argv += [name, value]
        if events_maxlen is not None:
            keys.append(self.key(engine_queue, "events"))
            argv += ["=events", events_maxlen]
        self.check_format(engine_queue)
        self.call("flow_parent", keys, argv)

    def server_millis(self):
        seconds, micros = self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000

    def state(self, queue, job_id):
        """Read a job (:class:`JobInfo`): its row's state (its location), payload, result, attempts and last
        error; ``None`` when it has no row and no result (never enqueued, deleted, or its result expired)."""
        names.parse_job_id(job_id)
        engine_queue = self.engine_queue(queue, job_id)
        row = self.redis.hgetall(self.key(engine_queue, "job:" + job_id))
        if not row:
            kept = self.redis.get(self.key(engine_queue, "result:" + job_id))
            if kept is None:
                return None
            return JobInfo(queue, job_id, "completed", None, kept, None, None, None, {})
        number = (lambda v: None if v is None else int(v))
        return JobInfo(queue, job_id, row.get("state"), row.get("payload"), row.get("result"),
                       number(row.get("attempts")), number(row.get("max_attempts")), row.get("last_error"), row)

    def await_result(self, queue, job_id, timeout=30.0):
        """Wait for a job's outcome and return its result text (None: completed without one).

        As the awaiter row of docs/protocol.md says: add the id to ``emq:{q}:waiters`` (scored by when
        the wait ends), subscribe to ``emq:{q}:done``, then read the row (or the result key) once, to
        catch an end that came before the subscription; then wait for ``<outcome> <id>``.
        Raises :class:`JobFailedError`, :class:`JobCancelledError`, :class:`JobNotFoundError` (or
        :class:`JobGoneError` for deleted or skipped) or :class:`AwaitTimeoutError`.
        """
        names.parse_job_id(job_id)
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0:
            raise InvalidArgumentError("timeout must be a number of seconds >= 0, was %r" % (timeout,))
        engine_queue = self.engine_queue(queue, job_id)
        deadline = time.monotonic() + timeout
        now = self.server_millis()
        waiters = self.key(engine_queue, "waiters")
        self.redis.zremrangebyscore(waiters, "-inf", now)
        self.redis.zadd(waiters, {job_id: now + int(timeout * 1000)}, gt=True)
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(self.key(engine_queue, "done"))
            outcome = None
            while True:
                settled, value = self._read(queue, engine_queue, job_id, outcome)
                if settled:
                    return value
                outcome = None
                while outcome is None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise AwaitTimeoutError(queue, job_id, timeout)
                    message = pubsub.get_message(timeout=min(left, 1.0))
                    if message and message["type"] == "message":
                        kind, _, member = message["data"].partition(" ")
                        if member == job_id:
                            outcome = kind
        finally:
            pubsub.close()

    def _read(self, queue, engine_queue, job_id, outcome):
        state, last_error, result = self.redis.hmget(self.key(engine_queue, "job:" + job_id), "state", "last_error",
                                                     "result")
        if state is None:
            kept = self.redis.get(self.key(engine_queue, "result:" + job_id))
            if kept is not None:
                return True, kept
            if outcome in (None, "completed"):
                if outcome is None:
                    raise JobNotFoundError(queue, job_id)
                return True, None
            if outcome == "cancelled":
                raise JobCancelledError(queue, job_id)
            raise JobGoneError("Job %s on queue '%s' is gone with no result: %s" % (job_id, queue, outcome), queue,
                               job_id, outcome)
        if state == "completed":
            return True, result
        if state == "dead":
            raise JobFailedError(queue, job_id, last_error)
        if state == "quarantine":
            raise JobFailedError(queue, job_id, "quarantined")
        if outcome == "cancelled":
            raise JobCancelledError(queue, job_id)
        if outcome in ("deleted", "skipped"):
            raise JobGoneError("Job %s on queue '%s' is gone with no result: %s" % (job_id, queue, outcome), queue,
                               job_id, outcome)
        return False, None


__all__ = ["Client", "UniqueKey", "Flow", "FlowJob", "JobInfo", "EnqueueResult", "java_duration"]
