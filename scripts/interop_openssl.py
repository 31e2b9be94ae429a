#!/usr/bin/env python3
"""Key files and operations against OpenSSL, both directions.

OpenSSL through the `cryptography` package from PyPI (its wheels bundle
OpenSSL; 50.0.2 bundles OpenSSL 4.0.3 and has ML-KEM-768/1024 and
ML-DSA-44/65/87), against the `pqforge` command:

* pqforge's key files (PEM and DER, seed form) read by OpenSSL; OpenSSL's
  key files read by pqforge, which derives the same public key file byte
  for byte;
* ciphertexts made on one side decapsulated on the other, signatures made
  on one side (with and without a context) verified on the other, and a
  tampered signature rejected by both.

OpenSSL's own policy refuses PKCS#8 `expandedKey` and `both` private keys
(it reads the seed form only), so those forms are exchanged only from
OpenSSL to pqforge (OpenSSL writes seed keys).

Usage: scripts/interop_openssl.py PATH/TO/pqforge
Prints one line per check and "interop: N passed"; exits 1 on any failure.
"""

import os
import subprocess
import sys
import tempfile

from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem

PQFORGE = sys.argv[1] if len(sys.argv) > 1 else "pqforge"
passed = 0


def run(*args, ok=True):
    r = subprocess.run([PQFORGE, *args], capture_output=True)
    if ok and r.returncode != 0:
        raise SystemExit(f"pqforge {' '.join(args)} failed: {r.stderr.decode().strip()}")
    return r


def check(cond, what):
    global passed
    if not cond:
        raise SystemExit(f"interop: FAILED: {what}")
    passed += 1
    print(f"  ok  {what}")


def read(p):
    with open(p, "rb") as f:
        return f.read()


def write(p, b):
    with open(p, "wb") as f:
        f.write(b)


def load_private(data, der):
    return (ser.load_der_private_key if der else ser.load_pem_private_key)(data, password=None)


def load_public(data, der):
    return (ser.load_der_public_key if der else ser.load_pem_public_key)(data)


def encodings(der):
    if der:
        return ser.Encoding.DER
    return ser.Encoding.PEM


KEMS = {"ml-kem-768": mlkem.MLKEM768PrivateKey, "ml-kem-1024": mlkem.MLKEM1024PrivateKey}
SIGS = {
    "ml-dsa-44": mldsa.MLDSA44PrivateKey,
    "ml-dsa-65": mldsa.MLDSA65PrivateKey,
    "ml-dsa-87": mldsa.MLDSA87PrivateKey,
}


def kem(alg, cls, d):
    for der in (False, True):
        form = "der" if der else "pem"
        k, p = f"{d}/{alg}.{form}.key", f"{d}/{alg}.{form}.pub"
        # pqforge -> OpenSSL
        run("keygen", alg, "--out", k, "--pub", p, "--form", form, "--force")
        sk = load_private(read(k), der)
        pk = load_public(read(p), der)
        check(sk.public_key() == pk, f"{alg} {form}: OpenSSL reads pqforge's key pair")
        ss, ct = pk.encapsulate()
        write(f"{d}/ct", ct)
        run("decaps", "--key", k, "--ct", f"{d}/ct", "--ss", f"{d}/ss", "--force")
        check(read(f"{d}/ss") == ss, f"{alg} {form}: OpenSSL encapsulates, pqforge decapsulates")
        run("encaps", "--pub", p, "--ct", f"{d}/ct2", "--ss", f"{d}/ss2", "--force")
        check(sk.decapsulate(read(f"{d}/ct2")) == read(f"{d}/ss2"),
              f"{alg} {form}: pqforge encapsulates, OpenSSL decapsulates")
        # OpenSSL -> pqforge
        osk = cls.generate()
        enc = encodings(der)
        write(f"{d}/o.key", osk.private_bytes(enc, ser.PrivateFormat.PKCS8, ser.NoEncryption()))
        write(f"{d}/o.pub", osk.public_key().public_bytes(enc, ser.PublicFormat.SubjectPublicKeyInfo))
        out = run("pub", f"{d}/o.key", "--form", form).stdout
        check(out == read(f"{d}/o.pub"), f"{alg} {form}: pqforge derives OpenSSL's public key file byte for byte")
        ss, ct = osk.public_key().encapsulate()
        write(f"{d}/ct", ct)
        run("decaps", "--key", f"{d}/o.key", "--ct", f"{d}/ct", "--ss", f"{d}/ss", "--force")
        check(read(f"{d}/ss") == ss, f"{alg} {form}: pqforge decapsulates with OpenSSL's key")
        run("encaps", "--pub", f"{d}/o.pub", "--ct", f"{d}/ct2", "--ss", f"{d}/ss2", "--force")
        check(osk.decapsulate(read(f"{d}/ct2")) == read(f"{d}/ss2"),
              f"{alg} {form}: OpenSSL decapsulates pqforge's ciphertext to its key")
    # Implicit rejection agrees: a modified ciphertext gives the same
    # (rejection) secret on both sides.
    ct = bytearray(read(f"{d}/ct2"))
    ct[0] ^= 1
    write(f"{d}/ct3", bytes(ct))
    run("decaps", "--key", f"{d}/o.key", "--ct", f"{d}/ct3", "--ss", f"{d}/ss3", "--force")
    check(osk.decapsulate(bytes(ct)) == read(f"{d}/ss3"), f"{alg}: the same implicit-rejection secret")


def sig(alg, cls, d):
    msg = os.urandom(100)
    write(f"{d}/m", msg)
    for der in (False, True):
        form = "der" if der else "pem"
        k, p = f"{d}/{alg}.{form}.key", f"{d}/{alg}.{form}.pub"
        run("keygen", alg, "--out", k, "--pub", p, "--form", form, "--force")
        sk = load_private(read(k), der)
        pk = load_public(read(p), der)
        check(sk.public_key() == pk, f"{alg} {form}: OpenSSL reads pqforge's key pair")
        for ctx in (None, b"interop context"):
            c = [] if ctx is None else ["--context", ctx.decode()]
            tag = "no context" if ctx is None else "context"
            write(f"{d}/s", sk.sign(msg, ctx))
            run("verify", "--pub", p, "--in", f"{d}/m", "--sig", f"{d}/s", *c)
            check(True, f"{alg} {form} {tag}: OpenSSL signs, pqforge verifies")
            run("sign", "--key", k, "--in", f"{d}/m", "--sig", f"{d}/s2", "--force", *c)
            pk.verify(read(f"{d}/s2"), msg, ctx)
            check(True, f"{alg} {form} {tag}: pqforge signs, OpenSSL verifies")
        bad = bytearray(read(f"{d}/s2"))
        bad[10] ^= 1
        write(f"{d}/bad", bytes(bad))
        r = run("verify", "--pub", p, "--in", f"{d}/m", "--sig", f"{d}/bad", "--context", "interop context", ok=False)
        try:
            pk.verify(bytes(bad), msg, b"interop context")
            openssl_rejects = False
        except Exception:
            openssl_rejects = True
        check(r.returncode == 1 and openssl_rejects, f"{alg} {form}: both reject a tampered signature")
        # OpenSSL -> pqforge
        osk = cls.generate()
        enc = encodings(der)
        write(f"{d}/o.key", osk.private_bytes(enc, ser.PrivateFormat.PKCS8, ser.NoEncryption()))
        write(f"{d}/o.pub", osk.public_key().public_bytes(enc, ser.PublicFormat.SubjectPublicKeyInfo))
        out = run("pub", f"{d}/o.key", "--form", form).stdout
        check(out == read(f"{d}/o.pub"), f"{alg} {form}: pqforge derives OpenSSL's public key file byte for byte")
        run("sign", "--key", f"{d}/o.key", "--in", f"{d}/m", "--sig", f"{d}/s3", "--force")
        osk.public_key().verify(read(f"{d}/s3"), msg)
        check(True, f"{alg} {form}: pqforge signs with OpenSSL's key, OpenSSL verifies")


def main():
    import cryptography
    from cryptography.hazmat.backends.openssl.backend import backend
    print(f"interop: cryptography {cryptography.__version__}, {backend.openssl_version_text()}, {PQFORGE}")
    with tempfile.TemporaryDirectory() as d:
        for alg, cls in KEMS.items():
            kem(alg, cls, d)
        for alg, cls in SIGS.items():
            sig(alg, cls, d)
    if passed == 0:
        raise SystemExit("interop: FAILED: nothing was checked")
    print(f"interop: {passed} passed")


if __name__ == "__main__":
    main()
