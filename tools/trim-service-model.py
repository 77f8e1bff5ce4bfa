#!/usr/bin/env python3
"""Extracts the parts of AWS's DynamoDB service model that Stator's request reader needs.

AWS publishes DynamoDB's API (operations, shapes, constraints) as a machine-readable model,
shipped in botocore under the Apache License 2.0. Stator validates requests against a trimmed
copy: the shapes and their constraints, without documentation.

Usage: tools/trim-service-model.py [path/to/service-2.json(.gz)] > \
    stator-server/src/main/resources/io/stator/server/protocol/dynamodb-2012-08-10.json
Without a path it uses the botocore installed for python3. DynamoDB Streams' model is trimmed the
same way: tools/trim-service-model.py .../data/dynamodbstreams/2012-08-10/service-2.json.gz >
    stator-server/src/main/resources/io/stator/server/protocol/dynamodbstreams-2012-08-10.json

The bundled DynamoDB model also holds vector search (SearchVectors and its shapes), added by hand
and listed in its "handAdded" because the botocore it was trimmed from predates them: trim a
botocore that has them (1.43.64 or later), or the hand additions are lost.
"""
import gzip
import json
import os
import sys

KEEP = ("type", "required", "min", "max", "pattern", "enum", "member", "key", "value",
        "members", "shape")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def trim(node):
    if isinstance(node, dict):
        return {k: trim(v) for k, v in node.items() if k in KEEP or k[0].isupper()}
    return node


def main():
    if len(sys.argv) > 1:
        path = sys.argv[1]
    else:
        import botocore
        base = os.path.join(os.path.dirname(botocore.__file__), "data", "dynamodb", "2012-08-10")
        path = next(os.path.join(base, f) for f in sorted(os.listdir(base)) if f.startswith("service-2"))
    model = load(path)
    out = {
        "source": "botocore data/%s/2012-08-10/service-2.json (Apache License 2.0), trimmed"
                  % ("dynamodbstreams" if "dynamodbstreams" in path else "dynamodb"),
        "metadata": {k: model["metadata"][k] for k in ("apiVersion", "targetPrefix", "jsonVersion")},
        "operations": {name: {k: op[k]["shape"] for k in ("input", "output") if k in op}
                       for name, op in sorted(model["operations"].items())},
        "shapes": {},
    }
    for name, shape in sorted(model["shapes"].items()):
        s = {k: v for k, v in shape.items() if k in KEEP}
        if "members" in s:
            s["members"] = {m: {"shape": d["shape"]} for m, d in shape["members"].items()}
        for k in ("member", "key", "value"):
            if k in s:
                s[k] = {"shape": s[k]["shape"]}
        out["shapes"][name] = s
    json.dump(out, sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
