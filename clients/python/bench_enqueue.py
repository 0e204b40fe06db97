"""The Python producer's enqueue rate and the server's CPU per enqueue, on a valkey-server (or redis-server)
of its own on a free port: sequential ``enqueue`` calls (one round trip each), then ``enqueue_all`` (200 jobs
per script call), each on a fresh keyspace, with INFO cpu and INFO commandstats read before and after.
The Java template's figure is echomq-benchmarks' ``--figures enqueue`` (enqueue.sequential.server_us_per_job).

    PYTHONPATH=clients/python python3 clients/python/bench_enqueue.py --protocol echomq-core/target/protocol \\
        [--server valkey-server] [--jobs 20000]
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import redis

import echomq

PAYLOAD = json.dumps({"data": "x" * 88})  # 100 bytes, as the benchmark module's plain payload


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_cpu(connection):
    cpu = connection.info("cpu")
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


def script_stats(connection):
    stats = connection.info("commandstats")
    calls = usec = 0
    for name in ("cmdstat_evalsha", "cmdstat_eval"):
        if name in stats:
            calls += int(stats[name]["calls"])
            usec += int(stats[name]["usec"])
    return calls, usec


def measure(connection, label, jobs, run):
    connection.flushall()
    connection.config_resetstat()
    cpu_before = server_cpu(connection)
    start = time.perf_counter()
    run()
    elapsed = time.perf_counter() - start
    cpu = server_cpu(connection) - cpu_before
    calls, usec = script_stats(connection)
    print("%-22s %8.0f jobs/s   server CPU %6.1f us/job   script %6.1f us/call (%d calls)"
          % (label, jobs / elapsed, cpu * 1e6 / jobs, usec / max(1, calls), calls), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", required=True)
    parser.add_argument("--server", default="valkey-server")
    parser.add_argument("--jobs", type=int, default=20000)
    args = parser.parse_args()
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="echomq-bench-")
    process = subprocess.Popen([args.server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", workdir],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        connection = redis.Redis(port=port, decode_responses=True)
        for _ in range(100):
            try:
                connection.ping()
                break
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        version = connection.info("server")
        print("server %s %s on port %d; python %s, redis-py %s" % (args.server, version.get("valkey_version")
              or version.get("redis_version"), port, sys.version.split()[0], redis.__version__))
        scripts = echomq.Scripts(args.protocol)
        print("enqueue script SHA-1 %s (manifest: %s)" % (scripts.sha("enqueue"), next(
            s["sha1"] for s in scripts.manifest["scripts"] if s["name"] == "enqueue")))
        client = echomq.Client(connection, scripts, prefix="emq")
        for _ in range(2000):  # warm-up: script cache, connection, interpreter
            client.enqueue("bench-enqueue", PAYLOAD)
        measure(connection, "enqueue (sequential)", args.jobs,
                lambda: [client.enqueue("bench-enqueue", PAYLOAD) for _ in range(args.jobs)])
        client._formats_checked.clear()
        measure(connection, "enqueue_all (200/call)", args.jobs * 5,
                lambda: client.enqueue_all("bench-enqueue", [PAYLOAD] * (args.jobs * 5)))
        print("script loaded on the server: %s" % connection.script_exists(scripts.sha("enqueue"))[0])
    finally:
        process.terminate()
        process.wait(10)


if __name__ == "__main__":
    main()
