//! Name matching for the registry: spelling-insensitive comparison and
//! "did you mean" suggestions, without heap.

/// Longest name (after normalisation) the matcher considers; longer inputs
/// never match and get no suggestion.
const MAX: usize = 64;

/// Lower-case ASCII letters and digits of `s`, skipping `-`, `_`, `.`, `/`
/// and whitespace; `None` for any other character or more than [`MAX`].
fn normalise(s: &str, out: &mut [u8; MAX]) -> Option<usize> {
    let mut n = 0;
    for b in s.trim().bytes() {
        match b {
            b'-' | b'_' | b'.' | b'/' | b' ' | b'\t' => {}
            b if b.is_ascii_alphanumeric() => {
                *out.get_mut(n)? = b.to_ascii_lowercase();
                n += 1;
            }
            _ => return None,
        }
    }
    Some(n)
}

/// Whether `a` and `b` are the same name up to case and separators.
#[must_use]
pub fn same_name(a: &str, b: &str) -> bool {
    let (mut x, mut y) = ([0u8; MAX], [0u8; MAX]);
    match (normalise(a, &mut x), normalise(b, &mut y)) {
        (Some(n), Some(m)) => x[..n] == y[..m],
        _ => false,
    }
}

/// Whether the normalised form of `needle` occurs in that of `haystack`
/// (an empty needle occurs everywhere).
#[must_use]
pub fn contains(haystack: &str, needle: &str) -> bool {
    let (mut x, mut y) = ([0u8; MAX], [0u8; MAX]);
    match (normalise(haystack, &mut x), normalise(needle, &mut y)) {
        (Some(_), Some(0)) => true,
        (Some(n), Some(m)) => m <= n && x[..n].windows(m).any(|w| w == &y[..m]),
        _ => false,
    }
}

/// Edit distance (insertions, deletions, substitutions, adjacent
/// transpositions) between the normalised forms of `a` and `b`; `None` if
/// either does not normalise.
#[must_use]
pub fn distance(a: &str, b: &str) -> Option<usize> {
    let (mut x, mut y) = ([0u8; MAX], [0u8; MAX]);
    let n = normalise(a, &mut x)?;
    let m = normalise(b, &mut y)?;
    let (x, y) = (&x[..n], &y[..m]);
    // Three rows of the optimal-string-alignment table.
    let mut prev2 = [0usize; MAX + 1];
    let mut prev = [0usize; MAX + 1];
    let mut cur = [0usize; MAX + 1];
    for (j, p) in prev.iter_mut().enumerate().take(m + 1) {
        *p = j;
    }
    for i in 1..=n {
        cur[0] = i;
        for j in 1..=m {
            let cost = usize::from(x[i - 1] != y[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
        }
        prev2 = prev;
        prev = cur;
    }
    Some(prev[m])
}

/// Up to `N` suggestions for a name that matched nothing: the candidates
/// closest to `input` (ties in candidate order), among those within a
/// distance that grows with the input length; if none is that close, the
/// candidates whose normalised name starts with or contains the input.
#[must_use]
pub fn suggest<const N: usize>(
    input: &str,
    candidates: impl Iterator<Item = &'static str> + Clone,
) -> [Option<&'static str>; N] {
    let mut best: [Option<(usize, &'static str)>; N] = [None; N];
    let mut norm = [0u8; MAX];
    let len = normalise(input, &mut norm).unwrap_or(0);
    let limit = 2 + len / 4;
    for c in candidates.clone() {
        let Some(d) = distance(input, c) else {
            continue;
        };
        if d > limit || best.iter().flatten().any(|&(_, s)| s == c) {
            continue;
        }
        insert(&mut best, d, c);
    }
    if best[0].is_none() && len >= 2 {
        let needle = &norm[..len];
        for c in candidates {
            let mut cn = [0u8; MAX];
            let Some(m) = normalise(c, &mut cn) else {
                continue;
            };
            if cn[..m].windows(len).any(|w| w == needle)
                && !best.iter().flatten().any(|&(_, s)| s == c)
            {
                insert(&mut best, m - len, c);
            }
        }
    }
    best.map(|b| b.map(|(_, s)| s))
}

/// Inserts `(d, c)` into the sorted `best` list if it is closer than its
/// last entry.
fn insert<const N: usize>(
    best: &mut [Option<(usize, &'static str)>; N],
    d: usize,
    c: &'static str,
) {
    let Some(pos) = best.iter().position(|b| b.is_none_or(|(bd, _)| d < bd)) else {
        return;
    };
    for k in (pos + 1..N).rev() {
        best[k] = best[k - 1];
    }
    best[pos] = Some((d, c));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        assert!(same_name("ML-KEM-768", "ml_kem_768"));
        assert!(same_name("mlkem768", " ml-kem-768 "));
        assert!(!same_name("ml-kem-768", "ml-kem-512"));
        assert!(!same_name("ml-kem-768", "ml-kem-768!"));
        assert!(!same_name("", "x"));
    }

    #[test]
    fn distances() {
        assert_eq!(distance("mlkem768", "mlkem786"), Some(1));
        assert_eq!(distance("hqc1", "hqc3"), Some(1));
        assert_eq!(distance("abc", ""), Some(3));
    }

    #[test]
    fn suggestions() {
        let names = [
            "ml-kem-512",
            "ml-kem-768",
            "ml-kem-1024",
            "hqc-1",
            "falcon-512",
        ];
        let s = suggest::<3>("mlkem-786", names.iter().copied());
        assert_eq!(s[0], Some("ml-kem-768"));
        let s = suggest::<3>("falcon", names.iter().copied());
        assert_eq!(s[0], Some("falcon-512"));
        let s = suggest::<3>("zzzzzzzzzz", names.iter().copied());
        assert_eq!(s, [None, None, None]);
    }
}
