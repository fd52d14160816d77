#!/usr/bin/env python3
"""Writes Examples/clients/clients.ndjson: 1,000 client records, deterministic, a few dozen of them
invalid in different ways (listed in Examples/clients/invalid.tsv). Standard library only.

    python3 scripts/make-example-clients.py
"""
import json
import os
import random
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Examples", "clients")

FIRST = ["Anna", "José", "Łukasz", "Ingrid", "Søren", "Amélie", "Олег", "Мария", "Ελένη", "Νίκος", "王芳", "李伟",
         "さくら", "健太", "민준", "서연", "Aarav", "प्रिया", "Omar", "Layla", "Noa", "Yosef", "Kwame", "Zanele"]
LAST = ["Kowalski", "García", "Müller", "Dubois", "Hansen", "Rossi", "Иванов", "Петрова", "Παπαδόπουλος",
        "Chen", "Wang", "Sato", "Kim", "Sharma", "Haddad", "Cohen", "Mensah", "Dlamini", "O'Brien", "Nguyen"]
DOMAINS = ["example.com", "mail.example.org", "example.net", "post.example.de", "example.co.jp"]
CITIES = [("Kraków", "PL", "30-001"), ("Lyon", "FR", "69001"), ("Berlin", "DE", "10115"), ("Osaka", "JP", "530-0001"),
          ("Toronto", "CA", "M5H 2N2"), ("London", "GB", "SW1A 1AA"), ("São Paulo", "BR", "01310-100"),
          ("Seoul", "KR", "04524"), ("Mumbai", "IN", "400001"), ("Nairobi", "KE", "00100"), ("Oslo", "NO", "0150")]
STREETS = ["Main Street", "ul. Floriańska", "Rue de la République", "Unter den Linden", "Dotonbori", "Queen St W",
           "Avenida Paulista", "Sejong-daero", "Marine Drive", "Kenyatta Avenue", "Karl Johans gate"]
TAGS = ["vip", "newsletter", "beta", "churn-risk", "partner", "wholesale", "apac", "emea", "priority"]
PLANS = ["free", "team", "business", "enterprise"]


def ascii_local(name, rng):
    base = "".join(c for c in name.lower() if c.isascii() and c.isalpha()) or "user"
    return f"{base}.{rng.randint(1, 9999)}"


def record(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    city, country, postcode = rng.choice(CITIES)
    return {
        "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "name": f"{first} {last}",
        "email": f"{ascii_local(last, rng)}@{rng.choice(DOMAINS)}",
        "signup": f"20{rng.randint(18, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                  f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z",
        "age": rng.randint(18, 90),
        "plan": rng.choice(PLANS),
        "address": {"street": f"{rng.randint(1, 300)} {rng.choice(STREETS)}", "city": city,
                    "postcode": postcode, "country": country},
        "tags": rng.sample(TAGS, rng.randint(0, 3)),
        "active": rng.random() < 0.8,
    }


def spoil(kind, r):
    """Makes a record invalid in one way; returns the record or a raw line."""
    if kind == "bad_email": r["email"] = r["email"].replace("@", " at ")
    elif kind == "impossible_date": r["signup"] = "2023-02-30T10:00:00Z"
    elif kind == "missing_field": del r["email"]
    elif kind == "extra_property": r["nickname"] = "Ace"
    elif kind == "age_range": r["age"] = 212
    elif kind == "bad_country": r["address"]["country"] = "XX"
    elif kind == "bad_postcode": r["address"]["postcode"] = "not a code!"
    elif kind == "wrong_type": r["age"] = str(r["age"])
    elif kind == "duplicate_tag": r["tags"] = ["vip", "beta", "vip"]
    elif kind == "bad_uuid": r["id"] = r["id"][:-4]
    elif kind == "unknown_plan": r["plan"] = "platinum"
    elif kind == "short_name": r["name"] = "J"
    elif kind == "not_json": return json.dumps(r, ensure_ascii=False, separators=(",", ":"))[:-25]
    return r


KINDS = ["bad_email", "impossible_date", "missing_field", "extra_property", "age_range", "bad_country",
         "bad_postcode", "wrong_type", "duplicate_tag", "bad_uuid", "unknown_plan", "short_name", "not_json"]


def main():
    rng = random.Random(20261122)
    bad = sorted(rng.sample(range(1000), 39))
    kinds = {line: KINDS[i % len(KINDS)] for i, line in enumerate(bad)}
    with open(os.path.join(OUT, "clients.ndjson"), "w", encoding="utf-8") as out, \
            open(os.path.join(OUT, "invalid.tsv"), "w", encoding="utf-8") as truth:
        truth.write("line\tkind\n")
        for index in range(1000):
            r = record(rng)
            if index in kinds:
                r = spoil(kinds[index], r)
                truth.write(f"{index + 1}\t{kinds[index]}\n")
            out.write((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False, separators=(",", ":"))) + "\n")


if __name__ == "__main__":
    main()
