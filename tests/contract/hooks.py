"""Schemathesis hooks (SCHEMATHESIS_HOOKS=hooks): the game stream is NDJSON, one JSON object per
line. Every line must parse; the response is checked against the line schema through its first
line (a finished game's seat stream then sends its rematch lines) (`cargo test -p gmo-server --test api` checks
every line of live streams against the same schema)."""

import json

import schemathesis


@schemathesis.deserializer("application/x-ndjson")
def ndjson(ctx, response):
    lines = [json.loads(line) for line in response.content.decode().splitlines() if line.strip()]
    if not lines:
        raise ValueError("an NDJSON stream with no line")
    return lines[0]
