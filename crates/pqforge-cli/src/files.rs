//! Reading inputs and writing outputs of the key-file commands, safely.
//!
//! Outputs are collected first and written together ([`Outputs::commit`]):
//! every check (an existing file without `--force`, a target that is not a
//! regular file, two outputs or an output and an input naming the same
//! file, more than one output on standard output) runs before anything is
//! written, so a failed command leaves nothing behind. Each file is written
//! to a new temporary file in the target's directory (mode 0600 for
//! secrets), synced, then moved into place: with `--force` by `rename`,
//! which replaces a symlink itself rather than the file it points to and
//! never writes into a file another process already has open; without it
//! by `hard_link`, which fails if the name appeared meanwhile.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use zeroize::Zeroizing;

use crate::Failure;

/// Keys, ciphertexts and signatures: at most this many bytes are read (a
/// Classic McEliece private key file with its public key is under 3 MB).
pub(crate) const KEY_LIMIT: u64 = 16 << 20;
/// Messages to sign or verify (read whole, for now).
pub(crate) const MESSAGE_LIMIT: u64 = 1 << 31;

/// Reads a whole input (`-`: standard input) of at most `limit` bytes into
/// one buffer wiped on drop (growing it copies into a new buffer and wipes
/// the old one, so no partial copy of a secret is left in freed memory).
pub(crate) fn read_input(path: &str, limit: u64) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let err = |e: std::io::Error| Failure::usage(format!("{path}: {e}"));
    let too_big = || {
        Failure::usage(format!(
            "{path}: larger than {} MiB, not a key, ciphertext or signature of any algorithm here",
            limit >> 20
        ))
    };
    let mut src: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = File::open(path).map_err(err)?;
        let m = f.metadata().map_err(err)?;
        if m.is_dir() {
            return Err(Failure::usage(format!("{path}: is a directory")));
        }
        if m.len() > limit {
            return Err(too_big());
        }
        Box::new(f)
    };
    let mut buf = Zeroizing::new(vec![0u8; 4096]);
    let mut n = 0usize;
    loop {
        if n == buf.len() {
            if n as u64 > limit {
                return Err(too_big());
            }
            let mut bigger = Zeroizing::new(vec![0u8; 2 * buf.len()]);
            bigger[..n].copy_from_slice(&buf[..n]);
            buf = bigger; // the old buffer is wiped as it drops
        }
        match src.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(err(e)),
        }
    }
    if n as u64 > limit {
        return Err(too_big());
    }
    buf.truncate(n);
    Ok(buf)
}

/// One output to write.
struct Item {
    path: String,
    data: Zeroizing<Vec<u8>>,
    secret: bool,
}

/// The outputs of one command, written together by [`Outputs::commit`].
pub(crate) struct Outputs {
    items: Vec<Item>,
    force: bool,
}

/// A path made absolute (for comparing names that do not exist yet).
fn absolute(p: &str) -> PathBuf {
    let p = Path::new(p);
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Whether two paths name the same file (the same inode when both exist;
/// the same absolute name otherwise).
fn same_file(a: &str, b: &str) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    absolute(a) == absolute(b)
}

impl Outputs {
    pub(crate) fn new(force: bool) -> Self {
        Self {
            items: Vec::new(),
            force,
        }
    }

    /// Adds an output (`-`: standard output).
    pub(crate) fn add(&mut self, path: &str, data: &[u8], secret: bool) {
        self.items.push(Item {
            path: path.to_string(),
            data: Zeroizing::new(data.to_vec()),
            secret,
        });
    }

    /// Whether some output goes to standard output.
    pub(crate) fn uses_stdout(&self) -> bool {
        self.items.iter().any(|i| i.path == "-")
    }

    /// Checks every output, then writes them all (see the module
    /// documentation). `inputs` are the command's input files, which no
    /// output may replace.
    pub(crate) fn commit(self, inputs: &[&str]) -> Result<(), Failure> {
        let files: Vec<&Item> = self.items.iter().filter(|i| i.path != "-").collect();
        if self.items.len() - files.len() > 1 {
            return Err(Failure::usage("only one output can go to standard output"));
        }
        for (k, a) in files.iter().enumerate() {
            for b in &files[k + 1..] {
                if same_file(&a.path, &b.path) {
                    return Err(Failure::usage(format!("{}: named for two outputs", a.path)));
                }
            }
            for i in inputs.iter().filter(|i| **i != "-") {
                if same_file(&a.path, i) {
                    return Err(Failure::usage(format!(
                        "{}: is also an input; it would be replaced",
                        a.path
                    )));
                }
            }
            match std::fs::symlink_metadata(&a.path) {
                Ok(m) if !self.force => {
                    let _ = m;
                    return Err(Failure::usage(format!(
                        "{}: exists (use --force to replace it)",
                        a.path
                    )));
                }
                Ok(m) if !(m.is_file() || m.file_type().is_symlink()) => {
                    return Err(Failure::usage(format!(
                        "{}: not a regular file (use - for standard output)",
                        a.path
                    )));
                }
                _ => {}
            }
        }
        // Write every file to a temporary beside its target, then move them
        // into place; on any failure remove what was written.
        let mut temps: Vec<(PathBuf, &Item)> = Vec::new();
        let cleanup = |temps: &[(PathBuf, &Item)]| {
            for (t, _) in temps {
                let _ = std::fs::remove_file(t);
            }
        };
        for (n, item) in files.iter().enumerate() {
            match write_temp(item, n) {
                Ok(t) => temps.push((t, item)),
                Err(e) => {
                    cleanup(&temps);
                    return Err(e);
                }
            }
        }
        for (k, (t, item)) in temps.iter().enumerate() {
            let r = if self.force {
                std::fs::rename(t, &item.path)
            } else {
                std::fs::hard_link(t, &item.path).and_then(|()| std::fs::remove_file(t))
            };
            if let Err(e) = r {
                cleanup(&temps[k..]);
                return Err(Failure::usage(format!("{}: {e}", item.path)));
            }
        }
        if let Some(item) = self.items.iter().find(|i| i.path == "-") {
            let mut o = std::io::stdout().lock();
            o.write_all(&item.data)
                .and_then(|()| o.flush())
                .map_err(|e| Failure::usage(format!("standard output: {e}")))?;
        }
        Ok(())
    }
}

/// Writes `item` to a new temporary file in its target's directory: mode
/// 0600 for secrets (the umask's default otherwise), synced.
fn write_temp(item: &Item, n: usize) -> Result<PathBuf, Failure> {
    let target = Path::new(&item.path);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| Failure::usage(format!("{}: not a file name", item.path)))?
        .to_string_lossy();
    let tmp = dir.join(format!(".{name}.pqforge-{}-{n}.tmp", std::process::id()));
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    if item.secret {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let err = |e: std::io::Error| Failure::usage(format!("{}: {e}", item.path));
    let mut f = opts.open(&tmp).map_err(err)?;
    let r = f.write_all(&item.data).and_then(|()| f.sync_all());
    if let Err(e) = r {
        let _ = std::fs::remove_file(&tmp);
        return Err(err(e));
    }
    Ok(tmp)
}
