#!/usr/bin/env python3
"""Seed corpora of the fuzz targets (fuzz/fuzz_targets), built from the
official vectors in DATA (../shared): ML-KEM ciphertexts, signatures and
keys from the ACVP files, key files from the IETF LAMPS examples and the
OpenSSL codec tests, and reduced copies of each vector-file format for the
CLI parsers. Writes OUT/<target>/seed-*; never copies a whole data file
into the repository (the corpus directory is git-ignored).

    scripts/fuzz_seeds.py DATA OUT

With CI=true a missing DATA directory is an error.
"""
import hashlib, json, os, random, sys
from pathlib import Path

data, out = Path(sys.argv[1]), Path(sys.argv[2])
if not data.is_dir():
    msg = f"fuzz_seeds: no test data at {data}"
    if os.environ.get("CI") == "true":
        sys.exit(msg + " (CI=true: failing)")
    print(msg + ": synthetic seeds only", file=sys.stderr)

counts = {}

def seed(target, blob):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / ("seed-" + hashlib.sha256(blob).hexdigest()[:16])).write_bytes(blob)
    counts[target] = counts.get(target, 0) + 1

def load(rel):
    p = data / rel
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError):
        return None

def read(rel, limit=None):
    try:
        b = (data / rel).read_bytes()
    except OSError:
        return None
    return b if limit is None else b[:limit]

rnd = random.Random(0x5eed)

# kem_decaps: selector (0-2 ML-KEM, 3-6 HQC, 7-10 McEliece, 11 X-Wing,
# 12-13 (e)FrodoKEM-640, 14-15 NTRU, 16-17 sntrup), then mode.
for sel in range(18):
    seed("kem_decaps", bytes([sel, 1]))  # the honest ciphertext
    seed("kem_decaps", bytes([sel, 1, 0, 0, 1]))
    seed("kem_decaps", bytes([sel, 1, 7, 1]) + b"\xff" * 8)
for sel in range(7, 11):
    t = 64 if sel < 10 else 96
    e = b"".join(rnd.randrange(65536).to_bytes(2, "little") for _ in range(t))
    seed("kem_decaps", bytes([sel]) + e)                           # valid
    seed("kem_decaps", bytes([sel]) + e + bytes([2, 5, 0, 9, 1]))  # two flips
# X-Wing: raw ciphertexts whose ct_X (offset 1088) is a low-order point (0,
# 1), masks flipping ct_X's bits, and a draft vector's ciphertext (raw).
for pt in (bytes(32), b"\x01" + bytes(31)):
    seed("kem_decaps", bytes([11, 0]) + bytes(1088) + pt)
    seed("kem_decaps", bytes([11, 1, 0x40, 0x04]) + pt)
xw = load("vectors/xwing/test-vectors.json")
for t in (xw if isinstance(xw, list) else [])[:1]:
    if "ct" in t:
        seed("kem_decaps", bytes([11, 0]) + bytes.fromhex(t["ct"]))
# FrodoKEM, NTRU, sntrup: the first KAT ciphertext of each set (raw: under
# the target's own key it is an arbitrary ciphertext).
def kat_ct(rel):
    b = read(rel, 200000)
    for line in (b or b"").decode(errors="replace").splitlines():
        if line.startswith("ct = ") and len(line) > 5:
            return bytes.fromhex(line[5:].strip())
    return None
for sel, rel in ((12, "kat/frodokem/eFrodoKEM/PQCkemKAT_19888.first2.rsp"),
                 (13, "kat/frodokem/FrodoKEM/PQCkemKAT_19888_shake.first2.rsp"),
                 (14, "kat/ntru/ntruhps2048509/PQCkemKAT_935.rsp"),
                 (15, "kat/ntru/ntruhrss701/PQCkemKAT_1450.rsp"),
                 (16, "kat/ntruprime/sntrup653.rsp"),
                 (17, "kat/ntruprime/sntrup761.rsp")):
    ct = kat_ct(rel)
    if ct:
        seed("kem_decaps", bytes([sel, 0]) + ct)
# NTRU mode 2: small deltas on coefficients of the honest ciphertext
# (2-byte position, signed byte); opposite +-1 pairs can give another valid
# ciphertext (HPS: within m's fixed type; HRSS: adjacent positions), a
# single change at the last stored coefficient n - 2 as well (HRSS).
def ntru_tweak(sel, items):
    return bytes([sel, 2]) + b"".join(p.to_bytes(2, "little") + (d & 0xff).to_bytes(1, "little")
                                      for p, d in items)
for sel, n in ((14, 509), (15, 701)):
    for items in ([(n - 2, 1)], [(n - 2, -1)], [(n - 3, 1), (n - 2, -1)], [(10, 1), (11, -1)],
                  [(3, -1), (200, 1)], [(5, 1), (6, 1), (7, -2)], [(0, 3)]):
        seed("kem_decaps", ntru_tweak(sel, items))
acvp = load("vectors/acvp/ML-KEM-encapDecap-FIPS203/internalProjection.json")
for g in (acvp or {}).get("testGroups", []):
    sel = {"ML-KEM-512": 0, "ML-KEM-768": 1, "ML-KEM-1024": 2}.get(g.get("parameterSet"))
    for t in g.get("tests", [])[:3]:
        if sel is not None and "c" in t:
            seed("kem_decaps", bytes([sel, 0]) + bytes.fromhex(t["c"]))

# key_parse: 0 public file, 1 private file, 2 raw key (algorithm = byte 0 / 3).
for fam in ("ml-kem", "ml-dsa", "slh-dsa"):
    d = data / "keys/lamps" / fam
    for p in sorted(d.glob("*")) if d.is_dir() else []:
        b = p.read_bytes()
        if p.suffix == ".pub":
            seed("key_parse", b"\x00" + b)
        elif p.suffix == ".priv":
            seed("key_parse", b"\x01" + b)
for sub in ("15-test_ml_kem_codecs_data", "15-test_ml_dsa_codecs_data"):
    d = data / "vectors/openssl" / sub
    for p in sorted(d.glob("*.pem"))[:24] if d.is_dir() else []:
        b = p.read_bytes()
        seed("key_parse", (b"\x00" if p.name.startswith("pub") else b"\x01") + b)
kg = load("vectors/acvp/ML-KEM-keyGen-FIPS203/internalProjection.json")
for g in (kg or {}).get("testGroups", []):
    for t in g.get("tests", [])[:1]:
        for sel in range(2, 60, 3):
            seed("key_parse", bytes([sel]) + bytes.fromhex(t["ek"]))
        seed("key_parse", bytes([5]) + bytes.fromhex(t["dk"]))

# Raw keys of FrodoKEM, NTRU and sntrup sets (first KAT record): the
# algorithm index is the registry order, read from the generated C set list
# (crates/pqforge-capi/src/sets.rs lists every set of a default + fndsa
# build in that order, as the fuzz crate builds it).
def kat_fields(rel, keys=("pk", "sk")):
    b = read(rel, 400000)
    got = {}
    for line in (b or b"").decode(errors="replace").splitlines():
        k, _, v = line.partition(" = ")
        if k in keys and k not in got and v.strip():
            got[k] = bytes.fromhex(v.strip())
    return got
try:
    import re
    order = []
    for m in re.finditer(r"^/// `([a-z0-9.-]+)` \([^)]*\): bytes of the public",
                         (Path(__file__).resolve().parent.parent / "crates/pqforge-capi/src/sets.rs").read_text(), re.M):
        order.append(m.group(1))
except OSError:
    order = []
for name, rel in (("efrodokem-640-aes", "kat/frodokem/eFrodoKEM/PQCkemKAT_19888.first2.rsp"),
                  ("frodokem-640-shake", "kat/frodokem/FrodoKEM/PQCkemKAT_19888_shake.first2.rsp"),
                  ("ntru-hps-2048-509", "kat/ntru/ntruhps2048509/PQCkemKAT_935.rsp"),
                  ("ntru-hrss-701", "kat/ntru/ntruhrss701/PQCkemKAT_1450.rsp"),
                  ("sntrup653", "kat/ntruprime/sntrup653.rsp"),
                  ("sntrup761", "kat/ntruprime/sntrup761.rsp")):
    if name in order and 3 * order.index(name) + 2 < 256:
        for v in kat_fields(rel).values():
            seed("key_parse", bytes([3 * order.index(name) + 2]) + v)

# sig_verify and sign_malformed_sk: byte 0 set, byte 1 mode.
for s in range(16):
    seed("sig_verify", bytes([s, 0, 0, 0, 1]))
    seed("sig_verify", bytes([s, 1, 3, 0, 0x81, 0]))
    seed("sig_verify", bytes([s, 2 + 4 * 3]) + b"ctx" + b"pqforge fuzz: signature")
    seed("sign_malformed_sk", bytes([s, 0, 0, 0, 1]))
    seed("sign_malformed_sk", bytes([s, 0, 40, 0]) + b"\xff" * 32)
sv = load("vectors/acvp/ML-DSA-sigVer-FIPS204/internalProjection.json")
for g in (sv or {}).get("testGroups", [])[:3]:
    for t in g.get("tests", [])[:2]:
        seed("sig_verify", bytes([6, 3]) + bytes.fromhex(t["pk"]))
        seed("sig_verify", bytes([6, 3]) + bytes.fromhex(t["signature"]))
        if t.get("sk"):
            seed("sign_malformed_sk", bytes([6, 1]) + bytes.fromhex(t["sk"]))

# cli_vectors: byte 0 = index into NAMES of fuzz_targets/cli_vectors.rs,
# then a reduced copy of a real file of that format (first groups/tests).
def reduced(obj, groups=1, tests=2):
    if isinstance(obj, dict) and "testGroups" in obj:
        obj = dict(obj)
        obj["testGroups"] = [dict(g, tests=g.get("tests", [])[:tests]) for g in obj["testGroups"][:groups]]
    return json.dumps(obj).encode()

def rsp_head(rel, records=2):
    b = read(rel)
    if b is None:
        return None
    parts = b.split(b"\n\n")
    return b"\n\n".join(parts[: records + 1]) + b"\n\n"

cli = {
    0: rsp_head("kat/falcon/falcon512-KAT.rsp"),
    2: reduced(load("vectors/acvp/ML-KEM-keyGen-FIPS203/internalProjection.json")),
    3: reduced(acvp),
    5: reduced(load("vectors/wycheproof/testvectors_v1/mlkem_768_test.json")),
    10: reduced(load("vectors/acvp/ML-DSA-keyGen-FIPS204/internalProjection.json")),
    11: reduced(load("vectors/acvp/ML-DSA-sigGen-FIPS204/internalProjection.json")),
    12: reduced(sv),
    13: reduced(load("vectors/wycheproof/testvectors_v1/mldsa_65_sign_seed_test.json")),
    14: reduced(load("vectors/wycheproof/testvectors_v1/mldsa_44_verify_test.json")),
    16: read("vectors/boringssl/mldsa/mldsa_nist_keygen_65_tests.txt", 4000),
    18: read("vectors/openssl/30-test_evp_data/evppkey_ml_dsa_65_wycheproof_sign.txt", 6000),
    19: read("vectors/openssl/30-test_evp_data/evpmd_ml_dsa_mu.txt", 6000),
    21: reduced(load("vectors/acvp/SLH-DSA-keyGen-FIPS205/internalProjection.json")),
    23: reduced(load("vectors/acvp/SLH-DSA-sigVer-FIPS205-v1.1.0.35/internalProjection.json"), tests=1),
    25: read("vectors/openssl/30-test_evp_data/evppkey_slh_dsa_keygen.txt", 6000),
    26: read("vectors/openssl/15-test_ml_kem_codecs_data/pub-768.pem"),
}
for i, b in cli.items():
    if b:
        seed("cli_vectors", bytes([i]) + b)

# falcon_verify: selector | 0x80 (exact key length), 2-byte pk length,
# 2-byte message length, then pk, message, detached signature, from the
# round-3 KAT records (sm = len || nonce || msg || 0x20+logn || s2).
for sel, rel in ((0, "kat/falcon/falcon512-KAT.rsp"), (1, "kat/falcon/falcon1024-KAT.rsp")):
    b = rsp_head(rel, 3)
    for rec in (b or b"").split(b"\n\n"):
        f = dict(l.split(" = ", 1) for l in rec.decode().splitlines() if " = " in l)
        if not {"pk", "msg", "sm", "mlen"} <= f.keys():
            continue
        pk, msg, sm = (bytes.fromhex(f[k]) for k in ("pk", "msg", "sm"))
        mlen = int(f["mlen"])
        nonce, body = sm[2:42], sm[42 + mlen:]
        sig = bytes([body[0] + 0x10]) + nonce + body[1:]
        seed("falcon_verify", bytes([sel | 0x80]) + len(pk).to_bytes(2, "little")
             + len(msg).to_bytes(2, "little") + pk + msg + sig)
# mldsa_verify / slhdsa_verify: mutation seeds and raw ACVP public keys.
for s in range(6):
    seed("mldsa_verify", bytes([s, 0, 0, 1]))
    seed("falcon_sig_roundtrip", bytes([s]) + bytes(range(64)))
for g in (sv or {}).get("testGroups", [])[:3]:
    for t in g.get("tests", [])[:1]:
        seed("mldsa_verify", bytes([3]) + bytes.fromhex(t["pk"]))
slh = load("vectors/acvp/SLH-DSA-sigVer-FIPS205-v1.1.0.35/internalProjection.json")
for g in (slh or {}).get("testGroups", [])[:12]:
    for t in g.get("tests", [])[:1]:
        seed("slhdsa_verify", bytes([0, 1]) + bytes.fromhex(t["pk"]))
for s in range(12):
    seed("slhdsa_verify", bytes([s, 0, 0, 1]))

for t, n in sorted(counts.items()):
    print(f"fuzz_seeds: {t}: {n} seeds")
