"""Run the conformance kit (protocol/conformance/*.json) against a server: the same files the Java
engine's ConformanceKitTests runs. See docs/protocol.md, "Conformance kit".

    python3 -m echomq.conformance --protocol echomq-core/target/protocol --kit protocol/conformance \
        --url redis://127.0.0.1:6379/0 [--show] [case ...]

Exit status 0 when every case passes, 1 otherwise; one line per case.
"""

import argparse
import glob
import json
import os
import re
import secrets
import sys
import time

import redis

from .scripts import Scripts, ScriptError

TOKEN = re.compile(r"\$(any|[a-z][a-z0-9_]*)([+-]\d+)?")
TAG = re.compile(r"\{q(#\d+)?\}")


class Mismatch(AssertionError):
    pass


def load_cases(kit):
    cases = []
    for path in sorted(glob.glob(os.path.join(kit, "*.json"))):
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        case["_file"] = os.path.basename(path)
        cases.append(case)
    return cases


def bind_queue(value, queue):
    """Write the case's queue ``q`` (in ``{q}`` / ``{q#i}`` tags and ``$queue``) as ``queue``."""
    if isinstance(value, str):
        return TAG.sub(lambda m: "{" + queue + (m.group(1) or "") + "}", value).replace("$queue", queue)
    if isinstance(value, list):
        return [bind_queue(v, queue) for v in value]
    if isinstance(value, dict):
        return {bind_queue(k, queue): bind_queue(v, queue) for k, v in value.items()}
    return value


class Times:
    """The server-time placeholders: each call's window [TIME before, TIME after] under its name."""

    def __init__(self):
        self.windows = {}
        self.bound = {}

    def open(self, name, start, end):
        self.windows[name] = (start, end)
        self.bound.pop(name, None)

    def accept(self, name, offset, number):
        if name == "minute":
            if "now" not in self.windows:
                return False
            if "now" in self.bound:
                return number == self.bound["now"] // 60000 + offset
            start, end = self.windows["now"]
            return start // 60000 <= number - offset <= end // 60000
        if name not in self.windows:
            raise Mismatch("placeholder $%s names no call's time" % name)
        value = number - offset
        if name in self.bound:
            return value == self.bound[name]
        start, end = self.windows[name]
        if start <= value <= end:
            self.bound[name] = value
            return True
        return False


def text_of(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def match_text(expected, actual, times):
    """Whether a string (or integer) reply matches an expected string with placeholders."""
    actual = text_of(actual)
    expected = text_of(expected)
    parts = TOKEN.split(expected)
    if len(parts) == 1:
        return expected == actual
    pattern, tokens = "", []
    for i in range(0, len(parts), 3):
        pattern += re.escape(parts[i])
        if i + 1 < len(parts):
            if parts[i + 1] == "any":
                pattern += "(.*?)"
            else:
                pattern += "(-?\\d+)"
            tokens.append((parts[i + 1], int(parts[i + 2] or 0)))
    m = re.fullmatch(pattern, actual, re.S)
    if not m:
        return False
    saved = dict(times.bound)
    for (name, offset), group in zip(tokens, m.groups()):
        if name != "any" and not times.accept(name, offset, int(group)):
            times.bound = saved
            return False
    return True


def match(expected, actual, times, where):
    if isinstance(expected, dict):
        if isinstance(actual, list) and len(actual) % 2 == 0:
            # a row in a reply is a flat list of field, value pairs, in no set order
            actual = dict(zip(actual[::2], actual[1::2]))
        if not isinstance(actual, dict):
            raise Mismatch("%s: expected fields %s, was %r" % (where, json.dumps(expected), actual))
        match_hash(expected, actual, times, where)
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(expected) != len(actual):
            raise Mismatch("%s: expected %s, was %s" % (where, json.dumps(expected), json.dumps(actual)))
        for i, (e, a) in enumerate(zip(expected, actual)):
            match(e, a, times, "%s[%d]" % (where, i + 1))
    elif expected is None:
        if actual is not None:
            raise Mismatch("%s: expected nil, was %r" % (where, actual))
    elif isinstance(expected, int) and not isinstance(expected, bool):
        if isinstance(actual, list) or actual is None or text_of(actual) != str(expected):
            raise Mismatch("%s: expected %s, was %r" % (where, expected, actual))
    else:
        if isinstance(actual, list) or actual is None or not match_text(expected, actual, times):
            raise Mismatch("%s: expected %r, was %r" % (where, expected, actual))


def keyspace(r, queue):
    """Every key of the queue (and its partitions), as the kit writes a keyspace."""
    found = {}
    for key in sorted(r.scan_iter(match="*{%s*" % queue, count=1000)):
        kind = r.type(key)
        if kind == "hash":
            entry = {"type": "hash", "value": r.hgetall(key)}
        elif kind == "zset":
            entry = {"type": "zset", "value": [[m, text_of(s)] for m, s in r.zrange(key, 0, -1, withscores=True)]}
        elif kind == "list":
            entry = {"type": "list", "value": r.lrange(key, 0, -1)}
        elif kind == "set":
            entry = {"type": "set", "value": sorted(r.smembers(key))}
        elif kind == "string":
            entry = {"type": "string", "value": r.get(key)}
        elif kind == "stream":
            entry = {"type": "stream", "value": [[i, fields] for i, fields in r.xrange(key)]}
        else:
            entry = {"type": kind}
        ttl = r.pttl(key)
        if ttl is not None and ttl >= 0:
            entry["ttl"] = ttl
        found[key] = entry
    return found


def write_keyspace(r, entries):
    for key, entry in entries.items():
        kind, value = entry["type"], entry.get("value")
        if kind == "hash":
            r.hset(key, mapping=value)
        elif kind == "zset":
            r.zadd(key, {m: float(s) for m, s in value})
        elif kind == "list":
            r.rpush(key, *value)
        elif kind == "set":
            r.sadd(key, *value)
        elif kind == "string":
            r.set(key, value)
        elif kind == "stream":
            for entry_id, fields in value:
                r.xadd(key, fields, id=entry_id)
        else:
            raise ValueError("%s: type %s cannot be written" % (key, kind))
        if "ttl" in entry:
            r.pexpire(key, int(entry["ttl"]))


def match_keyspace(expected, actual, times, where):
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    if missing or extra:
        raise Mismatch("%s: keys missing %s, keys not expected %s" % (where, missing, extra))
    for key in sorted(expected):
        e, a = expected[key], actual[key]
        at = "%s %s" % (where, key)
        if e["type"] != a["type"]:
            raise Mismatch("%s: expected a %s, was a %s" % (at, e["type"], a["type"]))
        match(e["value"], a["value"], times, at)
        if "ttl" in e:
            if not 0 < a.get("ttl", -1) <= int(e["ttl"]):
                raise Mismatch("%s: expected a TTL of at most %s ms, was %s" % (at, e["ttl"], a.get("ttl")))
        elif "ttl" in a:
            raise Mismatch("%s: expected no TTL, was %s ms" % (at, a["ttl"]))


def match_hash(expected, actual, times, where):
    if len(expected) != len(actual):
        raise Mismatch("%s: expected fields %s, were %s" % (where, sorted(expected), sorted(actual)))
    left = dict(actual)
    # literal fields first, so a placeholder field cannot take a literal one's match
    for field in sorted(expected, key=lambda f: (TOKEN.search(f) is not None, f)):
        value = expected[field]
        for name in sorted(left):
            saved = dict(times.bound)
            if match_text(field, name, times) and match_text(value, left[name], times):
                del left[name]
                break
            times.bound = saved
        else:
            raise Mismatch("%s: no field matches %r: %r (fields %s)" % (where, field, value, json.dumps(actual, sort_keys=True)))


def server_millis(r):
    seconds, micros = r.time()
    return int(seconds) * 1000 + int(micros) // 1000


def run_case(r, scripts, case, show=False):
    queue = "kit-" + secrets.token_hex(4)
    raw = case
    case = bind_queue({k: v for k, v in case.items() if k != "_file"}, queue)
    times = Times()
    write_keyspace(r, case.get("before", {}))
    pubsub = None
    if case.get("subscribe"):
        pubsub = r.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(*case["subscribe"])
        # the subscription is in place once its confirmation is read
        for _ in case["subscribe"]:
            while pubsub.get_message(timeout=1.0) is None and not pubsub.subscribed:
                pass
    try:
        for i, call in enumerate(case["calls"], 1):
            where = "call %d (%s)" % (i, call["script"])
            before = keyspace(r, queue)
            start = server_millis(r)
            try:
                reply, error = scripts.call(r, call["script"], call["keys"], call["argv"]), None
            except ScriptError as ex:
                reply, error = None, ex
            end = server_millis(r)
            times.open(call.get("time", "now"), start, end)
            if show:
                print("%s: reply %s error %s" % (where, json.dumps(bind_back(reply, queue)), error))
            if "error" in call:
                if error is None or error.code != call["error"]:
                    raise Mismatch("%s: expected error %s, was %s" % (where, call["error"], error or json.dumps(reply)))
                match_keyspace(before, keyspace(r, queue), Times(), where + " (an error writes nothing)")
            else:
                if error is not None:
                    raise Mismatch("%s: expected a reply, was error %s" % (where, error))
                match(call["reply"], reply, times, where + " reply")
            expected = [tuple(p) for p in call.get("published", [])]
            if pubsub is not None:
                got = []
                deadline = time.monotonic() + 2.0
                while len(got) < len(expected) and time.monotonic() < deadline:
                    m = pubsub.get_message(timeout=0.2)
                    if m and m["type"] == "message":
                        got.append((m["channel"], m["data"]))
                if sorted(got) != sorted(expected):
                    raise Mismatch("%s: expected published %s, was %s" % (where, expected, got))
        actual = keyspace(r, queue)
        if show:
            print(json.dumps(bind_back(actual, queue), indent=2, sort_keys=True))
        match_keyspace(case["after"], actual, times, "after")
    finally:
        if pubsub is not None:
            pubsub.close()
        for key in r.scan_iter(match="*{%s*" % queue, count=1000):
            r.delete(key)


def bind_back(value, queue):
    if isinstance(value, str):
        return value.replace("{" + queue, "{q")
    if isinstance(value, list):
        return [bind_back(v, queue) for v in value]
    if isinstance(value, dict):
        return {bind_back(k, queue): bind_back(v, queue) for k, v in value.items()}
    return value


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", ".."))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", default=os.path.join(root, "echomq-core", "target", "protocol"))
    parser.add_argument("--kit", help="the kit's directory (default: conformance/ of the protocol directory, "
                        "else protocol/conformance of the source tree)")
    parser.add_argument("--url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--show", action="store_true", help="print each call's reply and the keyspace after")
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    args = parser.parse_args(argv)
    if args.kit is None:
        packaged = os.path.join(args.protocol, "conformance")
        args.kit = packaged if os.path.isdir(packaged) else os.path.join(root, "protocol", "conformance")
    scripts = Scripts(args.protocol)
    r = redis.Redis.from_url(args.url, decode_responses=True)
    failed = 0
    cases = [c for c in load_cases(args.kit) if not args.cases or c["name"] in args.cases]
    skipped = 0
    for case in cases:
        if case.get("skip"):
            skipped += 1
            print("SKIP %s: %s" % (case["name"], case["skip"]))
            continue
        try:
            run_case(r, scripts, case, args.show)
            print("PASS %s" % case["name"])
        except Mismatch as ex:
            failed += 1
            print("FAIL %s: %s" % (case["name"], ex))
    print("%d cases, %d failed, %d skipped" % (len(cases), failed, skipped))
    return 1 if failed or len(cases) == skipped else 0


if __name__ == "__main__":
    sys.exit(main())
