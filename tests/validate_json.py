#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Validates netbench JSON documents against docs/schema/<test>.json (JSON Schema 2020-12).

Usage: validate_json.py [--schemas DIR] PATH...
Each PATH is a file or a directory (its *.json files, recursively). A file that holds a JSON
object with "schema": "netbench/1" is a document and is validated against the schema its "test"
names; other files (error output, empty captures) are not documents and are listed, not judged.
Exit status 0 when at least one document was found and every document is valid, else 1.
"""
import json
import os
import sys

import jsonschema

BASE = "https://schema.netbench.invalid/1/"


def load_schemas(d):
    schemas = {}
    for name in sorted(os.listdir(d)):
        if name.endswith(".json"):
            with open(os.path.join(d, name)) as f:
                schemas[name] = json.load(f)
    return schemas


def validator_for(schemas, name):
    schema = schemas[name]
    cls = jsonschema.validators.validator_for(schema)
    try:
        from referencing import Registry, Resource

        registry = Registry().with_resources(
            (BASE + n, Resource.from_contents(s)) for n, s in schemas.items()
        )
        return cls(schema, registry=registry)
    except ImportError:  # jsonschema before 4.18: no referencing library
        store = {BASE + n: s for n, s in schemas.items()}
        resolver = jsonschema.RefResolver(BASE + name, schema, store=store)
        return cls(schema, resolver=resolver)


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in sorted(os.walk(p)):
                for n in sorted(names):
                    if n.endswith(".json"):
                        yield os.path.join(root, n)
        else:
            yield p


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    sdir = os.path.join(here, "..", "docs", "schema")
    if len(argv) > 2 and argv[1] == "--schemas":
        sdir = argv[2]
        argv = argv[2:]
    schemas = load_schemas(sdir)
    validators = {}
    docs = bad = 0
    for path in files_of(argv[1:]):
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            print(f"# not a JSON document: {path}")
            continue
        if not isinstance(doc, dict) or doc.get("schema") != "netbench/1":
            print(f"# not a netbench document: {path}")
            continue
        docs += 1
        name = f"{doc.get('test')}.json"
        if name not in schemas:
            print(f"# {path}: no schema for test {doc.get('test')!r}")
            bad += 1
            continue
        if name not in validators:
            validators[name] = validator_for(schemas, name)
        errors = sorted(validators[name].iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:5]:
            where = "/".join(str(x) for x in e.absolute_path) or "(top)"
            print(f"# {path}: {where}: {e.message[:300]}")
        if errors:
            bad += 1
    print(f"# {docs} document(s) checked against docs/schema, {bad} invalid")
    return 0 if docs and not bad else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
