/* The C API from C, linked against libpqforge_capi.a:
 *  - a round trip of every algorithm of the build through the by-name API,
 *    with the failure paths (tampered ciphertext and signature, wrong
 *    lengths, NULL, unknown names);
 *  - the NIST API of ml-kem-768 and ml-dsa-65;
 *  - the first KAT record of one KEM (HQC-1) and one signature scheme
 *    (Falcon-512), regenerated through the randombytes callback and
 *    compared with the official files in the test-data directory.
 * Usage: capi_test DATA_DIR (or $PQFORGE_DATA). Exits 0 only if every check
 * ran and passed; prints the number of checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqforge.h"

static int checks, failures;

#define CHECK(cond, ...)                                    \
  do {                                                      \
    checks++;                                               \
    if (!(cond)) {                                          \
      failures++;                                           \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                         \
      fprintf(stderr, "\n");                                \
    }                                                       \
  } while (0)

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) abort();
  return p;
}

static void round_trip_kem(const char *name) {
  const pqforge_kem *k = pqforge_kem_new(name);
  CHECK(k != NULL, "%s: pqforge_kem_new", name);
  if (!k) return;
  size_t pkn = pqforge_kem_size(k, PQFORGE_PUBLIC_KEY_BYTES), skn = pqforge_kem_size(k, PQFORGE_SECRET_KEY_BYTES);
  size_t ctn = pqforge_kem_size(k, PQFORGE_CIPHERTEXT_BYTES), ssn = pqforge_kem_size(k, PQFORGE_SHARED_SECRET_BYTES);
  uint8_t *pk = xmalloc(pkn), *sk = xmalloc(skn), *ct = xmalloc(ctn), *s1 = xmalloc(ssn), *s2 = xmalloc(ssn);
  CHECK(pqforge_kem_keypair(k, pk, pkn, sk, skn) == PQFORGE_OK, "%s keypair", name);
  CHECK(pqforge_kem_encaps(k, ct, ctn, s1, ssn, pk, pkn) == PQFORGE_OK, "%s encaps", name);
  CHECK(pqforge_kem_decaps(k, s2, ssn, ct, ctn, sk, skn) == PQFORGE_OK, "%s decaps", name);
  CHECK(memcmp(s1, s2, ssn) == 0, "%s: equal secrets", name);
  ct[0] ^= 1; /* implicit rejection: another secret, no error */
  CHECK(pqforge_kem_decaps(k, s2, ssn, ct, ctn, sk, skn) == PQFORGE_OK, "%s decaps tampered", name);
  CHECK(memcmp(s1, s2, ssn) != 0, "%s: tampered ciphertext, another secret", name);
  CHECK(pqforge_kem_decaps(k, s2, ssn, ct, ctn - 1, sk, skn) == PQFORGE_ERR_LENGTH, "%s short ct", name);
  CHECK(pqforge_kem_encaps(k, ct, ctn, s1, ssn, NULL, pkn) == PQFORGE_ERR_NULL, "%s NULL pk", name);
  CHECK(strcmp(pqforge_kem_name(k), name) == 0, "%s name", name);
  CHECK(pqforge_kem_size(k, 7) == 0 && pqforge_kem_size(k, -1) == 0, "%s: an unknown size selector gives 0", name);
  CHECK(pqforge_kem_new(name) == k, "%s: handles are static", name);
  pqforge_kem_free(k);
  free(pk), free(sk), free(ct), free(s1), free(s2);
}

static void round_trip_sig(const char *name) {
  const pqforge_sig *s = pqforge_sig_new(name);
  CHECK(s != NULL, "%s: pqforge_sig_new", name);
  if (!s) return;
  size_t pkn = pqforge_sig_size(s, PQFORGE_PUBLIC_KEY_BYTES), skn = pqforge_sig_size(s, PQFORGE_SECRET_KEY_BYTES);
  size_t sign = pqforge_sig_size(s, PQFORGE_SIGNATURE_BYTES), len = sign;
  uint8_t *pk = xmalloc(pkn), *sk = xmalloc(skn), *sig = xmalloc(sign);
  const uint8_t msg[] = "a message from C";
  CHECK(pqforge_sig_keypair(s, pk, pkn, sk, skn) == PQFORGE_OK, "%s keypair", name);
  CHECK(pqforge_sig_sign(s, sig, &len, msg, sizeof msg, NULL, 0, sk, skn) == PQFORGE_OK, "%s sign", name);
  CHECK(len > 0 && len <= sign, "%s: signature length %zu", name, len);
  CHECK(pqforge_sig_verify(s, sig, len, msg, sizeof msg, NULL, 0, pk, pkn) == PQFORGE_OK, "%s verify", name);
  sig[len / 2] ^= 0x10;
  CHECK(pqforge_sig_verify(s, sig, len, msg, sizeof msg, NULL, 0, pk, pkn) == PQFORGE_ERR_VERIFICATION,
        "%s: tampered signature rejected", name);
  size_t small = 3;
  CHECK(pqforge_sig_sign(s, sig, &small, msg, sizeof msg, NULL, 0, sk, skn) == PQFORGE_ERR_BUFFER,
        "%s: small signature buffer", name);
  pqforge_sig_free(s);
  free(pk), free(sk), free(sig);
}

/* ---- KAT files ---- */

/* The value of `key = hex` in the first record of an .rsp file, decoded
 * into a new buffer; its length into *n. NULL if absent. */
static uint8_t *rsp_field(const char *path, const char *key, size_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 1 << 22;
  char *line = xmalloc(cap);
  uint8_t *out = NULL;
  size_t klen = strlen(key);
  while (fgets(line, (int)cap, f)) {
    if (strncmp(line, "count = 1", 9) == 0) break; /* first record only */
    if (strncmp(line, key, klen) == 0 && strncmp(line + klen, " = ", 3) == 0) {
      char *h = line + klen + 3;
      size_t hl = strcspn(h, "\r\n");
      out = xmalloc(hl / 2);
      for (size_t i = 0; i < hl / 2; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) { free(out); out = NULL; break; }
        out[i] = (uint8_t)v;
      }
      *n = hl / 2;
      break;
    }
  }
  free(line);
  fclose(f);
  return out;
}

static void kat_kem(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/kat/hqc/next-release_161cd4f_2026-02-10/hqc-1/PQCkemKAT_2321.rsp", dir);
  size_t n, pkn, skn, ctn, ssn;
  uint8_t *seed = rsp_field(path, "seed", &n), *pk = rsp_field(path, "pk", &pkn), *sk = rsp_field(path, "sk", &skn);
  uint8_t *ct = rsp_field(path, "ct", &ctn), *ss = rsp_field(path, "ss", &ssn);
  CHECK(seed && n == 48 && pk && sk && ct && ss, "HQC-1 KAT file %s", path);
  if (!(seed && pk && sk && ct && ss)) return;
  CHECK(pkn == PQFORGE_HQC1_CRYPTO_PUBLICKEYBYTES && ctn == PQFORGE_HQC1_CRYPTO_CIPHERTEXTBYTES, "HQC-1 sizes");
  uint8_t mpk[PQFORGE_HQC1_CRYPTO_PUBLICKEYBYTES], msk[PQFORGE_HQC1_CRYPTO_SECRETKEYBYTES];
  uint8_t mct[PQFORGE_HQC1_CRYPTO_CIPHERTEXTBYTES], mss[PQFORGE_HQC1_CRYPTO_BYTES], dss[PQFORGE_HQC1_CRYPTO_BYTES];
  CHECK(pqforge_kat_rng_init("hqc-1", seed) == PQFORGE_OK, "kat rng init");
  pqforge_set_randombytes(pqforge_kat_randombytes);
  CHECK(pqforge_hqc1_crypto_kem_keypair(mpk, msk) == 0, "HQC-1 keypair");
  CHECK(pqforge_hqc1_crypto_kem_enc(mct, mss, mpk) == 0, "HQC-1 enc");
  pqforge_set_randombytes(NULL);
  CHECK(pqforge_hqc1_crypto_kem_dec(dss, mct, msk) == 0, "HQC-1 dec");
  CHECK(memcmp(mpk, pk, pkn) == 0, "HQC-1 KAT record 0: pk");
  CHECK(skn == sizeof msk && memcmp(msk, sk, skn) == 0, "HQC-1 KAT record 0: sk");
  CHECK(memcmp(mct, ct, ctn) == 0, "HQC-1 KAT record 0: ct");
  CHECK(ssn == sizeof mss && memcmp(mss, ss, ssn) == 0 && memcmp(dss, ss, ssn) == 0, "HQC-1 KAT record 0: ss");
  free(seed), free(pk), free(sk), free(ct), free(ss);
}

static void kat_sig(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/kat/falcon/falcon512-KAT.rsp", dir);
  size_t n, mlen, pkn, skn, smn;
  uint8_t *seed = rsp_field(path, "seed", &n), *msg = rsp_field(path, "msg", &mlen);
  uint8_t *pk = rsp_field(path, "pk", &pkn), *sk = rsp_field(path, "sk", &skn), *sm = rsp_field(path, "sm", &smn);
  CHECK(seed && n == 48 && msg && pk && sk && sm, "Falcon-512 KAT file %s", path);
  if (!(seed && msg && pk && sk && sm)) return;
  uint8_t mpk[PQFORGE_FALCON512_CRYPTO_PUBLICKEYBYTES], msk[PQFORGE_FALCON512_CRYPTO_SECRETKEYBYTES];
  uint8_t *msm = xmalloc(mlen + PQFORGE_FALCON512_CRYPTO_BYTES), *back = xmalloc(smn);
  size_t msmlen = 0, backlen = 0;
  CHECK(pqforge_kat_rng_init("falcon-512", seed) == PQFORGE_OK, "kat rng init");
  pqforge_set_randombytes(pqforge_kat_randombytes);
  CHECK(pqforge_falcon512_crypto_sign_keypair(mpk, msk) == 0, "Falcon-512 keypair");
  CHECK(pqforge_falcon512_crypto_sign(msm, &msmlen, msg, mlen, msk) == 0, "Falcon-512 sign");
  pqforge_set_randombytes(NULL);
  CHECK(pkn == sizeof mpk && memcmp(mpk, pk, pkn) == 0, "Falcon-512 KAT record 0: pk");
  CHECK(skn == sizeof msk && memcmp(msk, sk, skn) == 0, "Falcon-512 KAT record 0: sk");
  CHECK(msmlen == smn && memcmp(msm, sm, smn) == 0, "Falcon-512 KAT record 0: sm");
  CHECK(pqforge_falcon512_crypto_sign_open(back, &backlen, sm, smn, pk) == 0, "Falcon-512 open");
  CHECK(backlen == mlen && memcmp(back, msg, mlen) == 0, "Falcon-512 open: the message");
  sm[smn - 1] ^= 1;
  CHECK(pqforge_falcon512_crypto_sign_open(back, &backlen, sm, smn, pk) == PQFORGE_ERR_VERIFICATION,
        "Falcon-512 open: tampered");
  free(seed), free(msg), free(pk), free(sk), free(sm), free(msm), free(back);
}

static int failing_rng(uint8_t *buf, size_t len) {
  (void)buf, (void)len;
  return -1;
}

static void nist_api(void) {
  uint8_t pk[PQFORGE_MLKEM768_CRYPTO_PUBLICKEYBYTES], sk[PQFORGE_MLKEM768_CRYPTO_SECRETKEYBYTES];
  uint8_t ct[PQFORGE_MLKEM768_CRYPTO_CIPHERTEXTBYTES], k1[PQFORGE_MLKEM768_CRYPTO_BYTES], k2[PQFORGE_MLKEM768_CRYPTO_BYTES];
  CHECK(pqforge_mlkem768_crypto_kem_keypair(pk, sk) == 0, "ml-kem-768 keypair");
  CHECK(pqforge_mlkem768_crypto_kem_enc(ct, k1, pk) == 0, "ml-kem-768 enc");
  CHECK(pqforge_mlkem768_crypto_kem_dec(k2, ct, sk) == 0, "ml-kem-768 dec");
  CHECK(memcmp(k1, k2, sizeof k1) == 0, "ml-kem-768 secrets");
  CHECK(pqforge_mlkem768_crypto_kem_keypair(NULL, sk) == PQFORGE_ERR_NULL, "NULL pk");
  /* A failing random source fails the call, with no output. */
  CHECK(pqforge_set_randombytes(failing_rng) == NULL, "no callback installed before");
  memset(k1, 0xAA, sizeof k1);
  CHECK(pqforge_mlkem768_crypto_kem_enc(ct, k1, pk) == PQFORGE_ERR_RNG, "failing randombytes");
  CHECK(k1[0] == 0 && memcmp(k1, k1 + 1, sizeof k1 - 1) == 0, "no secret left after an RNG failure");
  CHECK(pqforge_set_randombytes(NULL) == failing_rng, "the previous callback is returned");
  /* A failed decapsulation (a corrupted key) leaves no stale secret. */
  uint8_t bad_sk[sizeof sk];
  memcpy(bad_sk, sk, sizeof sk);
  bad_sk[sizeof sk - 40] ^= 1; /* inside H(ek): the FIPS 203 key check fails */
  memset(k2, 0xAA, sizeof k2);
  CHECK(pqforge_mlkem768_crypto_kem_dec(k2, ct, bad_sk) == PQFORGE_ERR_INVALID_KEY, "corrupted key refused");
  CHECK(k2[0] == 0 && memcmp(k2, k2 + 1, sizeof k2 - 1) == 0, "no stale secret after a failure");

  uint8_t vk[PQFORGE_MLDSA65_CRYPTO_PUBLICKEYBYTES], ssk[PQFORGE_MLDSA65_CRYPTO_SECRETKEYBYTES];
  const uint8_t m[] = "NIST API";
  uint8_t sm[sizeof m + PQFORGE_MLDSA65_CRYPTO_BYTES], out[sizeof sm], sig[PQFORGE_MLDSA65_CRYPTO_BYTES];
  size_t smlen, outlen, siglen;
  CHECK(pqforge_mldsa65_crypto_sign_keypair(vk, ssk) == 0, "ml-dsa-65 keypair");
  CHECK(pqforge_mldsa65_crypto_sign(sm, &smlen, m, sizeof m, ssk) == 0, "ml-dsa-65 sign");
  CHECK(pqforge_mldsa65_crypto_sign_open(out, &outlen, sm, smlen, vk) == 0, "ml-dsa-65 open");
  CHECK(outlen == sizeof m && memcmp(out, m, sizeof m) == 0, "ml-dsa-65 open: message");
  CHECK(pqforge_mldsa65_crypto_sign_signature(sig, &siglen, m, sizeof m, ssk) == 0, "ml-dsa-65 signature");
  CHECK(pqforge_mldsa65_crypto_sign_verify(sig, siglen, m, sizeof m, vk) == 0, "ml-dsa-65 verify");
  CHECK(pqforge_mldsa65_crypto_sign_verify(sig, siglen, m, sizeof m - 1, vk) == PQFORGE_ERR_VERIFICATION,
        "ml-dsa-65 verify: another message");
  /* In place, as PQClean callers do: the message at the end of the signed
   * message buffer, then opened onto itself. */
  uint8_t buf[sizeof m + PQFORGE_MLDSA65_CRYPTO_BYTES];
  memcpy(buf + PQFORGE_MLDSA65_CRYPTO_BYTES, m, sizeof m);
  CHECK(pqforge_mldsa65_crypto_sign(buf, &smlen, buf + PQFORGE_MLDSA65_CRYPTO_BYTES, sizeof m, ssk) == 0,
        "sign in place");
  CHECK(pqforge_mldsa65_crypto_sign_open(buf, &outlen, buf, smlen, vk) == 0, "open in place");
  CHECK(outlen == sizeof m && memcmp(buf, m, sizeof m) == 0, "open in place: the message");
  buf[0] ^= 1;
  outlen = 99;
  CHECK(pqforge_mldsa65_crypto_sign_open(out, &outlen, buf, smlen, vk) == PQFORGE_ERR_VERIFICATION, "tampered");
  CHECK(outlen == 0, "a failed open sets the length to 0");
  /* A context reaches the scheme through the by-name API. */
  const pqforge_sig *s = pqforge_sig_new("ML-DSA-65");
  size_t len = sizeof sig;
  CHECK(pqforge_sig_sign(s, sig, &len, m, sizeof m, (const uint8_t *)"ctx", 3, ssk, sizeof ssk) == 0, "ctx sign");
  CHECK(pqforge_sig_verify(s, sig, len, m, sizeof m, (const uint8_t *)"ctx", 3, vk, sizeof vk) == 0, "ctx verify");
  CHECK(pqforge_sig_verify(s, sig, len, m, sizeof m, NULL, 0, vk, sizeof vk) == PQFORGE_ERR_VERIFICATION,
        "ctx verify without the context");
  uint8_t big[256] = {0};
  len = sizeof sig;
  CHECK(pqforge_sig_sign(s, sig, &len, m, sizeof m, big, sizeof big, ssk, sizeof ssk) == PQFORGE_ERR_INPUT,
        "256-byte context refused");
  pqforge_sig_free(s);
  const pqforge_sig *f = pqforge_sig_new("falcon-512");
  len = sizeof sig;
  CHECK(pqforge_sig_sign(f, sig, &len, m, sizeof m, (const uint8_t *)"x", 1, ssk, PQFORGE_FALCON512_CRYPTO_SECRETKEYBYTES)
            != PQFORGE_OK, "Falcon round 3 refuses a context");
  pqforge_sig_free(f);
  CHECK(pqforge_kem_new("no-such-kem") == NULL, "unknown name");
  CHECK(pqforge_kem_new("ml-dsa-65") == NULL, "a signature scheme is not a KEM");
  CHECK(pqforge_kem_new(NULL) == NULL, "NULL name");
  CHECK(strcmp(pqforge_strerror(PQFORGE_ERR_VERIFICATION), "signature verification failed") == 0, "strerror");
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : getenv("PQFORGE_DATA");
  size_t n = pqforge_algorithm_count();
  int kems = 0, sigs = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = pqforge_algorithm_name(i);
    if (pqforge_algorithm_kind(i) == 1) round_trip_kem(name), kems++;
    else round_trip_sig(name), sigs++;
  }
  CHECK(pqforge_algorithm_name(n) == NULL, "past the end");
  CHECK(kems >= 29 && sigs >= 19, "%d KEMs, %d signature schemes", kems, sigs);
  nist_api();
  if (dir) {
    kat_kem(dir);
    kat_sig(dir);
  } else {
    CHECK(0, "no test-data directory (argument or PQFORGE_DATA): the KAT records did not run");
  }
  printf("capi_test: %d algorithms (%d KEMs, %d signature schemes), %d checks, %d failed\n", kems + sigs, kems, sigs,
         checks, failures);
  return failures == 0 && checks > 0 ? 0 : 1;
}
