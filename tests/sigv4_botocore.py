"""Generates AWS Signature Version 4 cases signed by botocore, for the Rust test
`every_botocore_case_signs_alike` in tests/plugin_aws_sigv4.rs to sign again and compare.

    python3 tests/sigv4_botocore.py OUT.json [COUNT]

Needs botocore (pip). Each case is a request as httptool's plugins send them (path segments
and query names and values percent-encoded: everything but the unreserved characters), with
paths holding spaces, unicode and reserved characters, repeated and empty query keys, keys
without a value, headers with runs of spaces and repeats, and bodies of every kind (none,
JSON, form, text, binary). Services are execute-api, dynamodb, es and s3 (S3SigV4Auth), some
with a session token. The seed is fixed: the same file every run.
"""

import json
import random
import sys
from datetime import datetime, timezone
from unittest import mock
from urllib.parse import quote

from botocore.auth import S3SigV4Auth, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

SEGMENT_CHARS = (
    list("abcxyzABC019-._~")
    + [" ", "/", "?", "#", "%", "+", "&", "=", ":", "@", "!", "$", "'", "(", ")", "*", ",", ";"]
    + ["é", "ü", "日本", "\u1234", "😀"]
)


def encode(text):
    """As httptool encodes a path segment or a query component."""
    return quote(text, safe="-_.~")


def word(rng, chars=SEGMENT_CHARS, low=1, high=8):
    return "".join(rng.choice(chars) for _ in range(rng.randint(low, high)))


def path(rng):
    segments = [encode(word(rng)) for _ in range(rng.randint(0, 4))]
    text = "/" + "/".join(segments)
    if segments and rng.random() < 0.2:
        text += "/"
    return text


def query(rng):
    pairs = []
    for _ in range(rng.choice([0, 0, 1, 2, 3, 5])):
        name = encode(word(rng, low=1, high=5))
        if pairs and rng.random() < 0.3:
            name = rng.choice(pairs).split("=")[0]  # a repeated key
        roll = rng.random()
        if roll < 0.15:
            pairs.append(name)  # no value at all
        elif roll < 0.3:
            pairs.append(name + "=")  # an empty value
        else:
            pairs.append(name + "=" + encode(word(rng, low=1, high=10)))
    return "&".join(pairs)


def body(rng):
    kind = rng.choice(["none", "json", "form", "text", "binary"])
    if kind == "none":
        return b"", None
    if kind == "json":
        value = {word(rng, low=1, high=5): word(rng) for _ in range(rng.randint(0, 4))}
        return json.dumps(value, ensure_ascii=False).encode(), "application/json"
    if kind == "form":
        pairs = [(word(rng, low=1, high=4), word(rng)) for _ in range(rng.randint(1, 3))]
        text = "&".join(quote(k, safe="") + "=" + quote(v, safe="") for k, v in pairs)
        return text.encode(), "application/x-www-form-urlencoded"
    if kind == "text":
        return word(rng, low=0, high=40).encode(), "text/plain; charset=utf-8"
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))), "application/octet-stream"


def headers(rng, content_type):
    out = []
    if content_type:
        out.append(("Content-Type", content_type))
    for _ in range(rng.randint(0, 3)):
        name = rng.choice(["X-Custom", "X-Amz-Target", "Accept", "X-Request-Id", "My-Header1"])
        value = rng.choice(["a", "b  c", " padded ", "x,y", "application/json", "v" * 20])
        out.append((name, value))
    return out


def case(rng, number):
    service = rng.choice(["execute-api", "execute-api", "dynamodb", "es", "s3"])
    region = rng.choice(["us-east-1", "eu-west-1", "ap-southeast-2", "cn-north-1"])
    host = rng.choice(
        [
            "abc123.execute-api.%s.amazonaws.com" % region,
            "example.amazonaws.com",
            "localhost:9000",
            "127.0.0.1:8080",
        ]
    )
    method = rng.choice(["GET", "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"])
    data, content_type = body(rng) if method in ("POST", "PUT", "PATCH") else (b"", None)
    url = "https://" + host + path(rng)
    q = query(rng)
    if q:
        url += "?" + q
    fields = headers(rng, content_type)
    unix_time = rng.randint(0, 4_102_444_800)
    token = "token-%d-%s" % (number, "z" * rng.randint(0, 40)) if rng.random() < 0.3 else None
    key_id = "AKIA%012d" % number
    secret = "".join(rng.choice("abcdefABCDEF0123456789/+") for _ in range(40))

    request = AWSRequest(method=method, url=url, data=data)
    for name, value in fields:
        # Assigning appends: a repeated name stays separate fields, as httptool keeps them.
        request.headers[name] = value
    signer_class = S3SigV4Auth if service == "s3" else SigV4Auth
    signer = signer_class(Credentials(key_id, secret, token), service, region)
    moment = datetime.fromtimestamp(unix_time, tz=timezone.utc).replace(tzinfo=None)
    with mock.patch("botocore.auth.get_current_datetime", return_value=moment):
        signer.add_auth(request)
    return {
        "method": method,
        "url": url,
        "headers": [[name, value] for name, value in fields],
        "body_hex": data.hex(),
        "unix_time": unix_time,
        "region": region,
        "service": service,
        "access_key_id": key_id,
        "secret_access_key": secret,
        "session_token": token,
        "authorization": request.headers["Authorization"],
    }


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    rng = random.Random(20150830)
    cases = [case(rng, n) for n in range(count)]
    with open(out, "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=0)
    print("wrote %d cases to %s" % (len(cases), out))


if __name__ == "__main__":
    main()
