#!/usr/bin/env python3
"""Reads a DynamoDB export knowing only its documented format (developer guide, "DynamoDB table
export output format"): manifest-summary.json names manifest-files.json, whose JSON lines name
the gzip'd data files with their item counts and base64 MD5s. Checks every count and checksum,
then prints each item, one DynamoDB JSON object per line. Usage: read-export.py DIR BUCKET SUMMARY_KEY"""
import base64, gzip, hashlib, json, os, sys

root, bucket, summary_key = sys.argv[1], sys.argv[2], sys.argv[3]

def read(key):
    with open(os.path.join(root, bucket, key), "rb") as f:
        return f.read()

summary = json.loads(read(summary_key))
assert summary["version"] == "2020-06-30", summary
assert summary["outputFormat"] == "DYNAMODB_JSON", summary
base = summary_key[: -len("manifest-summary.json")]
md5 = base64.b64encode(hashlib.md5(read(summary_key)).digest()).decode()
assert read(base + "manifest-summary.md5").decode() == md5, "manifest-summary.md5"
manifest = read(summary["manifestFilesS3Key"])
assert read(base + "manifest-files.md5").decode() == base64.b64encode(hashlib.md5(manifest).digest()).decode()
total = 0
for line in manifest.decode().splitlines():
    entry = json.loads(line)
    data = read(entry["dataFileS3Key"])
    assert base64.b64encode(hashlib.md5(data).digest()).decode() == entry["md5Checksum"], entry
    count = 0
    for item_line in gzip.decompress(data).decode().splitlines():
        if not item_line:
            continue
        item = json.loads(item_line)["Item"]
        print(json.dumps({"Item": item}))
        count += 1
    assert count == entry["itemCount"], (count, entry)
    total += count
assert total == summary["itemCount"], (total, summary["itemCount"])
