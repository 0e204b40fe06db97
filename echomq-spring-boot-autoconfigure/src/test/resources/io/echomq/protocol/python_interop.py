"""The Python side of PythonInteropTests: one process per server. Arguments: standalone host:port | cluster
host:port,..., the key prefix, the protocol directory, then the ids the Java template enqueued: a delayed job
and a job its listener completes. Prints one line per fact for the Java side to check."""

import json
import sys

import echomq
from echomq import keys

mode, address, prefix, protocol, delayed_id, completed_id = sys.argv[1:7]
if mode == "cluster":
    connection = echomq.Client.connect(cluster_nodes=[node.rsplit(":", 1) for node in address.split(",")])
else:
    connection = echomq.Client.connect("redis://%s/0" % address)
client = echomq.Client(connection, protocol, prefix=prefix, partitions={"py-many": 4})

# the partition names and the partition of a key, as QueuePartitions computes them
print("PARTITIONS", " ".join(client.partition_names("py-many")))
for key in ("customer-1", "tenant-b", "\u00e9t\u00e9"):
    print("KEYPART", keys.partition_for_key(key, 4), key)

# a. many jobs to a partitioned queue, round-robin, then the results of 100 of them
many = client.enqueue_all("py-many", [json.dumps({"n": n}) for n in range(10000)])
print("IDS", " ".join(many))
for job_id in many[:100]:
    print("RESULT", job_id, client.await_result("py-many", job_id, timeout=60))
keyed = client.enqueue("py-many", json.dumps({"n": -1}), partition_key="customer-1")
print("KEYED", keyed)

# b. jobs the Java template enqueued, read from Python
info = client.state("py-read", delayed_id)
print("READ", info.state, info.max_attempts, info.payload)
print("AWAITED", client.await_result("py-read", completed_id, timeout=60))
info = client.state("py-read", completed_id)
print("READ-COMPLETED", info.state, info.result)
print("READ-NONE", client.state("py-read", echomq.mint()))

# a flow: a parent with a child in its queue and one in another queue
flow = client.enqueue_flow(echomq.Flow("py-flow", json.dumps({"name": "parent"}), [
    echomq.Flow("py-flow", json.dumps({"name": "near"})),
    echomq.Flow("py-flow-other", json.dumps({"name": "far"}), on_failure="ignore")]))
print("FLOW", flow.job_id, flow.children[0].job_id, flow.children[1].job_id)
print("FLOW-RESULT", client.await_result("py-flow", flow.job_id, timeout=60))

# c. bad input: refused before any write, with the Java checks' messages
cases = {
    "queue-name": lambda: client.enqueue("bad q", '"x"'),
    "queue-long": lambda: client.enqueue("q" * 65, '"x"'),
    "queue-hash": lambda: client.enqueue("py-bad#1", '"x"'),
    "queue-type": lambda: client.enqueue(42, '"x"'),
    "lane": lambda: client.enqueue("py-bad", '"x"', lane="a:b"),
    "lane-long": lambda: client.enqueue("py-bad", '"x"', lane="l" * 65),
    "id-short": lambda: client.state("py-bad", "JOB123"),
    "id-digit": lambda: client.await_result("py-bad", "JOB" + "!" * 22, timeout=1),
    "id-brand": lambda: client.enqueue("py-bad", '"x"', job_id="ABC" + "0" * 22),
    "max-attempts": lambda: client.enqueue("py-bad", '"x"', max_attempts=0),
    "delay": lambda: client.enqueue("py-bad", '"x"', delay_ms=-5),
    "unique-name": lambda: client.enqueue_unique("py-bad", '"x"', echomq.UniqueKey.until_done("a b")),
    "throttle-window": lambda: client.enqueue_unique("py-bad", '"x"', echomq.UniqueKey.throttle("k", 0)),
    "partition-key": lambda: client.enqueue("py-bad", '"x"', partition_key=""),
    "payload-type": lambda: client.enqueue("py-bad", 42),
    "priority-type": lambda: client.enqueue("py-bad", '"x"', priority="high"),
    "option": lambda: client.enqueue("py-bad", '"x"', colour="red"),
    "script-id": lambda: client.call("enqueue", [client.key("py-bad", s) for s in
                                                 ("pending", "schedule", "metrics", "wake", "job:JOB1")],
                                     [3, 0, 0, "", 0, "", "JOB1", '"x"']),
}
for name, case in cases.items():
    try:
        case()
        print("ERROR", name, "none", "no error")
    except echomq.ProtocolError as ex:
        print("ERROR", name, "ProtocolError", ex.code)
    except Exception as ex:
        print("ERROR", name, type(ex).__name__, ex)
print("DONE")
