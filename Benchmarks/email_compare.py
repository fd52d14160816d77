#!/usr/bin/env python3
"""Assay's EmailAddressValidator (defaults: RFC 6531 on, quoted local parts and domain literals off)
against python's email-validator (syntax only: no DNS, special-use domains allowed, SMTPUTF8 on) on a
generated corpus of addresses, every disagreement counted by Assay's reason and shown with examples.

    Benchmarks/email_compare.py [COUNT] [--bin DIR]      (default 1,000,000; release binaries)

With `--format email` or `--format idn-email`, Assay's side is instead a JSON Schema `{"format": …}`
with formats asserted, each address checked as a parsed JSON string in place (the byte-level checks
`assay validate` runs, then the full ones where those do not decide), and email-validator is set to
what the format means: RFC 5321 or RFC 6531 (`allow_smtputf8`), quoted local parts and domain
literals allowed, as both RFCs allow them.
"""
import argparse
import collections
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCALS = ["john", "j.doe", "a", "user+tag", "first_last", "x-y", "o'brien", "héllo", "почта", "用户",
          "a.b.c", "1234", "UPPER", "ab" * 33, "ñ", "δοκιμή", "user.name+filter", "-lead", "trail-"]
DOMAINS = ["example.com", "xn--80ak6aa92e.com", "пример.рф", "sub.example.co.uk", "a.b", "localhost",
           "例子.测试", "example", "ex-ample.org", "123.com", "example.123", "b" * 63 + ".com", "xn--bcher-kva.de",
           "münchen.de", "a--b.com", "ex_ample.com", "example.c"]
NOISE = [".", "..", "@", " ", "\t", "\"", "(", ")", ",", ":", ";", "<", ">", "[", "]", "\\", "\u00a0",
         "\u200b", "\u200d", "\u202e", "\ufeff", "\u0604", "\u2066", "\u0000", "\u007f", "\u0085", "\u0301",
         "\ud7ff", "\u3000", "\U0001F600", "-", "_", "+", "=", "!", "#", "$", "%", "&", "*", "/", "?", "^",
         "`", "{", "|", "}", "~", "'", "xn--", "-", "é", "ß", "İ"]


def generate(count, seed=23):
    rng = random.Random(seed)
    for _ in range(count):
        local = rng.choice(LOCALS)
        domain = rng.choice(DOMAINS)
        address = local + "@" + domain
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            position = rng.randrange(len(address) + 1)
            kind = rng.random()
            if kind < 0.6:
                address = address[:position] + rng.choice(NOISE) + address[position:]
            elif kind < 0.8 and len(address) > 1:
                address = address[:position] + address[position + 1:]
            else:
                address = address[:position] + rng.choice(LOCALS) + address[position:]
        if "\n" in address or "\r" in address or "\u2028" in address or "\u2029" in address:
            continue
        yield address


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("count", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--format", choices=["email", "idn-email"])
    arguments = parser.parse_args()
    try:
        import email_validator
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "email-validator==2.4.0"], check=True)
        import email_validator
    addresses = list(generate(arguments.count))
    mode = ["email-format", arguments.format] if arguments.format else ["email"]
    peer = dict(allow_quoted_local=False, allow_domain_literal=False)
    if arguments.format:
        peer = dict(allow_quoted_local=True, allow_domain_literal=True,
                    allow_smtputf8=arguments.format == "idn-email")
    probe = subprocess.run([os.path.join(arguments.bin, "ScalingProbe")] + mode,
                           input="\n".join(addresses) + "\n", capture_output=True, text=True, check=True)
    ours = probe.stdout.split("\n")[:len(addresses)]
    assert len(ours) == len(addresses), (len(ours), len(addresses))
    agree = 0
    disagreements = collections.defaultdict(list)
    for address, verdict in zip(addresses, ours):
        try:
            email_validator.validate_email(address, check_deliverability=False, globally_deliverable=False,
                                           **peer)
            theirs = "valid"
        except email_validator.EmailNotValidError as error:
            theirs = "invalid: " + str(error).split(".")[0]
        if (verdict == "valid") == (theirs == "valid"):
            agree += 1
        else:
            key = ("Assay accepts" if verdict == "valid" else "Assay rejects (" + verdict + ")") + \
                  " / email-validator " + ("accepts" if theirs == "valid" else "rejects (" + theirs[9:] + ")")
            disagreements[key].append(address)
    print("%d addresses (%d distinct), %d agree (%.3f%%), %d disagree" % (
        len(addresses), len(set(addresses)), agree, 100.0 * agree / len(addresses), len(addresses) - agree))
    print()
    print("| Assay / email-validator | count | distinct | examples |")
    print("|---|---:|---:|---|")
    for key, found in sorted(disagreements.items(), key=lambda item: -len(item[1])):
        distinct = sorted(set(found), key=found.index)
        examples = ", ".join("`%s`" % ascii(example)[1:-1] for example in distinct[:arguments.examples])
        print("| %s | %d | %d | %s |" % (key, len(found), len(distinct), examples))


if __name__ == "__main__":
    main()
