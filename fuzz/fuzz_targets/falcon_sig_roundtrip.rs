//! Encodings round-trip exactly: decode -> encode gives back the accepted
//! bytes, encode -> decode gives back the values, for the compressed
//! signature body and the public-key body (round 3 and FN-DSA draft).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqforge_falcon::internals as fi;

fn check_round3(logn: u32, data: &[u8]) {
    let n = 1usize << logn;
    // Signature body: decode a prefix, re-encode, compare.
    let mut s2 = [0i16; 1024];
    if let Some(used) = fi::comp_decode(&mut s2[..n], data) {
        let mut out = vec![0u8; data.len() + 1];
        let len = fi::comp_encode(&mut out, &s2[..n]).expect("decoded s2 re-encodes");
        assert_eq!(&out[..len], &data[..used], "comp decode->encode");
    }
    // Public key body: decode, re-encode, compare.
    let pk_len = (14 * n).div_ceil(8);
    let mut h = [0u16; 1024];
    if data.len() >= pk_len && fi::modq_decode(&mut h[..n], &data[..pk_len]).is_some() {
        let mut out = [0u8; 1792];
        fi::modq_encode(&mut out[..pk_len], &h[..n]);
        assert_eq!(&out[..pk_len], &data[..pk_len], "modq decode->encode");
    }
    // Encode -> decode: values from the input, folded into range.
    let mut v = [0i16; 1024];
    let mut w = [0u16; 1024];
    for i in 0..n {
        let b = [
            data.get(2 * i).copied().unwrap_or(0),
            data.get(2 * i + 1).copied().unwrap_or(0),
        ];
        let r = u16::from_le_bytes(b);
        v[i] = (i32::from(r % 4095) - 2047) as i16;
        w[i] = r % 12289;
    }
    let mut out = [0u8; 4096];
    if let Some(len) = fi::comp_encode(&mut out, &v[..n]) {
        let mut back = [0i16; 1024];
        assert_eq!(fi::comp_decode(&mut back[..n], &out[..len]), Some(len));
        assert_eq!(&back[..n], &v[..n], "comp encode->decode");
    }
    let mut pk = [0u8; 1792];
    fi::modq_encode(&mut pk[..pk_len], &w[..n]);
    let mut back = [0u16; 1024];
    assert_eq!(fi::modq_decode(&mut back[..n], &pk[..pk_len]), Some(pk_len));
    assert_eq!(&back[..n], &w[..n], "modq encode->decode");
}

fn check_fndsa(logn: u32, data: &[u8]) {
    let n = 1usize << logn;
    let body = if logn == 9 { 666 - 41 } else { 1280 - 41 };
    if data.len() >= body {
        let mut s2 = [0i16; 1024];
        if fi::fndsa::comp_decode(&mut s2[..n], &data[..body]) {
            let mut out = [0u8; 1239];
            assert!(fi::fndsa::comp_encode(&mut out[..body], &s2[..n]));
            assert_eq!(&out[..body], &data[..body], "fndsa comp decode->encode");
        }
    }
    let pk_len = 7 * n / 4;
    let mut h = [0u16; 1024];
    if data.len() >= pk_len && fi::fndsa::modq_decode(&mut h[..n], &data[..pk_len]) {
        let mut out = [0u8; 1792];
        fi::fndsa::modq_encode(&mut out[..pk_len], &h[..n]);
        assert_eq!(&out[..pk_len], &data[..pk_len], "fndsa modq decode->encode");
    }
    let mut v = [0i16; 1024];
    for i in 0..n {
        let b = [
            data.get(2 * i).copied().unwrap_or(0),
            data.get(2 * i + 1).copied().unwrap_or(0),
        ];
        v[i] = (i32::from(u16::from_le_bytes(b) % 1681) - 840) as i16;
    }
    let mut out = [0u8; 1239];
    if fi::fndsa::comp_encode(&mut out[..body], &v[..n]) {
        let mut back = [0i16; 1024];
        assert!(fi::fndsa::comp_decode(&mut back[..n], &out[..body]));
        assert_eq!(&back[..n], &v[..n], "fndsa comp encode->decode");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let logn = if sel & 1 == 0 { 9 } else { 10 };
    if sel & 2 == 0 {
        check_round3(logn, rest);
    } else {
        check_fndsa(logn, rest);
    }
});
