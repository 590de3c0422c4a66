#!/usr/bin/env python3
"""Writes a large snapshot file (a Kubernetes List, JSON, as `kubectl get -o json` prints it)
for the memory and load-time figures of docs/performance.md:

    python3 benches/files/big_snapshot.py 200 > /tmp/big.json    # about 200 MB

Pods are the API server's shape after kwok's status update (tests/fixtures/k8s/
wire-pod-kwok.json: labels, GPU requests, managed fields), spread over 8-GPU nodes of the
mixed fleet (docs/examples/mixed-fleet.json), 8 pods a node; names and UIDs are unique.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POD = json.loads((ROOT / "tests/fixtures/k8s/wire-pod-kwok.json").read_text())
FLEET = json.loads((ROOT / "docs/examples/mixed-fleet.json").read_text())
NODE = next(i for i in FLEET["items"] if i["kind"] == "Node")


def main():
    target = int(sys.argv[1] if len(sys.argv) > 1 else "200") * 1_000_000
    out = sys.stdout
    out.write('{"apiVersion": "v1", "kind": "List", "metadata": {}, "items": [\n')
    written, n = 0, 0
    while written < target:
        node = json.loads(json.dumps(NODE))
        node["metadata"]["name"] = f"gpu-node-{n:06d}"
        node["metadata"]["uid"] = f"00000000-0000-4000-8000-{n:012d}"
        text = json.dumps(node, indent=1)
        out.write(("" if n == 0 else ",\n") + text)
        written += len(text)
        for p in range(8):
            pod = json.loads(json.dumps(POD))
            pod["metadata"]["name"] = f"raw-{n}-{p}"
            pod["metadata"]["uid"] = f"10000000-0000-4000-8000-{n * 8 + p:012d}"
            pod["spec"]["nodeName"] = node["metadata"]["name"]
            text = json.dumps(pod, indent=1)
            out.write(",\n" + text)
            written += len(text)
        n += 1
    out.write("\n]}\n")


if __name__ == "__main__":
    main()
